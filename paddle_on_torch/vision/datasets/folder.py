"""paddle.vision.datasets.DatasetFolder / ImageFolder: images in a directory tree."""
import os

from ...io import Dataset
from ..image import get_image_backend
from ._common import get_default_dtype

__all__ = []

IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp")


def has_valid_extension(filename, extensions):
    assert isinstance(extensions, (list, tuple)), "`extensions` must be list or tuple."
    return filename.lower().endswith(tuple(x.lower() for x in extensions))


def make_dataset(dir, class_to_idx, extensions, is_valid_file=None):
    """(path, class index) for every valid file under dir/<class>/, in sorted order."""
    images = []
    dir = os.path.expanduser(dir)
    if extensions is not None:
        def is_valid_file(x):
            return has_valid_extension(x, extensions)
    for target in sorted(class_to_idx.keys()):
        d = os.path.join(dir, target)
        if not os.path.isdir(d):
            continue
        for root, _, fnames in sorted(os.walk(d, followlinks=True)):
            for fname in sorted(fnames):
                path = os.path.join(root, fname)
                if is_valid_file(path):
                    images.append((path, class_to_idx[target]))
    return images


def pil_loader(path):
    from PIL import Image

    with open(path, "rb") as f:
        img = Image.open(f)
        return img.convert("RGB")


def cv2_loader(path):
    try:
        import cv2
    except ImportError as e:
        raise ImportError("Failed importing cv2. This likely means that some paddle modules require additional "
                          "dependencies that have to be manually installed (usually with "
                          "`pip install opencv-python`). ") from e
    return cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)


def default_loader(path):
    return cv2_loader(path) if get_image_backend() == "cv2" else pil_loader(path)


class DatasetFolder(Dataset):
    """root/<class>/**/<file>: items are (loaded sample, class index)."""

    def __init__(self, root, loader=None, extensions=None, transform=None, is_valid_file=None):
        self.root = root
        self.transform = transform
        if extensions is None:
            extensions = IMG_EXTENSIONS  # as in Paddle, this makes the extension check win over is_valid_file
        classes, class_to_idx = self._find_classes(self.root)
        samples = make_dataset(self.root, class_to_idx, extensions, is_valid_file)
        if len(samples) == 0:
            raise RuntimeError("Found 0 directories in subfolders of: " + self.root + "\nSupported extensions are: "
                               + ",".join(extensions))
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.classes = classes
        self.class_to_idx = class_to_idx
        self.samples = samples
        self.targets = [s[1] for s in samples]
        self.dtype = get_default_dtype()

    def _find_classes(self, dir):
        classes = sorted(d.name for d in os.scandir(dir) if d.is_dir())
        return classes, {c: i for i, c in enumerate(classes)}

    def __getitem__(self, index):
        path, target = self.samples[index]
        sample = self.loader(path)
        if self.transform is not None:
            sample = self.transform(sample)
        return sample, target

    def __len__(self):
        return len(self.samples)


class ImageFolder(Dataset):
    """Every image file under root (no classes): items are [loaded sample]."""

    def __init__(self, root, loader=None, extensions=None, transform=None, is_valid_file=None):
        self.root = root
        if extensions is None:
            extensions = IMG_EXTENSIONS
        samples = []
        path = os.path.expanduser(root)
        if extensions is not None:
            def is_valid_file(x):
                return has_valid_extension(x, extensions)
        for r, _, fnames in sorted(os.walk(path, followlinks=True)):
            for fname in sorted(fnames):
                f = os.path.join(r, fname)
                if is_valid_file(f):
                    samples.append(f)
        if len(samples) == 0:
            raise RuntimeError("Found 0 files in subfolders of: " + self.root + "\nSupported extensions are: "
                               + ",".join(extensions))
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.samples = samples
        self.transform = transform

    def __getitem__(self, index):
        sample = self.loader(self.samples[index])
        if self.transform is not None:
            sample = self.transform(sample)
        return [sample]

    def __len__(self):
        return len(self.samples)
