"""A static-graph conv net with batch_norm, trained with Momentum, evaluated through clone(for_test=True).

conv2d -> batch_norm(relu) -> max_pool2d -> conv2d -> batch_norm(relu) -> fc, on synthetic 1x12x12
images.  The test program is cloned before minimize, so it has no backward or optimizer ops and
its batch_norm uses the running statistics the training steps accumulated.

    python examples/static_conv_bn.py
    python -m paddle_on_torch examples/static_conv_bn.py
"""
import os

# Paddle 3.x runs 2.x static scripts on its legacy program IR (PIR's Program.clone has no for_test);
# paddle_on_torch ignores the flag.
os.environ.setdefault("FLAGS_enable_pir_api", "0")

import numpy as np  # noqa: E402
import paddle  # noqa: E402

STEPS, BATCH = 8, 16


def batches(steps=STEPS, batch=BATCH, seed=0):
    rng = np.random.RandomState(seed)
    for _ in range(steps):
        label = rng.randint(0, 4, size=(batch, 1)).astype("int64")
        image = (rng.randn(batch, 1, 12, 12) + label.reshape(batch, 1, 1, 1) * 0.5).astype("float32")
        yield image, label


def build():
    image = paddle.static.data(name="image", shape=[None, 1, 12, 12], dtype="float32")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    x = paddle.static.nn.conv2d(image, num_filters=6, filter_size=3, padding=1)
    x = paddle.static.nn.batch_norm(x, act="relu")
    x = paddle.nn.functional.max_pool2d(x, kernel_size=2, stride=2)
    x = paddle.static.nn.conv2d(x, num_filters=8, filter_size=3, stride=2, padding=1, bias_attr=False)
    x = paddle.static.nn.batch_norm(x, act="relu", momentum=0.8)
    logits = paddle.static.nn.fc(x, size=4)
    loss = paddle.mean(paddle.nn.functional.cross_entropy(logits, label))
    return logits, loss


def init_weights(program, place, seed=1):
    """Seeded numpy values for the trainable parameters (the batch-norm statistics keep their 0 / 1)."""
    rng = np.random.RandomState(seed)
    scope = paddle.static.global_scope()
    for p in sorted(program.global_block().all_parameters(), key=lambda p: p.name):
        if p.trainable:
            value = (0.2 * rng.randn(*p.shape)).astype("float32")
            scope.find_var(p.name).get_tensor().set(value, place)


def run(steps=STEPS):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
            logits, loss = build()
            test_program = main.clone(for_test=True)
            paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)
        place = paddle.CPUPlace()
        exe = paddle.static.Executor(place)
        exe.run(startup)
        init_weights(main, place)
        data = list(batches(steps + 1))
        losses = []
        for image, label in data[:steps]:
            (l,) = exe.run(main, feed={"image": image, "label": label}, fetch_list=[loss])
            losses.append(float(l))
        image, label = data[steps]
        test_logits, test_loss = exe.run(test_program, feed={"image": image, "label": label},
                                         fetch_list=[logits, loss])
        scope = paddle.static.global_scope()
        stats = {n: np.array(scope.find_var(n).get_tensor())
                 for n in ("batch_norm_0.w_1", "batch_norm_0.w_2", "batch_norm_1.w_1", "batch_norm_1.w_2")}
        return {"losses": np.array(losses, "float32"), "test_logits": test_logits,
                "test_loss": np.asarray(test_loss), **stats}
    finally:
        paddle.disable_static()


if __name__ == "__main__":
    out = run()
    for i, l in enumerate(out["losses"]):
        print(f"step {i}  loss {l:.5f}")
    print(f"test loss {float(out['test_loss']):.5f}")
    print("batch_norm_0 running mean", np.round(out["batch_norm_0.w_1"], 4))
