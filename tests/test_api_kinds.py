"""Every name of Paddle's API table, and the semi-public names libraries use, has Paddle's kind here, and Paddle's
classes answer isinstance as Paddle does (recorded by tools/record_api_kinds.py into tests/golden/api_kinds.json).

No function stands where Paddle has a class, no module where it has a function, and so on.  A name paddle_on_torch
does not support may raise NotImplementedError (UnsupportedAPIError) instead: that is the contract for missing
APIs, and such names are only counted here.  A name Paddle's CPU build lacks (nvprof_*, get_cuda_device_count) must
be missing here too, unless torch can use CUDA (then it exists, as in Paddle's CUDA build).
"""
import json
import os

import pytest
import torch

from tests import api_kinds

# isinstance answers that differ from Paddle's on purpose (docs/compatibility.md)
KNOWN = {
    # static mode's values are paddle Tensors over fake tensors here (Paddle: pir.Value objects)
    ("paddle.Tensor", "static_isinstance"),
    ("paddle.base.core.eager.Tensor", "static_isinstance"),
    ("paddle.core.eager.Tensor", "static_isinstance"),
    ("paddle.framework.core.eager.Tensor", "static_isinstance"),
    ("paddle.nn.Parameter", "static_isinstance"),
    ("paddle.nn.parameter.Parameter", "static_isinstance"),
    ("paddle.nn.parameter.EagerParamBase", "static_isinstance"),
    ("paddle.base.framework.EagerParamBase", "static_isinstance"),
    ("paddle.framework.io.EagerParamBase", "static_isinstance"),
}
CUDA_BUILD_ONLY = {"nvprof_start", "nvprof_stop", "nvprof_nvtx_push", "nvprof_nvtx_pop", "nvprof_enable_record_event",
                   "get_cuda_device_count", "set_cuda_current_device_id"}


@pytest.fixture(scope="module")
def result():
    import paddle

    golden = api_kinds.load_golden()
    here = api_kinds.describe(paddle, sorted(golden["entries"]))
    return golden, here


def test_golden_covers_the_api_table():
    golden = api_kinds.load_golden()
    with open(os.path.join(api_kinds.ROOT, "paddle_on_torch", "_paddle_api.json")) as f:
        table = json.load(f)
    missing = [n for n in api_kinds.all_names(table) if n not in golden["entries"]]
    assert not missing, f"re-run tools/record_api_kinds.py: {missing[:20]}"


def test_kinds(result):
    golden, here = result
    wrong, unsupported = [], []
    for name, want in golden["entries"].items():
        got = here["entries"][name]
        if got["kind"] == "unsupported":
            unsupported.append(name)
            continue
        if want["kind"] == "missing" and name.rsplit(".", 1)[-1] in CUDA_BUILD_ONLY and torch.cuda.is_available():
            continue
        if got["kind"] != want["kind"]:
            wrong.append(f"{name}: Paddle has {want['kind']}, here {got['kind']} {got.get('error', '')}")
    assert not wrong, f"{len(wrong)} names of another kind:\n" + "\n".join(wrong)
    # the names left unsupported are counted, not failed (they raise NotImplementedError naming themselves)
    assert len(unsupported) < len(golden["entries"])


def test_isinstance_answers(result):
    golden, here = result
    built = set(here["samples"])
    wrong = []
    for name, want in golden["entries"].items():
        got = here["entries"][name]
        if want["kind"] != "class" or got["kind"] != "class":
            continue
        for key in ("isinstance", "static_isinstance"):
            if (name, key) in KNOWN:
                continue
            w = sorted(s for s in want[key] if key == "static_isinstance" or s.split(":")[0] in built)
            g = sorted(s for s in got[key] if key == "static_isinstance" or s.split(":")[0] in set(golden["samples"]))
            if w != g:
                wrong.append(f"{name} {key}: Paddle {w}, here {g}")
    assert not wrong, f"{len(wrong)} classes answer isinstance otherwise:\n" + "\n".join(wrong)


def test_instances_belong_to_paddles_classes(result):
    golden, here = result
    wrong = [f"{n}: Paddle {w['instance_of']}, here {here['entries'][n].get('instance_of')}"
             for n, w in golden["entries"].items()
             if w["kind"] == "instance" and here["entries"][n]["kind"] == "instance"
             and w["instance_of"] != here["entries"][n]["instance_of"]]
    assert not wrong, "\n".join(wrong)


def test_same_objects(result):
    """Names that are one class or module in Paddle are one object here too (where both are supported)."""
    golden, here = result
    import paddle

    wrong = []
    for group in golden["identity"]:
        objs = {}
        for n in group:
            if here["entries"][n]["kind"] in ("unsupported", "missing", "error"):
                continue
            objs[n] = api_kinds.resolve(paddle, n)
        if len({id(o) for o in objs.values()}) > 1:
            wrong.append(", ".join(f"{n}={getattr(o, '__qualname__', o)}" for n, o in objs.items()))
    assert not wrong, "\n".join(wrong)


def test_every_semipublic_name_resolves_or_says_it_is_unsupported():
    """Each name of Paddle's semi-public modules (paddle_on_torch/_paddle_semipublic.json) exists here or raises
    NotImplementedError naming itself; none is a plain AttributeError."""
    import paddle

    from paddle_on_torch._api import paddle_semipublic

    bad = []
    for ns, names in paddle_semipublic().items():
        mod = api_kinds.resolve(paddle, ns)
        for n in names:
            if ns == "paddle.base.core" and n in CUDA_BUILD_ONLY:
                continue
            try:
                getattr(mod, n)
            except NotImplementedError:
                pass
            except Exception as e:  # noqa: BLE001
                bad.append(f"{ns}.{n}: {type(e).__name__}: {e}")
    assert not bad, f"{len(bad)} names:\n" + "\n".join(bad)


# classes Paddle keeps apart (one class here where Paddle has two would pass test_same_objects; the golden's
# identity groups cover classes and modules)
DISTINCT = ["paddle.distributed.Strategy", "paddle.distributed.fleet.auto.Strategy",
            "paddle.distributed.auto_parallel.Strategy", "paddle.distributed.auto_parallel.api.Strategy",
            "paddle.distributed.auto_parallel.strategy.Strategy"]


def test_distinct_objects():
    """Among DISTINCT, names are one object here exactly where they are one object in Paddle."""
    import paddle

    golden = api_kinds.load_golden()
    group_of = {n: tuple(g) for g in golden["identity"] for n in g}
    here = {n: id(api_kinds.resolve(paddle, n)) for n in DISTINCT}
    wrong = [f"{a} / {b}: Paddle {'same' if group_of.get(a, (a,)) == group_of.get(b, (b,)) else 'different'}"
             for i, a in enumerate(DISTINCT) for b in DISTINCT[i + 1:]
             if (here[a] == here[b]) != (group_of.get(a, (a,)) == group_of.get(b, (b,)))]
    assert not wrong, "\n".join(wrong)
