"""paddle.distributed.flex_checkpoint.dcp.utils: nested state dicts flattened to dotted keys and back, and the
merge of the ranks' metadata."""
from ...._report import module_getattr

__all__ = ["flatten_state_dict", "unflatten_state_dict", "merge_state_dict_metadata"]


def flatten_state_dict(state_dict):
    """{"model": {"w0": t}} -> ({"model.w0": t}, {"model.w0": ("model", "w0")})."""
    from ....tensor.tensor import Tensor
    from .sharded_weight import ShardedWeight

    flat, mapping = {}, {}

    def walk(path, value):
        if isinstance(value, dict):
            for k, v in value.items():
                assert isinstance(k, str), f"The key should be str, but is {k}"
                walk((*path, k), v)
        elif isinstance(value, (Tensor, ShardedWeight)):
            flat[".".join(path)] = value
            mapping[".".join(path)] = path
        else:
            raise ValueError(f"The value should be dict or paddle.Tensor, but is {value}")

    walk((), state_dict)
    return flat, mapping


def unflatten_state_dict(flat_state_dict, mapping):
    """The inverse of flatten_state_dict, by its mapping."""
    out = {}
    for key, value in flat_state_dict.items():
        path = mapping[key]
        assert isinstance(path, tuple), f"The key should be tuple, but is {path}"
        node = out
        for part in path[:-1]:
            node = node.setdefault(part, {})
        node[path[-1]] = value
    return out


def merge_state_dict_metadata(global_state_dict_metadata):
    """The ranks' {key: metadata or [metadata]} dicts merged into {key: [distinct metadata, in first-seen order]}."""
    assert isinstance(global_state_dict_metadata, list), "The global_state_dict should be a list."
    out = {}
    for metadata in global_state_dict_metadata:
        for key, val in metadata.items():
            items = out.setdefault(key, [])
            for item in val if isinstance(val, list) else [val]:
                if item not in items:
                    items.append(item)
    return out


__getattr__ = module_getattr("paddle.distributed.flex_checkpoint.dcp.utils")
