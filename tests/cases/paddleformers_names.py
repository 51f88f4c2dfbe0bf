"""Paddle names PaddleFormers 1.2.0 reaches beyond the documented API (docs/ecosystem.md): flex_checkpoint's
bookkeeping, ProgramTranslator, and Paddle 3.3's torch-style transpose / reshape / expand forms its modeling uses."""
from tests.cases import case


def _sw(w):
    return {"key": w.key, "local": w.local_tensor, "local_shape": list(w.local_shape),
            "global_shape": list(w.global_shape), "global_offset": list(w.global_offset),
            "is_flattened": w.is_flattened}


@case
def flex_build_sharded_state_dict(paddle):
    from paddle.distributed.flex_checkpoint.dcp.sharded_weight import build_sharded_state_dict

    state = {"w": paddle.arange(6, dtype="float32").reshape([2, 3]), "b": paddle.ones([3])}
    out = build_sharded_state_dict(state, None, "model.")
    return {k: _sw(v) for k, v in out.items()}


@case
def flex_sharded_weight_with_new_local(paddle):
    from paddle.distributed.flex_checkpoint.dcp.sharded_weight import (ShardedWeight,
                                                                        create_sharded_weight_with_new_local)

    ref = ShardedWeight("a", paddle.zeros([2, 2]), (2, 2), (4, 2), (2, 0))
    return _sw(create_sharded_weight_with_new_local("b", paddle.ones([2, 2]), ref))


@case
def flex_sharded_weight_with_new_local_bad_shape(paddle):
    from paddle.distributed.flex_checkpoint.dcp.sharded_weight import (ShardedWeight,
                                                                        create_sharded_weight_with_new_local)

    ref = ShardedWeight("a", paddle.zeros([2, 2]), (2, 2), (4, 2), (2, 0))
    return create_sharded_weight_with_new_local("b", paddle.ones([3, 2]), ref)


@case
def flex_flatten_unflatten_state_dict(paddle):
    from paddle.distributed.flex_checkpoint.dcp.utils import flatten_state_dict, unflatten_state_dict

    nested = {"model": {"w": paddle.ones([2]), "sub": {"b": paddle.zeros([1])}}, "step": paddle.to_tensor([3])}
    flat, mapping = flatten_state_dict(nested)
    back = unflatten_state_dict(flat, mapping)
    return [flat, {k: list(v) for k, v in mapping.items()}, back]


@case
def flex_flatten_state_dict_bad_value(paddle):
    from paddle.distributed.flex_checkpoint.dcp.utils import flatten_state_dict

    return flatten_state_dict({"a": 1})


@case
def flex_merge_metadata_and_dedup(paddle):
    from paddle.distributed.flex_checkpoint.dcp.metadata import LocalTensorIndex, LocalTensorMetadata
    from paddle.distributed.flex_checkpoint.dcp.save_state_dict import dedup_key_in_dict
    from paddle.distributed.flex_checkpoint.dcp.utils import merge_state_dict_metadata

    m0 = LocalTensorMetadata((0, 0), (2, 2), "float32")
    m1 = LocalTensorMetadata((2, 0), (2, 2), "float32")
    merged = merge_state_dict_metadata([{"w": [m0]}, {"w": [m0, m1], "b": m1}])
    i0 = LocalTensorIndex("w", (0, 0))
    dedup = dedup_key_in_dict([{i0: "0.distcp"}, {i0: "1.distcp", LocalTensorIndex("b", (0,)): "1.distcp"}])
    return [{k: [repr(m) for m in v] for k, v in merged.items()}, sorted((repr(k), v) for k, v in dedup.items())]


@case
def program_translator_switch(paddle):
    from paddle.jit.dy2static.program_translator import ProgramTranslator

    t = ProgramTranslator()
    seen = [t.enable_to_static, ProgramTranslator() is t, ProgramTranslator.get_instance() is t]
    paddle.jit.enable_to_static(False)
    seen.append(paddle.jit.dy2static.program_translator.ProgramTranslator().enable_to_static)
    t.enable(True)
    seen.append(t.enable_to_static)
    return seen


@case
def program_translator_enable_not_bool(paddle):
    from paddle.jit.dy2static.program_translator import ProgramTranslator

    return ProgramTranslator().enable(1)


@case
def torch_style_transpose_reshape_expand(paddle):
    x = paddle.arange(24, dtype="float32").reshape([2, 3, 4])
    y = paddle.arange(4, dtype="float32").reshape([1, 4])
    return [x.transpose(1, 2), paddle.transpose(x, 0, 2), x.transpose(-1, 0), x.reshape(4, 6), x.reshape(6, -1),
            paddle.reshape(x, 2, 12), x.reshape(shape=[24]), y.expand(3, 4), y.expand(2, 3, 4), paddle.expand(y, 3, 4),
            y.expand(size=[2, 4])]


@case
def tensor_share_buffer_to(paddle):
    # PaddleFormers' MoE FakeClone: the destination keeps its shape and aliases the source's memory
    a = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    b = paddle.empty_like(a)
    a._share_buffer_to(b)
    b[0] = 7.0
    c = paddle.zeros([2], dtype="int32")  # takes the source's dtype
    a._share_buffer_to(c)
    return [a, b, b.stop_gradient, a._is_shared_buffer_with(b), c]
