"""Every NotImplementedError for a Paddle API we lack goes through `_report.unsupported` (so `--report` counts it).

The source tree (paddle_on_torch/, kernels/, parallel/) is read with `ast`; a `NotImplementedError(...)` built
anywhere in it must carry a message Paddle itself raises for the same input (listed below, each with the Paddle
source that raises it), and a bare `raise NotImplementedError` may only be an abstract method's body or one of
Paddle's own bare raises.  Our own gaps say `raise unsupported("paddle.x.y", " with z=...")` instead.
"""
import ast
import functools
import pathlib

import pytest

from paddle_on_torch import _report

ROOT = pathlib.Path(__file__).resolve().parent.parent
TREES = ("paddle_on_torch", "kernels", "parallel")

# Messages Paddle 3.3.1 raises as NotImplementedError for the same input, as templates (an f-string's fields are
# "{}"); a message is allowed when its template starts with one of these.  Each was checked in Paddle's source
# (the PaddlePaddle/Paddle repository through the search tool, and the oracle's installed paddle package).
PADDLES_OWN = {
    # C++ errors::Unimplemented reach Python as NotImplementedError "(Unimplemented) ..."
    "(Unimplemented) The kernel of (": "paddle/phi/api/generator/api_base.py (DISPATCH_END_GUARD_TEMPLATE: no "
                                       "kernel for the inputs' layout, e.g. a dense Tensor given to paddle.sparse)",
    "(Unimplemented) SparseCsrTensor only support axis=-1 for softmax": "paddle/phi/kernels/sparse/cpu/"
                                                                        "softmax_kernel.cc",
    "(Unimplemented) `axis` of SumCsrKernel only support None or -1 now.": "paddle/phi/kernels/sparse/cpu/"
                                                                           "sum_kernel.cc",
    "(Unimplemented) embedding input only support int32 and int64": "paddle/phi/kernels/cpu/embedding_kernel.cc",
    "(Unimplemented) Not supported {} as data type": "paddle/phi/core/utils/data_type.h (VisitDataType: 'Not "
                                                     "supported phi::DataType(%d) as data type.'; unique's dtype)",
    # Paddle's Python raises
    "only support e4m3 or e5m2 now": "python/paddle/nn/quant/format.py",
    "Currently, only float8_e4m3 and float8_e5m2 formats are supported.": "python/paddle/nn/quant/format.py",
    "Please add implementation for `state_shape` in the used cell.": "python/paddle/nn/layer/rnn.py (RNNCellBase)",
    "Please add implementation for `state_dtype` in the used cell.": "python/paddle/nn/layer/rnn.py (RNNCellBase)",
    "function 'reset' not implemented in {}.": "python/paddle/metric/metrics.py (Metric)",
    "function 'update' not implemented in {}.": "python/paddle/metric/metrics.py (Metric)",
    "function 'accumulate' not implemented in {}.": "python/paddle/metric/metrics.py (Metric)",
    "function 'name' not implemented in {}.": "python/paddle/metric/metrics.py (Metric)",
    "_error_message()": "python/paddle/audio/backends/wave_backend.py ('only PCM16 WAV supported. ...')",
    'Class "Optimizer" cannot be used directly as an optimizer': "python/paddle/optimizer/optimizer.py (_update)",
    "LBFGS optimizer does not use this way to minimize loss.": "python/paddle/optimizer/lbfgs.py (minimize)",
    "The iterable objects supported are tuple, list, dict, OrderedDict, string.": "python/paddle/framework/io.py",
    "Now only supports save state_dict of Layer or Optimizer": "python/paddle/framework/io.py (_legacy_save)",
    "When use_binary_format = True, `paddle.save`  expected Tensor": "python/paddle/framework/io.py",
    "{} is unsupported data structure": "python/paddle/vision/transforms/transforms.py (BaseTransform)",
    "Not support while w<=0 or h<=0": "python/paddle/vision/transforms/functional_tensor.py (resize)",
    "This scale size:[": "python/paddle/vision/models/shufflenetv2.py",
    "Dilation > 1 not supported in BasicBlock": "python/paddle/vision/models/resnet.py",
    "You must implement the forward function for PyLayer.": "python/paddle/autograd/py_layer.py",
    "You must implement the backward function for PyLayer.": "python/paddle/autograd/py_layer.py",
    "Don't call the PlanBase directly.": "python/paddle/distributed/auto_parallel/intermediate/tensor_parallel.py",
    "SplitPoint.BEGINNING is not supported currently": "python/paddle/distributed/auto_parallel/intermediate/"
                                                       "pipeline_parallel.py",
    "Only dualpipev is supported to use LocalSharedLayerDesc yet": "python/paddle/distributed/fleet/meta_parallel/"
                                                                   "parallel_layers/pp_layers.py",
    "'__getitem__' not implement in class {}": "python/paddle/io/dataloader/dataset.py (Dataset)",
    "'__len__' not implement in class {}": "python/paddle/io/dataloader/dataset.py (Dataset)",
    "'__iter__' not implement in class {}": "python/paddle/io/dataloader/dataset.py (IterableDataset)",
    "Forward not implemented": "python/paddle/distribution/transform.py (Transform._forward)",
    "Inverse not implemented": "python/paddle/distribution/transform.py (Transform._inverse)",
    "forward_log_det_jacobian can't be implemented for non-injective": "python/paddle/distribution/transform.py",
    "Neither _forward_log_det_jacobian nor _inverse_log_det_jacobian": "python/paddle/distribution/transform.py",
}

# Paddle's own bare `raise NotImplementedError` outside an abstract method: (our file, function) -> Paddle's source
PADDLES_OWN_BARE = {
    ("paddle_on_torch/audio/backends/init_backend.py", "set_backend"): "python/paddle/audio/backends/init_backend.py",
    ("paddle_on_torch/distribution/kl.py", "_dispatch"): "python/paddle/distribution/kl.py",
    ("paddle_on_torch/distribution/kl.py", "_kl_expfamily_expfamily"): "python/paddle/distribution/kl.py",
}

# NotImplementedError subclasses of ours, each counted for the report where it is raised
OUR_SUBCLASSES = {"UnsupportedAPIError", "UnsupportedInPropertyError", "UnsupportedOpsError", "UnsupportedModuleError"}


@functools.lru_cache(maxsize=None)
def _sources():
    """(path, syntax tree) of every source file, parsed once for all the tests here."""
    return [(path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(), path.name))
            for tree in TREES for path in sorted((ROOT / tree).rglob("*.py"))]


def _parents(tree):
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    return parents


def _function(node, parents):
    while node in parents:
        node = parents[node]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return node
    return None


def _template(node):
    """A message expression as text, an f-string's fields as "{}"."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _template(node.left) + _template(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return _template(node.func.value).replace("{}", "{}")
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "str":
        return "{}"
    return ast.unparse(node)


def _is_abstract(fn, raise_node):
    """The function is an abstract method: its body is (a docstring and) the raise, or it is @abstractmethod."""
    if any("abstractmethod" in ast.unparse(d) for d in fn.decorator_list):
        return True
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    return body == [raise_node]


def _is_property(fn):
    return any(ast.unparse(d) in ("property", "functools.cached_property", "cached_property")
               or ast.unparse(d).endswith(".setter") for d in fn.decorator_list)


def test_no_notimplementederror_bypasses_the_report():
    bad = []
    seen = {"messages": 0, "bare": 0}
    for rel, tree in _sources():
        parents = _parents(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "NotImplementedError":
                seen["messages"] += 1
                msg = _template(node.args[0]) if node.args else ""
                if not any(msg.startswith(p) for p in PADDLES_OWN):
                    bad.append(f"{rel}:{node.lineno}: NotImplementedError({msg[:70]!r}): use "
                               "_report.unsupported(api, detail), or list Paddle's own message in PADDLES_OWN")
            elif (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Name)
                  and node.exc.id == "NotImplementedError"):
                seen["bare"] += 1
                fn = _function(node, parents)
                if fn is None or not (_is_abstract(fn, node) or (rel, fn.name) in PADDLES_OWN_BARE):
                    bad.append(f"{rel}:{node.lineno}: a bare `raise NotImplementedError` outside an abstract method")
    assert not bad, "\n".join(bad)
    assert seen["messages"] > 20 and seen["bare"] > 20  # the scan saw the tree


def test_only_the_reported_subclasses_of_notimplementederror():
    found = set()
    for rel, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(ast.unparse(b).endswith("NotImplementedError")
                                                      for b in node.bases):
                found.add(node.name)
    assert found == OUR_SUBCLASSES


def test_unsupported_in_a_property_is_not_an_attributeerror():
    """An AttributeError from a property getter makes Python fall back to __getattr__ (or hasattr() False) and
    the message is lost: there `unsupported(..., in_property=True)` gives the non-AttributeError variant."""
    bad = []
    for rel, tree in _sources():
        parents = _parents(tree)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and (getattr(node.func, "id", None) == "unsupported"
                                                or getattr(node.func, "attr", None) == "unsupported")):
                fn = _function(node, parents)
                if fn is not None and _is_property(fn) and not any(
                        k.arg == "in_property" and getattr(k.value, "value", None) is True for k in node.keywords):
                    bad.append(f"{rel}:{node.lineno}")
    assert not bad, bad


def test_the_two_variants_are_counted():
    before = dict(_report._misses)
    e = _report.unsupported("paddle.test_only.api", ": detail")
    assert isinstance(e, NotImplementedError) and isinstance(e, AttributeError)
    assert str(e) == "paddle.test_only.api is not supported by paddle_on_torch yet: detail"
    p = _report.unsupported("paddle.test_only.prop", in_property=True)
    assert isinstance(p, NotImplementedError) and not isinstance(p, AttributeError)

    class Holder:
        @property
        def prop(self):
            raise p

        def __getattr__(self, name):
            return "fallback"

    with pytest.raises(NotImplementedError, match="paddle.test_only.prop"):
        Holder().prop
    assert _report._misses["paddle.test_only.api"] == before.get("paddle.test_only.api", 0) + 1
    assert _report._misses["paddle.test_only.prop"] == before.get("paddle.test_only.prop", 0) + 1
    for k in ("paddle.test_only.api", "paddle.test_only.prop"):
        _report._misses.pop(k)


def test_converted_sites_are_counted():
    """A few converted sites, end to end: the error names the Paddle API and the report counts it."""
    import paddle_on_torch as paddle
    from paddle_on_torch.static.model_format import UnsupportedOpsError

    y = paddle.to_tensor([[[1.0, 0.0], [0.0, 2.0]]] * 2).to_sparse_coo(3)

    def unlowerable():
        raise UnsupportedOpsError(["pd_op.test_only"], "test")

    cases = [
        (lambda: paddle.sparse.transpose(paddle.to_tensor([[1.0, 2.0]]).to_sparse_coo(1), [1, 0]),
         "paddle.sparse.transpose"),
        (lambda: paddle.sparse.matmul(y, y), "paddle.sparse.matmul"),
        (unlowerable, "pd_op.test_only"),
    ]
    for fn, api in cases:
        before = _report._misses[api]
        with pytest.raises(NotImplementedError, match=api.replace(".", r"\.")):
            fn()
        assert _report._misses[api] == before + 1, api
    _report._misses.pop("pd_op.test_only")
