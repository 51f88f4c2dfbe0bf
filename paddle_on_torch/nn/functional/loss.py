"""paddle.nn.functional: losses.

Each loss follows Paddle 3.3.1's dygraph code path (its reduction rules, its
quirks such as cross_entropy's mean over ignored entries when ignore_index < 0,
nll_loss giving 0 when every label is ignored, kl_div's zero for non-positive
targets), computed with torch.
"""
import math

import torch
import torch.nn.functional as TF

from ..._normalize import OptionalTensor, TensorLike, binary_operands, op

__all__ = [
    "dice_loss", "log_loss", "npair_loss", "square_error_cost", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "smooth_l1_loss", "margin_ranking_loss", "l1_loss", "nll_loss",
    "poisson_nll_loss", "kl_div", "mse_loss", "ctc_loss", "softmax_with_cross_entropy", "cross_entropy",
    "sigmoid_focal_loss", "multi_label_soft_margin_loss", "hinge_embedding_loss", "cosine_embedding_loss",
    "triplet_margin_with_distance_loss", "triplet_margin_loss", "multi_margin_loss", "multi_label_margin_loss",
    "soft_margin_loss", "gaussian_nll_loss", "adaptive_log_softmax_with_loss", "hsigmoid_loss",
    "margin_cross_entropy", "rnnt_loss",
]

_APPRO_INF = 1e20  # Paddle's TolerableValue: an infinite -log(p) becomes 1e20


def _check_reduction(reduction, what, head="The value of 'reduction' in "):
    if reduction not in ("sum", "mean", "none"):
        if head:
            raise ValueError(f"{head}{what} should be 'sum', 'mean' or 'none', but received {reduction}, "
                             "which is not allowed.")
        raise ValueError(f"'reduction' in '{what}' should be 'sum', 'mean' or 'none', but received {reduction}.")


def _reduce(out, reduction):
    if reduction == "sum":
        return out.sum()
    if reduction == "mean":
        return out.mean()
    return out


def _same_shape(a, b, what="input's shape must equal to label's shape"):
    if list(a.shape) != list(b.shape):
        raise ValueError(what)


# ------------------------------------------------------------------ regression losses
@op
def square_error_cost(input: TensorLike, label: TensorLike):
    input, label = binary_operands(input, label)
    return torch.square(input - label)


@op
def mse_loss(input: TensorLike, label: TensorLike, reduction="mean", name=None):
    if reduction not in ("sum", "mean", "none"):
        raise ValueError(f"'reduction' in 'mse_loss' should be 'sum', 'mean' or 'none', but received {reduction}.")
    input, label = binary_operands(input, label)
    return _reduce(torch.square(input - label), reduction)


@op
def l1_loss(input: TensorLike, label: TensorLike, reduction="mean", name=None):
    _check_reduction(reduction, "L1Loss")
    input, label = binary_operands(input, label)
    return _reduce(torch.abs(input - label), reduction)


@op
def smooth_l1_loss(input: TensorLike, label: TensorLike, reduction="mean", delta=1.0, is_huber=True, name=None):
    if input.dim() != label.dim():
        raise ValueError(f"(InvalidArgument) Input(input) rank and Input(label) rank should be same, but received "
                         f"input rank({input.dim()}) != label rank({label.dim()})")
    out = TF.huber_loss(input, label, reduction="none", delta=delta)
    if not is_huber:
        out = out / delta
    _check_reduction(reduction, "smooth_l1_loss")
    return _reduce(out, reduction)


@op
def log_loss(input: TensorLike, label: TensorLike, epsilon=1e-4, name=None):
    return -label * torch.log(input + epsilon) - (1 - label) * torch.log(1 - input + epsilon)


@op
def poisson_nll_loss(input: TensorLike, label: TensorLike, log_input=True, full=False, epsilon=1e-8,
                     reduction="mean", name=None):
    if epsilon <= 0:
        raise ValueError(f"The value of `epsilon` in poisson_nll_loss should be positive, but received "
                         f"{epsilon:f}, which is not allowed")
    _check_reduction(reduction, "poisson_nll_loss")
    _same_shape(input, label)
    if log_input:
        out = torch.exp(input) - label * input
    else:
        out = input - label * torch.log(input + epsilon)
    if full:
        stirling = label * torch.log(label) - label + 0.5 * torch.log(2 * math.pi * label)
        out = out + torch.where(label > 1, stirling, torch.zeros_like(stirling))
    return _reduce(out, reduction)


@op
def gaussian_nll_loss(input: TensorLike, label: TensorLike, variance: TensorLike, full=False, epsilon=1e-6,
                      reduction="mean", name=None):
    if list(variance.shape) != list(input.shape):
        if list(input.shape[:-1]) == list(variance.shape):
            variance = variance.unsqueeze(-1)
        elif not (list(input.shape[:-1]) == list(variance.shape[:-1]) and variance.shape[-1] == 1):
            raise ValueError("variance is of incorrect shape")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    for t, what in ((input, "input"), (label, "label"), (variance, "variance")):
        if t.dtype not in (torch.float32, torch.float64):
            raise ValueError(f"The data type of {what} Variable must be 'float32' or 'float64'")
    if bool((variance < 0).any()):
        raise ValueError("variance has negative entry/entries")
    with torch.no_grad():
        clamped = variance.clamp(min=epsilon)
    # Paddle clips under no_grad, so no gradient reaches `variance` (kept as Paddle does)
    out = 0.5 * (torch.log(clamped) + torch.square(input - label) / clamped)
    if full:
        out = out + 0.5 * math.log(2 * math.pi)
    return _reduce(out, reduction)


# ------------------------------------------------------------------ probabilistic losses
@op
def binary_cross_entropy(input: TensorLike, label: TensorLike, weight: OptionalTensor = None, reduction="mean",
                         name=None):
    _check_reduction(reduction, "binary_cross_entropy")
    if list(input.shape) != list(label.shape):
        raise ValueError(f"(InvalidArgument) Input(X) and Input(Label) shall have the same shape. But received: "
                         f"the shape of Input(X) is {list(input.shape)}, the shape of Input(Label) is "
                         f"{list(label.shape)}.")
    if input.dtype != label.dtype:
        raise ValueError("(InvalidArgument) The type of data of Input(Label) does not match Input(X).")
    if input.numel() and bool(((input < 0) | (input > 1)).any()):
        raise ValueError("(InvalidArgument) Illegal input, input must be in [0, 1].")
    out = TF.binary_cross_entropy(input, label, reduction="none")
    if weight is not None:
        out = out * weight
    return _reduce(out, reduction)


def _bce_logits(logit, label, pos_weight=None):
    if not logit.is_floating_point() or not label.is_floating_point():
        raise RuntimeError("The kernel of `sigmoid_cross_entropy_with_logits` is not registered for integer "
                           "data types.")
    out = TF.binary_cross_entropy_with_logits(logit, label, pos_weight=pos_weight, reduction="none")
    return torch.where(label == -100, torch.zeros_like(out), out)  # Paddle's kernel ignores label -100


@op
def binary_cross_entropy_with_logits(logit: TensorLike, label: TensorLike, weight: OptionalTensor = None,
                                     reduction="mean", pos_weight: OptionalTensor = None, name=None):
    _check_reduction(reduction, "binary_cross_entropy_with_logits")
    out = _bce_logits(logit, label, pos_weight)
    if weight is not None:
        out = out * weight
    return _reduce(out, reduction)


@op
def sigmoid_focal_loss(logit: TensorLike, label: TensorLike, normalizer: OptionalTensor = None, alpha=0.25,
                       gamma=2.0, reduction="sum", name=None):
    _check_reduction(reduction, "sigmoid_focal_loss")
    if normalizer is not None and normalizer.dim() > 1:
        raise ValueError(f"Expected zero or one dimension of normalizer in sigmoid_focal_loss but got "
                         f"{normalizer.dim()}.")
    loss = _bce_logits(logit, label)
    pred = torch.sigmoid(logit)
    p_t = pred * label + (1 - pred) * (1 - label)
    alpha_t = alpha * label + (1 - alpha) * (1 - label)
    loss = alpha_t * loss * torch.pow(1 - p_t, gamma)
    if normalizer is not None:
        loss = loss / normalizer
    return _reduce(loss, reduction)


@op
def kl_div(input: TensorLike, label: TensorLike, reduction="mean", log_target=False, name=None):
    if input.dtype == torch.float32 and label.dtype == torch.float64:
        input = input.double()
    elif input.dtype == torch.float64 and label.dtype == torch.float32:
        label = label.double()
    if log_target:
        out = torch.exp(label) * (label - input)
    else:
        out = torch.where(label > 0, label * (torch.log(label) - input), torch.zeros_like(input * label))
    if reduction == "mean":
        return out.mean()
    if reduction == "sum":
        return out.sum()
    if reduction == "batchmean" and input.dim() > 0:
        return out.sum() / input.shape[0]
    return out  # Paddle returns the elementwise loss for any other reduction string


@op
def nll_loss(input: TensorLike, label: TensorLike, weight: OptionalTensor = None, ignore_index=-100,
             reduction="mean", name=None):
    _check_reduction(reduction, "nll_loss")
    nd, ld = input.dim(), label.dim()
    if nd - 1 != ld and nd != ld:
        raise ValueError(f"Expected input_dims - 1 = label_dims or input_dims == label_dims             "
                         f"(got input_dims{nd}, label_dims{ld})")
    if nd < 2:
        raise ValueError(f"Expected 2 or more dimensions (got {nd})")
    if input.shape[1] < 1:
        raise ValueError(f"Expected 1 or more classes (got num classes{input.shape[1]})")
    if label.dtype != torch.int64:
        raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve (int64) does not match "
                         f"the type of data ({str(label.dtype).replace('torch.', '')}) currently contained in the "
                         "container.")
    valid = label != ignore_index
    if bool((valid & ((label < 0) | (label >= input.shape[1]))).any()):
        raise ValueError("(InvalidArgument) label should not be out of bounds.")
    if reduction == "none":
        return TF.nll_loss(input, label, weight=weight, ignore_index=ignore_index, reduction="none")
    out = TF.nll_loss(input, label, weight=weight, ignore_index=ignore_index, reduction="sum")
    if reduction == "sum":
        return out
    safe = torch.where(valid, label, torch.zeros_like(label))
    w = torch.ones(input.shape[1], dtype=input.dtype, device=input.device) if weight is None else weight
    total = (w[safe] * valid.to(w.dtype)).sum().to(out.dtype)
    return out / torch.where(total == 0, torch.ones_like(total), total)  # Paddle: 0, not NaN, if all ignored


# ------------------------------------------------------------------ cross entropy
_FUSED_CE_MIN = 1 << 20  # logits elements (4 MiB in float32)
_NO_LABEL = -(1 << 63)  # an ignore_index no label can equal


def _ce_core(input, label, soft_label, use_softmax, ignore_index, axis):
    """Paddle's cross_entropy_with_softmax kernel: the loss with a size-1 class axis."""
    if (use_softmax and not soft_label and input.numel() >= _FUSED_CE_MIN and axis % input.dim() == input.dim() - 1
            and input.is_floating_point() and label.shape[:-1] == input.shape[:-1] and label.shape[-1:] == (1,)):
        # hard labels on the last axis of big logits: the fused op keeps only the row log-sum-exp for the
        # backward (below the threshold its fixed cost, ~60 us, outweighs the memory it saves)
        from ...kernels.cross_entropy import fused_softmax_cross_entropy
        flat = input.reshape(-1, input.shape[-1])
        return fused_softmax_cross_entropy(flat, label, ignore_index).reshape(label.shape)
    if (use_softmax and not soft_label and input.dim() == 2 and axis % 2 == 1 and label.dim() == 2
            and label.shape[0] == input.shape[0] and label.shape[1] == 1 and input.is_floating_point()
            and not label.is_floating_point()):
        # the common [N, C] case: torch's log_softmax + nll_loss, the same values in two autograd nodes
        # instead of six and no host sync; a label out of range falls through to Paddle's error below
        try:
            return TF.cross_entropy(input, label.reshape(-1).long(), reduction="none",
                                    ignore_index=ignore_index).unsqueeze(1)
        except IndexError:
            pass
    logp = TF.log_softmax(input, dim=axis) if use_softmax else torch.log(input)
    if soft_label:
        out = -(label.to(logp.dtype) * logp).sum(dim=axis, keepdim=True)
    else:
        for i in range(input.dim()):
            if i != axis % input.dim() and input.shape[i] != label.shape[i]:
                raise ValueError("(InvalidArgument) Input(Logits) and Input(Label) should in same shape in "
                                 f"dimensions except axis. But received logits shape {list(input.shape)} and "
                                 f"label shape {list(label.shape)}.")
        lab = label.long()
        valid = lab != ignore_index
        C = input.shape[axis]
        bad = valid & ((lab < 0) | (lab >= C))
        if bool(bad.any()):
            v = int(lab[bad][0])
            raise IndexError(f"(OutOfRange) label value should less than the shape of axis dimension when label "
                             f"value({v}) not equal to ignore_index({ignore_index}), But received label value as "
                             f"{v} and shape of axis dimension is {C}")
        safe = torch.where(valid, lab, torch.zeros_like(lab))
        out = torch.where(valid, -logp.gather(axis, safe), torch.zeros((), dtype=logp.dtype, device=logp.device))
    if not use_softmax:
        out = torch.where(torch.isinf(out), torch.full_like(out, _APPRO_INF).copysign(out), out)
    return out


@op(aliases={"target": "label"})
def cross_entropy(input: TensorLike, label: TensorLike, weight: OptionalTensor = None, ignore_index=-100,
                  reduction="mean", soft_label=False, axis=-1, use_softmax=True, label_smoothing=0.0, name=None):
    if reduction not in ("sum", "mean", "none"):
        raise ValueError(f"The value of 'reduction' in softmax_cross_entropyshould be 'sum', 'mean' or 'none', but "
                         f"received {reduction}, which is not allowed.")
    if ignore_index > 0 and soft_label:
        raise ValueError(f"When soft_label == True, the value of 'ignore_index' in softmax_cross_entropyshould be "
                         f"'-100', but received {ignore_index}, which is not allowed.")
    nd = input.dim()
    if nd == 0:
        raise ValueError("The dimension of input should be larger than zero!")
    ld = label.dim()
    if (nd == 2 and ld == 1 and reduction == "mean" and weight is None and ignore_index < 0 and use_softmax
            and not soft_label and not label_smoothing and (axis == -1 or axis == 1)
            and 0 < input.shape[0] == label.shape[0] and input.numel() < _FUSED_CE_MIN
            and (input.dtype is torch.float32 or input.dtype is torch.float64) and not label.is_floating_point()):
        # the usual classification loss.  Paddle's mean divides by every row (a row labelled ignore_index
        # counts, as a zero) where torch's skips ignored rows: with no label ignorable (a label equal to
        # ignore_index is then out of range) torch's mean is Paddle's, bit for bit the summed loss / rows
        # (values and gradients), in one autograd node instead of two
        try:
            return TF.cross_entropy(input, label.long(), ignore_index=_NO_LABEL)
        except IndexError:
            pass  # a label out of range, or one equal to ignore_index: Paddle's path below
    if nd - 1 == ld:
        label = label.unsqueeze(axis)
    if nd - 1 != ld and nd != ld:
        raise ValueError(f"Expected input_dims - 1 = label_dims or input_dims == label_dims             "
                         f"(got input_dims{nd}, label_dims{ld})")
    if label_smoothing > 0.0:
        soft_label = True
        if nd - 1 == ld:
            label = TF.one_hot(label.squeeze(axis).long(), input.shape[-1])
        label = ((1 - label_smoothing) * label + label_smoothing / label.shape[-1]).to(input.dtype)
        ld = label.dim()
    out = _ce_core(input, label, soft_label, use_softmax, ignore_index, axis)
    wg = None
    if weight is not None:
        if soft_label:
            wg = torch.matmul(label.to(weight.dtype), weight).reshape(out.shape)
        else:
            if input.shape[axis] != weight.shape[-1]:
                raise ValueError(f"input's class_dimension({input.shape[axis]}) must equal to weight's "
                                 f"class_dimension({weight.shape[-1]}) when weight is provided")
            lab = label.long()
            valid = lab != ignore_index
            wg = weight[torch.where(valid, lab, torch.zeros_like(lab))] * valid.to(weight.dtype)
        out = out.to(wg.dtype) * wg
    if reduction == "sum":
        return out.sum()
    if reduction == "mean":
        if 0 in input.shape:
            return (out + math.nan).mean()
        if ignore_index >= 0:
            out_sum = out.sum()
            mask = label != ignore_index
            if wg is None:
                count = mask.to(out_sum.dtype).sum()
            else:
                count = (mask.to(wg.dtype) * wg).sum()
            return out_sum / (count + (count == 0).to(count.dtype))
        if wg is not None:
            total = wg.sum()
            return out.sum() / (total + (total == 0).to(total.dtype))
        return out.mean()
    if nd - 1 == ld:
        out = out.squeeze(axis)
    return out


@op
def softmax_with_cross_entropy(logits: TensorLike, label: TensorLike, soft_label=False, ignore_index=-100,
                               numeric_stable_mode=True, return_softmax=False, axis=-1):
    nd = logits.dim()
    if nd == 0:
        raise ValueError("The dimension of input should be larger than zero!")
    ld = label.dim()
    if nd - 1 != ld and nd != ld:
        raise ValueError(f"Expected input_dims - 1 = label_dims or input_dims == label_dims             "
                         f"(got input_dims{nd}, label_dims{ld})")
    if nd - 1 == ld:  # Paddle reshapes such a label to [batch, logits.shape[1]]
        shape = [label.shape[0], logits.shape[1]]
        if label.numel() != shape[0] * shape[1]:
            raise ValueError(f"(InvalidArgument) The 'shape' in ReshapeOp is invalid. The input tensor X'size must "
                             f"be equal to the capacity of 'shape'. But received X's shape = {list(label.shape)}, "
                             f"'shape' is {shape}.")
        label = label.reshape(shape)
    loss = _ce_core(logits, label, soft_label, True, ignore_index, axis)
    if return_softmax:
        return loss, TF.softmax(logits, dim=axis)
    return loss


@op
def npair_loss(anchor: TensorLike, positive: TensorLike, labels: TensorLike, l2_reg=0.002):
    if anchor.numel() == 0:
        raise ValueError("The dims of anchor should be greater than 0.")
    if positive.numel() == 0:
        raise ValueError("The dims of positive should be greater than 0.")
    n = labels.shape[0]
    labels = labels.reshape(n, 1).expand(n, n)
    labels = (labels == labels.t()).to(torch.float32)
    labels = labels / labels.sum(1, keepdim=True)
    l2loss = torch.square(anchor).sum(1).mean() + torch.square(positive).sum(1).mean()
    l2loss = l2loss * 0.25 * l2_reg
    sim = torch.matmul(anchor, positive.t())
    ce = _ce_core(sim, labels, True, True, -100, -1)
    return l2loss + (labels * ce).sum(0).mean()


@op
def dice_loss(input: TensorLike, label: TensorLike, epsilon=1e-5, name=None):
    assert input.dtype in (torch.float32, torch.float64)
    assert label.dtype in (torch.int32, torch.int64)
    assert input.dim() >= 2, "The rank of input should be greater than or equal to 2."
    assert input.dim() == label.dim(), (f"The rank of input and label should be equal, but received input: "
                                        f"{input.dim()}, label: {label.dim()}.")
    assert label.shape[-1] == 1, f"The last dimension of label should be 1, but received {label.shape[-1]}."
    assert input.shape[:-1] == label.shape[:-1], "All dimensions should be equal except the last one."
    onehot = TF.one_hot(label.squeeze(-1).long(), input.shape[-1]).to(input.dtype)
    dims = list(range(1, input.dim()))
    inse = (input * onehot).sum(dims)
    denom = input.sum(dims) + onehot.sum(dims)
    return (1 - inse * 2 / (denom + epsilon)).mean()


# ------------------------------------------------------------------ margin / embedding losses
@op
def margin_ranking_loss(input: TensorLike, other: TensorLike, label: TensorLike, margin=0.0, reduction="mean",
                        name=None):
    _check_reduction(reduction, "MarginRankingLoss")
    out = (other - input) * label
    if margin != 0.0:
        out = out + torch.tensor([margin], dtype=out.dtype, device=out.device)
    return _reduce(torch.relu(out), reduction)


@op
def hinge_embedding_loss(input: TensorLike, label: TensorLike, margin=1.0, reduction="mean", name=None):
    if reduction not in ("sum", "mean", "none"):
        raise ValueError(f"'reduction' in 'hinge_embedding_loss' should be 'sum', 'mean' or 'none', but received "
                         f"{reduction}.")
    zero = torch.zeros([1], dtype=input.dtype, device=input.device)
    out = torch.where(label == 1.0, input, zero) + torch.where(label == -1.0, torch.relu(margin - input), zero)
    return _reduce(out, reduction)


@op
def cosine_embedding_loss(input1: TensorLike, input2: TensorLike, label: TensorLike, margin=0, reduction="mean",
                          name=None):
    if label.dim() != 1:
        raise ValueError("1D target tensor expected, multi-target not supported")
    if list(input1.shape) != list(input2.shape):
        raise ValueError("the shape of input tensor 1 should be equal to input tensor 2, but found inputs with "
                         "different sizes")
    if input1.dim() > 2:
        raise ValueError("1D target tensor expects 1D or 2D input tensors, but found inputs with different sizes")
    if input1.dtype not in (torch.float32, torch.float64):
        raise ValueError("The data type of input Variable must be 'float32' or 'float64'")
    if label.dtype not in (torch.int32, torch.int64, torch.float32, torch.float64):
        raise ValueError("The data type of label Variable must be 'int32', 'int64', 'float32', 'float64'")
    prod = (input1 * input2).sum(-1)
    m1 = torch.square(input1).sum(-1) + 1e-11
    m2 = torch.square(input2).sum(-1) + 1e-11
    cos = prod / torch.sqrt(m1 * m2)
    zeros = torch.zeros_like(cos)
    out = torch.where(label == 1, 1 - cos, zeros) + torch.where(label == -1, torch.clamp(cos - margin, min=0), zeros)
    return _reduce(out, reduction)


def _pairwise_distance(x, y, p=2.0, epsilon=1e-6):
    return torch.linalg.vector_norm(x - y + epsilon, ord=p, dim=-1)


def _triplet_checks(input, positive, negative, margin, reduction, what):
    if reduction not in ("sum", "mean", "none"):
        raise ValueError(f"'reduction' in '{what}' should be 'sum', 'mean' or 'none', but received {reduction}.")
    if margin < 0:
        raise ValueError("The margin between positive samples and negative samples should be greater than 0.")
    if not list(input.shape) == list(positive.shape) == list(negative.shape):
        raise ValueError("input's shape must equal to positive's shape and negative's shape")


@op
def triplet_margin_loss(input: TensorLike, positive: TensorLike, negative: TensorLike, margin=1.0, p=2, epsilon=1e-6,
                        swap=False, reduction="mean", name=None):
    _triplet_checks(input, positive, negative, margin, reduction, "triplet_margin_loss")
    pos = _pairwise_distance(input, positive, p, epsilon)
    neg = _pairwise_distance(input, negative, p, epsilon)
    if swap:
        neg = torch.minimum(neg, _pairwise_distance(positive, negative, p, epsilon))
    return _reduce(torch.clamp(pos - neg + margin, min=0.0), reduction)


def triplet_margin_with_distance_loss(input, positive, negative, distance_function=None, margin=1.0, swap=False,
                                      reduction="mean", name=None):
    from ..._normalize import to_torch, wrap

    i, p, n = to_torch(input), to_torch(positive), to_torch(negative)
    _triplet_checks(i, p, n, margin, reduction, "triplet_margin_with_distance_loss")
    if distance_function is None:
        dist = lambda a, b: _pairwise_distance(a, b)  # noqa: E731
    else:
        dist = lambda a, b: to_torch(distance_function(wrap(a), wrap(b)))  # noqa: E731
    pos, neg = dist(i, p), dist(i, n)
    if swap:
        neg = torch.minimum(neg, dist(p, n))
    if not bool((pos >= 0).all()) or not bool((neg >= 0).all()):
        raise ValueError("The positive distance or negative distance should be greater than 0, The distance "
                         "functions should be checked.")
    return wrap(_reduce(torch.clamp(pos - neg + margin, min=0.0), reduction))


@op
def multi_margin_loss(input: TensorLike, label: TensorLike, p=1, margin=1.0, weight: OptionalTensor = None,
                      reduction="mean", name=None):
    if reduction not in ("sum", "mean", "none"):
        raise ValueError(f"'reduction' in 'multi_margin_loss' should be 'sum', 'mean' or 'none', but received "
                         f"{reduction}.")
    if input.shape[0] != label.shape[0]:
        raise ValueError(f"The label's shape[0] should be equal to input's shape[0], but received input's shape[0] "
                         f"{input.shape[0]} and label's shape[0]:{label.shape[0]}. ")
    label = label.reshape(-1, 1).long()
    picked = input.gather(1, label)
    C = input.shape[1]
    hinge = torch.pow(torch.clamp(margin - picked + input, min=0.0), p)
    if weight is not None:
        if input.shape[1] != weight.shape[0]:
            raise ValueError(f"The weight's shape[0] should be equal to input's shape[1]but received weight's "
                             f"shape[0]: {weight.shape[0]} and input's shape[1]: {input.shape[1]}")
        w = weight[label.reshape(-1)].reshape(-1, 1)
        loss = (w * hinge).mean(1) - (w * (margin ** p / C)).squeeze()
    else:
        loss = hinge.mean(1) - margin ** p / C
    return _reduce(loss, reduction)


@op
def multi_label_margin_loss(input: TensorLike, label: TensorLike, reduction="mean", name=None):
    if reduction not in ("sum", "mean", "none"):
        raise ValueError(f"'reduction' in 'multi_label_margin_loss' should be 'sum', 'mean' or 'none', but "
                         f"received {reduction}.")
    if input.dim() != 2:
        raise ValueError(f"Expected 2D input tensor, but got {input.dim()}D")
    if label.dim() != 2:
        raise ValueError(f"Expected 2D label tensor, but got {label.dim()}D")
    if label.numel():
        if int(label.min()) < -1:
            raise ValueError("label values should be >= -1")
        if int(label.max()) >= input.shape[1]:
            raise ValueError(f"label values should be < {input.shape[1]}")
    return _reduce(TF.multilabel_margin_loss(input, label.long(), reduction="none"), reduction)


@op
def multi_label_soft_margin_loss(input: TensorLike, label: TensorLike, weight: OptionalTensor = None,
                                 reduction="mean", name=None):
    if reduction not in ("sum", "mean", "none"):
        raise ValueError(f"'reduction' in 'multi_label_soft_margin_loss' should be 'sum', 'mean' or 'none', but "
                         f"received {reduction}.")
    if list(input.shape) != list(label.shape):
        raise ValueError(f"The input and label should have same dimension,but received {list(input.shape)}!="
                         f"{list(label.shape)}")
    loss = -(label * TF.logsigmoid(input) + (1 - label) * TF.logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    return _reduce(loss.mean(-1), reduction)


@op
def soft_margin_loss(input: TensorLike, label: TensorLike, reduction="mean", name=None):
    _check_reduction(reduction, "soft_margin_loss")
    _same_shape(input, label)
    label = label.to(input.dtype)
    return _reduce(torch.log(1 + torch.exp(-label * input)), reduction)


# ------------------------------------------------------------------ sequence losses
@op
def ctc_loss(log_probs: TensorLike, labels: TensorLike, input_lengths: TensorLike, label_lengths: TensorLike,
             blank=0, reduction="mean", norm_by_times=False, zero_infinity=False):
    """Paddle's warpctc: `log_probs` are unnormalised logits [T, B, C]; the softmax is applied here."""
    logp = TF.log_softmax(log_probs, dim=-1)
    loss = TF.ctc_loss(logp, labels.long(), input_lengths.long(), label_lengths.long(), blank=blank,
                       reduction="none", zero_infinity=False)
    if norm_by_times:  # warpctc scales only the gradient by 1/T
        scaled = loss / input_lengths.to(loss.dtype)
        loss = scaled + (loss - scaled).detach()
    if zero_infinity:
        loss = torch.where(torch.isinf(loss), torch.zeros_like(loss), loss)
    assert reduction in ("mean", "sum", "none")
    if reduction == "mean":
        return (loss / label_lengths.to(loss.dtype)).mean()
    if reduction == "sum":
        return loss.sum()
    return loss


# ------------------------------------------------------------------ adaptive softmax
def adaptive_log_softmax_with_loss(input, label, head_weight, tail_weights, cutoffs, head_bias=None, name=None):
    from ..._normalize import to_torch, wrap

    x, y = to_torch(input), to_torch(label)
    hw = to_torch(head_weight)
    hb = None if head_bias is None else to_torch(head_bias)
    if y.dim() == 1:
        if x.shape[0] != y.shape[0] and y.shape[0] != 0:
            raise ValueError("Input and label should have the same size in the batch dimension.")
        if x.dim() != 2:
            raise ValueError(f"1D label tensor expects 2D input tensors, but found inputs with size {list(x.shape)}")
    elif y.dim() == 0:
        if x.dim() != 1:
            raise ValueError(f"0D label tensor expects 1D input tensors, but found inputs with size {list(x.shape)}")
    else:
        raise ValueError("0D or 1D label tensor expected, multi-label not supported")
    batched = y.dim() > 0
    if not batched:
        x, y = x.unsqueeze(0), y.unsqueeze(0)
    cutoffs = [int(c) for c in cutoffs]
    output = torch.zeros([y.shape[0]], dtype=x.dtype, device=x.device)
    gather = y.clone()
    used = 0
    bounds = [0, *cutoffs]
    for i in range(len(bounds) - 1):
        lo, hi = bounds[i], bounds[i + 1]
        mask = (y >= lo) & (y < hi)
        rows = mask.nonzero().reshape(-1)
        if rows.numel() == 0:
            continue
        if i > 0:
            w0, w1 = (to_torch(w) for w in tail_weights[i - 1])
            cluster = torch.matmul(torch.matmul(x[rows], w0), w1)
            gather[rows] = cutoffs[0] + i - 1
            logprob = TF.log_softmax(cluster, dim=1).gather(1, (y[mask] - lo).unsqueeze(1)).squeeze(1)
            output = output.index_put((rows,), logprob)
        used += rows.numel()
    if used != y.shape[0]:
        raise ValueError(f"label values should be in [0, n_classes - 1], but values in range [{int(y.min())}, "
                         f"{int(y.max())}] were found. ")
    head = torch.matmul(x, hw)
    if hb is not None:
        head = head + hb
    head_logprob = TF.log_softmax(head, dim=1)
    output = output + head_logprob.gather(1, gather.unsqueeze(1)).squeeze(1)
    loss = (-output).mean()
    if not batched:
        output = output.squeeze(0)
    return wrap(output), wrap(loss)


# ------------------------------------------------------------------ hierarchical sigmoid
def _hsigmoid_paths(label, num_classes, path_table, path_code):
    """(node index, bit, in-path mask), each [batch, code_length], as Paddle's MatrixBitCodeFunctor walks them."""
    if path_table is None:  # the default complete binary tree: leaf c = label + num_classes
        width = (num_classes - 1).bit_length()
        c = label.reshape(-1).long() + num_classes
        j = torch.arange(width, device=c.device)
        idx = (c.unsqueeze(1) >> (j + 1)) - 1
        bit = (c.unsqueeze(1) >> j) & 1
        mask = idx >= 0  # bits below the highest set bit of c
        return idx, bit.bool(), mask
    idx = path_table.long()
    mask = torch.cumsum((idx < 0).long(), 1) == 0  # the path ends at its first negative entry
    return idx, path_code != 0, mask


@op
def hsigmoid_loss(input: TensorLike, label: TensorLike, num_classes, weight: TensorLike, bias: OptionalTensor = None,
                  path_table: OptionalTensor = None, path_code: OptionalTensor = None, is_sparse=False, name=None):
    """Paddle's hierarchical sigmoid: per node on the label's path, pre = w_node . x + b_node clipped to [-40, 40];
    loss = sum softplus(pre) - sum_{bit=1} pre, where every column past a path's end counts softplus(0) = log 2
    (Paddle's kernel keeps that constant).  The clip passes gradients straight through, as Paddle's grad kernel."""
    if num_classes < 2:
        raise ValueError(f"Expected num_classes >= 2 (got {num_classes})")
    idx, bit, mask = _hsigmoid_paths(label, num_classes, path_table, path_code)
    safe = torch.where(mask, idx, torch.zeros_like(idx))
    pre = torch.zeros(idx.shape, dtype=input.dtype, device=input.device)
    if bias is not None:
        pre = pre + bias.reshape(-1)[safe]
    pre = pre + torch.einsum("bld,bd->bl", weight[safe], input)
    pre = torch.where(mask, pre, torch.zeros_like(pre))
    pre = pre + (pre.clamp(-40.0, 40.0) - pre).detach()
    taken = torch.where(mask & bit, pre, torch.zeros_like(pre)).sum(1, keepdim=True)
    return torch.log(1.0 + torch.exp(pre)).sum(1, keepdim=True) - taken


# ------------------------------------------------------------------ margin_cross_entropy (ArcFace / CosFace)
@op
def margin_cross_entropy(logits: TensorLike, label: TensorLike, margin1=1.0, margin2=0.5, margin3=0.0, scale=64.0,
                         group=None, return_softmax=False, reduction="mean"):
    """Softmax cross entropy over scale * cos-logits whose label entry becomes cos(margin1 * acos(x) + margin2) -
    margin3 (the math of Paddle's GPU kernel; Paddle's CPU build has none).  Single process only."""
    from .common import _single_process_group

    assert reduction in ["mean", "sum", "none", None]
    _single_process_group(group, "paddle.nn.functional.margin_cross_entropy")
    if logits.shape[-1] == 0:
        raise ValueError(f"Expected logit_dims[-1] > 0 (got logit_dims {list(logits.shape)})")
    if logits.dim() - 1 != label.dim() and logits.dim() != label.dim():
        raise ValueError(f"Expected input_dims - 1 = label_dims or input_dims == label_dims             "
                         f"(got input_dims{logits.dim()}, label_dims{label.dim()})")
    if logits.dim() - 1 == label.dim():
        label = label.unsqueeze(-1)
    out_type = logits.dtype
    x = logits.float() if out_type == torch.float16 else logits
    lab = label.long()
    target = torch.gather(x, -1, lab)
    if abs(margin1 - 1.0) > 1e-8 or abs(margin2) > 1e-8:
        target = torch.cos(margin1 * torch.acos(target) + margin2)
    target = target - margin3
    x = torch.scatter(x, -1, lab, target) * scale
    log_softmax = torch.log_softmax(x, -1)
    loss = -torch.gather(log_softmax, -1, lab)
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    softmax = torch.exp(log_softmax)
    if out_type == torch.float16:
        softmax, loss = softmax.to(out_type), loss.to(out_type)
    return (loss, softmax) if return_softmax else loss


# ------------------------------------------------------------------ rnnt_loss (warprnnt's CPU kernel)
def _rnnt_alpha_beta(logp, label, t_len, u_len, blank):
    """Forward/backward variables of the transducer lattice, [B, T, U] in float64.  `logp` is used as given
    (warprnnt's CPU kernel does no log_softmax).  Time steps and label positions are scanned in turn."""
    b_sz, t_max, u_max, _ = logp.shape
    ninf = float("-inf")
    dev = logp.device
    blank_lp = logp[..., blank]                                      # [B, T, U]
    u_idx = torch.arange(u_max, device=dev)
    lab = torch.zeros(b_sz, u_max, dtype=torch.long, device=dev)
    if u_max > 1:
        lab[:, :u_max - 1] = label[:, :u_max - 1].long()
    emit = torch.gather(logp, 3, lab[:, None, :, None].expand(b_sz, t_max, u_max, 1)).squeeze(3)
    emit = emit.masked_fill((u_idx[None, :] >= (u_len[:, None] - 1))[:, None, :], ninf)  # no emission past labels
    alphas = []
    a = torch.full((b_sz, u_max), ninf, dtype=logp.dtype, device=dev)
    a[:, 0] = 0.0
    for t in range(t_max):
        if t:
            a = alphas[-1] + blank_lp[:, t - 1]
        alphas.append(_scan_emit(a, emit[:, t]))
    alpha = torch.stack(alphas, 1)
    t_last = (t_len.long() - 1).clamp_min(0)
    u_last = (u_len.long() - 1).clamp_min(0)
    rows = torch.arange(b_sz, device=dev)
    loglik = alpha[rows, t_last, u_last] + blank_lp[rows, t_last, u_last]
    betas = [None] * t_max
    nxt = torch.full((b_sz, u_max), ninf, dtype=logp.dtype, device=dev)
    for t in range(t_max - 1, -1, -1):
        start = torch.full((b_sz, u_max), ninf, dtype=logp.dtype, device=dev)
        start[rows, u_last] = blank_lp[rows, t, u_last]
        bvec = torch.where((t == t_last)[:, None], start, nxt + blank_lp[:, t])
        bvec = bvec.masked_fill((t > t_last)[:, None], ninf)
        nxt = _scan_emit_rev(bvec, emit[:, t])
        betas[t] = nxt
    beta = torch.stack(betas, 1)
    return alpha, beta, loglik, blank_lp, emit, lab


def _scan_emit(a, e):
    """x[u] = logaddexp(a[u], x[u-1] + e[u-1]) for every u: lse_{k<=u}(a[k] + sum e[k..u-1])."""
    out = [a[:, 0]]
    for u in range(1, a.shape[1]):
        out.append(torch.logaddexp(a[:, u], out[-1] + e[:, u - 1]))
    return torch.stack(out, 1)


def _scan_emit_rev(b, e):
    """y[u] = logaddexp(b[u], y[u+1] + e[u])."""
    n = b.shape[1]
    out = [b[:, n - 1]]
    for u in range(n - 2, -1, -1):
        out.append(torch.logaddexp(b[:, u], out[-1] + e[:, u]))
    return torch.stack(out[::-1], 1)


class _WarpRNNT(torch.autograd.Function):
    @staticmethod
    def forward(ctx, acts, label, t_len, u_len, blank, fastemit_lambda):
        logp = acts.detach().double()
        alpha, beta, loglik, blank_lp, emit, lab = _rnnt_alpha_beta(logp, label, t_len, u_len, blank)
        b_sz, t_max, u_max, _ = logp.shape
        ll = loglik[:, None, None]
        dev = logp.device
        t_last = (t_len.long() - 1)[:, None, None]
        u_last = (u_len.long() - 1)[:, None, None]
        t_idx = torch.arange(t_max, device=dev)[None, :, None]
        u_idx = torch.arange(u_max, device=dev)[None, None, :]
        beta_next_t = torch.cat([beta[:, 1:], torch.full_like(beta[:, :1], float("-inf"))], 1)
        g_blank = torch.where(t_idx < t_last, torch.exp(alpha + blank_lp + beta_next_t - ll),
                              torch.zeros_like(alpha))
        last = (t_idx == t_last) & (u_idx == u_last)
        g_blank = torch.where(last, torch.exp(alpha + blank_lp - ll), g_blank)
        beta_next_u = torch.cat([beta[:, :, 1:], torch.full_like(beta[:, :, :1], float("-inf"))], 2)
        g_emit = (1.0 + fastemit_lambda) * torch.exp(alpha + emit + beta_next_u - ll)
        g_emit = torch.nan_to_num(g_emit, nan=0.0)
        grad = torch.zeros_like(logp)
        grad.scatter_add_(3, lab[:, None, :, None].expand(b_sz, t_max, u_max, 1), -g_emit.unsqueeze(3))
        grad[..., blank] -= g_blank
        ctx.save_for_backward(grad.to(acts.dtype))
        return (-loglik).to(acts.dtype)

    @staticmethod
    def backward(ctx, g):
        (grad,) = ctx.saved_tensors
        return grad * g[:, None, None, None], None, None, None, None, None


def _int32_only(t, what):
    if t.dtype != torch.int32:
        raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve (int32) does not match the "
                         f"type of data ({str(t.dtype).replace('torch.', '')}) currently contained in the container.")


@op
def rnnt_loss(input: TensorLike, label: TensorLike, input_lengths: TensorLike, label_lengths: TensorLike, blank=0,
              fastemit_lambda=0.001, reduction="mean", name=None):
    """Transducer loss as Paddle's warprnnt CPU kernel: `input` [B, T, U+1, V] is taken as log-probabilities (no
    log_softmax inside), loss = -log P(label); FastEmit scales the gradient of label emissions by
    (1 + fastemit_lambda) and leaves the loss value unchanged."""
    for t, what in ((label, "label"), (input_lengths, "input_lengths"), (label_lengths, "label_lengths")):
        _int32_only(t, what)
    loss = _WarpRNNT.apply(input, label, input_lengths, label_lengths + 1, blank, float(fastemit_lambda))
    assert reduction in ["mean", "sum", "none"]
    if reduction == "mean":
        return loss.sum() / input.shape[0]
    if reduction == "sum":
        return loss.sum()
    return loss
