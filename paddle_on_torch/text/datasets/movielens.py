"""Movielens: ml-1m.zip ratings joined with their user ([id], [gender 0 male / 1 female], [age bucket], [job]) and
movie ([id], [category ids], [title word ids]), rating as 2 r - 5.  Each rating is 'test' with probability
test_ratio, drawn from numpy's global generator after np.random.seed(rand_seed), as Paddle draws it.  (The
category and title-word ids follow a Python set's order, as in Paddle: they depend on the process's string hash
seed.)"""
import re
import zipfile

import numpy as np

from ...io import Dataset
from ._common import cached_file, check_mode

age_table = [1, 18, 25, 35, 45, 50, 56]
URL = "https://dataset.bj.bcebos.com/movielens%2Fml-1m.zip"
MD5 = "c4d9eecfca2ab87c1945afe126590906"


class MovieInfo:
    def __init__(self, index, categories, title):
        self.index, self.categories, self.title = int(index), categories, title

    def value(self, categories_dict, movie_title_dict):
        return [[self.index], [categories_dict[c] for c in self.categories],
                [movie_title_dict[w.lower()] for w in self.title.split()]]

    def __str__(self):
        return f"<MovieInfo id({self.index}), title({self.title}), categories({self.categories})>"

    __repr__ = __str__


class UserInfo:
    def __init__(self, index, gender, age, job_id):
        self.index, self.is_male = int(index), gender == "M"
        self.age, self.job_id = age_table.index(int(age)), int(job_id)

    def value(self):
        return [[self.index], [0 if self.is_male else 1], [self.age], [self.job_id]]

    def __str__(self):
        return (f"<UserInfo id({self.index}), gender({'M' if self.is_male else 'F'}), age({age_table[self.age]}), "
                f"job({self.job_id})>")

    __repr__ = __str__


def _lines(package, name):
    with package.open(name) as f:
        return [line.decode(encoding="latin").strip() for line in f]


class Movielens(Dataset):
    def __init__(self, data_file=None, mode="train", test_ratio=0.1, rand_seed=0, download=True):
        self.mode = check_mode(mode, ["train", "test"], f"mode should be 'train', 'test', but got {mode}")
        self.data_file = cached_file(data_file, download, URL, MD5, "sentiment")  # (Paddle's cache folder name)
        self.test_ratio, self.rand_seed = test_ratio, rand_seed
        np.random.seed(rand_seed)
        self._load_meta_info()
        self._load_data()

    def _load_meta_info(self):
        title_re = re.compile(r"^(.*)\((\d+)\)$")
        self.movie_info, self.user_info = {}, {}
        title_words, categories = set(), set()
        with zipfile.ZipFile(self.data_file) as package:
            for line in _lines(package, "ml-1m/movies.dat"):
                movie_id, title, cats = line.split("::")
                cats = cats.split("|")
                categories.update(cats)
                title = title_re.match(title).group(1)
                self.movie_info[int(movie_id)] = MovieInfo(movie_id, cats, title)
                title_words.update(w.lower() for w in title.split())
            for line in _lines(package, "ml-1m/users.dat"):
                uid, gender, age, job, _ = line.split("::")
                self.user_info[int(uid)] = UserInfo(uid, gender, age, job)
        self.movie_title_dict = {w: i for i, w in enumerate(title_words)}
        self.categories_dict = {c: i for i, c in enumerate(categories)}

    def _load_data(self):
        self.data = []
        is_test = self.mode == "test"
        with zipfile.ZipFile(self.data_file) as package:
            for line in _lines(package, "ml-1m/ratings.dat"):
                if (np.random.random() < self.test_ratio) != is_test:
                    continue
                uid, mov_id, rating, _ = line.split("::")
                usr, mov = self.user_info[int(uid)], self.movie_info[int(mov_id)]
                self.data.append(usr.value() + mov.value(self.categories_dict, self.movie_title_dict)
                                 + [[float(rating) * 2 - 5.0]])

    def __getitem__(self, idx):
        return tuple(np.array(d) for d in self.data[idx])

    def __len__(self):
        return len(self.data)
