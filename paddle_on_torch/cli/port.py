"""`paddle-on-torch port MODULE:FACTORY`: a Paddle Layer as standalone torch module source.

The model is built by FACTORY (imported from MODULE, with `import paddle` resolving to
paddle_on_torch), its weights loaded from --weights with paddle.load + set_state_dict, and its
forward traced in eval mode with torch.export over a torch function that takes the weights as
inputs (as paddle.jit.save does).  The graph's aten-level code becomes DIR/model.py: a torch
nn.Module whose parameters and buffers are registered under safe attribute names ("conv1.weight"
becomes conv1_weight), with a `load(path)` helper; DIR/model.safetensors holds the weights.
model.py imports only torch (and safetensors inside load()).  The trace is specialised to the
example input shapes and dtypes, and to the device it ran on (CPU), except for the dimensions
written as a name or -1 in --example-input: those stay variable (torch.export dynamic shapes; one name
is one size across inputs, each -1 a size of its own).

--check runs the Paddle layer under paddle_on_torch and the written module in a fresh Python
process that never imports paddle_on_torch, on random inputs of the example shapes (floats
from a normal distribution, integers in [0, 10)), and again with other sizes for the variable
dimensions, and compares every output to 1e-4 relative, 1e-5 absolute (exit 1 on a mismatch).  DIR is written atomically: a temporary directory renamed into place.
"""
import argparse
import json
import keyword
import os
import re
import shutil
import subprocess
import sys
import tempfile

from . import EXIT_FAILED, EXIT_INPUT, EXIT_OK, EXIT_USAGE, CLIError, build_from_factory

_KNOWN_GLOBALS = {"torch", "device", "inf", "nan", "NoneType", "fx_pytree", "pytree"}
_HEADER = '''"""{name} ported from Paddle by `paddle-on-torch port` (a torch.export trace; imports only torch).

Traced for inputs {inputs} (a name is a variable size).  Use:  model = load("model.safetensors"); out = model(*inputs)
"""
import os
from math import inf, nan

import torch
import torch.fx._pytree as fx_pytree
import torch.utils._pytree as pytree
from torch import device

NoneType = type(None)

WEIGHTS = {weights}
INPUTS = {inputs}

'''
_FOOTER = '''

def load(path=None, map_location="cpu"):
    """The module with its weights from `path` (default: model.safetensors beside this file), in eval mode."""
    from safetensors.torch import load_file

    if path is None:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "model.safetensors")
    model = {cls}()
    model.load_state_dict(load_file(path, device=str(map_location)))
    return model.eval()
'''


def add_parser(sub):
    p = sub.add_parser("port", help="turn a Paddle Layer into standalone torch module source (model.py + "
                                    "model.safetensors)",
                       description=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", metavar="MODULE:FACTORY", nargs="?", help="a function (called with no arguments) returning the "
                                                          "Paddle Layer, imported from the current directory")
    p.add_argument("--weights", metavar="W.pdparams", help="a Paddle state dict loaded with set_state_dict")
    p.add_argument("--example-input", metavar="SHAPE[:DTYPE]", action="append", dest="inputs",
                   help="one per forward argument: dims joined by ',' or 'x' (e.g. 4,3,32,32 or 3x7:int64); "
                        "a dim written as a name (batch) or -1 stays variable; dtype float32 by default")
    p.add_argument("--inference-model", metavar="PREFIX", help="port a real Paddle inference model (PREFIX.json or "
                   "PREFIX.pdmodel + PREFIX.pdiparams) instead of a Layer; see port_inference.py")
    p.add_argument("--out", metavar="DIR", required=True, help="the output directory (model.py, model.safetensors)")
    p.add_argument("--class-name", default="PortedModel", help="the generated nn.Module's class name")
    p.add_argument("--check", action="store_true", help="compare the Paddle layer and the written module on a "
                                                        "random input (rtol 1e-4), the latter in a fresh process")
    p.add_argument("--force", action="store_true", help="replace DIR if it exists")
    p.add_argument("--onnx", action="store_true", help="also write DIR/model.onnx with paddle.onnx.export (needs the "
                                                       "onnx extra); --check runs it in ONNX Runtime (1e-4)")
    p.add_argument("--opset", type=int, default=18, help="the ONNX opset for --onnx (default 18)")
    p.set_defaults(func=run)


def _parse_input(spec):
    """(dims, dtype): each dim an int, or a str naming a variable size (each -1 gets a name of its own)."""
    import torch

    shape, _, dtype = spec.partition(":")
    dims = []
    for d in re.split(r"[,x]", shape.strip()) if shape.strip() else []:
        d = d.strip()
        if d == "-1":
            dims.append(None)  # named in _dynamic_sizes
        elif d.isidentifier():
            dims.append(d)
        elif d.isdigit():
            dims.append(int(d))
        else:
            raise CLIError(f"--example-input {spec!r}: a dim must be an integer, -1 or a name", EXIT_USAGE)
    dt = getattr(torch, dtype or "float32", None)
    if not isinstance(dt, torch.dtype):
        raise CLIError(f"--example-input {spec!r}: unknown dtype {dtype!r}", EXIT_USAGE)
    return dims, dt


def _dynamic_sizes(specs):
    """Name every -1 and give each variable size two example values that no fixed dim has (export
    would otherwise be free to assume a size equals a fixed one, and it specialises 0 and 1)."""
    fixed = {d for dims, _ in specs for d in dims if isinstance(d, int)}
    names, anon = [], 0
    for dims, _ in specs:
        for i, d in enumerate(dims):
            if d is None:
                anon += 1
                dims[i] = d = f"dim{anon}"
            if isinstance(d, str) and d not in names:
                names.append(d)
    free = (n for n in range(5, 10**6) if n not in fixed)
    return {name: (next(free), next(free)) for name in names}


def _concrete(specs, sizes, which):
    return [([sizes[d][which] if isinstance(d, str) else d for d in dims], dt) for dims, dt in specs]


def _dynamic_shapes(specs, sizes):
    """torch.export's dynamic_shapes for the user inputs (None when every size is fixed).  Dim.DYNAMIC
    lets export infer each size's range and the equalities the model needs (it raises if the model
    forces a variable size to one value); one name gets one example size, so such equalities hold."""
    import torch

    if not sizes:
        return None
    return [{i: torch.export.Dim.DYNAMIC for i, d in enumerate(dims) if isinstance(d, str)} or None
            for dims, _ in specs]


def _random(dims, dt, gen, int_high=10):
    import torch

    if dt.is_floating_point or dt.is_complex:
        return torch.randn(dims, generator=gen).to(dt)
    if dt == torch.bool:
        return torch.randint(0, 2, dims, generator=gen).bool()
    return torch.randint(0, int_high, dims, generator=gen).to(dt)


def _build(spec, weights):
    import paddle_on_torch

    model = build_from_factory(spec)
    if not isinstance(model, paddle_on_torch.nn.Layer):
        raise CLIError(f"{spec}: the factory returned a {type(model).__name__}, not a paddle.nn.Layer", EXIT_USAGE)
    if weights is not None:
        if not os.path.isfile(weights):
            raise CLIError(f"{weights}: no such file", EXIT_INPUT)
        try:
            state = paddle_on_torch.load(weights)
        except Exception as e:  # noqa: BLE001
            raise CLIError(f"{weights}: cannot read ({type(e).__name__}: {e})", EXIT_INPUT) from None
        if not isinstance(state, dict):
            raise CLIError(f"{weights}: not a state dict (a {type(state).__name__})", EXIT_INPUT)
        missing, unexpected = model.set_state_dict(state) or ([], [])
        own = set(model.state_dict())
        if not own & set(state):
            raise CLIError(f"{weights}: none of its keys match the model's state dict", EXIT_INPUT)
        if missing:
            print(f"paddle-on-torch port: warning: not in {weights}: {', '.join(missing)}", file=sys.stderr)
    model.eval()
    return model


def _safe_names(keys):
    import torch

    names, used = [], set()
    for k in keys:
        n = re.sub(r"\W", "_", k) or "w"
        if n[0].isdigit():
            n = "w_" + n
        if keyword.iskeyword(n) or hasattr(torch.nn.Module, n) or n.startswith("_"):
            n = "w_" + n
        base, i = n, 1
        while n in used:
            n, i = f"{base}_{i}", i + 1
        used.add(n)
        names.append(n)
    return names


def _structure_expr(obj, counter):
    """Python source rebuilding the traced output structure from the flat tuple `_o`."""
    import torch

    if isinstance(obj, torch.Tensor):
        counter[0] += 1
        return f"_o[{counter[0] - 1}]"
    if isinstance(obj, (list, tuple)):
        items = [_structure_expr(v, counter) for v in obj]
        if isinstance(obj, list):
            return "[" + ", ".join(items) + "]"
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(obj, dict):
        return "{" + ", ".join(f"{k!r}: {_structure_expr(v, counter)}" for k, v in obj.items()) + "}"
    return repr(obj)


def _trace(model, inputs, cls, dynamic_shapes=None, input_specs=None):
    """(model.py source, {safe name: tensor}, the eager outputs on `inputs`)."""
    import torch

    from .. import _normalize
    from ..jit.api import _to_torch_tree

    entries, seen = [], set()
    for key, t in model.state_dict().items():
        if id(t._t) not in seen:
            seen.add(id(t._t))
            entries.append((key, t))
    tensors = [t for _, t in entries]

    class _Fn(torch.nn.Module):
        def forward(self, weights, args):
            saved = [t._t for t in tensors]
            try:
                for t, w in zip(tensors, weights):
                    t._t = w
                out = model(*[_normalize.wrap(a) for a in args])
            finally:
                for t, s in zip(tensors, saved):
                    t._t = s
            return _to_torch_tree(out)

    weights = [t._t.detach() for t in tensors]
    fn = _Fn()
    try:
        with torch.no_grad():
            ep = torch.export.export(fn, (weights, list(inputs)), strict=False,
                                    dynamic_shapes=dynamic_shapes and ([None] * len(weights), dynamic_shapes))
            out = fn(weights, list(inputs))
    except Exception as e:  # noqa: BLE001 - keep torch's message: it names the construct
        raise CLIError(f"could not trace the model with torch.export: {type(e).__name__}: {e}", EXIT_FAILED) from None
    gm = ep.graph_module
    pc = gm.graph.python_code(root_module="self")
    extra = set(pc.globals) - _KNOWN_GLOBALS
    if extra:
        raise CLIError(f"the traced graph needs names beyond torch ({', '.join(sorted(extra))}); not portable",
                       EXIT_FAILED)
    if any(n.op in ("get_attr", "call_module") for n in gm.graph.nodes):
        raise CLIError("the traced graph reads submodules or attributes; not portable", EXIT_FAILED)

    names = _safe_names([k for k, _ in entries])
    state = {n: w.contiguous() for n, w in zip(names, weights)}
    is_param = [isinstance(t._t, torch.nn.Parameter) for t in tensors]
    trainable = [not t.stop_gradient for t in tensors]
    # graph placeholders: weights then user inputs, plus any constant tensors export lifted
    specs = ep.graph_signature.input_specs
    call_args, n_w, n_in = [], 0, 0
    for s in specs:
        if s.kind.name != "USER_INPUT":
            value = ep.constants.get(s.target) if s.kind.name in ("CONSTANT_TENSOR", "BUFFER") else None
            if value is None:
                value = ep.state_dict.get(s.target)
            if not isinstance(value, torch.Tensor):
                raise CLIError(f"the traced graph has an input of kind {s.kind.name} ({s.target}); not portable",
                               EXIT_FAILED)
            cname = _safe_names(["const_" + str(s.target)] + list(state))[0]
            state[cname] = value.detach().contiguous()
            is_param.append(False)
            trainable.append(False)
            call_args.append(f"self.{cname}")
        elif n_w < len(weights):
            call_args.append(f"self.{names[n_w]}")
            n_w += 1
        else:
            call_args.append(f"x{n_in}")
            n_in += 1
    if n_w != len(weights) or n_in != len(inputs):
        raise CLIError("the traced graph's inputs do not match the weights and example inputs", EXIT_FAILED)

    keys = list(state)
    init = []
    for k, p, tr in zip(keys, is_param, trainable):
        v = state[k]
        empty = f"torch.empty({list(v.shape)}, dtype={v.dtype})"
        if p:
            init.append(f"        self.{k} = torch.nn.Parameter({empty}, requires_grad={tr and v.is_floating_point()})")
        else:
            init.append(f"        self.register_buffer({k!r}, {empty})")
    in_params = ", ".join(f"x{i}" for i in range(len(inputs)))
    body = pc.src.strip("\n").replace("def forward(self, ", "def _graph(self, ", 1)
    body = "\n".join("    " + line.rstrip() if line.strip() else "" for line in body.splitlines()).rstrip()
    ret = _structure_expr(out, [0])
    if isinstance(out, torch.Tensor):
        ret = "_o[0]"
    src = _HEADER.format(name=cls, weights=json.dumps({n: k for n, (k, _) in zip(names, entries)}, indent=1),
                         inputs=repr([[list(d), str(dt).replace("torch.", "")] for d, dt in input_specs]))
    src += f"\nclass {cls}(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    src += "\n".join(init) + ("\n" if init else "        pass\n")
    src += f"\n    def forward(self, {in_params}):\n"
    src += f"        _o = self._graph({', '.join(call_args)})\n"
    src += "        if not isinstance(_o, (tuple, list)):\n            _o = (_o,)\n"
    src += f"        return {ret}\n\n"
    src += body + "\n"
    src += _FOOTER.format(cls=cls)
    return src, state, out


_RUNNER = r"""
import importlib.util, sys, torch
spec = importlib.util.spec_from_file_location("ported_model", sys.argv[1])
mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
model = mod.load()
inputs = torch.load(sys.argv[2], weights_only=True)
with torch.no_grad():
    out = model(*inputs)
assert "paddle_on_torch" not in sys.modules and "paddle" not in sys.modules, "the port imported paddle"
flat = []
def walk(o):
    if isinstance(o, torch.Tensor): flat.append(o)
    elif isinstance(o, (list, tuple)): [walk(v) for v in o]
    elif isinstance(o, dict): [walk(v) for v in o.values()]
walk(out)
torch.save(flat, sys.argv[3])
"""


def _flat(o):
    import torch

    if isinstance(o, torch.Tensor):
        return [o]
    if isinstance(o, (list, tuple)):
        return [t for v in o for t in _flat(v)]
    if isinstance(o, dict):
        return [t for v in o.values() for t in _flat(v)]
    return []


def _check(model, out_dir, specs, int_high=10):
    """Max abs difference problems between the Paddle layer and the written module ([] when they agree)."""
    import torch

    from .. import _normalize
    from ..jit.api import _to_torch_tree

    gen = torch.Generator().manual_seed(0)
    inputs = [_random(d, dt, gen, int_high) for d, dt in specs]
    shapes = " x ".join(str(d) for d, _ in specs)
    with torch.no_grad():
        expected = _flat(_to_torch_tree(model(*[_normalize.wrap(x) for x in inputs])))
    with tempfile.TemporaryDirectory() as tmp:
        inp, outp = os.path.join(tmp, "in.pt"), os.path.join(tmp, "out.pt")
        torch.save(inputs, inp)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        p = subprocess.run([sys.executable, "-c", _RUNNER, os.path.join(out_dir, "model.py"), inp, outp],
                           capture_output=True, text=True, env=env, cwd=tmp)
        if p.returncode != 0:
            return [f"the written module failed in a fresh process on {shapes}:\n{p.stderr.strip()}"]
        got = torch.load(outp, weights_only=True)
    if len(got) != len(expected):
        return [f"{len(got)} outputs, expected {len(expected)} (inputs {shapes})"]
    problems = []
    for i, (g, e) in enumerate(zip(got, expected)):
        if g.shape != e.shape or g.dtype != e.dtype:
            problems.append(f"output {i} on {shapes}: {g.dtype}{list(g.shape)} vs {e.dtype}{list(e.shape)}")
        # rtol 1e-4: the port runs torch's own kernels, the layer the shim's (small convolutions on a GEMM path):
        # float32 sums in another order, which through a deep network differ by ~1e-5 relative
        elif not torch.allclose(g, e, rtol=1e-4, atol=1e-5, equal_nan=True):
            problems.append(f"output {i} on {shapes}: max abs difference "
                            f"{(g.double() - e.double()).abs().max().item():.3g}")
    return problems


def run(args):
    if args.inference_model is not None:
        if args.onnx:
            raise CLIError("--onnx exports a Layer (MODULE:FACTORY), not --inference-model", EXIT_USAGE)
        from . import port_inference

        return port_inference.run(args)
    if args.model is None or not args.inputs:
        raise CLIError("give MODULE:FACTORY with --example-input, or --inference-model PREFIX", EXIT_USAGE)
    if not args.class_name.isidentifier() or keyword.iskeyword(args.class_name):
        raise CLIError(f"--class-name {args.class_name!r} is not a Python identifier", EXIT_USAGE)
    specs = [_parse_input(s) for s in args.inputs]
    out_dir = os.path.abspath(args.out)
    if os.path.exists(out_dir) and not args.force and not (os.path.isdir(out_dir) and not os.listdir(out_dir)):
        raise CLIError(f"{args.out} exists (use --force to replace it)", EXIT_USAGE)
    sizes = _dynamic_sizes(specs)
    model = _build(args.model, args.weights)
    gen = __import__("torch").Generator().manual_seed(0)
    examples = [_random(d, dt, gen) for d, dt in _concrete(specs, sizes, 0)]
    src, state, _ = _trace(model, examples, args.class_name, _dynamic_shapes(specs, sizes), specs)
    extra = None
    if args.onnx:
        from . import port_onnx

        extra = lambda folder: port_onnx.write(model, specs, folder, args.opset)  # noqa: E731
    _write(out_dir, src, state, {"paddle_on_torch.port": args.model}, extra)
    print(f"wrote {os.path.join(args.out, 'model.py')} and model.safetensors ({len(state)} tensors)"
          + (" and model.onnx" if args.onnx else ""))
    if args.check:
        problems = []
        for which in (0, 1) if sizes else (0,):  # with variable sizes: the traced ones and others
            problems += _check(model, out_dir, _concrete(specs, sizes, which))
            if args.onnx:
                problems += port_onnx.check(model, out_dir, _concrete(specs, sizes, which), _random)
        if problems:
            for p in problems:
                print(f"paddle-on-torch port: mismatch: {p}", file=sys.stderr)
            return EXIT_FAILED
        print("check: the written module matches the Paddle layer (rtol 1e-4)"
              + (f"; model.onnx in ONNX Runtime too ({port_onnx.ONNX_TOL:g})" if args.onnx else ""))
    return EXIT_OK


def _write(out_dir, src, state, metadata, extra=None):
    """DIR/model.py + DIR/model.safetensors (+ what `extra(folder)` writes), atomically (a temporary directory
    renamed into place)."""
    from safetensors.torch import save_file

    parent = os.path.dirname(out_dir)
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".port-", dir=parent)
    try:
        with open(os.path.join(tmp, "model.py"), "w") as f:
            f.write(src)
        save_file(state, os.path.join(tmp, "model.safetensors"), metadata=metadata)
        if extra is not None:
            extra(tmp)
        if os.path.exists(out_dir):
            old = out_dir + ".old-" + os.path.basename(tmp)
            os.rename(out_dir, old)
            os.rename(tmp, out_dir)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
