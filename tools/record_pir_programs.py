"""Record the PIR programs real Paddle 3.3.1 writes for small models (run under REAL Paddle).

    /work/oracle/bin/python tools/record_pir_programs.py            # every model of STRUCTURE
    /work/oracle/bin/python tools/record_pir_programs.py mlp cnn    # just these

For each model of tests/pir_writer_models.STRUCTURE (an MLP, a CNN with batch norm and pooling, a transformer
block, a model with a data-dependent `if` and `while`), SHAPE_STRUCTURE (sizes read from the input, a model
saved in train mode) and DROPOUT_STRUCTURE (test-time dropout in both modes, saved in train and eval mode), built with the weights both sides give it, real
`paddle.jit.save` writes tests/data/pir_writer/<name>/model.json + model.pdiparams, and io.npz holds the inputs
(input<i>; input<i>b for the other branch) with real Paddle's predictor outputs (output<i>, output<i>b).
tests/test_pir_writer.py compares the program paddle_on_torch's writer produces for the same model with these,
op by op (types, attributes, shapes, dtypes), and runs both through the project's PIR reader.
"""
import os
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("GLOG_minloglevel", "3")
warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import paddle  # noqa: E402

assert "paddle_on_torch" not in paddle.__file__, "record_pir_programs must run under real Paddle"

from tests import pir_writer_models as M  # noqa: E402

OUT = os.path.join(ROOT, "tests", "data", "pir_writer")


def predict(prefix, arrays):
    from paddle import inference

    config = inference.Config(prefix + ".json", prefix + ".pdiparams")
    config.disable_gpu()
    config.disable_onednn()
    config.set_cpu_math_library_num_threads(1)
    predictor = inference.create_predictor(config)
    for name, a in zip(predictor.get_input_names(), arrays):
        h = predictor.get_input_handle(name)
        h.reshape(a.shape)
        h.copy_from_cpu(a)
    predictor.run()
    return [predictor.get_output_handle(n).copy_to_cpu() for n in predictor.get_output_names()]


def record(name):
    model = M.build(name)
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    prefix = os.path.join(d, "model")
    paddle.jit.save(M.mode_for_save(name, model), prefix, input_spec=M.ROUNDTRIP[name][1])
    model.eval()  # Paddle's program is the inference one, whatever the mode it was saved in
    if os.path.exists(prefix + ".pdiparams.info"):  # a pickle of parameter attributes: not needed
        os.remove(prefix + ".pdiparams.info")
    arrays = M.inputs(name)
    outs = predict(prefix, arrays)
    with paddle.no_grad():
        ref = model(*[paddle.to_tensor(a) for a in arrays])
    ref = ref if isinstance(ref, (list, tuple)) else [ref]
    for o, r in zip(outs, ref):
        np.testing.assert_allclose(o, r.numpy(), rtol=1e-5, atol=1e-6, err_msg=name)
    store = {**{f"input{i}": a for i, a in enumerate(arrays)}, **{f"output{i}": o for i, o in enumerate(outs)}}
    if name in M.OTHER_INPUTS:
        other = M.OTHER_INPUTS[name]()
        store.update({f"input{i}b": a for i, a in enumerate(other)})
        store.update({f"output{i}b": o for i, o in enumerate(predict(prefix, other))})
    np.savez(os.path.join(d, "io.npz"), **store)
    print(f"{name}: {len(outs)} outputs, {os.path.getsize(prefix + '.json')} bytes of program")


if __name__ == "__main__":
    for n in sys.argv[1:] or list(dict.fromkeys(list(M.STRUCTURE) + M.SHAPE_STRUCTURE + M.DROPOUT_STRUCTURE)):
        record(n)
