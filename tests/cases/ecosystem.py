"""Private and semi-public names Paddle's libraries (PaddleNLP, PaddleFormers, PaddleSpeech, PaddleClas, PaddleSeg,
PaddleX) reference, found by `paddle-on-torch check --package` (docs/ecosystem.md)."""
from tests.cases import case


@case
def signal_frame_last_axis(paddle):
    x = paddle.arange(8, dtype="float32")
    y = paddle.arange(32).reshape([2, 2, 8])
    return [paddle.signal.frame(x, frame_length=4, hop_length=2), paddle.signal.frame(y, 4, 3, axis=-1)]


@case
def signal_frame_first_axis(paddle):
    x = paddle.arange(32).reshape([8, 2, 2])
    return paddle.signal.frame(x, frame_length=4, hop_length=2, axis=0)


@case
def signal_frame_bad_axis(paddle):
    return paddle.signal.frame(paddle.arange(8), 4, 2, axis=1)


@case
def signal_frame_too_long(paddle):
    return paddle.signal.frame(paddle.arange(8), 9, 2)


@case
def signal_frame_bad_hop(paddle):
    return paddle.signal.frame(paddle.arange(8), 4, 0)


@case
def clip_squared_l2_norm(paddle):
    from paddle.nn.clip import _squared_l2_norm

    return [_squared_l2_norm(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])),
            _squared_l2_norm(paddle.to_tensor([1.0, 2.0], dtype="float64"))]


@case
def nn_init_constant_ones_zeros_eye(paddle):
    lin = paddle.nn.Linear(2, 3)
    w = paddle.zeros([2, 3])
    r = [paddle.nn.init.constant_(lin.weight, 0.5), lin.weight, paddle.nn.init.ones_(lin.bias), lin.bias,
         paddle.nn.init.zeros_(lin.bias), lin.bias, paddle.nn.init.eye_(w), w]
    return r + [lin.weight.stop_gradient]


@case
def nn_init_eye_needs_2d(paddle):
    return paddle.nn.init.eye_(paddle.zeros([2, 2, 2]))


@case(random=True)
def nn_init_random_fills(paddle):
    conv = paddle.nn.Conv2D(2, 4, 3)
    return [paddle.nn.init.kaiming_uniform_(conv.weight), conv.weight, paddle.nn.init.xavier_normal_(conv.weight),
            conv.weight, paddle.nn.init.normal_(conv.bias, 1.0, 0.1), conv.bias]


@case
def nn_initializer_constant_module(paddle):
    import paddle.nn.initializer.constant as c

    lin = paddle.nn.Linear(2, 2, weight_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.constant.Constant(0.25)))
    return [c.Constant is paddle.nn.initializer.Constant, lin.weight]


@case
def inference_config_precision(paddle):
    P = paddle.inference.Config.Precision
    return [P is paddle.inference.PrecisionType, int(P.Float32), int(P.Int8), int(P.Half), int(P.Bfloat16),
            str(P.Int8)]


@case
def parallel_helper_single_process(paddle):
    from paddle.distributed.parallel import parallel_helper

    return [paddle.distributed.parallel.parallel_helper._is_parallel_ctx_initialized(),
            parallel_helper._is_data_parallel_mode()]


@case
def device_convert_to_place(paddle):
    cpu = paddle.CPUPlace()
    return [str(paddle.device._convert_to_place("cpu")), str(paddle.device._convert_to_place("CPU")),
            type(paddle.device._convert_to_place("cpu")).__name__, paddle.device._convert_to_place(cpu) is cpu,
            paddle.device._convert_to_place(3)]


@case
def tensor_private_to(paddle):
    x = paddle.to_tensor([1.5, 2.5], stop_gradient=False)
    y = x._to(dtype="float64")
    z = x._to("cpu", "int32")
    return [x._to() is x, y, y.stop_gradient, z, str(z.place)]


@case
def tensor_private_to_bad_device(paddle):
    return paddle.to_tensor([1.0])._to(device=3)


@case
def incubate_jit_is_inference_mode(paddle):
    from paddle.incubate.jit import is_inference_mode

    def f(x):
        return x

    return [is_inference_mode(f), is_inference_mode(paddle.nn.Linear(2, 2)), is_inference_mode(3)]


@case
def io_reader_use_pinned_memory(paddle):
    from paddle.io.reader import use_pinned_memory

    before = use_pinned_memory()
    use_pinned_memory(False)
    during = use_pinned_memory()
    use_pinned_memory(True)
    after = use_pinned_memory()
    import paddle.io.reader as r

    r.USE_PINNED_MEMORY = before
    return [before, during, after]


@case
def incubate_tensor_segment_sum(paddle):
    from paddle.incubate.tensor.math import segment_max

    data = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    ids = paddle.to_tensor([0, 0, 1])
    return [paddle.incubate.tensor.segment_sum(data, ids), segment_max(data, ids)]


@case
def fleet_unwrap_optimizer(paddle):
    from paddle.distributed.fleet.utils.hybrid_parallel_util import unwrap_optimizer

    class Wrapper:
        def __init__(self, inner):
            self._inner_opt = inner

    lin = paddle.nn.Linear(2, 2)
    opt = paddle.optimizer.SGD(parameters=lin.parameters())
    return [unwrap_optimizer(opt) is opt, unwrap_optimizer(Wrapper(Wrapper(opt)), (Wrapper,)) is opt,
            unwrap_optimizer(Wrapper(opt), (paddle.optimizer.SGD,)).__class__.__name__]


@case
def fleet_auto_strategy(paddle):
    from paddle.distributed import fleet

    s = fleet.auto.Strategy()
    return [type(s).__name__, s.sharding.enable, s.recompute.enable]


@case
def quantized_linear_arch_info(paddle):
    from paddle.nn.quant.quantized_linear import _get_arch_info

    return _get_arch_info()


@case
def jit_marker_unified(paddle):
    from paddle.jit.marker import unified

    def f(x):
        return x + 1

    g = unified(f)
    h = unified(for_sot=False)(f)
    return [g is f, h is f, g(paddle.to_tensor([1.0]))]


@case
def incubate_multiprocessing_shares_tensors(paddle):
    # PaddleNLP's llm_utils sends tensors through paddle.incubate.multiprocessing queues: they share memory
    import pickle
    from multiprocessing.reduction import ForkingPickler

    import paddle.incubate.multiprocessing  # noqa: F401  (registers the reductions)

    t = paddle.to_tensor([1.0, 2.0, 3.0])
    t2 = pickle.loads(ForkingPickler.dumps(t))
    t2[0] = 5.0
    p = paddle.create_parameter([2], "float32")
    p2 = pickle.loads(ForkingPickler.dumps(p))
    return [t, t2, type(t2).__name__, type(p2).__name__, p2.stop_gradient, p2.shape]


@case
def moe_routing_kernels_import(paddle):
    # PaddleFormers' MoE layers (ERNIE 4.5-MoE) import these at module level; Paddle's CPU build has them
    from paddle.incubate.nn.functional import (build_src_rank_and_local_expert_id, cal_aux_loss,
                                               expand_modality_expert_id, int_bincount, moe_combine,
                                               moe_gate_dispatch, moe_gate_dispatch_partial_nosoftmaxtopk)

    return [callable(f) for f in (build_src_rank_and_local_expert_id, cal_aux_loss, expand_modality_expert_id,
                                  int_bincount, moe_combine, moe_gate_dispatch,
                                  moe_gate_dispatch_partial_nosoftmaxtopk)]
