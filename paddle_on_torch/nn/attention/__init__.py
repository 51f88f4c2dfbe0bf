"""paddle.nn.attention: which scaled-dot-product-attention backends may run (Paddle 3.3's twin of
torch.nn.attention)."""
from .sdpa import SDPBackend, _cur_sdpa_kernel_backends, sdpa_kernel  # noqa: F401

__all__ = ["SDPBackend", "sdpa_kernel"]
