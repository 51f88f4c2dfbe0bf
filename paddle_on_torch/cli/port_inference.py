"""`paddle-on-torch port --inference-model PREFIX --out DIR`: a real Paddle inference model as torch source.

The program (PREFIX.json PIR or PREFIX.pdmodel ProgramDesc, with PREFIX.pdiparams; a model file or
a directory works too) is loaded by paddle_on_torch.static.model_format, lowered op by op to a
torch.fx GraphModule, and traced with torch.export like a Layer port (see port.py): DIR/model.py
imports only torch, DIR/model.safetensors holds the parameters (param_0, param_1, ... in the
order of the program's sorted parameter names, as paddle.jit.load numbers them; model.py's WEIGHTS
maps each to the Paddle name).  Input shapes come from the program's feeds: a -1 in the first dim
is one shared variable size ("batch"), other -1 dims each get their own; --example-input
overrides them (one per feed, in feed order).  Integer feeds get random 0/1 values (valid ids for
any embedding).  --check compares the written module, in a fresh
process without paddle, against the program run op by op, on random inputs of two sets of sizes.
"""
import os
import sys

from . import EXIT_INPUT, EXIT_USAGE, CLIError


def _specs(model, overrides):
    import torch

    from . import port

    if overrides:
        if len(overrides) != len(model.feed_specs):
            raise CLIError(f"--example-input given {len(overrides)} times, the model has {len(model.feed_specs)} "
                           f"feeds ({', '.join(model.feed_names)})", EXIT_USAGE)
        return [port._parse_input(s) for s in overrides]
    specs = []
    for s in model.feed_specs:
        dims = [("batch" if i == 0 else f"{s.name}_{i}") if d == -1 else int(d) for i, d in enumerate(s.shape)]
        dt = getattr(torch, s.dtype, None)
        if not isinstance(dt, torch.dtype):
            raise CLIError(f"feed {s.name!r} has dtype {s.dtype}, which the port cannot feed", EXIT_INPUT)
        specs.append((dims, dt))
    return specs


def load_layer(prefix):
    """The inference model at `prefix` as a paddle Layer (paddle.jit.load's ProgramLayer)."""
    import paddle_on_torch
    from ..jit.save_load import ProgramLayer
    from ..static import model_format

    paddle_on_torch.install()
    try:
        found = model_format.find_model_files(prefix)
    except (OSError, ValueError) as e:
        raise CLIError(f"{prefix}: {e}", EXIT_INPUT) from None
    if found is None:
        raise CLIError(f"{prefix}: no Paddle inference model (.json or .pdmodel) there", EXIT_INPUT)
    try:
        return ProgramLayer.load(found)
    except model_format.UnsupportedOpsError as e:
        raise CLIError(str(e), EXIT_INPUT) from None
    except (model_format.ModelFormatError, OSError) as e:
        raise CLIError(str(e), EXIT_INPUT) from None


def run(args):
    from . import port

    if args.model is not None or args.weights is not None:
        raise CLIError("--inference-model takes no MODULE:FACTORY and no --weights (the program file has both)",
                       EXIT_USAGE)
    if not args.class_name.isidentifier():
        raise CLIError(f"--class-name {args.class_name!r} is not a Python identifier", EXIT_USAGE)
    out_dir = os.path.abspath(args.out)
    if os.path.exists(out_dir) and not args.force and not (os.path.isdir(out_dir) and not os.listdir(out_dir)):
        raise CLIError(f"{args.out} exists (use --force to replace it)", EXIT_USAGE)
    layer = load_layer(args.inference_model)
    model = layer.program
    specs = _specs(model, args.inputs)
    sizes = port._dynamic_sizes(specs)
    gen = __import__("torch").Generator().manual_seed(0)
    # integer feeds are usually ids: 0 and 1 are valid for every embedding table (and type vocabulary)
    examples = [port._random(d, dt, gen, 2) for d, dt in port._concrete(specs, sizes, 0)]
    src, state, _ = port._trace(layer, examples, args.class_name, port._dynamic_shapes(specs, sizes), specs)
    # WEIGHTS: param_i -> the Paddle parameter name (not the Layer's param_i key)
    names = sorted(n for n in model.params if n not in model.program.transient)
    src = src.replace("WEIGHTS = {", "PADDLE_NAMES = " + repr({f"param_{i}": n for i, n in enumerate(names)})
                      + "\nWEIGHTS = {", 1)
    port._write(out_dir, src, state, {"paddle_on_torch.port": os.path.abspath(args.inference_model),
                                      "format": f"{model.format} v{model.version}"})
    print(f"wrote {os.path.join(args.out, 'model.py')} and model.safetensors ({len(state)} tensors) from the "
          f"{model.format} program {model.model_file}")
    if args.check:
        problems = []
        for which in (0, 1) if sizes else (0,):
            problems += port._check(layer, out_dir, port._concrete(specs, sizes, which), int_high=2)
        if problems:
            for p in problems:
                print(f"paddle-on-torch port: mismatch: {p}", file=sys.stderr)
            return port.EXIT_FAILED
        print("check: the written module matches the program run op by op (1e-5)")
    return port.EXIT_OK
