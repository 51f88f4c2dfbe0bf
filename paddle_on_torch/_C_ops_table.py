"""How each `paddle._C_ops.<op>` maps its arguments onto the paddle function that implements it.

An entry is one of:
  - `Target("paddle.x.y", rename=..., drop=...)`: that function takes the op's arguments under the same names
    (after `rename`; `drop` lists arguments it has no use for), passed by keyword;
  - a function taking the op's arguments positionally, in the op definition's order (its parameter names are
    the op's, which tests/test_c_ops.py checks against the recorded signatures);
  - `Vjp("forward_op")`: a `<forward_op>_grad` op, computed by differentiating the mapped forward op.
Everything here calls the existing implementations; nothing computes an op a second time.
"""
import importlib

import paddle_on_torch as paddle


class Target:
    def __init__(self, path, rename=None, drop=()):
        self.path, self.rename, self.drop = path, dict(rename or {}), frozenset(drop)

    def resolve(self):
        module, _, name = self.path.rpartition(".")
        return getattr(importlib.import_module("paddle_on_torch" + module[len("paddle"):]), name)

    def __repr__(self):
        return f"Target({self.path!r})"


class Vjp:
    """`<forward>_grad`: the gradients of the forward op's inputs, from the forward op run again under autograd.

    The grad op's arguments are the forward op's inputs and attributes (by name; missing attributes take their
    defaults), the output gradients (`out_grad` for the op's first output, `<output>_grad` for a named one) and
    saved forward results, which are not needed.  Its outputs are `<input>_grad`: None for an input that was
    None, zeros for one the outputs do not depend on."""

    def __init__(self, forward, needs=()):
        self.forward, self.needs = forward, tuple(needs)

    def __repr__(self):
        return f"Vjp({self.forward!r})"

    def for_op(self, op, sig):
        from . import _C_ops

        fsig = _C_ops.signatures()["ops"][self.forward]
        fargs = fsig["args"]
        fouts = fsig.get("outputs") or ["out"]
        gnames = [a[0] for a in sig["args"]]
        wrt = [o[:-len("_grad")] for o in sig.get("outputs", [])]
        forward = getattr(_C_ops, self.forward)
        need = self.needs

        def run(*values):
            given = dict(zip(gnames, values))
            for name, check in need:
                check(op, given[name])
            kwargs = {}
            for a in fargs:
                if a[0] in given:
                    kwargs[_C_ops._pyname(a[0])] = given[a[0]]
                elif a[1].endswith("?"):
                    kwargs[_C_ops._pyname(a[0])] = None
            leaves = {}
            for name in wrt:
                v = kwargs.get(_C_ops._pyname(name))
                if v is not None:
                    leaf = v.detach()
                    leaf.stop_gradient = False
                    kwargs[_C_ops._pyname(name)] = leaves[name] = leaf
            with paddle.enable_grad():
                result = forward(**kwargs)
            results = result if isinstance(result, (tuple, list)) else (result,)
            outs, grads = [], []
            for i, oname in enumerate(fouts[:len(results)]):
                g = given.get(f"{oname}_grad", given.get("out_grad") if i == 0 else None)
                if g is not None and results[i] is not None:
                    outs.append(results[i])
                    grads.append(g)
            inputs = list(leaves.values())
            got = paddle.grad(outs, inputs, grads, allow_unused=True) if inputs else []
            by_name = dict(zip(leaves, got))
            res = []
            for name in wrt:
                if name not in leaves:
                    res.append(None)
                    continue
                g = by_name[name]
                res.append(paddle.zeros_like(leaves[name]) if g is None else g.detach())
            return res[0] if sig.get("returns") == "tensor" else tuple(res)

        return run


def _place(t, place):
    """An op that takes a place creates its result there (Paddle's default place argument is CPUPlace)."""
    if place is None or place == []:
        return t
    from ._normalize import wrap
    from ._core.place import to_torch_device

    device = to_torch_device(place)
    return t if t._t.device == device else wrap(t._t.to(device))


def _no_dropout(op, p):
    if float(p.item() if hasattr(p, "item") else p) > 0.0:
        from ._report import unsupported

        raise unsupported(f"paddle._C_ops.{op}",
                          " with dropout > 0 (the forward's dropout mask cannot be replayed)")


# ---- creation -----------------------------------------------------------------------------------------------

def full(shape, value, dtype, place):
    return _place(paddle.full(shape, value, dtype), place)


def full_like(x, value, dtype, place):
    return _place(paddle.full_like(x, value, dtype), place)


def zeros(shape, dtype, place):
    return _place(paddle.zeros(shape, dtype), place)


def ones(shape, dtype, place):
    return _place(paddle.ones(shape, dtype), place)


def empty(shape, dtype, place):
    return _place(paddle.empty(shape, dtype), place)


def zeros_like(x, dtype, place):
    return _place(paddle.zeros_like(x, dtype), place)


def ones_like(x, dtype, place):
    return _place(paddle.ones_like(x, dtype), place)


def empty_like(x, dtype, place):
    return _place(paddle.empty_like(x, dtype), place)


def arange(start, end, step, dtype, place):
    return _place(paddle.arange(start, end, step, dtype), place)


def linspace(start, stop, number, dtype, place):
    return _place(paddle.linspace(start, stop, number, dtype), place)


def eye(num_rows, num_columns, dtype, place):
    return _place(paddle.eye(num_rows, None if num_columns in (None, -1) else num_columns, dtype), place)


def uniform(shape, dtype, min, max, seed, place):
    return _place(paddle.uniform(shape, dtype, min, max, seed), place)


def gaussian(shape, mean, std, seed, dtype, place):
    out = paddle.normal(mean, std, shape)
    return _place(out if dtype is None or out.dtype == dtype else out.astype(dtype), place)


def randint(low, high, shape, dtype, place):
    return _place(paddle.randint(low, high, shape, dtype), place)


def randperm(n, dtype, place):
    return _place(paddle.randperm(n, dtype), place)


def tril_indices(rows, cols, offset, dtype, place):
    return _place(paddle.tril_indices(rows, cols, offset, dtype), place)


def triu_indices(row, col, offset, dtype, place):
    return _place(paddle.triu_indices(row, col, offset, dtype), place)


def assign_out_(x, output):
    return paddle.assign(x, output)


# ---- manipulation and math whose op arguments differ from the API's ----------------------------------------

def split(x, sections, axis):
    return paddle.split(x, sections, axis)


def split_with_num(x, num, axis):
    return paddle.split(x, num, axis)


def slice(input, axes, starts, ends, infer_flags, decrease_axis):
    out = paddle.slice(input, axes, starts, ends)
    if decrease_axis:
        out = paddle.squeeze(out, [int(a) for a in decrease_axis])
    return out


def gather(x, index, axis):
    return paddle.gather(x, index, axis)


def scatter(x, index, updates, overwrite):
    return paddle.scatter(x, index, updates, overwrite)


def index_add(x, index, add_value, axis):
    return paddle.index_add(x, index, axis, add_value)


def argsort(x, axis, descending, stable):
    return paddle.sort(x, axis, descending, stable), paddle.argsort(x, axis, descending, stable)


def cumsum(x, axis, flatten, exclusive, reverse):
    if flatten:
        x, axis = paddle.flatten(x), 0
    if reverse:
        x = paddle.flip(x, [axis])
    out = paddle.cumsum(x, axis)
    if exclusive:
        out = out - x
    return paddle.flip(out, [axis]) if reverse else out


def cumprod(x, dim, exclusive, reverse):
    if reverse:
        x = paddle.flip(x, [dim])
    out = paddle.cumprod(x, dim)
    if exclusive:  # the product of the elements before: shift right by one, starting at 1
        n = x.shape[dim]
        ones = paddle.ones_like(paddle.slice(x, [dim], [0], [1]))
        out = paddle.concat([ones, paddle.slice(out, [dim], [0], [n - 1])], axis=dim)
    return paddle.flip(out, [dim]) if reverse else out


def prod(x, axis, keepdim, reduce_all):
    return paddle.prod(x, None if reduce_all or not axis else axis, keepdim)


def cross(x, y, axis):
    if axis == 9:  # Paddle's sentinel: the first axis of size 3
        axis = next((i for i, n in enumerate(x.shape) if n == 3), -1)
    return paddle.cross(x, y, axis)


def embedding(x, weight, padding_idx, sparse):
    return paddle.nn.functional.embedding(x, weight, padding_idx=None if padding_idx == -1 else padding_idx,
                                          sparse=sparse)


def softmax(x, axis):
    return paddle.nn.functional.softmax(x, axis)


def layer_norm(x, scale, bias, epsilon, begin_norm_axis):
    return paddle.nn.functional.layer_norm(x, x.shape[begin_norm_axis:], scale, bias, epsilon)


def p_norm(x, porder, axis, epsilon, keepdim, asvector):
    if asvector:  # the norm of all elements; keepdim keeps every axis, of size 1
        out = paddle.linalg.vector_norm(paddle.flatten(x), porder, 0)
        return paddle.reshape(out, [1] * len(x.shape)) if keepdim else out
    return paddle.linalg.vector_norm(x, porder, axis, keepdim)


def einsum(x, equation):
    return paddle.einsum(equation, *x), [], []


def meshgrid(inputs):
    return paddle.meshgrid(*inputs)


def nonzero(condition):
    return paddle.nonzero(condition)


def std(x, axis, keepdim, unbiased, correction):
    return paddle.std(x, axis or None, unbiased, keepdim)


def hardtanh(x, t_min, t_max):
    return paddle.nn.functional.hardtanh(x, t_min, t_max)


def mish(x, lambda_):
    return paddle.nn.functional.mish(x)


def sequence_mask(x, max_len, out_dtype):
    return paddle.nn.functional.sequence_mask(x, None if max_len in (None, -1) else max_len, out_dtype)


def topk(x, k, axis, largest, sorted):
    return tuple(paddle.topk(x, k, axis, largest, sorted))


def kthvalue(x, k, axis, keepdim):
    return tuple(paddle.kthvalue(x, k, axis, keepdim))


def mode(x, axis, keepdim):
    return tuple(paddle.mode(x, axis, keepdim))


def cummax(x, axis, dtype):
    return tuple(paddle.cummax(x, axis, dtype))


def cummin(x, axis, dtype):
    return tuple(paddle.cummin(x, axis, dtype))


def dropout(x, seed_tensor, p, is_test, mode, seed, fix_seed):
    mode = "downscale_in_infer" if mode == "downgrade_in_infer" else mode  # the op's name for the API's mode
    return paddle.nn.functional.dropout(x, p, training=not is_test, mode=mode)


def pad(x, paddings, pad_value):
    # the op's paddings run from the first axis: [before_0, after_0, before_1, after_1, ...]
    return paddle.nn.functional.pad(x, paddings, value=pad_value, pad_from_left_axis=True)


def fill(x, value):
    return paddle.full_like(x, value)


def fill_(x, value):
    return x.fill_(value)


def numel(x):
    return paddle.numel(x)


def conv2d(input, filter, strides, paddings, padding_algorithm, dilations, groups, data_format):
    padding = padding_algorithm if padding_algorithm in ("SAME", "VALID") else paddings
    return paddle.nn.functional.conv2d(input, filter, None, strides, padding, dilations, groups, data_format)


def squeeze(x, axis):
    return paddle.squeeze(x, axis if len(axis) else None)  # the op's empty axis list: every axis of size 1


def reshape_grad(x, out_grad):
    return paddle.reshape(out_grad, x.shape)


def flatten_grad(x, out_grad):
    return paddle.reshape(out_grad, x.shape)


# ---- fused ops and attention (Paddle's CPU build lacks most of these kernels; they are computed here) --------

def rms_norm(x, scale, normalized_shape, epsilon):
    return tuple(paddle.nn.functional.rms_norm(x, normalized_shape, scale, epsilon))


def fused_rms_norm_ext(x, scale, epsilon):
    return tuple(paddle.nn.functional.rms_norm(x, x.shape[-1:], scale, epsilon))


def swiglu(x, y):
    return paddle.incubate.nn.functional.swiglu(x, y)


def fused_rotary_position_embedding(q, k, v, sin, cos, position_ids, use_neox_rotary_style, time_major,
                                    rotary_emb_base):
    return tuple(paddle.incubate.nn.functional.fused_rotary_position_embedding(
        q, k, v, sin, cos, position_ids, use_neox_rotary_style, time_major, rotary_emb_base))


def _attention_lse(q, k, attn_mask, causal, scale):
    """logsumexp over the keys of the attention scores, [batch, heads, seqlen_q], in float32 (the lse output)."""
    qf = paddle.transpose(q.astype("float32"), [0, 2, 1, 3])
    kf = paddle.transpose(k.astype("float32"), [0, 2, 1, 3])
    if kf.shape[1] != qf.shape[1]:  # grouped-query attention: each key head serves several query heads
        kf = paddle.repeat_interleave(kf, qf.shape[1] // kf.shape[1], axis=1)
    scores = paddle.matmul(qf, kf, transpose_y=True) * scale
    if causal:
        sq, sk = scores.shape[-2], scores.shape[-1]
        scores = scores + paddle.triu(paddle.full([sq, sk], float("-inf")), diagonal=1)
    elif attn_mask is not None:
        scores = (paddle.where(attn_mask, paddle.zeros_like(scores), paddle.full_like(scores, float("-inf")))
                  if attn_mask.dtype == paddle.bool else scores + attn_mask.astype("float32"))
    return paddle.logsumexp(scores, axis=-1)


def flash_attn(q, k, v, fixed_seed_offset, attn_mask, dropout, causal, return_softmax, is_test, rng_name):
    F = paddle.nn.functional
    scale = q.shape[-1] ** -0.5
    if attn_mask is None:
        out, softmax = F.flash_attention.flash_attention(q, k, v, dropout, causal, return_softmax,
                                                         training=not is_test)
    else:
        if return_softmax:
            from ._report import unsupported

            raise unsupported("paddle._C_ops.flash_attn", " with attn_mask and return_softmax=True")
        out, softmax = F.scaled_dot_product_attention(q, k, v, attn_mask, dropout, causal, not is_test), None
    if softmax is None:
        softmax = paddle.empty([0], dtype=q.dtype)
    lse = _attention_lse(q, k, attn_mask, causal, scale)
    return out, softmax, lse, paddle.zeros([2], dtype="int64")


def c_embedding(weight, x, start_index, vocab_size):
    from .distributed.fleet.layers.mpu import mp_ops

    return mp_ops._c_lookup_table(weight, x, start_index, vocab_size)


def _ring(ring_id):
    """Paddle's ring id is its group's id (0: the global group)."""
    from .distributed.communication.group import _groups

    if ring_id not in _groups:
        raise ValueError(f"(InvalidArgument) no communication group with ring_id {ring_id}: call "
                         "paddle.distributed.init_parallel_env / new_group first")
    return _groups[ring_id]


def c_identity(x, ring_id, use_calc_stream, use_model_parallel):
    return paddle.distributed.collective._c_identity(x, group=_ring(ring_id))


def c_concat(x, rank, nranks, ring_id, use_calc_stream, use_model_parallel):
    return paddle.distributed.collective._c_concat(x, group=_ring(ring_id))


def c_split(x, rank, nranks, ring_id, use_model_parallel):
    return paddle.distributed.collective._c_split(x, group=_ring(ring_id))


def mp_allreduce_sum(x, ring_id):
    return paddle.distributed.collective._mp_allreduce(x, group=_ring(ring_id))


def c_softmax_with_cross_entropy(logits, label, ignore_index, ring_id, rank, nranks):
    loss, softmax = paddle.distributed.collective._c_softmax_with_cross_entropy(
        logits, label, group=_ring(ring_id), return_softmax=True, ignore_index=ignore_index)
    return softmax, loss


def all_reduce_(x, ring_id, reduce_type):
    paddle.distributed.all_reduce(x, reduce_type, group=_ring(ring_id))
    return x


def cross_entropy_with_softmax(input, label, soft_label, use_softmax, numeric_stable_mode, ignore_index, axis):
    F = paddle.nn.functional
    if use_softmax:
        loss, softmax = F.softmax_with_cross_entropy(input, label, soft_label, ignore_index, numeric_stable_mode,
                                                     True, axis)
        return softmax, loss
    loss = F.cross_entropy(input, label, soft_label=soft_label, ignore_index=ignore_index, reduction="none",
                           use_softmax=False, axis=axis)
    return input, loss


# ---- detection ops (paddle.vision.ops; PaddleDetection calls them through _legacy_C_ops) ----------------------

def box_coder(prior_box, prior_box_var, target_box, code_type, box_normalized, axis, variance):
    # no variance at all is a variance of ones
    var = prior_box_var if prior_box_var is not None else (list(variance) if len(variance) else [1.0] * 4)
    return paddle.vision.ops.box_coder(prior_box, var, target_box, code_type, box_normalized, axis)


def prior_box(input, image, min_sizes, max_sizes, aspect_ratios, variances, flip, clip, step_w, step_h, offset,
              min_max_aspect_ratios_order):
    return tuple(paddle.vision.ops.prior_box(input, image, min_sizes, list(max_sizes) or None, aspect_ratios,
                                             variances, flip, clip, [step_w, step_h], offset,
                                             min_max_aspect_ratios_order))


def matrix_nms(bboxes, scores, score_threshold, nms_top_k, keep_top_k, post_threshold, use_gaussian,
               gaussian_sigma, background_label, normalized):
    out, rois_num, index = paddle.vision.ops.matrix_nms(bboxes, scores, score_threshold, post_threshold, nms_top_k,
                                                        keep_top_k, use_gaussian, gaussian_sigma, background_label,
                                                        normalized, return_index=True, return_rois_num=True)
    return out, index, rois_num


def distribute_fpn_proposals(fpn_rois, rois_num, min_level, max_level, refer_level, refer_scale, pixel_offset):
    rois, restore, nums = paddle.vision.ops.distribute_fpn_proposals(fpn_rois, min_level, max_level, refer_level,
                                                                     refer_scale, pixel_offset, rois_num)
    return rois, nums, restore


def generate_proposals(scores, bbox_deltas, im_shape, anchors, variances, pre_nms_top_n, post_nms_top_n,
                       nms_thresh, min_size, eta, pixel_offset):
    return tuple(paddle.vision.ops.generate_proposals(scores, bbox_deltas, im_shape, anchors, variances,
                                                      pre_nms_top_n, post_nms_top_n, nms_thresh, min_size, eta,
                                                      pixel_offset, return_rois_num=True))


def anchor_generator(input, anchor_sizes, aspect_ratios, variances, stride, offset):
    from ._normalize import wrap
    from .vision.ops import legacy_detection

    anchors, var = legacy_detection.anchor_generator(input._t, anchor_sizes, aspect_ratios, variances, stride, offset)
    return wrap(anchors), wrap(var)


def multiclass_nms3(bboxes, scores, rois_num, score_threshold, nms_top_k, keep_top_k, nms_threshold, normalized,
                    nms_eta, background_label):
    from ._normalize import wrap
    from .vision.ops import legacy_detection

    out = legacy_detection.multiclass_nms3(bboxes._t, scores._t, None if rois_num is None else rois_num._t,
                                           score_threshold, nms_top_k, keep_top_k, nms_threshold, normalized,
                                           nms_eta, background_label)
    return tuple(wrap(t) for t in out)


# ---- the table -----------------------------------------------------------------------------------------------

# ops whose paddle function takes the op's arguments under the same names (checked by tests/test_c_ops.py)
_SAME = {
    "paddle": """abs abs_ acos acos_ acosh add add_n addmm all allclose amax amin angle any argmax argmin as_complex
        as_real asin
        asinh assign atan atan2 atan_ atanh baddbmm bernoulli bincount binomial bitwise_and bitwise_left_shift
        bitwise_not bitwise_not_ bitwise_or bitwise_right_shift bitwise_xor bmm broadcast_tensors cast ceil cholesky
        expand_as
        clip complex concat conj copysign cos cos_ cosh crop diag diag_embed diagonal digamma digamma_ dist divide
        dot equal equal_all erf erf_ erfinv exp expand expm1 expm1_ flatten flip floor floor_divide fmax fmin
        gammaincc gammaln gammaln_ gather_nd greater_equal greater_than heaviside histogram i0 i0_ i0e i1 i1e imag
        increment index_put index_sample index_select inverse isclose isfinite isinf isnan kron lerp less_equal
        less_than
        lgamma lgamma_ log log10 log10_ log1p log2 log2_ log_ logical_and logical_not logical_not_ logical_or
        logical_xor logit logsumexp masked_fill masked_select matmul max maximum mean min minimum multinomial multiplex
        multiply mv nansum nextafter not_equal poisson polygamma pow put_along_axis real reciprocal
        reduce_as remainder renorm reshape reverse roll round rsqrt scale scatter_nd_add searchsorted shard_index
        sigmoid sign sin sin_ sinh sinh_ sqrt square square_ stack standard_gamma stanh strided_slice
        subtract sum take_along_axis tan tan_ tanh tanh_ tile trace transpose tril triu trunc unbind unsqueeze
        unstack where""",
    "paddle.nn.functional": """celu channel_shuffle elu fold gelu grid_sample gumbel_softmax hardshrink hardsigmoid
        hardswish label_smooth leaky_relu log_loss log_softmax logsigmoid maxout one_hot pixel_shuffle
        pixel_unshuffle relu relu6 relu_ selu silu softplus softshrink softsign swish temporal_shift
        thresholded_relu unfold""",
    "paddle.linalg": """cholesky_solve det eigvals matrix_power multi_dot solve svdvals triangular_solve
        eig eigh qr svd lstsq lu_unpack""",
}

TABLE = {name: Target(f"{module}.{name}") for module, names in _SAME.items() for name in names.split()}
TABLE.update({
    "tanh_shrink": Target("paddle.nn.functional.tanhshrink"),
    "var": Target("paddle.var", drop=("correction",)),
    "repeat_interleave": Target("paddle.repeat_interleave", drop=("output_size",)),
})
TABLE.update({name: fn for name, fn in list(globals().items())
              if callable(fn) and not name.startswith("_") and not isinstance(fn, type)
              and fn.__module__ == __name__})

# grad ops computed by differentiating their forward op
TABLE.update({f"{fwd}_grad": Vjp(fwd) for fwd in """matmul swiglu gather topk put_along_axis embedding rms_norm
    fused_rms_norm_ext layer_norm add subtract divide maximum minimum expand tile index_select
    take_along_axis softplus gelu silu log square sin cos cumsum roll squeeze unsqueeze""".split()})
TABLE["flash_attn_grad"] = Vjp("flash_attn", needs=[("dropout", _no_dropout)])
