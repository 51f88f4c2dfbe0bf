"""paddle.framework.recall_error: the error strings Paddle's trainers raise so that a launcher can restart a run,
and check_naninf."""
AADIFF_ERROR = "PaddleRecall error(101): AAdiff"
LOSS_NAN_ERROR = "PaddleRecall error(102): LossNan"
SHARDING_PAD_NON_ZERO_ERROR = "PaddleRecall error(103): ShardingPadNonZero"
LOSS_INF_ERROR = "PaddleRecall error(104): LossInf"


def check_naninf(tensor):
    """None when every value is finite, else LOSS_NAN_ERROR (some NaN) or LOSS_INF_ERROR."""
    import torch

    from .._normalize import to_torch

    t = to_torch(tensor)
    if bool(torch.isfinite(t).all()):
        return None
    return LOSS_NAN_ERROR if bool(torch.isnan(t).any()) else LOSS_INF_ERROR
