"""paddle.distributed.flex_checkpoint.dcp.save_state_dict: writing sharded checkpoints."""
from ...._report import module_getattr
from ...checkpoint.api import save_state_dict  # noqa: F401


def dedup_key_in_dict(global_storage_metadata):
    """The ranks' storage-metadata dicts merged, the first rank's entry winning for a key several ranks hold."""
    out = {}
    for storage_metadata in global_storage_metadata:
        for key, val in storage_metadata.items():
            out.setdefault(key, val)
    return out


__getattr__ = module_getattr("paddle.distributed.flex_checkpoint.dcp.save_state_dict")
