"""paddle.io.dataloader.dataloader_iter: the DataLoader's iterator classes under Paddle's names (libraries test
`isinstance(x, _DataLoaderIterBase)` to accept an iterator where a DataLoader goes).  They live in io/reader.py."""
from ..reader import _IterBase as _DataLoaderIterBase  # noqa: F401
from ..reader import _MultiProcessIter as _DataLoaderIterMultiProcess  # noqa: F401
from ..reader import _SingleProcessIter as _DataLoaderIterSingleProcess  # noqa: F401
