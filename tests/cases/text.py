"""paddle.text: Viterbi decoding against Paddle's CPU kernel."""
import numpy as np

from tests.cases import case


def _crf(seed, batch, seq, tags, dtype="float32"):
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(batch, seq, tags)).astype(dtype), rng.normal(size=(tags, tags)).astype(dtype))


@case
def viterbi_with_bos_eos(paddle):
    pot, trans = _crf(0, 4, 6, 5)
    lengths = paddle.to_tensor(np.array([6, 3, 1, 5], "int64"))
    return list(paddle.text.viterbi_decode(paddle.to_tensor(pot), paddle.to_tensor(trans), lengths))


@case
def viterbi_without_bos_eos(paddle):
    pot, trans = _crf(1, 3, 7, 4)
    lengths = paddle.to_tensor(np.array([2, 7, 4], "int64"))
    return list(paddle.text.viterbi_decode(paddle.to_tensor(pot), paddle.to_tensor(trans), lengths, False))


@case
def viterbi_short_lengths_float64(paddle):
    # max(lengths) < seq_len: the path has max(lengths) columns
    pot, trans = _crf(2, 3, 8, 6, "float64")
    lengths = paddle.to_tensor(np.array([3, 1, 2], "int64"))
    return list(paddle.text.viterbi_decode(paddle.to_tensor(pot), paddle.to_tensor(trans), lengths))


@case
def viterbi_decoder_layer(paddle):
    pot, trans = _crf(3, 2, 5, 4)
    decoder = paddle.text.ViterbiDecoder(paddle.to_tensor(trans), include_bos_eos_tag=False)
    return list(decoder(paddle.to_tensor(pot), paddle.to_tensor(np.array([5, 4], "int64"))))


# ---------------------------------------------------------------- paddle.text.datasets on small files of each format


def _add(tar, name, data):
    import io
    import tarfile

    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def _tar(path, members, mode="w:gz"):
    import tarfile

    with tarfile.open(path, mode) as tar:
        for name, data in members:
            _add(tar, name, data)
    return path


def _items(ds, n=None):
    return [list(ds[i]) for i in range(len(ds) if n is None else n)]


def _word_ids(d):
    """A vocabulary whose keys are bytes (the archive's words) and str (the markers), as a sorted list."""
    return sorted([k.decode() if isinstance(k, bytes) else "str:" + k, v] for k, v in d.items())


@case
def text_datasets_are_exported(paddle):
    t = paddle.text
    return [sorted(t.datasets.__all__), t.Imdb is t.datasets.Imdb, t.WMT16 is t.datasets.WMT16, sorted(t.__all__)]


@case
def uci_housing_from_a_file(paddle):
    import os
    import tempfile

    rows = np.random.RandomState(0).rand(10, 14) * 10
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "housing.data")
        with open(path, "w") as f:
            f.write("\n".join(" ".join(f"{v:.4f}" for v in r) for r in rows))
        train, test = paddle.text.UCIHousing(path), paddle.text.UCIHousing(path, mode="test")
        return [len(train), len(test), _items(train, 3), _items(test)]


@case
def imdb_from_an_archive(paddle):
    import os
    import tempfile

    docs = {"train/pos/0.txt": b"A great movie, GREAT acting!\n", "train/pos/1.txt": b"great fun; a movie\n",
            "train/neg/0.txt": b"A bad movie... bad bad.\n", "test/pos/0.txt": b"great movie\n",
            "test/neg/0.txt": b"bad, boring movie\n", "train/unsup/0.txt": b"movie movie movie movie\n"}
    with tempfile.TemporaryDirectory() as d:
        path = _tar(os.path.join(d, "imdb.tar.gz"), [("aclImdb/" + k, v) for k, v in docs.items()])
        train = paddle.text.Imdb(path, cutoff=1)
        test = paddle.text.Imdb(path, mode="test", cutoff=2)
        return [_word_ids(train.word_idx), _items(train), train.labels, _word_ids(test.word_idx), _items(test)]


@case
def imikolov_ngram_and_seq(paddle):
    import os
    import tempfile

    train = b"the cat sat on the mat\nthe dog sat\n<unk> cat ran\n"
    valid = b"the cat ran\n"
    test = b"a cat sat on the dog\nthe\n"
    files = [("./simple-examples/data/ptb.train.txt", train), ("./simple-examples/data/ptb.valid.txt", valid),
             ("./simple-examples/data/ptb.test.txt", test)]
    with tempfile.TemporaryDirectory() as d:
        path = _tar(os.path.join(d, "simple-examples.tgz"), files)
        ngram = paddle.text.Imikolov(path, data_type="NGRAM", window_size=3, min_word_freq=1)
        seq = paddle.text.Imikolov(path, data_type="SEQ", window_size=5, mode="test", min_word_freq=0)
        return [_word_ids(ngram.word_idx), _items(ngram), _word_ids(seq.word_idx), _items(seq)]


@case
def movielens_from_a_zip(paddle):
    import os
    import tempfile
    import zipfile

    movies = b"1::Toy Story (1995)::Animation|Comedy\n2::Heat (1995)::Action|Crime|Thriller\n"
    users = b"1::F::1::10::48067\n2::M::56::16::70072\n3::M::25::15::55117\n"
    ratings = b"".join(f"{u}::{m}::{r}::978300760\n".encode()
                       for u, m, r in [(1, 1, 5), (1, 2, 3), (2, 1, 4), (3, 2, 1), (2, 2, 2), (3, 1, 5)])
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "ml-1m.zip")
        with zipfile.ZipFile(path, "w") as z:
            for name, data in (("movies.dat", movies), ("users.dat", users), ("ratings.dat", ratings)):
                z.writestr("ml-1m/" + name, data)
        train = paddle.text.Movielens(path, test_ratio=0.4, rand_seed=3)
        test = paddle.text.Movielens(path, mode="test", test_ratio=0.4, rand_seed=3)
        # (category and title-word ids follow a set's order, which depends on the process's hash seed)
        keep = lambda ds: [[item[k] for k in (0, 1, 2, 3, 4, 7)] for item in _items(ds)]  # noqa: E731
        return [keep(train), keep(test), sorted(train.categories_dict), sorted(train.movie_title_dict),
                str(train.user_info[2]), str(train.movie_info[2])]


@case
def wmt14_from_an_archive(paddle):
    import os
    import tempfile

    src_dict = b"<s>\n<e>\n<unk>\nle\nchat\nnoir\n"
    trg_dict = b"<s>\n<e>\n<unk>\nthe\ncat\nblack\n"
    train = b"le chat noir\tthe black cat\nle chien\tthe dog\nbad line\n"
    with tempfile.TemporaryDirectory() as d:
        path = _tar(os.path.join(d, "wmt14.tgz"), [("wmt14/src.dict", src_dict), ("wmt14/trg.dict", trg_dict),
                                                   ("wmt14/train/train", train), ("wmt14/test/test", train[:13])])
        ds = paddle.text.WMT14(path, dict_size=5)
        return [_items(ds), ds.get_dict(), ds.get_dict(reverse=True), len(paddle.text.WMT14(path, "test", 6))]


@case
def wmt16_from_an_archive(paddle):
    import os
    import tempfile

    train = b"a man runs\tein mann rennt\na dog runs fast\tein hund rennt schnell\nthe man\tder mann\n"
    cache = os.path.join(paddle.dataset.common.DATA_HOME, "wmt16")
    made = not os.path.isdir(cache)
    os.makedirs(cache, exist_ok=True)  # (downloading the data makes it; WMT16 writes its dictionaries there)
    before = set(os.listdir(cache))
    try:
        return _wmt16(paddle, train)
    finally:
        for name in set(os.listdir(cache)) - before:
            os.remove(os.path.join(cache, name))
        if made:
            os.rmdir(cache)


def _wmt16(paddle, train):
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = _tar(os.path.join(d, "wmt16.tar.gz"), [("wmt16/train", train), ("wmt16/test", train[:20] + b"\n"),
                                                      ("wmt16/val", train)])
        en = paddle.text.WMT16(path, src_dict_size=7, trg_dict_size=9)
        de = paddle.text.WMT16(path, mode="val", src_dict_size=8, trg_dict_size=6, lang="de")
        return [_items(en), en.src_dict, en.trg_dict, _items(de), de.get_dict("de"), len(en), en.data]


@case
def conll05st_from_files(paddle):
    import gzip
    import os
    import tempfile

    words = b"The\ncat\nsat\non\nmats\n\nDogs\nbark\n\n"
    props = (b"-\t(A0*\t*\nsat\t*)\t*\n-\t(V*)\t*\n-\t(AM-LOC*\t*\nmats\t*)\t(V*)\n\n"
             b"-\t(A0*)\nbark\t(V*)\n\n")
    with tempfile.TemporaryDirectory() as d:
        data = _tar(os.path.join(d, "conll05st-tests.tar.gz"), [
            ("conll05st-release/test.wsj/words/test.wsj.words.gz", gzip.compress(words)),
            ("conll05st-release/test.wsj/props/test.wsj.props.gz", gzip.compress(props.replace(b"\t", b" ")))])
        files = {}
        for name, text in (("word", "bos\neos\nThe\ncat\nsat\nDogs\nbark\n"), ("verb", "sat\nbark\nmats\n"),
                           ("target", "B-A0\nI-A0\nB-V\nI-V\nB-AM-LOC\nI-AM-LOC\nO\n"), ("emb", "")):
            files[name] = os.path.join(d, name)
            with open(files[name], "w") as f:
                f.write(text)
        ds = paddle.text.Conll05st(data, files["word"], files["verb"], files["target"], files["emb"])
        names = {v: k for k, v in ds.label_dict.items()}  # (label ids follow a set's order: compare the names)
        items = [[*item[:8], [names[i] for i in item[8].tolist()]] for item in _items(ds)]
        return [len(ds), items, sorted(ds.label_dict), ds.get_dict()[:2], ds.get_embedding() == files["emb"]]


@case
def text_dataset_without_its_file(paddle):
    # no cached file and no network: Paddle's own download error
    paddle.text.WMT14(mode="train", dict_size=10)
