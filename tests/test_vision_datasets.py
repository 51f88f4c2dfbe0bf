"""paddle.vision.datasets on tiny synthetic files written here in Paddle's formats (no network).

Each check is a function of (paddle, tmp_path) so the same code was also run once under real Paddle 3.3.1
(see the module's __main__) to confirm it passes there too.
"""
import gzip
import io
import os
import pickle
import struct
import sys
import tarfile
import types

import numpy as np
import pytest


def _write_mnist(tmp_path, n=100, prefix="train"):
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (n, 28, 28), dtype=np.uint8)
    labels = rng.integers(0, 10, n, dtype=np.uint8)
    ipath, lpath = str(tmp_path / f"{prefix}-images-idx3-ubyte.gz"), str(tmp_path / f"{prefix}-labels-idx1-ubyte.gz")
    with gzip.open(ipath, "wb") as f:
        f.write(struct.pack(">IIII", 2051, n, 28, 28) + images.tobytes())
    with gzip.open(lpath, "wb") as f:
        f.write(struct.pack(">II", 2049, n) + labels.tobytes())
    return ipath, lpath, images, labels


def _write_cifar(tmp_path, hundred=False):
    rng = np.random.default_rng(1)
    root = "cifar-100-python" if hundred else "cifar-10-python"
    members = {"train": 6, "test": 3} if hundred else {"data_batch_1": 4, "data_batch_2": 3, "test_batch": 2}
    path = str(tmp_path / f"{root}.tar.gz")
    content = {}
    with tarfile.open(path, "w:gz") as tar:
        for name, n in members.items():
            data = rng.integers(0, 256, (n, 3072), dtype=np.uint8)
            labels = [int(v) for v in rng.integers(0, 100 if hundred else 10, n)]
            batch = {b"data": data, (b"fine_labels" if hundred else b"labels"): labels}
            raw = pickle.dumps(batch)
            info = tarfile.TarInfo(f"{root}/{name}")
            info.size = len(raw)
            tar.addfile(info, io.BytesIO(raw))
            content[name] = (data, labels)
    return path, content


def check_mnist(paddle, tmp_path):
    ipath, lpath, images, labels = _write_mnist(tmp_path)
    ds = paddle.vision.datasets.MNIST(image_path=ipath, label_path=lpath, mode="train", download=False)
    assert len(ds) == 100
    img, lab = ds[3]
    assert img.mode == "L" and img.size == (28, 28)
    np.testing.assert_array_equal(np.array(img), images[3])
    assert lab.dtype == np.int64 and lab.shape == (1,) and lab[0] == labels[3]
    ds = paddle.vision.datasets.FashionMNIST(image_path=ipath, label_path=lpath, mode="test", backend="cv2")
    img, lab = ds[99]
    assert img.dtype == np.float32 and img.shape == (28, 28)
    np.testing.assert_array_equal(img, images[99].astype("float32"))
    ds = paddle.vision.datasets.MNIST(image_path=ipath, label_path=lpath, backend="cv2",
                                      transform=lambda a: a[None] / 255.0)
    img, _ = ds[0]
    assert img.shape == (1, 28, 28) and img.dtype == np.float32
    loader = paddle.io.DataLoader(ds, batch_size=32)
    x, y = next(iter(loader))
    assert x.shape == [32, 1, 28, 28] and y.shape == [32, 1] and str(y.dtype) == "paddle.int64"


def check_cifar(paddle, tmp_path):
    path, content = _write_cifar(tmp_path)
    train = paddle.vision.datasets.Cifar10(data_file=path, mode="train", download=False)
    assert len(train) == 7
    img, lab = train[5]  # sorted member names: data_batch_1 (4 items) then data_batch_2
    data, labels = content["data_batch_2"]
    np.testing.assert_array_equal(np.array(img), data[1].reshape(3, 32, 32).transpose(1, 2, 0))
    assert lab.dtype == np.int64 and lab.shape == () and lab == labels[1]
    test = paddle.vision.datasets.Cifar10(data_file=path, mode="TEST", backend="cv2")
    img, lab = test[1]
    assert len(test) == 2 and img.dtype == np.float32 and img.shape == (32, 32, 3)
    path, content = _write_cifar(tmp_path, hundred=True)
    c100 = paddle.vision.datasets.Cifar100(data_file=path, mode="train", backend="cv2")
    img, lab = c100[4]
    assert len(c100) == 6 and lab == content["train"][1][4]


def check_folders(paddle, tmp_path):
    from PIL import Image

    root = tmp_path / "imgs"
    for cls, n in (("cat", 2), ("dog", 1)):
        (root / cls).mkdir(parents=True)
        for i in range(n):
            Image.fromarray(np.full((4, 5, 3), 40 * i + (100 if cls == "dog" else 0), np.uint8)).save(
                root / cls / f"{i}.png")
    (root / "cat" / "notes.txt").write_text("not an image")
    ds = paddle.vision.datasets.DatasetFolder(str(root))
    assert ds.classes == ["cat", "dog"] and ds.class_to_idx == {"cat": 0, "dog": 1}
    assert ds.targets == [0, 0, 1] and len(ds) == 3
    img, target = ds[2]
    assert target == 1 and img.mode == "RGB" and img.size == (5, 4) and np.array(img)[0, 0, 0] == 100
    ds = paddle.vision.datasets.DatasetFolder(str(root), loader=lambda p: os.path.basename(p), extensions=(".PNG",))
    assert [ds[i][0] for i in range(len(ds))] == ["0.png", "1.png", "0.png"]
    flat = paddle.vision.datasets.ImageFolder(str(root), transform=lambda im: np.asarray(im).shape)
    assert len(flat) == 3 and flat[0] == [(4, 5, 3)]
    (tmp_path / "empty" / "x").mkdir(parents=True)
    with pytest.raises(RuntimeError):
        paddle.vision.datasets.DatasetFolder(str(tmp_path / "empty"))
    with pytest.raises(RuntimeError):
        paddle.vision.datasets.ImageFolder(str(tmp_path / "empty"))


def check_voc2012(paddle, tmp_path):
    from PIL import Image

    path = str(tmp_path / "voc.tar")
    names = ["2007_000032", "2007_000039"]
    with tarfile.open(path, "w") as tar:
        def add(name, raw):
            info = tarfile.TarInfo(name)
            info.size = len(raw)
            tar.addfile(info, io.BytesIO(raw))
        add("VOCdevkit/VOC2012/ImageSets/Segmentation/trainval.txt", ("\n".join(names) + "\n").encode())
        add("VOCdevkit/VOC2012/ImageSets/Segmentation/val.txt", (names[1] + "\n").encode())
        for i, n in enumerate(names):
            buf = io.BytesIO()
            Image.fromarray(np.full((6, 7, 3), 50 * i, np.uint8)).save(buf, format="JPEG")
            add(f"VOCdevkit/VOC2012/JPEGImages/{n}.jpg", buf.getvalue())
            buf = io.BytesIO()
            Image.fromarray(np.full((6, 7), i + 1, np.uint8), mode="L").save(buf, format="PNG")
            add(f"VOCdevkit/VOC2012/SegmentationClass/{n}.png", buf.getvalue())
    ds = paddle.vision.datasets.VOC2012(data_file=path, mode="train")
    assert len(ds) == 2
    img, label = ds[1]
    assert img.size == (7, 6) and np.array(label)[0, 0] == 2
    ds = paddle.vision.datasets.VOC2012(data_file=path, mode="valid", backend="cv2")
    img, label = ds[0]
    assert len(ds) == 1 and img.dtype == np.float32 and img.shape == (6, 7, 3) and label[0, 0] == 2.0


def check_flowers_with_fake_scipy(paddle, tmp_path):
    from PIL import Image

    tgz = str(tmp_path / "102flowers.tgz")
    with tarfile.open(tgz, "w:gz") as tar:
        for i in (1, 2, 3):
            buf = io.BytesIO()
            Image.fromarray(np.full((3, 3, 3), 10 * i, np.uint8)).save(buf, format="JPEG")
            info = tarfile.TarInfo(f"jpg/image_{i:05}.jpg")
            info.size = len(buf.getvalue())
            tar.addfile(info, io.BytesIO(buf.getvalue()))
    mats = {"labels.mat": {"labels": np.array([[5, 7, 9]])},
            "setid.mat": {"tstid": np.array([[3, 1]]), "trnid": np.array([[2]]), "valid": np.array([[1]])}}
    fake = types.ModuleType("scipy.io")
    fake.loadmat = lambda p: mats[os.path.basename(p)]
    saved = {k: sys.modules.get(k) for k in ("scipy", "scipy.io")}
    sys.modules["scipy"], sys.modules["scipy.io"] = types.ModuleType("scipy"), fake
    sys.modules["scipy"].io = fake
    try:
        ds = paddle.vision.datasets.Flowers(data_file=tgz, label_file=str(tmp_path / "labels.mat"),
                                            setid_file=str(tmp_path / "setid.mat"), mode="train")
        assert len(ds) == 2
        img, label = ds[0]
        assert img.size == (3, 3) and label.tolist() == [9] and label.dtype == np.int64
        ds = paddle.vision.datasets.Flowers(data_file=tgz, label_file=str(tmp_path / "labels.mat"),
                                            setid_file=str(tmp_path / "setid.mat"), mode="test", backend="cv2")
        img, label = ds[0]
        assert img.dtype == np.float32 and img.shape == (3, 3, 3) and label.tolist() == [7]
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


def check_errors(paddle, tmp_path):
    D = paddle.vision.datasets
    with pytest.raises(AssertionError):
        D.MNIST(mode="valid")
    with pytest.raises(AssertionError):
        D.MNIST(download=False)
    with pytest.raises(ValueError):
        D.Cifar10(data_file="x", backend="tensor")
    with pytest.raises(AssertionError):
        D.Cifar10(download=False)


CHECKS = [check_mnist, check_cifar, check_folders, check_voc2012, check_flowers_with_fake_scipy, check_errors]


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__)
def test_dataset(check, paddle, tmp_path):
    check(paddle, tmp_path)


def test_download_is_refused_offline(paddle, tmp_path, monkeypatch):
    from paddle_on_torch.vision.datasets import _common

    monkeypatch.setattr(_common, "DATA_HOME", str(tmp_path / "cache"))
    with pytest.raises(RuntimeError, match="does not download"):
        paddle.vision.datasets.MNIST(mode="test")
    # a file already in Paddle's cache (right md5) is used, as Paddle does
    ipath, lpath, images, labels = _write_mnist(tmp_path, prefix="t10k")
    cache = tmp_path / "cache" / "mnist"
    cache.mkdir(parents=True)
    for src in (ipath, lpath):
        os.replace(src, cache / os.path.basename(src))
    M = paddle.vision.datasets.MNIST
    monkeypatch.setattr(M, "TEST_IMAGE_MD5", _common._md5(str(cache / "t10k-images-idx3-ubyte.gz")))
    monkeypatch.setattr(M, "TEST_LABEL_MD5", _common._md5(str(cache / "t10k-labels-idx1-ubyte.gz")))
    ds = M(mode="test", backend="cv2")
    assert len(ds) == 100 and ds[7][1][0] == labels[7]


def test_image_backend(paddle, tmp_path):
    from PIL import Image

    assert paddle.vision.get_image_backend() == "pil"
    with pytest.raises(ValueError):
        paddle.vision.set_image_backend("numpy")
    p = str(tmp_path / "a.png")
    Image.fromarray(np.zeros((2, 3, 3), np.uint8)).save(p)
    assert paddle.vision.image_load(p).size == (3, 2)
    assert paddle.vision.image_load(p, backend="tensor") is None
    with pytest.raises(ValueError):
        paddle.vision.image_load(p, backend="x")
    paddle.vision.set_image_backend("cv2")
    try:
        assert paddle.vision.get_image_backend() == "cv2"
    finally:
        paddle.vision.set_image_backend("pil")


if __name__ == "__main__":  # run the checks under whatever `paddle` imports (the oracle: real Paddle)
    import pathlib
    import tempfile

    import paddle as _paddle

    for check in CHECKS:
        with tempfile.TemporaryDirectory() as d:
            check(_paddle, pathlib.Path(d))
            print("ok", check.__name__)
