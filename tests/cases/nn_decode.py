"""paddle.nn.decode, the module PaddleNLP reaches BeamSearchDecoder through (`nn.decode.BeamSearchDecoder`):
the same class as paddle.nn's, its static tile_beam_merge_with_batch, and a subclass that steps its own cell
(the pattern of PaddleNLP's TransformerBeamSearchDecoder) driven by dynamic_decode; gather_tree, BeamSearchDecoder and dynamic_decode on
paddle.nn's own cells."""
from tests.cases import case, data, fill_parameters


@case
def decode_module_names(paddle):
    d = paddle.nn.decode
    return [d.BeamSearchDecoder is paddle.nn.BeamSearchDecoder, d.dynamic_decode is paddle.nn.dynamic_decode,
            issubclass(d.BeamSearchDecoder, d.Decoder)]


@case
def tile_beam_merge_with_batch(paddle):
    t = paddle.to_tensor(data([2, 3], 1))
    return [paddle.nn.decode.BeamSearchDecoder.tile_beam_merge_with_batch(t, 3),
            paddle.nn.decode.BeamSearchDecoder.tile_beam_merge_with_batch(paddle.to_tensor([[1, 2]]), 2)]


@case(rtol=1e-5, atol=1e-5)
def subclass_with_own_step(paddle):
    nn = paddle.nn

    class Cell(nn.Layer):  # token ids in, logits out; the state is a running sum of embeddings
        def __init__(self):
            super().__init__()
            self.emb, self.out = nn.Embedding(9, 4), nn.Linear(4, 9)

        def forward(self, ids, state):
            new = state + self.emb(ids)
            return self.out(paddle.tanh(new)), new

    class MyDecoder(nn.decode.BeamSearchDecoder):
        def step(self, time, inputs, states, **kwargs):
            ids = paddle.reshape(inputs, [-1])
            cell_states = self._merge_batch_beams(states.cell_states)
            logits, next_states = self.cell(ids, cell_states)
            logits, next_states = self._split_batch_beams(logits), self._split_batch_beams(next_states)
            out, state = self._beam_search_step(time=time, logits=logits, next_cell_states=next_states,
                                                beam_state=states)
            return out, state, out.predicted_ids, state.finished

    cell = Cell()
    fill_parameters(cell, seed=3, scale=0.8)
    dec = MyDecoder(cell, start_token=0, end_token=2, beam_size=3)
    init = paddle.to_tensor(data([2, 4], 5))
    ids, states, lengths = nn.decode.dynamic_decode(dec, inits=init, max_step_num=5, return_length=True)
    return [ids, lengths, states.log_probs, states.finished]


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
