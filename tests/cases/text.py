"""paddle.text: Viterbi decoding against Paddle's CPU kernel."""
import numpy as np

from tests.cases import case


def _crf(seed, batch, seq, tags, dtype="float32"):
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(batch, seq, tags)).astype(dtype), rng.normal(size=(tags, tags)).astype(dtype))


@case
def viterbi_with_bos_eos(paddle):
    pot, trans = _crf(0, 4, 6, 5)
    lengths = paddle.to_tensor(np.array([6, 3, 1, 5], "int64"))
    return list(paddle.text.viterbi_decode(paddle.to_tensor(pot), paddle.to_tensor(trans), lengths))


@case
def viterbi_without_bos_eos(paddle):
    pot, trans = _crf(1, 3, 7, 4)
    lengths = paddle.to_tensor(np.array([2, 7, 4], "int64"))
    return list(paddle.text.viterbi_decode(paddle.to_tensor(pot), paddle.to_tensor(trans), lengths, False))


@case
def viterbi_short_lengths_float64(paddle):
    # max(lengths) < seq_len: the path has max(lengths) columns
    pot, trans = _crf(2, 3, 8, 6, "float64")
    lengths = paddle.to_tensor(np.array([3, 1, 2], "int64"))
    return list(paddle.text.viterbi_decode(paddle.to_tensor(pot), paddle.to_tensor(trans), lengths))


@case
def viterbi_decoder_layer(paddle):
    pot, trans = _crf(3, 2, 5, 4)
    decoder = paddle.text.ViterbiDecoder(paddle.to_tensor(trans), include_bos_eos_tag=False)
    return list(decoder(paddle.to_tensor(pot), paddle.to_tensor(np.array([5, 4], "int64"))))
