"""LeNet on MNIST-format data, trained with the high-level API (paddle.Model.fit).

The script writes a small synthetic data set in MNIST's own file format (gzipped IDX files,
train-images-idx3-ubyte.gz / train-labels-idx1-ubyte.gz) into a temporary directory and reads it
back with a plain paddle.io.Dataset, so it needs no download.  Each class is a fixed random stroke
pattern plus noise, the same patterns in the training and the evaluation set, so what the network
learns shows in its evaluation accuracy.

    python -m paddle_on_torch examples/lenet_mnist_hapi.py            # full run
    python -m paddle_on_torch examples/lenet_mnist_hapi.py --quick    # a few seconds (also: EXAMPLES_QUICK=1)

tests/test_examples.py imports build() and train_losses() and compares the loss curve with the one
real Paddle produced from the same initial weights (tools/record_examples.py).
"""
import gzip
import os
import struct
import sys
import tempfile

import numpy as np
import paddle
import paddle.nn as nn

SEED = 2024


def write_mnist_files(directory, n, seed=SEED, prefix="train"):
    """Write n synthetic 28x28 digits in MNIST's IDX format; returns the two file paths.

    Every split draws from one distribution: the class patterns are the same (from SEED), and `seed`
    picks the labels and the noise of this split's samples."""
    patterns = np.random.default_rng(SEED).random((10, 28, 28)) > 0.8  # one fixed stroke pattern per class
    rng = np.random.default_rng([seed, 1])
    labels = rng.integers(0, 10, n).astype(np.uint8)
    noise = rng.integers(0, 90, (n, 28, 28))
    images = np.clip(patterns[labels] * 200 + noise, 0, 255).astype(np.uint8)
    img_path = os.path.join(directory, f"{prefix}-images-idx3-ubyte.gz")
    lbl_path = os.path.join(directory, f"{prefix}-labels-idx1-ubyte.gz")
    with gzip.open(img_path, "wb") as f:
        f.write(struct.pack(">IIII", 2051, n, 28, 28) + images.tobytes())
    with gzip.open(lbl_path, "wb") as f:
        f.write(struct.pack(">II", 2049, n) + labels.tobytes())
    return img_path, lbl_path


class MnistFiles(paddle.io.Dataset):
    """Reads MNIST's IDX files: images scaled to [-1, 1] as float32 [1, 28, 28], labels int64 [1]."""

    def __init__(self, image_path, label_path):
        with gzip.open(image_path, "rb") as f:
            magic, n, rows, cols = struct.unpack(">IIII", f.read(16))
            assert magic == 2051, f"{image_path} is not an IDX image file"
            self.images = np.frombuffer(f.read(), dtype=np.uint8).reshape(n, 1, rows, cols)
        with gzip.open(label_path, "rb") as f:
            magic, n_labels = struct.unpack(">II", f.read(8))
            assert magic == 2049 and n_labels == n, f"{label_path} does not match {image_path}"
            self.labels = np.frombuffer(f.read(), dtype=np.uint8)

    def __getitem__(self, i):
        image = (self.images[i].astype("float32") - 127.5) / 127.5
        return image, np.array([self.labels[i]], dtype="int64")

    def __len__(self):
        return len(self.labels)


class LeNet(nn.Layer):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2D(1, 6, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2),
            nn.Conv2D(6, 16, 5, stride=1, padding=0), nn.ReLU(), nn.MaxPool2D(2, 2))
        self.fc = nn.Sequential(nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, num_classes))

    def forward(self, x):
        return self.fc(paddle.flatten(self.features(x), 1))

# what tools/record_examples.py recorded under real Paddle and tests/test_examples.py replays
TEST_SETTINGS = dict(n_train=96, n_eval=32, epochs=2)

def build():
    paddle.seed(SEED)
    return LeNet()


class LossRecorder(paddle.callbacks.Callback):
    """Keeps the loss of every training step (fit's logs hold the current step's loss)."""

    def __init__(self):
        super().__init__()
        self.losses = []

    def on_train_batch_end(self, step, logs=None):
        self.losses.append(float(logs["loss"][0]))


def train_losses(net, n_train=96, n_eval=32, epochs=2, batch_size=16, verbose=0):
    """Fit `net` with Model.fit on freshly written MNIST-format files; returns (step losses, eval result)."""
    with tempfile.TemporaryDirectory() as d:
        train = MnistFiles(*write_mnist_files(d, n_train, SEED, "train"))
        test = MnistFiles(*write_mnist_files(d, n_eval, SEED + 1, "t10k"))
        model = paddle.Model(net)
        optim = paddle.optimizer.Adam(learning_rate=0.002, parameters=model.parameters())
        model.prepare(optim, nn.CrossEntropyLoss(), paddle.metric.Accuracy(topk=(1, 2)))
        rec = LossRecorder()
        model.fit(train, test, batch_size=batch_size, epochs=epochs, shuffle=False, verbose=verbose, log_freq=2,
                  callbacks=[rec])
        result = model.evaluate(test, batch_size=batch_size, verbose=0)
    return rec.losses, result


def main(argv):
    quick = "--quick" in argv or os.environ.get("EXAMPLES_QUICK") == "1"
    net = build()
    if quick:
        losses, result = train_losses(net, n_train=48, n_eval=16, epochs=1, verbose=2)
    else:
        losses, result = train_losses(net, n_train=512, n_eval=128, epochs=3, verbose=2)
    print("losses:", " ".join(f"{v:.4f}" for v in losses))
    print("eval:", {k: (v[0] if isinstance(v, list) else float(v)) for k, v in result.items()})


if __name__ == "__main__":
    main(sys.argv[1:])
