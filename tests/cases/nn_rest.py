"""paddle.nn's remaining names: gather_tree, BeamSearchDecoder/dynamic_decode, hsigmoid_loss, class_center_sample,
margin_cross_entropy, rnnt_loss, rms_norm and paddle.nn.quant."""
import numpy as np

from tests.cases import case, data, fill_parameters


def _x(paddle, shape, seed, grad=True, dtype="float32", scale=1.0):
    return paddle.to_tensor(data(shape, seed, dtype=dtype, scale=scale), stop_gradient=not grad)


# ---------------------------------------------------------------- gather_tree
_IDS = [[[4, 1, 7], [2, 2, 0]], [[3, 9, 5], [8, 6, 1]], [[0, 5, 2], [7, 3, 4]], [[6, 1, 1], [2, 0, 9]]]
_PAR = [[[0, 0, 0], [0, 0, 0]], [[2, 0, 1], [1, 1, 0]], [[1, 2, 0], [0, 2, 2]], [[2, 2, 1], [1, 0, 2]]]


@case
def gather_tree_int64_and_int32(paddle):
    F = paddle.nn.functional
    out = [F.gather_tree(paddle.to_tensor(_IDS), paddle.to_tensor(_PAR))]
    out.append(F.gather_tree(paddle.to_tensor(_IDS, dtype="int32"), paddle.to_tensor(_PAR, dtype="int32")))
    out.append(F.gather_tree(paddle.to_tensor(_IDS[:1]), paddle.to_tensor(_PAR[:1])))  # one step: ids unchanged
    return out


@case
def gather_tree_first_parents_unused(paddle):
    par = [list(map(list, p)) for p in _PAR]
    par[0] = [[7, -3, 9], [5, 5, 5]]  # never read by the backtrace
    return paddle.nn.functional.gather_tree(paddle.to_tensor(_IDS), paddle.to_tensor(par))


@case
def gather_tree_parent_too_large(paddle):
    par = [list(map(list, p)) for p in _PAR]
    par[3] = [[2, 3, 1], [1, 0, 2]]
    return paddle.nn.functional.gather_tree(paddle.to_tensor(_IDS), paddle.to_tensor(par))


@case
def gather_tree_parent_negative(paddle):
    par = [list(map(list, p)) for p in _PAR]
    par[2] = [[-1, -1, -1], [0, 0, 0]]
    return paddle.nn.functional.gather_tree(paddle.to_tensor(_IDS), paddle.to_tensor(par))


@case
def gather_tree_not_3d(paddle):
    return paddle.nn.functional.gather_tree(paddle.to_tensor(_IDS[0]), paddle.to_tensor(_PAR[0]))


@case
def gather_tree_shape_mismatch(paddle):
    return paddle.nn.functional.gather_tree(paddle.to_tensor(_IDS), paddle.to_tensor(_PAR[:2]))


@case
def gather_tree_float_ids(paddle):
    return paddle.nn.functional.gather_tree(paddle.to_tensor(_IDS, dtype="float32"), paddle.to_tensor(_PAR))


# ---------------------------------------------------------------- BeamSearchDecoder / dynamic_decode
def _decoder(paddle, cell_kind="gru", beam=3, vocab=11, hidden=8, end=1, seed=0, output_fn=True):
    nn = paddle.nn
    emb = nn.Embedding(vocab, 6)
    cell = nn.GRUCell(6, hidden) if cell_kind == "gru" else nn.LSTMCell(6, hidden)
    out = nn.Linear(hidden, vocab)
    for i, layer in enumerate((emb, cell, out)):
        fill_parameters(layer, seed=seed + i, scale=0.9)
    dec = nn.BeamSearchDecoder(cell, start_token=0, end_token=end, beam_size=beam, embedding_fn=emb,
                               output_fn=out if output_fn else None)
    return dec, cell


def _state_list(st):
    cells = st.cell_states if isinstance(st.cell_states, (list, tuple)) else [st.cell_states]
    return list(cells) + [st.log_probs, st.finished, st.lengths]


@case(rtol=1e-5, atol=1e-5)
def beam_search_gru_max_steps(paddle):
    dec, _ = _decoder(paddle)
    h0 = _x(paddle, [2, 8], 3, grad=False)
    ids, st, lens = paddle.nn.dynamic_decode(dec, inits=h0, max_step_num=6, return_length=True)
    return [ids, lens] + _state_list(st) + [type(st).__name__, list(st._fields)]


@case(rtol=1e-5, atol=1e-5)
def beam_search_finishes_early(paddle):
    # end_token 3 is likely under these weights: beams finish and lengths stop growing
    dec, _ = _decoder(paddle, beam=2, vocab=5, end=3, seed=9)  # all finish after 5 steps
    h0 = _x(paddle, [3, 8], 4, grad=False)
    ids, st, lens = paddle.nn.dynamic_decode(dec, inits=h0, max_step_num=20, return_length=True, is_test=True)
    return [ids, lens] + _state_list(st)


@case(rtol=1e-5, atol=1e-5)
def beam_search_lstm_time_major(paddle):
    dec, cell = _decoder(paddle, cell_kind="lstm", beam=2, vocab=7, seed=11)
    h0, c0 = _x(paddle, [2, 8], 5, grad=False), _x(paddle, [2, 8], 6, grad=False)
    ids, st = paddle.nn.dynamic_decode(dec, inits=[h0, c0], max_step_num=4, output_time_major=True)
    return [ids] + _state_list(st)


@case(rtol=1e-5, atol=1e-5)
def beam_search_step_by_step(paddle):
    dec, _ = _decoder(paddle, beam=2, vocab=6, seed=3)
    h0 = _x(paddle, [2, 8], 8, grad=False)
    inputs, states, finished = dec.initialize(h0)
    res = [inputs, finished] + _state_list(states)
    for t in range(2):
        out, states, inputs, finished = dec.step(paddle.to_tensor([t]), inputs, states)
        res += [out.scores, out.predicted_ids, out.parent_ids, inputs, finished] + _state_list(states)
    res.append(paddle.nn.BeamSearchDecoder.tile_beam_merge_with_batch(_x(paddle, [2, 3], 9, grad=False), 2))
    return res


@case(rtol=1e-5, atol=1e-5)
def beam_search_gradient_flows_to_scores(paddle):
    dec, cell = _decoder(paddle, beam=2, vocab=6, seed=5)
    h0 = _x(paddle, [2, 8], 10)
    ids, st = paddle.nn.dynamic_decode(dec, inits=h0, max_step_num=2)
    st.log_probs.sum().backward()
    return [ids, st.log_probs, h0.grad, cell.weight_hh.grad]


class _Greedyish:
    """A plain Decoder (does not track its own finished): exercises impute_finished and lengths."""

    def __init__(self, paddle, cell, steps_done):
        self.paddle, self.cell, self.done = paddle, cell, steps_done

    def initialize(self, inits):
        p = self.paddle
        fin = p.zeros([inits.shape[0]], dtype="bool")
        return p.ones([inits.shape[0], 4]), inits, fin

    def step(self, time, inputs, states, **kw):
        p = self.paddle
        out, new = self.cell(inputs, states)
        fin = p.to_tensor(self.done) <= time
        return out, new, inputs * 0.5, fin

    def finalize(self, outputs, final_states, sequence_lengths):
        raise NotImplementedError

    @property
    def tracks_own_finished(self):
        return False


@case(rtol=1e-5, atol=1e-5)
def dynamic_decode_plain_decoder_impute(paddle):
    cell = fill_parameters(paddle.nn.SimpleRNNCell(4, 3), seed=2)
    h0 = _x(paddle, [3, 3], 11, grad=False)
    res = []
    for impute in (False, True):
        outs, st, lens = paddle.nn.dynamic_decode(_Greedyish(paddle, cell, [0, 2, 1]), inits=h0,
                                                 impute_finished=impute, return_length=True)
        res += [outs, st, lens]
    return res


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


# ---------------------------------------------------------------- class_center_sample (one process)
@case
def class_center_sample_all_positive(paddle):
    F = paddle.nn.functional
    lab = paddle.to_tensor([7, 3, 3, 9, 0, 7])
    res = list(F.class_center_sample(lab, 10, 4)) + list(F.class_center_sample(lab, 12, 3))
    res += list(F.class_center_sample(lab.astype("int32"), 10, 2, group=False))
    return res


@case
def class_center_sample_negatives_properties(paddle):
    # the negatives are random: check what is fixed (positives first and sorted, distinct, remap, range)
    F = paddle.nn.functional
    lab = paddle.to_tensor([11, 2, 5, 2, 17, 11, 0])
    paddle.seed(5)
    remap, centers = F.class_center_sample(lab, 20, 9)
    c = centers.numpy().tolist()
    return [remap, centers.shape, str(centers.dtype), c[:4], len(set(c)) == len(c), all(0 <= v < 20 for v in c),
            [c[i] for i in remap.numpy().tolist()] == lab.numpy().tolist(), remap.stop_gradient]


@case(random=True)
def class_center_sample_random_shape(paddle):
    return list(paddle.nn.functional.class_center_sample(paddle.to_tensor([1, 4, 1]), 30, 10))


@case
def class_center_sample_too_many_samples(paddle):
    return paddle.nn.functional.class_center_sample(paddle.to_tensor([1, 2]), 5, 6)


@case
def class_center_sample_2d_label(paddle):
    return paddle.nn.functional.class_center_sample(paddle.to_tensor([[1, 2]]), 5, 3)


@case
def class_center_sample_bad_group(paddle):
    return paddle.nn.functional.class_center_sample(paddle.to_tensor([1, 2]), 5, 3, group=3)


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
