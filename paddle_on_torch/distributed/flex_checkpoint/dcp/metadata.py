"""paddle.distributed.flex_checkpoint.dcp.metadata: the records a flex checkpoint's metadata file holds."""
from dataclasses import dataclass
from typing import Optional

__all__ = ["LocalTensorMetadata", "LocalTensorIndex", "Metadata"]


@dataclass(frozen=True)
class LocalTensorMetadata:
    """Where one local tensor sits in its global tensor."""
    global_offset: tuple
    local_shape: tuple
    dtype: str
    global_shape: Optional[tuple] = None
    is_flattened: bool = False
    flattened_range: Optional[tuple] = None


@dataclass(frozen=True)
class LocalTensorIndex:
    """The identity of one local tensor (the key of Metadata.storage_metadata)."""
    tensor_key: str
    global_offset: tuple
    is_flattened: bool = False
    flattened_range: Optional[tuple] = None
    replica_id: Optional[int] = None
    local_shape: Optional[tuple] = None


@dataclass
class Metadata:
    state_dict_metadata: Optional[dict] = None  # key -> [LocalTensorMetadata]
    storage_metadata: Optional[dict] = None  # LocalTensorIndex -> file name
    flat_mapping: Optional[dict] = None  # flattened key -> the nested key path
