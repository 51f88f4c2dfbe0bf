"""`paddle-on-torch port --onnx`: DIR/model.onnx beside model.py, written by paddle.onnx.export.

The example inputs become InputSpecs named x0, x1, ... (a dim given as a name or -1 stays variable, as in the torch
module); opset 18 unless --opset says otherwise.  With --check the file runs in ONNX Runtime on the same random
inputs as the torch module's check and must match the Paddle layer to 1e-4 (ONNX Runtime's kernels and the
exporter's graph rewrites sum in other orders than torch).
"""
import os

from . import EXIT_FAILED, CLIError

ONNX_TOL = 1e-4


def input_specs(specs):
    from ..static.input import InputSpec

    return [InputSpec([-1 if isinstance(d, str) else d for d in dims], str(dt).replace("torch.", ""), f"x{i}")
            for i, (dims, dt) in enumerate(specs)]


def write(model, specs, folder, opset):
    """Write folder/model.onnx (a CLIError when the exporter fails or its packages are missing)."""
    from ..onnx import export

    try:
        export(model, os.path.join(folder, "model"), input_spec=input_specs(specs), opset_version=opset)
    except ImportError as e:
        raise CLIError(f"--onnx: {e}", EXIT_FAILED) from None
    except (RuntimeError, ValueError) as e:
        raise CLIError(f"--onnx: {e}", EXIT_FAILED) from None


def check(model, out_dir, concrete, random_input):
    """Problems between the Paddle layer and model.onnx on random inputs of the shapes `concrete` ([] if none)."""
    import numpy as np
    import torch

    from .. import _normalize
    from ..jit.api import _to_torch_tree

    try:
        import onnxruntime as ort
    except ImportError:
        return ["onnxruntime is not installed: model.onnx was not run (pip install 'paddle_on_torch[onnx]')"]
    gen = torch.Generator().manual_seed(0)
    inputs = [random_input(d, dt, gen) for d, dt in concrete]
    with torch.no_grad():
        out = _to_torch_tree(model(*[_normalize.wrap(x) for x in inputs]))
    expected = [t for t in (out if isinstance(out, (list, tuple)) else [out]) if isinstance(t, torch.Tensor)]
    sess = ort.InferenceSession(os.path.join(out_dir, "model.onnx"), providers=["CPUExecutionProvider"])
    got = sess.run(None, {f"x{i}": x.numpy() for i, x in enumerate(inputs)})
    shapes = " x ".join(str(d) for d, _ in concrete)
    if len(got) != len(expected):
        return [f"model.onnx: {len(got)} outputs, expected {len(expected)} (inputs {shapes})"]
    problems = []
    for i, (g, e) in enumerate(zip(got, expected)):
        e = e.numpy()
        if g.shape != e.shape or g.dtype != e.dtype:
            problems.append(f"model.onnx output {i} on {shapes}: {g.dtype}{list(g.shape)} vs {e.dtype}{list(e.shape)}")
        elif not np.allclose(g, e, rtol=ONNX_TOL, atol=ONNX_TOL, equal_nan=True):
            problems.append(f"model.onnx output {i} on {shapes}: max abs difference "
                            f"{np.abs(g.astype('float64') - e.astype('float64')).max():.3g}")
    return problems
