"""A Paddle 2.x static-graph training script: data -> fc -> fc -> cross_entropy -> Adam, run by an Executor.

The data are synthetic MNIST-shaped batches and the initial weights come from a seeded numpy
generator written into the scope, so real Paddle and paddle_on_torch start from the same point:

    python examples/static_mnist_fc.py
    python -m paddle_on_torch examples/static_mnist_fc.py

tests/test_static_examples.py checks the losses, accuracies and test-program outputs against a run
recorded under real Paddle 3.3.1.
"""
import os

# Paddle 3.x runs 2.x static scripts on its legacy program IR (PIR's Program.clone has no for_test);
# paddle_on_torch ignores the flag.
os.environ.setdefault("FLAGS_enable_pir_api", "0")

import numpy as np  # noqa: E402
import paddle  # noqa: E402

STEPS, BATCH = 20, 32


def batches(steps=STEPS, batch=BATCH, seed=0):
    rng = np.random.RandomState(seed)
    centers = rng.randn(10, 784).astype("float32")
    for _ in range(steps):
        label = rng.randint(0, 10, size=(batch, 1)).astype("int64")
        image = (0.3 * centers[label[:, 0]] + rng.randn(batch, 784)).astype("float32").reshape(batch, 1, 28, 28)
        yield image, label


def build():
    image = paddle.static.data(name="image", shape=[None, 1, 28, 28], dtype="float32")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    hidden = paddle.static.nn.fc(image, size=64, activation="relu")
    logits = paddle.static.nn.fc(hidden, size=10)
    loss = paddle.mean(paddle.nn.functional.cross_entropy(logits, label))
    acc = paddle.static.accuracy(input=paddle.nn.functional.softmax(logits), label=label)
    return logits, loss, acc


def init_weights(program, place, seed=1):
    """Seeded numpy weights for every parameter, set through the scope (sorted by name)."""
    rng = np.random.RandomState(seed)
    scope = paddle.static.global_scope()
    for p in sorted(program.global_block().all_parameters(), key=lambda p: p.name):
        value = (0.05 * rng.randn(*p.shape)).astype("float32")
        scope.find_var(p.name).get_tensor().set(value, place)


def run(steps=STEPS):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
            logits, loss, acc = build()
            test_program = main.clone(for_test=True)
            paddle.optimizer.Adam(learning_rate=0.002).minimize(loss)
        place = paddle.CPUPlace()
        exe = paddle.static.Executor(place)
        exe.run(startup)
        init_weights(main, place)
        losses, accs = [], []
        data = list(batches(steps + 1))
        for image, label in data[:steps]:
            l, a = exe.run(main, feed={"image": image, "label": label}, fetch_list=[loss, acc])
            losses.append(float(l))
            accs.append(float(a))
        image, label = data[steps]
        test_logits, test_loss = exe.run(test_program, feed={"image": image, "label": label},
                                         fetch_list=[logits, loss])
        return {"losses": np.array(losses, "float32"), "accs": np.array(accs, "float32"),
                "test_logits": test_logits, "test_loss": np.asarray(test_loss)}
    finally:
        paddle.disable_static()


if __name__ == "__main__":
    out = run()
    for i, (l, a) in enumerate(zip(out["losses"], out["accs"])):
        print(f"step {i:2d}  loss {l:.5f}  acc {a:.3f}")
    print(f"test loss {float(out['test_loss']):.5f}")
