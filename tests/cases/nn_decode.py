"""paddle.nn.decode, the module PaddleNLP reaches BeamSearchDecoder through (`nn.decode.BeamSearchDecoder`):
the same class as paddle.nn's, its static tile_beam_merge_with_batch, and a subclass that steps its own cell
(the pattern of PaddleNLP's TransformerBeamSearchDecoder) driven by dynamic_decode."""
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
