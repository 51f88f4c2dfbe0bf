"""The PIR writer's op table, one module per family of aten ops (as `static/model_format/ops.py` groups the
ops it reads back).  Each module registers its entries in `pir_writer._TABLE` with `@pir(...)` /
`_register(...)`; importing this package registers them all (`pir_writer._table()` does, on first use).

An entry is `fn(w, node, args) -> value id(s)`: `w` the writer, `node` the fx node (its `meta["val"]` gives
torch's result types), `args` the node's arguments with fx nodes replaced by value ids (Python numbers, lists
and `_Sym` run-time sizes stay as they are)."""
from . import elementwise, matmul, norm, conv, shape, index, resample, rnn, pad, reduce, creation, scatter  # noqa: F401,E501
