"""save_inference_model in Paddle 3.3's own format: the pruned inference Program -> a PIR `.json` + `.pdiparams`.

The shim's Program is a torch.fx Graph of Paddle-level calls.  Its feed -> fetch function is traced with
torch.export (the parameters and the feeds as inputs; a feed dim declared -1 / None exported dynamic), and the
aten graph goes through the jit.save writer (paddle_on_torch.jit.pir_writer.program_for_inputs): parameters
first, sorted by name (the `.pdiparams` order, Paddle's combined layout), then one `pd_op.data` per feed in
feed order, then one `pd_op.fetch` per fetch var.  Real Paddle's load_inference_model / create_predictor run
these files; the shim reads them back through paddle_on_torch.static.model_format, as it reads Paddle's own.
"""
import torch
import torch.fx

from .._core import dtype as _dtypes
from . import program as _prog

__all__ = ["inference_files"]

API = "paddle.static.save_inference_model"


class _FeedFetch(torch.nn.Module):
    """The inference GraphModule as a function of (weights, feeds), in the writer's input order."""

    def __init__(self, gm, order):
        super().__init__()
        self.gm, self._order = gm, order  # order: per graph placeholder, ("w", i) or ("f", i)

    def forward(self, weights, feeds):
        return self.gm(*[weights[i] if kind == "w" else feeds[i] for kind, i in self._order])


class _ExportCond:
    """static.nn.cond's node as torch.cond, so that export keeps both branches (the writer's pd_op.if)."""

    def __init__(self, c):
        self.__name__ = self.__qualname__ = "conditional_block"
        self.c = c

    def __call__(self, pred, *caps):
        c = self.c
        return tuple(torch.cond(pred.reshape(()).bool(), lambda *a: tuple(c.true_gm(*a[:c.n_true])),
                                lambda *a: tuple(c.false_gm(*a[c.n_true:])), tuple(caps)))


class _ExportWhile:
    """static.nn.while_loop's node as torch.while_loop (the writer's pd_op.while)."""

    def __init__(self, w):
        self.__name__ = self.__qualname__ = "while_loop"
        self.w = w

    def __call__(self, *inputs):
        w, n = self.w, self.w.n_vars
        cc, bc = inputs[n:n + w.n_cond], inputs[n + w.n_cond:]  # read by the loop functions (torch lifts them)

        def cond_fn(*a):
            return w.cond_gm(*a, *cc)[0].reshape(()).bool()

        def body_fn(*a):
            return tuple(t.clone() for t in w.body_gm(*a, *bc))

        return tuple(torch.while_loop(cond_fn, body_fn, tuple(inputs[:n])))


def _graph_module(infer):
    from .nn.control_flow import _Cond, _While

    g = torch.fx.Graph()
    out = g.graph_copy(infer.graph, {})  # (copies every node but the output)
    g.output(out)
    for n in g.nodes:  # the fake values belong to the Program's fake mode: export makes its own
        n.meta.pop("val", None)
        if n.op == "call_function" and isinstance(n.target, _Cond):
            n.target = _ExportCond(n.target)
        elif n.op == "call_function" and isinstance(n.target, _While):
            n.target = _ExportWhile(n.target)
    root = torch.nn.Module()
    for k, v in infer._consts.items():
        setattr(root, k, v)
    for k, v in getattr(infer, "_submodules", {}).items():
        setattr(root, k, v)
    return torch.fx.GraphModule(root, g)


def inference_files(infer, feed_names, scope):
    """(PIR program dict, .pdiparams bytes) of the pruned inference program `infer` (its graph ends in an
    output of the fetch nodes; its placeholders are the feeds and the parameters it reads)."""
    from torch.export import Dim

    from ..jit import pir_writer
    from ..jit.save_load import _tensor_record

    gm = _graph_module(infer)
    holders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    feeds = {n.meta.get("pname"): n for n in holders if n.meta.get("kind") == "feed"}
    if sorted(feeds) != sorted(feed_names):  # save_inference_model made them one set
        raise ValueError(f"{API}: feeds {feed_names} are not the program's data vars {sorted(feeds)}")
    pnames = sorted(n.meta.get("pname") for n in holders if n.meta.get("kind") == "param")
    order = []
    for n in holders:
        kind, name = n.meta.get("kind"), n.meta.get("pname")
        order.append(("w", pnames.index(name)) if kind == "param" else ("f", feed_names.index(name)))
    weights = []
    for name in pnames:
        t = scope._get(name)
        if t is None:
            raise RuntimeError(f"(NotFound) Cannot find {name} in scope: run the startup program before "
                               f"{API}")
        weights.append(t.detach())
    examples, dynamic, specs = [], [], []
    for name in feed_names:
        meta = feeds[name].meta
        shape, dtype = [int(d) for d in meta["shape"]], meta["dtype"]
        example = [_prog._HINT if d == -1 else d for d in shape]
        if dtype.is_floating_point or dtype.is_complex:
            examples.append(torch.rand(example, generator=torch.Generator().manual_seed(0)).to(dtype))
        else:
            examples.append(torch.zeros(example, dtype=dtype))
        dynamic.append({i: Dim.AUTO for i, d in enumerate(shape) if d == -1} or None)
        specs.append({"name": name, "dtype": _dtypes.dtype_name(dtype), "stop_gradient": True, "shape": shape})
    with _prog.running(), torch.no_grad():
        ep = torch.export.export(_FeedFetch(gm, order), (weights, examples),
                                 dynamic_shapes=([None] * len(weights), dynamic), strict=False)
    from ..jit.save_load import _tidy_graph

    _tidy_graph(ep.graph_module)  # a branch's unread operands, constants inside branches (as jit.save)
    users = [n for n in ep.graph.nodes if n.op == "placeholder"][-len(feed_names):] if feed_names else []
    for spec, node in zip(specs, users):  # a dim the program's code fixes is written fixed, as Paddle's pass does
        spec["program_shape"] = [d if isinstance(d, int) else -1 for d in node.meta["val"].shape]
    objs = infer._param_objs
    user = [("param", name, not getattr(objs.get(name), "stop_gradient", True)) for name in pnames] + \
        [("data", spec) for spec in specs]
    program = pir_writer.program_for_inputs(ep, user, API)
    params = b"".join(_tensor_record(t) for t in weights)
    return program, params
