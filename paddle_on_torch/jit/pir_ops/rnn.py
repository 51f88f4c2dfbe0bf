"""The lstm / gru / rnn_tanh / rnn_relu ops (eval) as Paddle's rnn op."""

from ..._report import unsupported
from ..pir_writer import _api, _out, _register, a_bool, a_f32, a_i32, a_i32s, a_str


_RNN_MODES = {"lstm": "LSTM", "gru": "GRU", "rnn_tanh": "RNN_TANH", "rnn_relu": "RNN_RELU"}


def _rnn(mode):
    def lower(w, node, args):
        """Paddle's `rnn` op: time-major input, the initial states, the weights of every layer and direction and
        then their biases, and the (non-persistable) dropout state Paddle declares as a parameter."""
        x, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first = args[:9]
        if not has_biases or train:
            raise unsupported(_api(), f" (Paddle program): {mode} without biases or in training mode")
        hx = list(hx) if isinstance(hx, (list, tuple)) else [hx]
        t = _out(node)
        xs = w.shape(x)
        if batch_first:
            x = w.op1("transpose", [x], [("perm", a_i32s([1, 0, 2]))], (w.dtype(x), [xs[1], xs[0], xs[2]]))
        groups = [params[i:i + 4] for i in range(0, len(params), 4)]
        ordered = [p for g in groups for p in g[:2]] + [p for g in groups for p in g[2:]]
        states = w.emit("builtin.combine", hx, outs=[[w.type(h) for h in hx]])[0]
        weights = w.emit("builtin.combine", ordered, outs=[[w.type(p) for p in ordered]])[0]
        dt = w.dtype(x)
        drop = w.parameter(f"rnn_{w.count('rnn')}.dropout_state__non_persistable", ("uint8", []), persistable=False)
        out_t = t[0] if not batch_first else (t[0][0], [t[0][1][1], t[0][1][0], t[0][1][2]])
        outs = w.emit("pd_op.rnn", [x, states, weights, 0, drop],
                      [("dropout_prob", a_f32(0.0)), ("is_bidirec", a_bool(bidirectional)),
                       ("input_size", a_i32(xs[-1])), ("hidden_size", a_i32(w.shape(hx[0])[-1])),
                       ("num_layers", a_i32(num_layers)), ("mode", a_str(mode)), ("seed", a_i32(0)),
                       ("is_test", a_bool(True))],
                      [out_t, (dt, []), [w.type(h) for h in hx], (dt, [])])
        y = outs[0]
        if batch_first:
            y = w.op1("transpose", [y], [("perm", a_i32s([1, 0, 2]))], t[0])
        finals = w.emit("builtin.split", [outs[2]], outs=[tuple(x) for x in t[1:]])
        return [y] + finals
    return lower


for _n, _m in _RNN_MODES.items():
    _register([f"{_n}.input"], _rnn(_m))
