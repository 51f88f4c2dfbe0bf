"""paddle.distributed.fleet.utils.mix_precision_utils: Paddle's "master grad" training (amp_master_grad: float32
main_grad buffers beside half-precision parameters, MixPrecisionLayer / MixPrecisionOptimizer /
MixPrecisionScaler).  Not provided: the module imports (libraries import it at the top), and each class refuses
when built, naming itself."""
from .... import _report

_WHY = ": float32 master gradients (amp_master_grad) are not implemented"


def _refusing(name):
    api = f"paddle.distributed.fleet.utils.mix_precision_utils.{name}"

    def __init__(self, *args, **kwargs):
        raise _report.unsupported(api, _WHY)

    return type(name, (), {"__init__": __init__, "__module__": __name__, "__paddle_on_torch_unsupported__": api,
                           "__doc__": f"{api}: not supported by paddle_on_torch{_WHY}."})


MixPrecisionLayer = _refusing("MixPrecisionLayer")
MixPrecisionOptimizer = _refusing("MixPrecisionOptimizer")
MixPrecisionScaler = _refusing("MixPrecisionScaler")
