"""Custom torch ops (torch.library, namespace `paddle_on_torch`) behind Paddle's fused APIs."""
