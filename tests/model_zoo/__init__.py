"""Model-zoo architectures written the Paddle way (issue 3's end-to-end test).

Each module defines:

* `build()` -> a paddle.nn.Layer (weights come from tests/data/model_zoo/<name>.pdparams, recorded
  by tools/record_model_zoo.py under real Paddle, so initialisers do not matter);
* `inputs(rng)` -> a list of numpy arrays, the forward's positional arguments;
* optionally `loss(out, inputs)` -> a scalar Tensor for one train-mode forward+backward, and
  `GRADS`, the parameter names whose gradients are recorded;
* optionally `WARMUP = True`: the recorder runs train-mode forwards first so BatchNorm running
  statistics are not the trivial 0/1.

The modules `import paddle`: under tests that is paddle_on_torch (tests/conftest.py installs it),
under the recorder it is real Paddle.
"""
MODELS = ["resnet", "mobilenetv3", "vit", "swin", "lstm_tagger", "bert", "gpt", "unet", "densenet", "bigru",
          "vgg"]
