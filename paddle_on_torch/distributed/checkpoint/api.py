"""Sharded checkpoints on torch.distributed.checkpoint (DCP).

Every process writes its own pieces of the distributed Tensors (a replicated piece once) and
the coordinator writes the dense values and the metadata; loading fills the given state dict in
place, each Tensor at its own placements, whatever layout the checkpoint was saved from: DCP
reads the overlapping parts of the saved pieces for every local piece.  Nested dicts (an
optimizer's `master_weights`, `LR_Scheduler`) and plain Python values are kept as they are.

The files are DCP's (`.metadata` plus `__<rank>_<n>.distcp`), not Paddle's `.distcp` and
`.metadata` pickles: a checkpoint written here is read here, not by real Paddle.  To leave the
shim, `load_merged_state_dict` gives the whole (unsharded) Tensors and `merge_sharded_state_dict`
(paddle.distributed.flex_checkpoint.dcp.load_state_dict) writes them as safetensors files, which
any safetensors reader (torch's `safetensors.torch.load_file`, Paddle, NumPy) loads.

Loading runs no code from the files: DCP reads `.metadata` with plain `pickle.load` and non-tensor
values with `torch.load(weights_only=False)`; here the metadata goes through the restricted unpickler
(framework/safe_pickle.py, admitting DCP's metadata classes by exact name) and the values through
`torch.load(weights_only=True)`; tensors DCP already reads with `weights_only=True`.
"""
import os
import pathlib

import torch
import torch.distributed as tdist
import torch.distributed.checkpoint as dcp

from ... import _report
from ...framework import safe_pickle

__all__ = ["save_state_dict", "load_state_dict", "load_merged_state_dict", "merge_sharded_state_dict"]

_pending = []  # futures of async saves, waited for before the next save or load


def _tensor_type():
    from ...tensor.tensor import Tensor

    return Tensor


def _to_torch(state, where="state_dict"):
    """The same nested dict with torch tensors (DTensors for distributed Tensors) sharing storage."""
    if not isinstance(state, dict):
        raise TypeError(f"The {where} should be a dictionary, but got {type(state).__name__}.")
    Tensor = _tensor_type()
    out = {}
    for k, v in state.items():
        if not isinstance(k, str):
            raise TypeError(f"the keys of a state_dict must be str, got {k!r}")
        if isinstance(v, Tensor):
            out[k] = v._t.detach()
        elif isinstance(v, dict):
            out[k] = _to_torch(v, f"{where}[{k!r}]")
        else:
            out[k] = v
    return out


def _group(process_group):
    if process_group is None:
        return None
    return getattr(process_group, "process_group", process_group)


def _where(path, unique_id):
    if unique_id is None:
        return path
    if not isinstance(unique_id, int) or unique_id < 0:
        raise ValueError(f"unique_id should be an int >= 0, got {unique_id!r}")
    return os.path.join(path, f"unique_id_{unique_id}")


def _wait_pending():
    while _pending:
        _pending.pop(0).result()


def _check(safetensors):
    if safetensors:
        raise _report.unsupported("paddle.distributed.save_state_dict / load_state_dict(safetensors=True)")


def save_state_dict(state_dict, path, process_group=None, coordinator_rank=0, unique_id=None, async_save=False,
                    safetensors=False, save_replicas=False):
    """Save `state_dict` (Tensors, distributed or not, nested dicts) as a sharded checkpoint in directory `path`."""
    _check(safetensors)
    if save_replicas:
        raise _report.unsupported("paddle.distributed.save_state_dict(save_replicas=True)")
    _wait_pending()
    sd = _to_torch(state_dict)
    where = _where(path, unique_id)
    os.makedirs(where, exist_ok=True)
    planner = dcp.DefaultSavePlanner()
    if async_save:
        # the pieces are copied to CPU memory first, so training may change the Tensors meanwhile
        _pending.append(dcp.async_save(sd, checkpoint_id=where, process_group=_group(process_group),
                                       planner=planner))
        return
    dcp.save(sd, checkpoint_id=where, process_group=_group(process_group), planner=planner)


def load_state_dict(state_dict, path, process_group=None, coordinator_rank=0, unique_id=None, offload=False,
                    mw_name_compatibility=True, aoa_config=None, safetensors=False, worker_groups=None,
                    comm_method="broadcast"):
    """Fill `state_dict` in place from the checkpoint in `path`, each Tensor at its own placements."""
    _check(safetensors)
    if aoa_config is not None:
        raise _report.unsupported("paddle.distributed.load_state_dict(aoa_config=...)")
    valid = ("send_recv", "broadcast", "multi_group_broadcast", "grouped_send_recv", "parallel_broadcast")
    if comm_method not in valid:
        raise ValueError(f"Invalid communication method '{comm_method}'. Please choose from {list(valid)}.")
    _wait_pending()
    where = _where(path, unique_id)
    if not os.path.isfile(os.path.join(where, ".metadata")):
        raise FileNotFoundError(f"no checkpoint in {where!r} (its .metadata file is missing)")
    sd = _to_torch(state_dict)
    # DCP writes into the given tensors; only keys that the state dict asks for are read
    missing = _missing(sd, where)
    if missing:
        raise KeyError(f"the checkpoint in {where!r} has no value for {sorted(missing)}")
    with torch.no_grad():
        dcp.load(sd, storage_reader=_reader_class()(where), process_group=_group(process_group),
                 planner=_planner_class()(allow_partial_load=False))
    _copy_back(state_dict, sd)


_WHAT = "paddle.distributed.load_state_dict"


def _metadata_allow_list():
    """Exact (module, name) pairs of what DCP's .metadata pickles hold: its dataclasses and torch's dtypes."""
    from torch.distributed.checkpoint import filesystem, metadata
    from torch.serialization import _get_layout

    layouts = {str(v): v for v in vars(torch).values() if isinstance(v, torch.layout)}

    def layout(name):
        if name not in layouts:
            raise safe_pickle.refuse(_WHAT, f"the layout {name!r:.40}")
        return _get_layout(name)

    allowed = dict(safe_pickle.DATA)
    for cls in (metadata.Metadata, metadata.MetadataIndex, metadata.StorageMeta, metadata.TensorProperties,
                metadata.TensorStorageMetadata, metadata.ChunkStorageMetadata, metadata.BytesStorageMetadata,
                metadata._MEM_FORMAT_ENCODING, filesystem._StorageInfo):
        allowed[(cls.__module__, cls.__name__)] = cls
    allowed[("torch", "Size")] = torch.Size
    allowed[("torch.serialization", "_get_layout")] = layout
    allowed[("pathlib", "PosixPath")] = pathlib.PurePosixPath  # (a name only: nothing here touches it)
    allowed[("pathlib", "WindowsPath")] = pathlib.PureWindowsPath
    for name, v in vars(torch).items():
        if isinstance(v, torch.dtype):
            allowed[("torch", name)] = v
    types = tuple({v for v in allowed.values() if isinstance(v, type)}) + (torch.dtype, torch.layout)
    return allowed, types


def _reader_class():
    """DCP's FileSystemReader reading .metadata through the restricted unpickler."""
    from torch.distributed.checkpoint.metadata import StorageMeta

    class Reader(dcp.FileSystemReader):
        def read_metadata(self, *args, **kwargs):
            rank = kwargs.get("rank")
            name = ".metadata" if rank is None else f"__{rank}.metadata"
            allowed, types = _metadata_allow_list()
            with self.fs.create_stream(self.fs.concat_path(self.path, name), "rb") as f:
                metadata = safe_pickle.load(f, allowed, _WHAT, encoding="ASCII", types=types)
            if not isinstance(metadata, allowed[("torch.distributed.checkpoint.metadata", "Metadata")]):
                raise ValueError(f"{_WHAT}: {self.path}/{name} does not hold DCP metadata")
            if getattr(metadata, "storage_meta", None) is None:
                metadata.storage_meta = StorageMeta()
            metadata.storage_meta.load_id = self.load_id
            return metadata

    return Reader


def _planner_class():
    """DCP's DefaultLoadPlanner reading non-tensor values with torch.load(weights_only=True)."""
    from torch.distributed.checkpoint._traverse import set_element

    class Planner(dcp.DefaultLoadPlanner):
        def load_bytes(self, read_item, value):
            obj = safe_pickle.torch_load(value, _WHAT, f"the value of {read_item.dest_index.fqn!r}")
            if self.flatten_state_dict:
                set_element(self.original_state_dict, self.mappings[read_item.dest_index.fqn], obj)
            else:
                self.state_dict[read_item.dest_index.fqn] = obj

    return Planner


def _missing(sd, where):
    meta = _reader_class()(where).read_metadata().state_dict_metadata
    out = []

    def walk(d, prefix):
        for k, v in d.items():
            key = f"{prefix}{k}"
            if isinstance(v, dict):
                walk(v, key + ".")
            elif key not in meta:
                out.append(key)

    walk(sd, "")
    return out


def _copy_back(state_dict, sd):
    """Plain Python values (ints, floats, lists) are returned by DCP in new objects: put them back."""
    Tensor = _tensor_type()
    for k, v in state_dict.items():
        if isinstance(v, dict):
            _copy_back(v, sd[k])
        elif not isinstance(v, Tensor):
            state_dict[k] = sd[k]


def _barrier(process_group=None):
    if tdist.is_available() and tdist.is_initialized():
        tdist.barrier(_group(process_group))


def _tensor_entries(where, prefix):
    """[(key, TensorStorageMetadata)] of the checkpoint's tensors, in its order, those under `prefix` only."""
    from torch.distributed.checkpoint.metadata import TensorStorageMetadata

    meta = _reader_class()(where).read_metadata().state_dict_metadata
    return [(k, m) for k, m in meta.items()
            if isinstance(m, TensorStorageMetadata) and (prefix is None or k.startswith(prefix))]


def _load_whole(where, entries, process_group=None):
    """The named tensors of the checkpoint, whole (every process reads what it asks for)."""
    sd = {k: torch.zeros(m.size, dtype=m.properties.dtype) for k, m in entries}
    with torch.no_grad():
        dcp.load(sd, storage_reader=_reader_class()(where), process_group=_group(process_group),
                 planner=_planner_class()(allow_partial_load=False))
    return sd


def _strip(key, prefix):
    return key[len(prefix) + 1:] if prefix and key.startswith(prefix) else key


def _checkpoint_dir(path, unique_id):
    where = _where(path, unique_id)
    if not os.path.isfile(os.path.join(where, ".metadata")):
        raise FileNotFoundError(f"no checkpoint in {where!r} (its .metadata file is missing)")
    return where


def load_merged_state_dict(path, prefix=None, unique_id=None, offload=False, aoa_config=None, safetensors=False):
    """The checkpoint's Tensors whole (unsharded), as dense Tensors: {key: Tensor}, keys under `prefix` (a nested
    dict's name, e.g. "model") with the prefix and its dot removed."""
    from ..._normalize import wrap

    _check(safetensors)
    if aoa_config is not None:
        raise _report.unsupported("paddle.distributed.load_merged_state_dict(aoa_config=...)")
    _wait_pending()
    where = _checkpoint_dir(path, unique_id)
    sd = _load_whole(where, _tensor_entries(where, prefix))
    return {_strip(k, prefix): wrap(v) for k, v in sd.items()}


def _divide(m, n):
    """Split m tensors over n processes: the first m % n take one more (Paddle's divide_positions)."""
    if n <= 0:
        raise ValueError("n should be greater than zero")
    if m < n:
        raise ValueError(f"tensor number {m} should be greater than or equal to processor number {n}")
    base, extra = divmod(m, n)
    positions = [0]
    for i in range(n):
        positions.append(positions[-1] + base + (1 if i < extra else 0))
    return positions


def merge_sharded_state_dict(load_path, save_path, prefix=None, safetensor_prefix="model", skip_postfix_list=(),
                             process_group=None, unique_id=None, offload=False, aoa_config=None, safetensors=False):
    """Write the checkpoint's Tensors whole as safetensors files, as Paddle does: the keys not ending with one of
    `skip_postfix_list` (e.g. optimizer moments), in the checkpoint's order, are shared out over the job's N
    processes (the first ones taking one more); process r writes `<safetensor_prefix>-<r+1:05d>-of-<N:05d>.safetensors`
    with its share (keys under `prefix` lose it and its dot) and process 0 the index
    `<safetensor_prefix>.safetensors.index.json` (weight_map: the checkpoint's key -> file, metadata.total_size in
    bytes).  Every kept key must be under `prefix` (Paddle's AssertionError otherwise)."""
    import json

    from safetensors.torch import save_file

    _check(safetensors)
    if aoa_config is not None:
        raise _report.unsupported("paddle.distributed.flex_checkpoint.dcp.load_state_dict.merge_sharded_state_dict"
                                  "(aoa_config=...)")
    _wait_pending()
    where = _checkpoint_dir(load_path, unique_id)
    entries = [(k, m) for k, m in _tensor_entries(where, None) if not any(k.endswith(p) for p in skip_postfix_list)]
    kept = sum(1 for k, _ in entries if prefix is None or k.startswith(prefix))
    if kept != len(entries):
        raise AssertionError(f"split state dict filed :{len(entries)} should seem as {kept}")
    world = tdist.get_world_size(_group(process_group)) if tdist.is_initialized() else 1
    rank = tdist.get_rank(_group(process_group)) if tdist.is_initialized() else 0
    positions = _divide(len(entries), world)
    files = [f"{safetensor_prefix}-{i + 1:05d}-of-{world:05d}.safetensors" for i in range(world)]
    mine = _load_whole(where, entries[positions[rank]:positions[rank + 1]], process_group)
    os.makedirs(save_path, exist_ok=True)
    _atomic(os.path.join(save_path, files[rank]),
            lambda tmp: save_file({_strip(k, prefix): v.contiguous() for k, v in mine.items()}, tmp))
    if rank == 0:
        index = {"metadata": {"total_size": 0}, "weight_map": {}}
        for i in range(world):
            for k, m in entries[positions[i]:positions[i + 1]]:
                index["weight_map"][k] = files[i]
                index["metadata"]["total_size"] += int(torch.Size(m.size).numel()) * m.properties.dtype.itemsize
        text = json.dumps(index, indent=2) + "\n"

        def write_index(tmp):
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)

        _atomic(os.path.join(save_path, f"{safetensor_prefix}.safetensors.index.json"), write_index)
    _barrier(process_group)


def _atomic(path, write):
    """Write through a temporary file in the same directory, then rename it into place."""
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
