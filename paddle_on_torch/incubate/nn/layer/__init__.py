"""paddle.incubate.nn.layer: the fused layers (parameters and state_dict keys as Paddle 3.3.1's)."""
from .fused_dropout_add import FusedDropoutAdd  # noqa: F401
from .fused_dropout_nd import FusedDropout  # noqa: F401
from .fused_linear import FusedLinear  # noqa: F401
from .fused_transformer import (FusedBiasDropoutResidualLayerNorm, FusedFeedForward,  # noqa: F401
                                FusedMultiHeadAttention, FusedTransformerEncoderLayer)
