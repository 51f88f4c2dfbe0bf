"""paddle.nn layers: losses (thin Layers over paddle.nn.functional's losses, as in Paddle)."""
import inspect

from .. import functional as F
from ..._core import dtype as _dtypes
from .layers import Layer

__all__ = [
    "BCEWithLogitsLoss", "CrossEntropyLoss", "MSELoss", "L1Loss", "BCELoss", "NLLLoss", "PoissonNLLLoss",
    "KLDivLoss", "MarginRankingLoss", "CTCLoss", "SmoothL1Loss", "MultiLabelSoftMarginLoss", "HingeEmbeddingLoss",
    "CosineEmbeddingLoss", "TripletMarginWithDistanceLoss", "TripletMarginLoss", "MultiMarginLoss",
    "MultiLabelMarginLoss", "SoftMarginLoss", "GaussianNLLLoss", "AdaptiveLogSoftmaxWithLoss", "HSigmoidLoss",
    "RNNTLoss", "HuberLoss",
]


# Paddle 3.3 takes torch's legacy `size_average` / `reduce` only to refuse them with its deprecation ValueError:
# by keyword, or as a bool at their torch position among the arguments (size_average's, reduce's), here per class
_LEGACY_AT = {
    **dict.fromkeys(("L1Loss", "MSELoss", "KLDivLoss", "SmoothL1Loss", "SoftMarginLoss", "MultiLabelMarginLoss"),
                    (0, 1)),
    **dict.fromkeys(("BCELoss", "BCEWithLogitsLoss", "MultiLabelSoftMarginLoss", "HingeEmbeddingLoss",
                     "CosineEmbeddingLoss", "MarginRankingLoss"), (1, 2)),
    "CrossEntropyLoss": (1, 3), "NLLLoss": (1, 3), "PoissonNLLLoss": (2, 4), "MultiMarginLoss": (3, 4),
    "TripletMarginLoss": (4, 5),
}
_UNSET = ""


def _legacy_arg(args, kwargs, key, at):
    if key in kwargs:
        return kwargs.pop(key)  # (taken out either way: an exempt call runs without it, as in Paddle)
    if len(args) > at and type(args[at]) is bool:
        return args[at]
    return _UNSET


def _legacy_exempt(name, args):
    """Paddle lets these through when the positional reduction is a real one (the bool was soft_label / ...)."""
    if name == "CrossEntropyLoss":
        return len(args) > 2 and isinstance(args[2], str) and args[2] in ("mean", "sum", "none")
    if name == "KLDivLoss":
        return len(args) > 0 and isinstance(args[0], str) and args[0] in ("mean", "sum", "none", "batchmean")
    return False


def _legacy_reduction(cls):
    """Wrap a loss Layer's __init__ so that the legacy keywords meet Paddle's ValueError (the wrapper shows the
    constructor's own signature, as Paddle's decorator does)."""
    init, name = cls.__init__, cls.__name__
    sa_at, rd_at = _LEGACY_AT[name]

    def __init__(self, *args, **kwargs):
        size_average = _legacy_arg(args, kwargs, "size_average", sa_at)
        reduce = _legacy_arg(args, kwargs, "reduce", rd_at)
        if (size_average is not _UNSET or reduce is not _UNSET) and not _legacy_exempt(name, args):
            suggested = "none" if reduce is False else "sum" if size_average is False else "mean"
            raise ValueError(f"[Deprecated] '{name}' no longer supports 'reduce' or 'size_average'.\nDetected: "
                             f"reduce={None if reduce is _UNSET else reduce}, size_average="
                             f"{None if size_average is _UNSET else size_average}\nPlease use: "
                             f"reduction='{suggested}' instead.")
        init(self, *args, **kwargs)

    __init__.__qualname__, __init__.__doc__ = init.__qualname__, init.__doc__
    __init__.__signature__ = inspect.signature(init)
    cls.__init__ = __init__
    return cls


def _check(reduction, msg):
    if reduction not in ("sum", "mean", "none"):
        raise ValueError(msg.format(reduction))


_STD = "The value of 'reduction' in {} should be 'sum', 'mean' or 'none', but received {{}}, which is not allowed."
_SHORT = "'reduction' in '{}' should be 'sum', 'mean' or 'none', but received {{}}."


@_legacy_reduction
class BCEWithLogitsLoss(Layer):
    def __init__(self, weight=None, reduction="mean", pos_weight=None, name=None):
        _check(reduction, _STD.format("BCEWithLogitsLoss"))
        super().__init__()
        self.weight, self.reduction, self.pos_weight, self.name = weight, reduction, pos_weight, name

    def forward(self, logit, label):
        return F.binary_cross_entropy_with_logits(logit, label, self.weight, self.reduction, self.pos_weight,
                                                  self.name)


@_legacy_reduction
class CrossEntropyLoss(Layer):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean", soft_label=False, axis=-1,
                 use_softmax=True, label_smoothing=0.0, name=None):
        super().__init__()
        self.weight, self.reduction, self.ignore_index = weight, reduction, ignore_index
        self.soft_label, self.axis, self.use_softmax = soft_label, axis, use_softmax
        self.label_smoothing, self.name = label_smoothing, name

    def forward(self, input, label=None, target=None):
        label = target if label is None else label
        return F.cross_entropy(input, label, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, soft_label=self.soft_label, axis=self.axis,
                               use_softmax=self.use_softmax, label_smoothing=self.label_smoothing, name=self.name)


@_legacy_reduction
class MSELoss(Layer):
    def __init__(self, reduction="mean"):
        super().__init__()
        _check(reduction, _SHORT.format("MSELoss"))
        self.reduction = reduction

    def forward(self, input, label):
        return F.mse_loss(input, label, self.reduction)


@_legacy_reduction
class L1Loss(Layer):
    def __init__(self, reduction="mean", name=None):
        _check(reduction, _STD.format("L1Loss"))
        super().__init__()
        self.reduction, self.name = reduction, name

    def forward(self, input, label):
        return F.l1_loss(input, label, self.reduction, name=self.name)


@_legacy_reduction
class BCELoss(Layer):
    def __init__(self, weight=None, reduction="mean", name=None):
        _check(reduction, _STD.format("bce_loss"))
        super().__init__()
        self.weight, self.reduction, self.name = weight, reduction, name

    def forward(self, input, label):
        return F.binary_cross_entropy(input, label, self.weight, self.reduction, self.name)


@_legacy_reduction
class NLLLoss(Layer):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean", name=None):
        _check(reduction, _STD.format("nll_loss"))
        super().__init__()
        self._weight, self._ignore_index, self._reduction, self._name = weight, ignore_index, reduction, name

    def forward(self, input, label):
        return F.nll_loss(input, label, weight=self._weight, ignore_index=self._ignore_index,
                          reduction=self._reduction, name=self._name)


@_legacy_reduction
class PoissonNLLLoss(Layer):
    def __init__(self, log_input=True, full=False, epsilon=1e-8, reduction="mean", name=None):
        if epsilon <= 0:
            raise ValueError(f"The value of `epsilon` in PoissonNLLLoss should be positive, but received "
                             f"{epsilon:f}, which is not allowed")
        _check(reduction, _STD.format("PoissonNLLLoss"))
        super().__init__()
        self._log_input, self._full, self._epsilon = log_input, full, epsilon
        self._reduction, self._name = reduction, name

    def forward(self, input, label):
        return F.poisson_nll_loss(input, label, log_input=self._log_input, full=self._full, epsilon=self._epsilon,
                                  reduction=self._reduction, name=self._name)


@_legacy_reduction
class KLDivLoss(Layer):
    def __init__(self, reduction="mean", log_target=False):
        super().__init__()
        self.reduction, self.log_target = reduction, log_target

    def forward(self, input, label):
        return F.kl_div(input, label, self.reduction, self.log_target)


@_legacy_reduction
class MarginRankingLoss(Layer):
    def __init__(self, margin=0.0, reduction="mean", name=None):
        _check(reduction, _STD.format("MarginRankingLoss"))
        super().__init__()
        self.margin, self.reduction, self.name = margin, reduction, name

    def forward(self, input, other, label):
        return F.margin_ranking_loss(input, other, label, self.margin, self.reduction, self.name)


class CTCLoss(Layer):
    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__()
        self.blank, self.reduction, self.zero_infinity = blank, reduction, zero_infinity

    def forward(self, log_probs, labels, input_lengths, label_lengths, norm_by_times=False):
        return F.ctc_loss(log_probs, labels, input_lengths, label_lengths, self.blank, self.reduction,
                          norm_by_times=norm_by_times, zero_infinity=self.zero_infinity)


@_legacy_reduction
class SmoothL1Loss(Layer):
    def __init__(self, reduction="mean", delta=1.0, is_huber=True, name=None):
        super().__init__()
        self.reduction, self.delta, self.is_huber, self.name = reduction, delta, is_huber, name

    def forward(self, input, label=None, target=None):
        label = target if label is None else label
        return F.smooth_l1_loss(input, label, reduction=self.reduction, delta=self.delta, is_huber=self.is_huber,
                                name=self.name)


HuberLoss = SmoothL1Loss  # (Paddle 3.3's torch name: the same class, is_huber=True by default)


@_legacy_reduction
class MultiLabelSoftMarginLoss(Layer):
    def __init__(self, weight=None, reduction="mean", name=None):
        super().__init__()
        _check(reduction, _SHORT.format("MultiLabelSoftMarginloss"))
        self.weight, self.reduction, self.name = weight, reduction, name

    def forward(self, input, label):
        return F.multi_label_soft_margin_loss(input, label, weight=self.weight, reduction=self.reduction,
                                              name=self.name)


@_legacy_reduction
class HingeEmbeddingLoss(Layer):
    def __init__(self, margin=1.0, reduction="mean", name=None):
        super().__init__()
        self.margin, self.reduction, self.name = margin, reduction, name

    def forward(self, input, label):
        return F.hinge_embedding_loss(input, label, reduction=self.reduction, margin=self.margin, name=self.name)


@_legacy_reduction
class CosineEmbeddingLoss(Layer):
    def __init__(self, margin=0, reduction="mean", name=None):
        if margin > 1 or margin < -1:
            raise ValueError(f"The value of 'margin' should be in the interval of [-1, 1], but received {margin:f}, "
                             "which is not allowed.")
        _check(reduction, "The value of 'reduction' should be 'sum', 'mean' or 'none', but received {}, which is "
                          "not allowed.")
        super().__init__()
        self.margin, self.reduction, self.name = margin, reduction, name

    def forward(self, input1, input2, label):
        return F.cosine_embedding_loss(input1, input2, label, margin=self.margin, reduction=self.reduction,
                                       name=self.name)


class TripletMarginWithDistanceLoss(Layer):
    def __init__(self, distance_function=None, margin=1.0, swap=False, reduction="mean", name=None):
        super().__init__()
        _check(reduction, _STD.format("TripletMarginWithDistanceLoss"))
        self.margin, self.swap, self.reduction = margin, swap, reduction
        self.distance_function, self.name = distance_function, name

    def forward(self, input, positive, negative):
        # Paddle 3.3.1 does not pass distance_function on: the default distance is used (kept)
        return F.triplet_margin_with_distance_loss(input, positive, negative, margin=self.margin, swap=self.swap,
                                                   reduction=self.reduction, name=self.name)


@_legacy_reduction
class TripletMarginLoss(Layer):
    def __init__(self, margin=1.0, p=2.0, epsilon=1e-6, swap=False, reduction="mean", name=None):
        super().__init__()
        _check(reduction, _STD.format("TripletMarginLoss"))
        self.margin, self.p, self.epsilon, self.swap = margin, p, epsilon, swap
        self.reduction, self.name = reduction, name

    def forward(self, input, positive, negative):
        return F.triplet_margin_loss(input, positive, negative, margin=self.margin, p=self.p, epsilon=self.epsilon,
                                     swap=self.swap, reduction=self.reduction, name=self.name)


@_legacy_reduction
class MultiMarginLoss(Layer):
    def __init__(self, p=1, margin=1.0, weight=None, reduction="mean", name=None):
        super().__init__()
        _check(reduction, _SHORT.format("MultiMarginLoss"))
        self.p, self.margin, self.weight, self.reduction, self.name = p, margin, weight, reduction, name

    def forward(self, input, label):
        return F.multi_margin_loss(input, label, p=self.p, margin=self.margin, weight=self.weight,
                                   reduction=self.reduction, name=self.name)


@_legacy_reduction
class MultiLabelMarginLoss(Layer):
    def __init__(self, reduction="mean", name=None):
        super().__init__()
        _check(reduction, _SHORT.format("MultiLabelMarginLoss"))
        self.reduction, self.name = reduction, name

    def forward(self, input, label):
        return F.multi_label_margin_loss(input, label, reduction=self.reduction, name=self.name)


@_legacy_reduction
class SoftMarginLoss(Layer):
    def __init__(self, reduction="mean", name=None):
        _check(reduction, _STD.format("SoftMarginLoss"))
        super().__init__()
        self.reduction, self.name = reduction, name

    def forward(self, input, label):
        return F.soft_margin_loss(input, label, self.reduction, self.name)


class GaussianNLLLoss(Layer):
    def __init__(self, full=False, epsilon=1e-6, reduction="mean", name=None):
        _check(reduction, _STD.format("GaussianNLLLoss"))
        super().__init__()
        self.full, self.epsilon, self.reduction, self.name = full, epsilon, reduction, name

    def forward(self, input, label, variance):
        return F.gaussian_nll_loss(input, label, variance, self.full, self.epsilon, self.reduction, self.name)


class AdaptiveLogSoftmaxWithLoss(Layer):
    def __init__(self, in_features, n_classes, cutoffs, weight_attr=None, bias_attr=None, div_value=4.0,
                 head_bias=False, name=None):
        super().__init__()
        self._dtype = _dtypes.get_default_dtype() if hasattr(_dtypes, "get_default_dtype") else "float32"
        cutoffs = list(cutoffs)
        if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1
                or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
            raise ValueError("cutoffs should be a sequence of unique, positive integers sorted in an increasing "
                             "order, where each value is between 1 and n_classes-1")
        self.in_features, self.n_classes = in_features, n_classes
        self.cutoffs = [*cutoffs, n_classes]
        self.div_value = div_value
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        self.is_head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head_weight = self.create_parameter([in_features, self.head_size], attr=weight_attr, dtype=self._dtype)
        self.head_bias = (self.create_parameter([self.head_size], attr=bias_attr, dtype=self._dtype, is_bias=True)
                          if head_bias else None)
        self.tail_weights = []
        for i in range(self.n_clusters):
            hsz = int(in_features // div_value ** (i + 1))
            osz = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail_weights.append([
                self.create_parameter([in_features, hsz], attr=weight_attr, dtype=self._dtype),
                self.create_parameter([hsz, osz], attr=weight_attr, dtype=self._dtype)])

    def forward(self, input, label):
        return F.adaptive_log_softmax_with_loss(input, label, self.head_weight, self.tail_weights, self.cutoffs,
                                                self.head_bias)

    def _head(self, input):
        import paddle_on_torch as paddle

        out = paddle.matmul(input, self.head_weight)
        return out if self.head_bias is None else out + self.head_bias

    def _get_full_log_prob(self, input, head_output):
        import torch
        import torch.nn.functional as TF

        from ..._normalize import wrap

        x, h = input._t, head_output._t
        head_logprob = TF.log_softmax(h, dim=1)
        parts = [head_logprob[:, :self.shortlist_size]]
        for i in range(self.n_clusters):
            c = torch.matmul(torch.matmul(x, self.tail_weights[i][0]._t), self.tail_weights[i][1]._t)
            parts.append(TF.log_softmax(c, dim=1) + head_logprob[:, self.shortlist_size + i].unsqueeze(1))
        return wrap(torch.cat(parts, dim=1))

    def log_prob(self, input):
        return self._get_full_log_prob(input, self._head(input))

    def predict(self, input):
        import paddle_on_torch as paddle

        head_output = self._head(input)
        output = paddle.argmax(head_output, axis=1).cast("float32")
        not_in_shortlist = output >= self.shortlist_size
        if not bool(not_in_shortlist.any()):
            return output
        if bool(not_in_shortlist.all()):
            return paddle.argmax(self._get_full_log_prob(input, head_output), axis=1)
        log_prob = self._get_full_log_prob(input[not_in_shortlist], head_output[not_in_shortlist])
        indices = paddle.masked_select(paddle.arange(len(not_in_shortlist)), not_in_shortlist)
        return paddle.scatter(output, indices, paddle.argmax(log_prob, axis=1).cast("float32"))


class HSigmoidLoss(Layer):
    """Hierarchical sigmoid over a default tree (num_classes - 1 nodes) or a custom one (num_classes nodes)."""

    def __init__(self, feature_size, num_classes, weight_attr=None, bias_attr=None, is_custom=False, is_sparse=False,
                 name=None):
        super().__init__()
        if num_classes < 2 and not is_custom:
            raise ValueError("num_classes must not be less than 2 with default tree")
        if not is_custom and is_sparse:
            print("Sparse mode should not be used without custom tree")
            is_sparse = False
        self._feature_size, self._num_classes = feature_size, num_classes
        self._is_custom, self._is_sparse, self._name = is_custom, is_sparse, name
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        self._dtype = _dtypes.get_default_dtype()
        print("With sparse mode, if your models has only small parameter prefetch may cause speed down")
        c = num_classes if is_custom else num_classes - 1
        self.weight = self.create_parameter([c, feature_size], attr=weight_attr, is_bias=False, dtype=self._dtype)
        self.bias = self.create_parameter([c, 1], attr=bias_attr, is_bias=True, dtype=self._dtype)

    def forward(self, input, label, path_table=None, path_code=None):
        return F.hsigmoid_loss(input, label, self._num_classes, self.weight, self.bias, path_table=path_table,
                               path_code=path_code, is_sparse=self._is_sparse, name=self._name)


class RNNTLoss(Layer):
    def __init__(self, blank=0, fastemit_lambda=0.001, reduction="mean", name=None):
        super().__init__()
        self.blank, self.reduction, self.fastemit_lambda, self.name = blank, reduction, fastemit_lambda, name

    def forward(self, input, label, input_lengths, label_lengths):
        return F.rnnt_loss(input, label, input_lengths, label_lengths, blank=self.blank,
                           fastemit_lambda=self.fastemit_lambda, reduction=self.reduction, name=self.name)
