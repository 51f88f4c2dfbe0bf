"""paddle.nn.functional losses and their Layers: values, reductions, weights, ignore_index, soft labels,
axis, gradients and error types; hsigmoid_loss, margin_cross_entropy and rnnt_loss."""
import numpy as np

from tests.cases import case, data, fill_parameters

REDS = ("none", "mean", "sum")


def _x(paddle, shape, seed, grad=True, dtype="float32", scale=1.0):
    return paddle.to_tensor(data(shape, seed, dtype=dtype, scale=scale), stop_gradient=not grad)


# ---------------------------------------------------------------- cross_entropy
@case
def ce_hard_reductions(paddle):
    F = paddle.nn.functional
    x = _x(paddle, [4, 5], 1)
    y = paddle.to_tensor([0, 3, 4, 1])
    outs = [F.cross_entropy(x, y, reduction=r) for r in REDS]
    outs[1].backward()
    return outs + [x.grad]


@case
def ce_label_trailing_one(paddle):
    F = paddle.nn.functional
    x = _x(paddle, [3, 4], 2, grad=False)
    return [F.cross_entropy(x, paddle.to_tensor([[1], [0], [3]]), reduction=r) for r in REDS]


@case
def ce_ignore_index(paddle):
    F = paddle.nn.functional
    x = _x(paddle, [4, 3], 3, grad=False)
    y = paddle.to_tensor([0, 2, 1, 2])
    return [F.cross_entropy(x, y, ignore_index=2, reduction=r) for r in REDS] + [
        F.cross_entropy(x, paddle.to_tensor([0, -100, 1, -100])),  # default: mean over all entries
        F.cross_entropy(x, paddle.to_tensor([1, 1, 1, 1]), ignore_index=1)]


@case
def ce_weight(paddle):
    F = paddle.nn.functional
    x = _x(paddle, [4, 3], 4)
    w = paddle.to_tensor([0.2, 1.0, 3.0])
    y = paddle.to_tensor([0, 2, 1, 2])
    outs = [F.cross_entropy(x, y, weight=w, reduction=r) for r in REDS]
    outs.append(F.cross_entropy(x, y, weight=w, ignore_index=1))
    outs[1].backward()
    return outs + [x.grad]


@case
def ce_soft_label(paddle):
    F = paddle.nn.functional
    x = _x(paddle, [3, 4], 5)
    y = paddle.nn.functional.softmax(_x(paddle, [3, 4], 6, grad=False))
    outs = [F.cross_entropy(x, y, soft_label=True, reduction=r) for r in REDS]
    outs.append(F.cross_entropy(x, y, soft_label=True, weight=paddle.to_tensor([1.0, 2.0, 0.5, 1.5])))
    outs[1].backward()
    return outs + [x.grad]


@case
def ce_axis(paddle):
    F = paddle.nn.functional
    x = _x(paddle, [2, 3, 4], 7, grad=False)
    y = paddle.to_tensor([[0, 2, 1, 1], [2, 2, 0, 1]])
    return [F.cross_entropy(x, y, axis=1, reduction="none"), F.cross_entropy(x, y, axis=1),
            F.cross_entropy(x, y.unsqueeze(1), axis=1, reduction="none"),
            F.cross_entropy(x, y, axis=1, weight=paddle.to_tensor([1.0, 2.0, 3.0]))]


@case
def ce_no_softmax_and_smoothing(paddle):
    F = paddle.nn.functional
    p = paddle.to_tensor([[0.2, 0.5, 0.3], [0.0, 0.9, 0.1]])
    x = _x(paddle, [2, 3], 8, grad=False)
    return [F.cross_entropy(p, paddle.to_tensor([1, 0]), use_softmax=False, reduction="none"),
            F.cross_entropy(x, paddle.to_tensor([1, 2]), label_smoothing=0.1, reduction="none"),
            F.cross_entropy(x, paddle.to_tensor([1, 2]), label_smoothing=0.2)]


@case
def ce_float64_and_target_alias(paddle):
    F = paddle.nn.functional
    x = _x(paddle, [3, 3], 9, grad=False, dtype="float64")
    return [F.cross_entropy(x, paddle.to_tensor([0, 1, 2])), F.cross_entropy(x, target=paddle.to_tensor([2, 1, 0]))]


@case
def ce_bad_reduction(paddle):
    return paddle.nn.functional.cross_entropy(paddle.ones([2, 3]), paddle.to_tensor([0, 1]), reduction="avg")


@case
def ce_label_out_of_range(paddle):
    return paddle.nn.functional.cross_entropy(paddle.ones([2, 3]), paddle.to_tensor([0, 5]))


@case
def ce_weight_size_mismatch(paddle):
    return paddle.nn.functional.cross_entropy(paddle.ones([2, 3]), paddle.to_tensor([0, 1]),
                                              weight=paddle.ones([4]))


@case
def ce_rank_mismatch(paddle):
    return paddle.nn.functional.cross_entropy(paddle.ones([2, 3]), paddle.ones([2, 3, 1, 1], dtype="int64"))


@case
def ce_soft_label_with_ignore_index(paddle):
    return paddle.nn.functional.cross_entropy(paddle.ones([2, 3]), paddle.ones([2, 3]) / 3, soft_label=True,
                                              ignore_index=2)


@case
def cross_entropy_loss_layer(paddle):
    x = _x(paddle, [3, 4], 10, grad=False)
    y = paddle.to_tensor([3, 0, 1])
    m = paddle.nn.CrossEntropyLoss(weight=paddle.to_tensor([1.0, 0.5, 2.0, 1.0]), reduction="sum")
    return [m(x, y), paddle.nn.CrossEntropyLoss(ignore_index=0)(x, y), repr(m)]


@case
def softmax_with_cross_entropy_forms(paddle):
    F = paddle.nn.functional
    x = _x(paddle, [3, 4], 11, grad=False)
    loss, sm = F.softmax_with_cross_entropy(x, paddle.to_tensor([[1], [3], [0]]), return_softmax=True)
    soft = F.softmax_with_cross_entropy(x, F.softmax(x * 2), soft_label=True)
    ign = F.softmax_with_cross_entropy(x, paddle.to_tensor([[1], [3], [0]]), ignore_index=3)
    return [loss, sm, soft, ign]


# ---------------------------------------------------------------- nll / bce / kl
@case
def nll_loss_forms(paddle):
    F = paddle.nn.functional
    x = F.log_softmax(_x(paddle, [4, 3], 12))
    y = paddle.to_tensor([0, 2, 1, 1])
    w = paddle.to_tensor([0.5, 1.0, 2.0])
    outs = [F.nll_loss(x, y, reduction=r) for r in REDS] + [F.nll_loss(x, y, weight=w, reduction=r) for r in REDS]
    outs += [F.nll_loss(x, y, ignore_index=1), F.nll_loss(x, paddle.to_tensor([-100, -100, -100, -100]))]
    outs[4].backward()
    return outs


@case
def nll_loss_high_rank(paddle):
    F = paddle.nn.functional
    x = _x(paddle, [2, 3, 2, 2], 13, grad=False)
    x3 = _x(paddle, [2, 3, 5], 14, grad=False)
    return [F.nll_loss(x, paddle.to_tensor(np.array([[[0, 1], [2, 1]], [[1, 1], [0, 2]]])), reduction="none"),
            F.nll_loss(x3, paddle.to_tensor(np.array([[0, 1, 2, 1, 0], [2, 2, 1, 0, 1]])), reduction="none"),
            F.nll_loss(x3, paddle.to_tensor(np.array([[0, 1, 2, 1, 0], [2, 2, 1, 0, 1]])))]


@case
def nll_loss_errors(paddle):
    F = paddle.nn.functional
    errs = []
    for f in (lambda: F.nll_loss(paddle.ones([2, 3]), paddle.to_tensor([0, 5])),
              lambda: F.nll_loss(paddle.ones([3]), paddle.to_tensor([0])),
              lambda: F.nll_loss(paddle.ones([2, 3]), paddle.to_tensor([0, 1]), reduction="x")):
        try:
            f()
            errs.append("no error")
        except Exception as e:  # noqa: BLE001
            errs.append(type(e).__name__)
    return errs


@case
def nll_loss_layer(paddle):
    x = paddle.nn.functional.log_softmax(_x(paddle, [3, 4], 15, grad=False))
    return paddle.nn.NLLLoss(weight=paddle.to_tensor([1.0, 2.0, 3.0, 4.0]), ignore_index=3)(
        x, paddle.to_tensor([0, 3, 2]))


@case
def bce_forms(paddle):
    F = paddle.nn.functional
    p = paddle.nn.functional.sigmoid(_x(paddle, [3, 4], 16))
    y = paddle.to_tensor((data([3, 4], 17) > 0).astype("float32"))
    w = paddle.to_tensor(np.linspace(0.5, 2.0, 4).astype("float32"))
    outs = [F.binary_cross_entropy(p, y, reduction=r) for r in REDS] + [F.binary_cross_entropy(p, y, weight=w)]
    outs[1].backward()
    return outs + [paddle.nn.BCELoss(reduction="sum")(p, y), paddle.to_tensor(0.0) if p.grad is None else p.grad]


@case
def bce_errors(paddle):
    F = paddle.nn.functional
    errs = []
    for f in (lambda: F.binary_cross_entropy(paddle.to_tensor([1.5]), paddle.to_tensor([1.0])),
              lambda: F.binary_cross_entropy(paddle.to_tensor([0.5, 0.2]), paddle.to_tensor([1.0, 0, 1])),
              lambda: paddle.nn.BCELoss(reduction="avg")):
        try:
            f()
            errs.append("no error")
        except Exception as e:  # noqa: BLE001
            errs.append(type(e).__name__)
    return errs


@case
def bce_with_logits_forms(paddle):
    F = paddle.nn.functional
    x = _x(paddle, [3, 4], 18)
    y = paddle.to_tensor((data([3, 4], 19) > 0).astype("float32"))
    pw = paddle.to_tensor([1.0, 2.0, 0.5, 3.0])
    w = paddle.to_tensor([[1.0], [0.5], [2.0]])
    outs = [F.binary_cross_entropy_with_logits(x, y, reduction=r) for r in REDS]
    outs += [F.binary_cross_entropy_with_logits(x, y, weight=w, pos_weight=pw, reduction=r) for r in REDS]
    outs[4].backward()
    outs.append(x.grad)
    outs.append(paddle.nn.BCEWithLogitsLoss(pos_weight=pw)(x, y))
    return outs


@case
def sigmoid_focal_loss_forms(paddle):
    F = paddle.nn.functional
    x = _x(paddle, [3, 2], 20, grad=False)
    y = paddle.to_tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    return [F.sigmoid_focal_loss(x, y), F.sigmoid_focal_loss(x, y, reduction="none", alpha=0.5, gamma=1.0),
            F.sigmoid_focal_loss(x, y, normalizer=paddle.to_tensor([2.0]), reduction="mean")]


@case
def kl_div_forms(paddle):
    F = paddle.nn.functional
    x = F.log_softmax(_x(paddle, [3, 4], 21))
    t = F.softmax(_x(paddle, [3, 4], 22, grad=False))
    outs = [F.kl_div(x, t, reduction=r) for r in ("none", "mean", "sum", "batchmean")]
    outs.append(F.kl_div(x, paddle.log(t), log_target=True, reduction="sum"))
    outs.append(F.kl_div(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([-1.0, 0.5]), reduction="none"))
    outs.append(F.kl_div(x, t.astype("float64")))
    outs[3].backward()
    outs.append(x.grad)
    outs.append(paddle.nn.KLDivLoss(reduction="batchmean")(x, t))
    return outs


# ---------------------------------------------------------------- regression
@case
def regression_losses(paddle):
    F = paddle.nn.functional
    a = _x(paddle, [3, 4], 23)
    b = _x(paddle, [3, 4], 24, grad=False)
    outs = []
    for r in REDS:
        outs += [F.mse_loss(a, b, r), F.l1_loss(a, b, r), F.smooth_l1_loss(a, b, r),
                 F.smooth_l1_loss(a, b, r, delta=0.5), F.smooth_l1_loss(a, b, r, delta=0.5, is_huber=False)]
    outs += [F.square_error_cost(a, b), paddle.nn.MSELoss("sum")(a, b), paddle.nn.L1Loss()(a, b),
             paddle.nn.SmoothL1Loss(delta=2.0)(a, b)]
    outs[1].backward()
    return outs + [a.grad]


@case
def regression_errors(paddle):
    F = paddle.nn.functional
    errs = []
    for f in (lambda: F.mse_loss(paddle.ones([2]), paddle.ones([2]), "avg"),
              lambda: F.mse_loss(paddle.ones([2]), paddle.to_tensor([1, 2])),
              lambda: F.l1_loss(paddle.ones([2]), paddle.ones([2]), "avg"),
              lambda: F.smooth_l1_loss(paddle.ones([2]), paddle.ones([2, 1])),
              lambda: paddle.nn.MSELoss("avg")):
        try:
            f()
            errs.append("no error")
        except Exception as e:  # noqa: BLE001
            errs.append(type(e).__name__)
    return errs


@case
def log_loss_and_dice(paddle):
    F = paddle.nn.functional
    p = F.sigmoid(_x(paddle, [4, 1], 25, grad=False))
    y = paddle.to_tensor([[1.0], [0.0], [1.0], [0.0]])
    probs = F.softmax(_x(paddle, [2, 3, 4], 26, grad=False))
    lab = paddle.to_tensor(np.array([[[0], [3], [1]], [[2], [2], [0]]]))
    return [F.log_loss(p, y), F.log_loss(p, y, epsilon=0.01), F.dice_loss(probs, lab)]


@case
def poisson_and_gaussian_nll(paddle):
    F = paddle.nn.functional
    x = _x(paddle, [3, 4], 27)
    y = paddle.to_tensor(np.abs(data([3, 4], 28)) * 3)
    outs = [F.poisson_nll_loss(x, y, reduction=r) for r in REDS]
    outs += [F.poisson_nll_loss(paddle.exp(x), y, log_input=False, full=True),
             paddle.nn.PoissonNLLLoss(full=True)(x, y)]
    var = paddle.to_tensor(np.abs(data([3, 4], 29)) + 0.1)
    outs += [F.gaussian_nll_loss(x, y, var, reduction=r) for r in REDS]
    outs += [F.gaussian_nll_loss(x, y, paddle.to_tensor(np.abs(data([3], 30)) + 0.1), full=True),
             paddle.nn.GaussianNLLLoss(full=True)(x, y, var)]
    outs[0].sum().backward()
    return outs + [x.grad]


@case
def poisson_gaussian_errors(paddle):
    F = paddle.nn.functional
    errs = []
    for f in (lambda: F.poisson_nll_loss(paddle.ones([2]), paddle.ones([3])),
              lambda: F.poisson_nll_loss(paddle.ones([2]), paddle.ones([2]), epsilon=0),
              lambda: F.gaussian_nll_loss(paddle.ones([2, 3]), paddle.ones([2, 3]), paddle.ones([3, 2])),
              lambda: F.gaussian_nll_loss(paddle.ones([2]), paddle.ones([2]), -paddle.ones([2]))):
        try:
            f()
            errs.append("no error")
        except Exception as e:  # noqa: BLE001
            errs.append(type(e).__name__)
    return errs


# ---------------------------------------------------------------- margin / embedding
@case
def margin_ranking_and_hinge(paddle):
    F = paddle.nn.functional
    a = _x(paddle, [5], 31)
    b = _x(paddle, [5], 32, grad=False)
    lab = paddle.to_tensor([1.0, -1.0, 1.0, -1.0, 1.0])
    outs = [F.margin_ranking_loss(a, b, lab, reduction=r) for r in REDS]
    outs += [F.margin_ranking_loss(a, b, lab, margin=0.3), paddle.nn.MarginRankingLoss(0.1, "sum")(a, b, lab)]
    outs += [F.hinge_embedding_loss(a, lab, reduction=r) for r in REDS]
    outs += [F.hinge_embedding_loss(a, lab, margin=2.0), paddle.nn.HingeEmbeddingLoss(0.5)(a, lab)]
    outs[1].backward()
    return outs + [a.grad]


@case
def cosine_embedding(paddle):
    F = paddle.nn.functional
    a = _x(paddle, [3, 4], 33)
    b = _x(paddle, [3, 4], 34, grad=False)
    lab = paddle.to_tensor([1, -1, 1])
    outs = [F.cosine_embedding_loss(a, b, lab, reduction=r) for r in REDS]
    outs += [F.cosine_embedding_loss(a, b, lab, margin=0.2), paddle.nn.CosineEmbeddingLoss(0.1)(a, b, lab),
             F.cosine_embedding_loss(a[0], b[0], paddle.to_tensor([1]))]
    outs[1].backward()
    return outs + [a.grad]


@case
def cosine_embedding_errors(paddle):
    F = paddle.nn.functional
    errs = []
    for f in (lambda: F.cosine_embedding_loss(paddle.ones([2, 3]), paddle.ones([2, 3]), paddle.ones([2, 1])),
              lambda: F.cosine_embedding_loss(paddle.ones([2, 3]), paddle.ones([2, 4]), paddle.ones([2])),
              lambda: paddle.nn.CosineEmbeddingLoss(margin=2)):
        try:
            f()
            errs.append("no error")
        except Exception as e:  # noqa: BLE001
            errs.append(type(e).__name__)
    return errs


@case
def triplet_losses(paddle):
    F = paddle.nn.functional
    a = _x(paddle, [3, 4], 35)
    p = _x(paddle, [3, 4], 36, grad=False)
    n = _x(paddle, [3, 4], 37, grad=False)
    outs = [F.triplet_margin_loss(a, p, n, reduction=r) for r in REDS]
    outs += [F.triplet_margin_loss(a, p, n, margin=2.0, p=1, swap=True),
             paddle.nn.TripletMarginLoss(margin=1.5, p=3)(a, p, n)]
    outs += [F.triplet_margin_with_distance_loss(a, p, n, reduction=r) for r in REDS]
    outs += [F.triplet_margin_with_distance_loss(a, p, n, distance_function=lambda u, v: (u - v).abs().sum(-1),
                                                 swap=True),
             paddle.nn.TripletMarginWithDistanceLoss(margin=0.5)(a, p, n)]
    outs[1].backward()
    return outs + [a.grad]


@case
def triplet_errors(paddle):
    F = paddle.nn.functional
    errs = []
    for f in (lambda: F.triplet_margin_loss(paddle.ones([2, 3]), paddle.ones([2, 3]), paddle.ones([2, 4])),
              lambda: F.triplet_margin_loss(paddle.ones([2, 3]), paddle.ones([2, 3]), paddle.ones([2, 3]), margin=-1),
              lambda: F.triplet_margin_with_distance_loss(paddle.ones([2, 3]), paddle.ones([2, 3]),
                                                          paddle.ones([2, 3]), distance_function=lambda u, v: -(u + v).sum(-1))):
        try:
            f()
            errs.append("no error")
        except Exception as e:  # noqa: BLE001
            errs.append(type(e).__name__)
    return errs


@case
def multi_margin_and_label_losses(paddle):
    F = paddle.nn.functional
    x = _x(paddle, [3, 4], 38)
    y = paddle.to_tensor([1, 0, 3])
    outs = [F.multi_margin_loss(x, y, reduction=r) for r in REDS]
    outs += [F.multi_margin_loss(x, y, p=2, margin=0.5, weight=paddle.to_tensor([1.0, 2.0, 0.5, 1.0])),
             paddle.nn.MultiMarginLoss(p=2)(x, y)]
    ml = paddle.to_tensor([[3, 0, -1, 1], [0, 1, 2, 3], [1, -1, 2, 0]])
    outs += [F.multi_label_margin_loss(x, ml, reduction=r) for r in REDS]
    outs.append(paddle.nn.MultiLabelMarginLoss("sum")(x, ml))
    yl = paddle.to_tensor((data([3, 4], 39) > 0).astype("float32"))
    outs += [F.multi_label_soft_margin_loss(x, yl, reduction=r) for r in REDS]
    outs += [F.multi_label_soft_margin_loss(x, yl, weight=paddle.to_tensor([1.0, 2.0, 0.5, 1.0])),
             paddle.nn.MultiLabelSoftMarginLoss()(x, yl)]
    sl = paddle.to_tensor(np.where(data([3, 4], 40) > 0, 1, -1).astype("int64"))
    outs += [F.soft_margin_loss(x, sl, reduction=r) for r in REDS]
    outs.append(paddle.nn.SoftMarginLoss("sum")(x, sl))
    outs[1].backward()
    return outs + [x.grad]


@case
def multi_label_margin_errors(paddle):
    F = paddle.nn.functional
    errs = []
    for f in (lambda: F.multi_label_margin_loss(paddle.ones([2, 3]), paddle.to_tensor([[0, 3, -1], [0, 1, 2]])),
              lambda: F.multi_label_margin_loss(paddle.ones([3]), paddle.to_tensor([0, 1, 2])),
              lambda: F.multi_margin_loss(paddle.ones([2, 3]), paddle.to_tensor([0, 1, 2])),
              lambda: F.soft_margin_loss(paddle.ones([2, 3]), paddle.ones([3, 2])),
              lambda: F.multi_label_soft_margin_loss(paddle.ones([2, 3]), paddle.ones([2, 2]))):
        try:
            f()
            errs.append("no error")
        except Exception as e:  # noqa: BLE001
            errs.append(type(e).__name__)
    return errs


@case
def npair(paddle):
    F = paddle.nn.functional
    a = _x(paddle, [4, 3], 41)
    p = _x(paddle, [4, 3], 42, grad=False)
    out = F.npair_loss(a, p, paddle.to_tensor([1.0, 2.0, 1.0, 3.0]))
    out.backward()
    return [out, F.npair_loss(a, p, paddle.to_tensor([0, 0, 1, 1]), l2_reg=0.1), a.grad]


# ---------------------------------------------------------------- ctc / adaptive softmax
@case(rtol=1e-5, atol=1e-5)  # different float32 summation order in the CTC recursion
def ctc(paddle):
    F = paddle.nn.functional
    logits = _x(paddle, [6, 2, 4], 43)
    labels = paddle.to_tensor([[1, 2, 2], [3, 1, 0]], dtype="int32")
    il = paddle.to_tensor([6, 5], dtype="int64")
    ll = paddle.to_tensor([3, 2], dtype="int64")
    outs = [F.ctc_loss(logits, labels, il, ll, reduction=r) for r in REDS]
    outs.append(paddle.nn.CTCLoss(blank=0, reduction="sum")(logits, labels, il, ll))
    outs[1].backward()
    return outs + [logits.grad]


@case
def adaptive_log_softmax(paddle):
    from tests.cases import fill_parameters

    m = paddle.nn.AdaptiveLogSoftmaxWithLoss(6, 8, [3, 5], div_value=2.0, head_bias=True)
    fill_parameters(m, 1)
    for i, ws in enumerate(m.tail_weights):
        for j, w in enumerate(ws):
            w.set_value(data(w.shape, 100 + 10 * i + j, scale=0.5))
    x = _x(paddle, [5, 6], 44)
    out, loss = m(x, paddle.to_tensor([0, 4, 7, 2, 5]))
    loss.backward()
    return [out, loss, x.grad, m.log_prob(x.detach()), m.predict(x.detach()), [n for n, _ in m.named_parameters()],
            repr(m)]


@case
def adaptive_log_softmax_errors(paddle):
    errs = []
    for f in (lambda: paddle.nn.AdaptiveLogSoftmaxWithLoss(4, 5, [3, 2]),
              lambda: paddle.nn.AdaptiveLogSoftmaxWithLoss(4, 5, [2])(paddle.ones([2, 4]), paddle.to_tensor([1, 9]))):
        try:
            f()
            errs.append("no error")
        except Exception as e:  # noqa: BLE001
            errs.append(type(e).__name__)
    return errs


# ---------------------------------------------------------------- hsigmoid_loss / HSigmoidLoss
@case(rtol=1e-5, atol=1e-5)
def hsigmoid_default_tree(paddle):
    F = paddle.nn.functional
    res = []
    for n in (2, 5, 8, 13):
        x = _x(paddle, [6, 4], n)
        w = _x(paddle, [n - 1, 4], n + 1)
        b = _x(paddle, [n - 1, 1], n + 2)
        y = paddle.to_tensor([i % n for i in (0, 1, 4, 7, 12, 3)])
        out = F.hsigmoid_loss(x, y, n, w, b)
        out.sum().backward()
        res += [out, x.grad, w.grad, b.grad]
    return res


@case(rtol=1e-5, atol=1e-5)
def hsigmoid_no_bias_label_column_float64(paddle):
    F = paddle.nn.functional
    x = _x(paddle, [3, 5], 20, dtype="float64")
    w = _x(paddle, [6, 5], 21, dtype="float64")
    return F.hsigmoid_loss(x, paddle.to_tensor([[6], [0], [3]]), 7, w)


@case(rtol=1e-5, atol=1e-5)
def hsigmoid_clipped_pre_out(paddle):
    # |pre| > 40 is clipped; Paddle's gradient ignores the clip
    F = paddle.nn.functional
    x = _x(paddle, [2, 3], 22, scale=30.0)
    w = _x(paddle, [3, 3], 23, scale=3.0)
    out = F.hsigmoid_loss(x, paddle.to_tensor([1, 2]), 4, w)
    out.sum().backward()
    return [out, x.grad, w.grad]


@case(rtol=1e-5, atol=1e-5)
def hsigmoid_custom_tree(paddle):
    F = paddle.nn.functional
    x = _x(paddle, [4, 3], 24)
    w = _x(paddle, [6, 3], 25)
    b = _x(paddle, [6, 1], 26)
    table = paddle.to_tensor([[0, 2, 5], [0, 1, -1], [0, 3, 4], [0, -1, 4]])
    code = paddle.to_tensor([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]])
    out = F.hsigmoid_loss(x, paddle.to_tensor([0, 1, 2, 3]), 6, w, b, path_table=table, path_code=code)
    out.mean().backward()
    return [out, x.grad, w.grad, b.grad]


@case(rtol=1e-5, atol=1e-5)
def hsigmoid_layer_default_and_custom(paddle):
    paddle.seed(1)
    m = fill_parameters(paddle.nn.HSigmoidLoss(4, 6), seed=3)
    x = _x(paddle, [3, 4], 27)
    res = [m(x, paddle.to_tensor([5, 0, 2])), m.weight.shape, m.bias.shape]
    mc = fill_parameters(paddle.nn.HSigmoidLoss(4, 5, is_custom=True, is_sparse=True), seed=4)
    table = paddle.to_tensor([[0, 1], [0, 2], [3, 4]])
    code = paddle.to_tensor([[0, 1], [1, 1], [1, 0]])
    res += [mc(x, paddle.to_tensor([0, 1, 2]), table, code), mc.weight.shape]
    return res


@case
def hsigmoid_num_classes_too_small(paddle):
    return paddle.nn.functional.hsigmoid_loss(paddle.ones([2, 3]), paddle.to_tensor([0, 1]), 1, paddle.ones([1, 3]))


@case
def hsigmoid_layer_num_classes_too_small(paddle):
    return paddle.nn.HSigmoidLoss(3, 1)


# ---------------------------------------------------------------- margin_cross_entropy (one process)
def _margin_reference(cos, label, m1, m2, m3, s, reduction):
    """NumPy transcription of Paddle's GPU kernel (its CPU build has none) and of its gradient."""
    cos = cos.astype("float64")
    n = cos.shape[0]
    rows = np.arange(n)
    theta = np.arccos(cos[rows, label])
    z = cos.copy()
    z[rows, label] = np.cos(m1 * theta + m2) - m3
    z = z * s
    z = z - z.max(1, keepdims=True)
    sm = np.exp(z) / np.exp(z).sum(1, keepdims=True)
    loss = -np.log(sm[rows, label])[:, None]
    dloss = np.ones_like(loss) / (n if reduction == "mean" else 1)
    g = sm * dloss
    g[rows, label] -= dloss[:, 0]
    g[rows, label] *= m1 * np.sin(m1 * theta + m2) / np.sqrt(1 - cos[rows, label] ** 2)
    g = g * s
    loss = loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss
    return [np.asarray(loss, "float32"), sm.astype("float32"), g.astype("float32")]


@case(rtol=2e-5, atol=2e-5)
def margin_cross_entropy_values_and_grad(paddle):
    F = paddle.nn.functional
    rng = np.random.default_rng(3)
    cos = rng.uniform(-0.95, 0.95, [4, 6]).astype("float32")
    label = np.array([1, 5, 0, 3])
    res = []
    for m1, m2, m3, s, red in ((1.0, 0.5, 0.0, 64.0, "mean"), (1.0, 0.0, 0.35, 30.0, "sum"),
                               (1.35, 0.25, 0.1, 8.0, None), (1.0, 0.0, 0.0, 1.0, "mean")):
        x = paddle.to_tensor(cos, stop_gradient=False)
        try:
            loss, sm = F.margin_cross_entropy(x, paddle.to_tensor(label), m1, m2, m3, s, return_softmax=True,
                                              reduction=red)
            loss.sum().backward()
            res += [loss.numpy(), sm.numpy(), x.grad.numpy()]
        except RuntimeError:  # real Paddle's CPU build: "(Unavailable) Do not support ... for cpu kernel now"
            res += _margin_reference(cos, label, m1, m2, m3, s, red)
    return res


@case(rtol=2e-5, atol=2e-5)
def margin_cross_entropy_label_column_and_shapes(paddle):
    F = paddle.nn.functional
    cos = np.random.default_rng(4).uniform(-0.9, 0.9, [3, 5]).astype("float32")
    try:
        loss = F.margin_cross_entropy(paddle.to_tensor(cos), paddle.to_tensor([[4], [0], [2]]), reduction="none")
        return [loss.numpy(), loss.shape]
    except RuntimeError:
        ref = _margin_reference(cos, np.array([4, 0, 2]), 1.0, 0.5, 0.0, 64.0, "none")[0]
        return [ref, list(ref.shape)]


@case
def margin_cross_entropy_bad_label_rank(paddle):
    return paddle.nn.functional.margin_cross_entropy(paddle.ones([2, 3]) * 0.5, paddle.ones([2, 1, 1], "int64"))


# ---------------------------------------------------------------- rnnt_loss / RNNTLoss (warprnnt's CPU kernel)
def _rnnt_inputs(paddle, b, t, u, v, seed, log_softmax=True, dtype="float32"):
    acts = data([b, t, u + 1, v], seed, dtype=dtype)
    x = paddle.to_tensor(acts, stop_gradient=False)
    inp = paddle.nn.functional.log_softmax(x, -1) if log_softmax else x
    rng = np.random.default_rng(seed)
    label = paddle.to_tensor(rng.integers(1, v, [b, u]).astype("int32"))
    return x, inp, label


@case(rtol=1e-5, atol=1e-5)
def rnnt_loss_lengths_and_fastemit(paddle):
    F = paddle.nn.functional
    res = []
    for lam in (0.0, 0.001, 0.3):
        x, inp, label = _rnnt_inputs(paddle, 3, 5, 3, 6, 1)
        il = paddle.to_tensor([5, 3, 4], dtype="int32")
        ll = paddle.to_tensor([3, 1, 2], dtype="int32")
        loss = F.rnnt_loss(inp, label, il, ll, fastemit_lambda=lam, reduction="none")
        (loss * paddle.to_tensor([1.0, 2.0, -0.5])).sum().backward()
        res += [loss, x.grad]
    return res


@case(rtol=1e-5, atol=1e-5)
def rnnt_loss_raw_acts_blank_and_reductions(paddle):
    # the CPU kernel takes its input as log-probabilities as they are (no log_softmax inside)
    F = paddle.nn.functional
    res = []
    for red in ("mean", "sum", "none"):
        x, _, label = _rnnt_inputs(paddle, 2, 4, 2, 5, 2, log_softmax=False)
        label = paddle.where(label == 4, paddle.zeros_like(label), label)  # blank is 4: labels use 0..3
        loss = F.rnnt_loss(x, label, paddle.to_tensor([4, 2], dtype="int32"),
                           paddle.to_tensor([2, 2], dtype="int32"), blank=4, reduction=red)
        loss.sum().backward()
        res += [loss, x.grad]
    return res


@case(rtol=1e-6, atol=1e-6)
def rnnt_loss_float64_empty_label(paddle):
    F = paddle.nn.functional
    x, inp, label = _rnnt_inputs(paddle, 2, 3, 2, 4, 3, dtype="float64")
    loss = F.rnnt_loss(inp, label, paddle.to_tensor([3, 3], dtype="int32"), paddle.to_tensor([0, 2], dtype="int32"),
                       fastemit_lambda=0.01)
    loss.backward()
    return [loss, x.grad]


@case(rtol=1e-5, atol=1e-5)
def rnnt_loss_layer(paddle):
    x, inp, label = _rnnt_inputs(paddle, 2, 6, 4, 7, 4)
    m = paddle.nn.RNNTLoss(blank=0, fastemit_lambda=0.05, reduction="sum")
    loss = m(inp, label, paddle.to_tensor([6, 5], dtype="int32"), paddle.to_tensor([4, 3], dtype="int32"))
    loss.backward()
    return [loss, x.grad]


@case
def rnnt_loss_int64_label(paddle):
    x, inp, label = _rnnt_inputs(paddle, 1, 2, 1, 3, 5)
    return paddle.nn.functional.rnnt_loss(inp, label.astype("int64"), paddle.to_tensor([2], dtype="int32"),
                                          paddle.to_tensor([1], dtype="int32"))


# ---------------------------------------------------------------- torch's legacy reduce / size_average

@case
def legacy_reduce_keyword(paddle):
    return paddle.nn.MSELoss(reduce=False)


@case
def legacy_size_average_keyword(paddle):
    return paddle.nn.NLLLoss(size_average=False, reduce=True)


@case
def legacy_positional_bool(paddle):
    return paddle.nn.BCELoss(None, False)


@case
def legacy_positional_bool_after_reduction(paddle):
    return paddle.nn.TripletMarginLoss(1.0, 2.0, 1e-6, False, True)


@case
def legacy_keywords_of_huber_loss(paddle):
    return paddle.nn.HuberLoss(size_average=True)


@case
def legacy_keywords_none(paddle):
    return paddle.nn.KLDivLoss(size_average=None, reduce=None)


@case
def legacy_exempt_when_reduction_given(paddle):
    """CrossEntropyLoss / KLDivLoss with a real reduction at its position: the bool after it is soft_label, the
    legacy keyword is dropped (Paddle's special case); the functional losses refuse the keywords (TypeError)."""
    ce = paddle.nn.CrossEntropyLoss(None, -100, "mean", True)
    kl = paddle.nn.KLDivLoss("sum", reduce=False)
    try:
        paddle.nn.functional.mse_loss(paddle.ones([2]), paddle.ones([2]), reduce=False)
        functional = "accepted"
    except TypeError:
        functional = "TypeError"
    return [ce.soft_label, ce.reduction, kl.reduction, paddle.nn.KLDivLoss("batchmean", True).reduction,
            paddle.nn.MSELoss("sum").reduction, paddle.nn.TripletMarginLoss(1.0, 2.0, 1e-6, False).swap, functional]


@case
def legacy_cross_entropy_other_reduction(paddle):
    return paddle.nn.CrossEntropyLoss(None, -100, "foo", True)
