"""paddle.metric: the metric classes (numpy-side statistics and their return types) and paddle.metric.accuracy."""
import numpy as np

from tests.cases import case, data


def _scores(n=6, c=5, seed=3):
    return data([n, c], seed=seed)


_LABELS = [[4], [0], [2], [2], [1], [3]]


@case
def accuracy_fn_top1_top3(paddle):
    x = paddle.to_tensor(_scores())
    y = paddle.to_tensor(_LABELS)
    return [paddle.metric.accuracy(x, y), paddle.metric.accuracy(x, y, k=3),
            paddle.metric.accuracy(input=x, label=y, k=5)]


@case
def accuracy_fn_int32_label_and_counters(paddle):
    x = paddle.to_tensor(_scores(seed=4))
    y = paddle.to_tensor(_LABELS, dtype="int32")
    correct = paddle.zeros([1], dtype="int32")
    total = paddle.zeros([1], dtype="int32")
    acc = paddle.metric.accuracy(x, y, k=2, correct=correct, total=total)
    return acc, correct, total


@case
def accuracy_fn_1d_label_error(paddle):
    return paddle.metric.accuracy(paddle.to_tensor(_scores()), paddle.to_tensor([1, 2, 3, 4, 0, 1]))


@case
def accuracy_fn_float_label_error(paddle):
    return paddle.metric.accuracy(paddle.to_tensor(_scores()), paddle.to_tensor(_LABELS, dtype="float32"))


@case
def accuracy_fn_wide_label_error(paddle):
    return paddle.metric.accuracy(paddle.to_tensor(_scores()), paddle.to_tensor([[0, 1]] * 6))


@case
def accuracy_fn_rows_mismatch(paddle):
    return paddle.metric.accuracy(paddle.to_tensor(_scores()), paddle.to_tensor(_LABELS[:4]))


@case
def accuracy_fn_k_too_large(paddle):
    return paddle.metric.accuracy(paddle.to_tensor(_scores()), paddle.to_tensor(_LABELS), k=9)


@case
def accuracy_class_single_topk(paddle):
    m = paddle.metric.Accuracy()
    x = paddle.to_tensor(_scores())
    correct = m.compute(x, paddle.to_tensor(_LABELS))
    step = m.update(correct)
    return correct, step, m.accumulate(), m.name(), m.total, m.count


@case
def accuracy_class_multi_topk_streaming(paddle):
    m = paddle.metric.Accuracy(topk=(1, 2, 4), name="hit")
    steps = []
    for seed in (1, 2, 3):
        x = paddle.to_tensor(_scores(seed=seed))
        steps.append(m.update(m.compute(x, paddle.to_tensor(_LABELS))))
    out = [steps, m.accumulate(), m.name(), m.maxk]
    m.reset()
    out += [m.accumulate(), m.total, m.count]
    return out


@case
def accuracy_class_label_forms(paddle):
    m = paddle.metric.Accuracy(topk=(2,))
    x = paddle.to_tensor(_scores(seed=7))
    flat = paddle.to_tensor([4, 0, 2, 2, 1, 3])
    onehot = paddle.nn.functional.one_hot(flat, 5)
    return [m.compute(x, flat), m.compute(x, onehot), m.compute(x, paddle.to_tensor(_LABELS)), m.name()]


@case
def accuracy_class_update_numpy_3d(paddle):
    m = paddle.metric.Accuracy(topk=(1, 3))
    correct = (np.arange(24).reshape([2, 4, 3]) % 3 == 1).astype("float32")
    return m.update(correct), m.accumulate(), m.count


@case
def accuracy_class_compute_broadcast_error(paddle):
    m = paddle.metric.Accuracy()
    return m.compute(paddle.to_tensor(data([2, 3, 4])), paddle.to_tensor([[1, 2, 3], [0, 0, 1]]))


@case
def metric_base_is_abstract(paddle):
    return paddle.metric.Metric()


@case
def metric_subclass_and_default_compute(paddle):
    class Count(paddle.metric.Metric):
        def __init__(self):
            super().__init__()
            self.n = 0

        def reset(self):
            self.n = 0

        def update(self, x):
            self.n += int(x.shape[0])

        def accumulate(self):
            return self.n

        def name(self):
            return "count"

    m = Count()
    args = m.compute(paddle.ones([3, 2]), 5)
    m.update(args[0])
    m.update(paddle.ones([4]))
    return [len(args), args[1], m.accumulate(), m.name(), isinstance(m, paddle.metric.Metric)]


@case
def precision_streaming(paddle):
    p = paddle.metric.Precision()
    p.update(np.array([0.1, 0.5, 0.49, 0.9, 0.7]), np.array([0, 1, 1, 0, 1]))
    first = p.accumulate()
    p.update(paddle.to_tensor([[0.8], [0.2]]), paddle.to_tensor([[1], [0]]))
    return [first, p.accumulate(), p.tp, p.fp, p.name()]


@case
def precision_no_positive_and_reset(paddle):
    p = paddle.metric.Precision(name="prec")
    p.update(np.array([0.1, 0.3]), np.array([1, 1]))
    a = p.accumulate()
    p.update(np.array([0.9]), np.array([0]))
    b = p.accumulate()
    p.reset()
    return [a, b, p.accumulate(), p.name()]


@case
def precision_rejects_lists(paddle):
    paddle.metric.Precision().update([0.2, 0.8], [0, 1])


@case
def recall_streaming_rint_half(paddle):
    r = paddle.metric.Recall()
    # np.rint rounds 0.5 to 0 and 1.5 to 2: the half-way prediction counts as a miss
    r.update(np.array([0.5, 0.51, 0.9, 0.2, 0.7]), np.array([1, 1, 1, 1, 0]))
    a = r.accumulate()
    r.update(paddle.to_tensor([0.6, 0.4]), paddle.to_tensor([1, 0]))
    return [a, r.accumulate(), r.tp, r.fn, r.name()]


@case
def recall_rejects_bad_labels(paddle):
    paddle.metric.Recall().update(np.array([0.2]), 1)


@case
def auc_roc_streaming(paddle):
    auc = paddle.metric.Auc()
    rng = np.random.default_rng(5)
    for _ in range(3):
        p = rng.random(16)
        preds = np.stack([1 - p, p], axis=1)
        labels = (rng.random(16) < p).astype("int64")
        auc.update(paddle.to_tensor(preds), paddle.to_tensor(labels))
    return [auc.accumulate(), auc.name(), int(auc._stat_pos.sum()), int(auc._stat_neg.sum())]


@case
def auc_coarse_buckets_and_reset(paddle):
    auc = paddle.metric.Auc(curve="PR", num_thresholds=4, name="a")
    preds = np.array([[0.9, 0.1], [0.3, 0.7], [0.6, 0.4], [0.0, 1.0], [0.5, 0.5]])
    auc.update(preds, np.array([[0], [1], [1], [1], [0]]))
    a = auc.accumulate()
    stats = [auc._stat_pos.tolist(), auc._stat_neg.tolist()]
    auc.reset()
    return [a, stats, auc.accumulate(), auc.name()]


@case
def auc_one_class_only(paddle):
    auc = paddle.metric.Auc(num_thresholds=10)
    auc.update(np.array([[0.2, 0.8], [0.6, 0.4]]), np.array([1, 1]))
    return auc.accumulate()


@case
def auc_rejects_lists(paddle):
    paddle.metric.Auc().update([[0.2, 0.8]], np.array([1]))
