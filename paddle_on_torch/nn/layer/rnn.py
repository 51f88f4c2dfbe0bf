"""paddle.nn layers: recurrent cells and networks.

Cells (SimpleRNNCell, LSTMCell, GRUCell) keep Paddle's parameter names, shapes ([gates * hidden, in]),
gate order (LSTM: i, f, c, o; GRU: r, z, c with the reset gate applied after the hidden projection,
h = z * h_prev + (1 - z) * c) and U(-1/sqrt(hidden), 1/sqrt(hidden)) initialisation.  RNN / BiRNN
step a cell in Python as Paddle's dygraph does (states held past a sequence's length, outputs not
masked).  SimpleRNN / LSTM / GRU run the fused torch kernel when Paddle runs its fused `rnn` kernel
(every cell has exactly 4 parameters): same weight layout, padded steps give zero outputs, and final
states are taken at each sequence's last valid step; otherwise (LSTM with proj_size) they step the
cells as Paddle does.
"""
import math
import warnings
from typing import NamedTuple

import torch
from torch.nn.utils.rnn import PackedSequence, pack_padded_sequence, pad_packed_sequence

from ..._errors import translate
from ..._normalize import to_torch, wrap
from ...kernels import rnn as _rnn_ops
from ..._core import dtype as _dtypes
from ..._core import random as _rng
from ..functional.common import _f32
from ...tensor.tensor import Tensor
from .. import initializer as I
from .container import LayerList
from . import layers as _layers
from .layers import Layer

__all__ = ["RNNCellBase", "SimpleRNNCell", "LSTMCell", "GRUCell", "RNN", "BiRNN", "SimpleRNN", "LSTM", "GRU",
           "BeamSearchDecoder", "dynamic_decode"]


def _map(fn, *structs):
    """Paddle's map_structure over Tensors nested in lists/tuples."""
    first = structs[0]
    if isinstance(first, (list, tuple)):
        return type(first)(_map(fn, *parts) for parts in zip(*structs))
    return fn(*structs)


def _flatten(s):
    if isinstance(s, (list, tuple)):
        return [v for part in s for v in _flatten(part)]
    return [s]


def _is_shape(s):
    return isinstance(s, (list, tuple)) and all(isinstance(v, int) for v in s)


# ------------------------------------------------------------------ cells
class RNNCellBase(Layer):
    """Base class of RNN cells: `get_initial_states` from `state_shape` / `state_dtype`."""

    def get_initial_states(self, batch_ref, shape=None, dtype=None, init_value=0.0, batch_dim_idx=0):
        ref = to_torch(_flatten(batch_ref)[0])
        shapes = self.state_shape if shape is None else shape
        try:
            dtypes = self.state_dtype if dtype is None else dtype
        except NotImplementedError:
            dtypes = _dtypes.get_default_dtype()
        batch = ref.shape[batch_dim_idx]

        def build(s, dt):
            if _is_shape(s):
                s = list(s)
                dims = s[1:] if s and s[0] == -1 else s
                tdt = _dtypes.to_torch_dtype(dt)
                return wrap(torch.full([batch, *dims], init_value, dtype=tdt, device=ref.device))
            if isinstance(dt, (list, tuple)):
                return type(s)(build(a, b) for a, b in zip(s, dt))
            return type(s)(build(a, dt) for a in s)

        flat_dt = _flatten(dtypes)
        return build(shapes, flat_dt[0] if len(flat_dt) == 1 else dtypes)

    @property
    def state_shape(self):
        raise NotImplementedError("Please add implementation for `state_shape` in the used cell.")

    @property
    def state_dtype(self):
        raise NotImplementedError("Please add implementation for `state_dtype` in the used cell.")


def _cell_params(cell, gates, input_size, hidden_size, hh_in, weight_ih_attr, weight_hh_attr, bias_ih_attr,
                 bias_hh_attr):
    if hidden_size <= 0:
        raise ValueError(f"hidden_size of {type(cell).__name__} must be greater than 0, but now equals to "
                         f"{hidden_size}")
    std = 1.0 / math.sqrt(hidden_size)
    for name, shape, attr, is_bias in (("weight_ih", (gates * hidden_size, input_size), weight_ih_attr, False),
                                       ("weight_hh", (gates * hidden_size, hh_in), weight_hh_attr, False),
                                       ("bias_ih", (gates * hidden_size,), bias_ih_attr, True),
                                       ("bias_hh", (gates * hidden_size,), bias_hh_attr, True)):
        if attr is not False:
            p = cell.create_parameter(shape, attr, is_bias=is_bias, default_initializer=I.Uniform(-std, std))
        else:  # Paddle keeps a frozen constant parameter in its place
            p = cell.create_parameter(shape, None, is_bias=is_bias,
                                      default_initializer=I.Constant(0.0 if is_bias else 1.0))
            p.stop_gradient = True
        setattr(cell, name, p)


def _linear(x, w, b):
    try:
        y = torch.matmul(x, w._t.t())
    except RuntimeError as e:  # a state or input of the wrong width: Paddle's matmul raises ValueError
        raise (translate(e) or e) from None
    return y if b is None else y + b._t


class SimpleRNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, activation="tanh", weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__()
        _cell_params(self, 1, input_size, hidden_size, hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr,
                     bias_hh_attr)
        self.input_size, self.hidden_size = input_size, hidden_size
        if activation not in ("tanh", "relu"):
            raise ValueError(f"activation for SimpleRNNCell should be tanh or relu, but get {activation}")
        self.activation = activation

    def forward(self, inputs, states=None):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        x, h = to_torch(inputs), to_torch(states)
        pre = _linear(x, self.weight_ih, self.bias_ih) + _linear(h, self.weight_hh, self.bias_hh)
        h = wrap(torch.tanh(pre) if self.activation == "tanh" else torch.relu(pre))
        return h, h

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        return s if self.activation == "tanh" else s + f", activation={self.activation}"


class LSTMCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None,
                 bias_hh_attr=None, proj_size=0, name=None):
        super().__init__()
        if hidden_size <= 0:
            raise ValueError(f"hidden_size of {type(self).__name__} must be greater than 0, but now equals to "
                             f"{hidden_size}")
        if proj_size < 0:
            raise ValueError(f"proj_size of {type(self).__name__} must be greater than 0, but now equals to "
                             f"{hidden_size}")
        if proj_size >= hidden_size:
            raise ValueError("proj_size must be smaller than hidden_size")
        _cell_params(self, 4, input_size, hidden_size, proj_size or hidden_size, weight_ih_attr, weight_hh_attr,
                     bias_ih_attr, bias_hh_attr)
        self.proj_size = proj_size
        if proj_size > 0:
            std = 1.0 / math.sqrt(hidden_size)
            self.weight_ho = self.create_parameter((hidden_size, proj_size), weight_hh_attr,
                                                   default_initializer=I.Uniform(-std, std))
        self.hidden_size, self.input_size = hidden_size, input_size

    def forward(self, inputs, states=None):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        pre_h, pre_c = (to_torch(s) for s in states)
        gates = _linear(to_torch(inputs), self.weight_ih, self.bias_ih) + _linear(pre_h, self.weight_hh,
                                                                                   self.bias_hh)
        gi, gf, gc, go = gates.chunk(4, dim=-1)
        c = torch.sigmoid(gf) * pre_c + torch.sigmoid(gi) * torch.tanh(gc)
        h = torch.sigmoid(go) * torch.tanh(c)
        if self.proj_size > 0:
            h = torch.matmul(h, self.weight_ho._t)
        h, c = wrap(h), wrap(c)
        return h, (h, c)

    @property
    def state_shape(self):
        return ((self.hidden_size,), (self.proj_size or self.hidden_size,))

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}"


class GRUCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None,
                 bias_hh_attr=None, name=None):
        super().__init__()
        _cell_params(self, 3, input_size, hidden_size, hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr,
                     bias_hh_attr)
        self.hidden_size, self.input_size = hidden_size, input_size

    def forward(self, inputs, states=None):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        pre_h = to_torch(states)
        x_r, x_z, x_c = _linear(to_torch(inputs), self.weight_ih, self.bias_ih).chunk(3, dim=1)
        h_r, h_z, h_c = _linear(pre_h, self.weight_hh, self.bias_hh).chunk(3, dim=1)
        r = torch.sigmoid(x_r + h_r)
        z = torch.sigmoid(x_z + h_z)
        c = torch.tanh(x_c + r * h_c)
        h = wrap((pre_h - c) * z + c)
        return h, h

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}"


# ------------------------------------------------------------------ stepping a cell
def _rnn(cell, inputs, initial_states=None, sequence_length=None, time_major=False, is_reverse=False, **kwargs):
    """Paddle's dygraph `rnn`: step `cell` over time in Python."""
    x = to_torch(inputs)
    t_idx = 0 if time_major else 1
    steps = x.shape[t_idx]
    if initial_states is None:
        initial_states = cell.get_initial_states(batch_ref=inputs, batch_dim_idx=1 if time_major else 0)
    if not time_major:
        x = x.transpose(0, 1)
    mask = None
    if sequence_length is not None:
        lengths = to_torch(sequence_length)
        mask = (torch.arange(steps, device=x.device)[:, None] < lengths[None, :]).to(x.dtype)  # [T, B]
    if is_reverse:
        x = x.flip(0)
        mask = None if mask is None else mask.flip(0)
    states, outputs, new_states = initial_states, [], initial_states
    for i in range(steps):
        step_out, new_states = cell(wrap(x[i]), states, **kwargs)
        if mask is not None:
            m = mask[i]

            def keep(old, new, m=m):
                mm = m.reshape([-1] + [1] * (new._t.dim() - 1))
                return wrap(new._t * mm + to_torch(old) * (1 - mm))

            new_states = _map(keep, states, new_states)
        states = new_states
        outputs.append(step_out)
    final = _map(lambda *ts: wrap(torch.stack([t._t for t in ts], dim=t_idx)), *outputs)
    if is_reverse:
        final = _map(lambda t: wrap(t._t.flip(t_idx)), final)
    return final, new_states


def _birnn(cell_fw, cell_bw, inputs, initial_states=None, sequence_length=None, time_major=False, **kwargs):
    if initial_states is None:
        states_fw = cell_fw.get_initial_states(batch_ref=inputs, batch_dim_idx=1 if time_major else 0)
        states_bw = cell_fw.get_initial_states(batch_ref=inputs, batch_dim_idx=1 if time_major else 0)
    else:
        states_fw, states_bw = initial_states
    out_fw, states_fw = _rnn(cell_fw, inputs, states_fw, sequence_length, time_major=time_major, **kwargs)
    out_bw, states_bw = _rnn(cell_bw, inputs, states_bw, sequence_length, time_major=time_major, is_reverse=True,
                             **kwargs)
    outputs = _map(lambda a, b: wrap(torch.cat([a._t, b._t], -1)), out_fw, out_bw)
    return outputs, (states_fw, states_bw)


class RNN(Layer):
    def __init__(self, cell, is_reverse=False, time_major=False):
        super().__init__()
        self.cell = cell
        if not hasattr(self.cell, "call"):
            self.cell.call = self.cell.forward
        self.is_reverse, self.time_major = is_reverse, time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        return _rnn(self.cell, inputs, initial_states=initial_states, sequence_length=sequence_length,
                    time_major=self.time_major, is_reverse=self.is_reverse, **kwargs)


class BiRNN(Layer):
    def __init__(self, cell_fw, cell_bw, time_major=False):
        super().__init__()
        self.cell_fw, self.cell_bw = cell_fw, cell_bw
        if cell_fw.input_size != cell_bw.input_size:
            raise ValueError(f"input size of forward cell({cell_fw.input_size}) does not equalsthat of backward "
                             f"cell({cell_bw.input_size})")
        for cell in (self.cell_fw, self.cell_bw):
            if not hasattr(cell, "call"):
                cell.call = cell.forward
        self.time_major = time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        if isinstance(initial_states, (list, tuple)):
            assert len(initial_states) == 2, "length of initial_states should be 2 when it is a list/tuple"
        return _birnn(self.cell_fw, self.cell_bw, inputs, initial_states, sequence_length, self.time_major,
                      **kwargs)


# ------------------------------------------------------------------ multi-layer networks
_ONEDNN = torch.backends.mkldnn.is_available()
_FUSED = {"LSTM": torch._VF.lstm, "GRU": torch._VF.gru, "RNN_TANH": torch._VF.rnn_tanh,
          "RNN_RELU": torch._VF.rnn_relu}


class RNNBase(LayerList):
    """Paddle's RNNBase: a LayerList of RNN / BiRNN layers."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, direction="forward", time_major=False,
                 dropout=0.0, weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None,
                 proj_size=0):
        super().__init__()
        bidirectional = ("bidirectional", "bidirect")
        self.mode, self.input_size, self.hidden_size, self.dropout = mode, input_size, hidden_size, dropout
        self.num_directions = 2 if direction in bidirectional else 1
        self.time_major, self.num_layers = time_major, num_layers
        self.state_components = 2 if mode == "LSTM" else 1
        kwargs = {"weight_ih_attr": weight_ih_attr, "weight_hh_attr": weight_hh_attr, "bias_ih_attr": bias_ih_attr,
                  "bias_hh_attr": bias_hh_attr}
        self.proj_size = proj_size
        if proj_size > 0:
            assert mode == "LSTM"
        if mode == "LSTM":
            cls = LSTMCell
            kwargs["proj_size"] = proj_size
        elif mode == "GRU":
            cls = GRUCell
        else:
            cls = SimpleRNNCell
            kwargs["activation"] = {"RNN_RELU": "relu", "RNN_TANH": "tanh"}.get(mode, getattr(self, "activation", None))
        in_size = proj_size or hidden_size
        if direction == "forward":
            self.append(RNN(cls(input_size, hidden_size, **kwargs), False, time_major))
            for _ in range(1, num_layers):
                self.append(RNN(cls(in_size, hidden_size, **kwargs), False, time_major))
        elif direction in bidirectional:
            self.append(BiRNN(cls(input_size, hidden_size, **kwargs), cls(input_size, hidden_size, **kwargs),
                              time_major))
            for _ in range(1, num_layers):
                self.append(BiRNN(cls(2 * in_size, hidden_size, **kwargs), cls(2 * in_size, hidden_size, **kwargs),
                                  time_major))
        else:
            raise ValueError(f"direction should be forward or bidirect (or bidirectional), received direction = "
                             f"{direction}")
        self.could_use_cudnn = len(self.parameters()) == num_layers * 4 * self.num_directions
        names = []
        for layer in range(num_layers):
            for d in range(self.num_directions):
                suffix = "_reverse" if d == 1 else ""
                names.extend(["weight_ih_l{}{}", "weight_hh_l{}{}"])
                if bias_ih_attr is not False:
                    names.append("bias_ih_l{}{}")
                if bias_hh_attr is not False:
                    names.append("bias_hh_l{}{}")
                names = [n.format(layer, suffix) for n in names]
        for name, param in zip(names, self.parameters()):
            setattr(self, name, param)

    def flatten_parameters(self):
        pass  # the fused torch kernel reads the cells' parameters directly

    def _fused_weights(self):
        # the cells' parameters, in torch's flat-weights order; the walk over the cells (~13 us) is kept
        # while no Layer anywhere has changed (layers.MUTATIONS)
        d = self.__dict__
        if d.get("_weights_at") != _layers.MUTATIONS[0]:
            params = []
            for layer in self:
                cells = [layer.cell] if isinstance(layer, RNN) else [layer.cell_fw, layer.cell_bw]
                for c in cells:
                    params.extend((c.weight_ih, c.weight_hh, c.bias_ih, c.bias_hh))
            d["_weights"], d["_weights_at"] = params, _layers.MUTATIONS[0]
        return [p._t for p in d["_weights"]]

    def _kernel(self, x, states, sequence_length):
        """paddle_on_torch.kernels.rnn's C++ kernel; states None: zeros (made in the kernel)."""
        lengths = None if sequence_length is None else \
            to_torch(sequence_length).to("cpu", torch.int64).contiguous()
        h0, c0 = (None, None) if states is None else (states[0], states[1] if self.mode == "LSTM" else None)
        res = _rnn_ops.rnn(_rnn_ops.MODES[self.mode], x, h0, c0, self._fused_weights(), self.num_layers,
                           self.num_directions == 2, not self.time_major, lengths)
        return res[0], res[1:]

    def _fused(self, x, states, sequence_length, weights=None, num_layers=None):
        weights = self._fused_weights() if weights is None else weights
        num_layers = self.num_layers if num_layers is None else num_layers
        batch_first = not self.time_major
        fn = _FUSED[self.mode]
        hx = tuple(states) if self.mode == "LSTM" else states[0]
        args = (weights, True, num_layers, float(self.dropout), self.training, self.num_directions == 2)
        if sequence_length is None:
            res = fn(x, hx, *args, batch_first)
            return res[0], res[1:]
        lengths = to_torch(sequence_length).to("cpu", torch.int64)
        packed = pack_padded_sequence(x, lengths, batch_first=batch_first, enforce_sorted=False)
        order = packed.sorted_indices
        hx = tuple(h.index_select(1, order) for h in hx) if self.mode == "LSTM" else hx.index_select(1, order)
        res = fn(packed.data, packed.batch_sizes, hx, *args)
        out, _ = pad_packed_sequence(PackedSequence(res[0], packed.batch_sizes, order, packed.unsorted_indices),
                                     batch_first=batch_first, total_length=x.shape[1 if batch_first else 0])
        return out, tuple(h.index_select(1, packed.unsorted_indices) for h in res[1:])

    def _layers_with_paddle_dropout(self, x, states, sequence_length):
        """Training with dropout between layers, as Paddle's CPU rnn kernel runs it: one keep mask over the
        time-major [time, batch, directions * hidden] output, drawn from Paddle's generator (a float uniform per
        element, kept when not below p) before the second layer, scales every later layer's input:
        x * mask / (1 - p)."""
        per_layer, d = 4 * self.num_directions, self.num_directions
        weights = self._fused_weights()
        p = float(self.dropout)
        keep_prob = _f32(1.0 - _f32(p))  # static_cast<T>(1.0f - p), p a float attribute
        mask, finals, inputs = None, [], x
        for i in range(self.num_layers):
            if i > 0:
                if mask is None:
                    steps = inputs if self.time_major else inputs.transpose(0, 1)
                    if p == 1.0:  # the kernel draws nothing and multiplies by zero
                        mask = torch.zeros((), dtype=x.dtype, device=x.device)
                    else:
                        mask = _rng.dropout_keep(list(steps.shape), p, x.device).to(x.dtype)
                        mask = mask if self.time_major else mask.transpose(0, 1)
                inputs = inputs * mask if p == 1.0 else inputs * mask / keep_prob
            layer_states = tuple(s[i * d:(i + 1) * d] for s in states)
            inputs, last = self._fused(inputs, layer_states, sequence_length,
                                       weights[i * per_layer:(i + 1) * per_layer], 1)
            finals.append(last)
        return inputs, tuple(torch.cat([f[k] for f in finals]) for k in range(len(finals[0])))

    def _whole_sequence_kernel(self, x):
        """Whether to run paddle_on_torch.kernels.rnn's C++ kernel (all layers and directions in one call, one
        autograd node): eager CPU float32 / float64 (states and weights of another dtype or device make the
        kernel raise, as torch's op does).  Dropout between layers is not in the kernel, so a training net
        with dropout keeps torch's RNN op, as do empty inputs."""
        if not (self.could_use_cudnn and _rnn_ops.usable(x)) or 0 in x.shape[:2]:
            return False
        if self.dropout > 0 and self.training and self.num_layers > 1:
            return False
        if self.mode == "LSTM" and x.dtype == torch.float32 and _ONEDNN and torch._C._get_mkldnn_enabled():
            # torch runs float32 LSTMs on oneDNN's fused LSTM, whose GEMMs beat the BLAS ones this kernel
            # calls once the state is larger than ~512 numbers (measured: docs/kernels.md, RNN kernel)
            batch = x.shape[1 if self.time_major else 0]
            if batch > 1 and batch * self.hidden_size > 512:
                return False
        return True

    def forward(self, inputs, initial_states=None, sequence_length=None):
        x = to_torch(inputs)
        if initial_states is not None:
            initial_states = [initial_states] if isinstance(initial_states, Tensor) else initial_states
            initial_states = tuple(to_torch(s) for s in initial_states)
        if self._whole_sequence_kernel(x):
            out, states = self._kernel(x, initial_states, sequence_length)
        else:
            if initial_states is None:
                dims = ([self.proj_size or self.hidden_size], [self.hidden_size])
                shape = [self.num_layers * self.num_directions, x.shape[1 if self.time_major else 0]]
                initial_states = tuple(torch.zeros(shape + dims[i], dtype=x.dtype, device=x.device)
                                       for i in range(self.state_components))
            if not self.could_use_cudnn:
                return self._stepped(inputs, initial_states, sequence_length)
            if self.dropout > 0 and self.training and self.num_layers > 1 and _rng.exact(x):
                out, states = self._layers_with_paddle_dropout(x, initial_states, sequence_length)
            else:
                out, states = self._fused(x, initial_states, sequence_length)
        states = tuple(wrap(s) for s in states)
        return wrap(out), (states if len(states) > 1 else states[0])

    def _stepped(self, inputs, initial_states, sequence_length):
        from ..functional import dropout

        bidi = self.num_directions == 2
        comps = [[wrap(s) for s in st.unbind(0)] for st in initial_states]
        per = list(zip(*comps)) if self.state_components > 1 else comps[0]
        states = list(zip(per[::2], per[1::2])) if bidi else per
        finals = []
        outputs = inputs
        for i, layer in enumerate(self):
            if i > 0:
                inputs = dropout(inputs, self.dropout, training=self.training, mode="upscale_in_train")
            outputs, final_state = layer(inputs, states[i], sequence_length)
            finals.append(final_state)
            inputs = outputs
        flat = _flatten(finals)
        if self.state_components == 1:
            return outputs, wrap(torch.stack([t._t for t in flat]))
        return outputs, tuple(wrap(torch.stack([t._t for t in flat[i::self.state_components]]))
                              for i in range(self.state_components))

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.time_major is not False:
            s += f", time_major={self.time_major}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        return s


class SimpleRNN(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward", time_major=False, dropout=0.0,
                 activation="tanh", weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None,
                 name=None):
        if activation == "tanh":
            mode = "RNN_TANH"
        elif activation == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown activation '{activation}'")
        super().__init__(mode, input_size, hidden_size, num_layers, direction, time_major, dropout, weight_ih_attr,
                         weight_hh_attr, bias_ih_attr, bias_hh_attr, 0)
        self.activation = activation


class LSTM(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward", time_major=False, dropout=0.0,
                 weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, proj_size=0,
                 name=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, direction, time_major, dropout, weight_ih_attr,
                         weight_hh_attr, bias_ih_attr, bias_hh_attr, proj_size)


class GRU(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward", time_major=False, dropout=0.0,
                 weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__("GRU", input_size, hidden_size, num_layers, direction, time_major, dropout, weight_ih_attr,
                         weight_hh_attr, bias_ih_attr, bias_hh_attr, 0)


# ------------------------------------------------------------------ decoding (paddle.nn.decode)
def _smap(fn, *structs):
    """Paddle's map_structure: fn over the leaves of lists/tuples/namedtuples/dicts."""
    first = structs[0]
    if isinstance(first, tuple) and hasattr(first, "_fields"):
        return type(first)(*(_smap(fn, *parts) for parts in zip(*structs)))
    if isinstance(first, (list, tuple)):
        return type(first)(_smap(fn, *parts) for parts in zip(*structs))
    if isinstance(first, dict):
        return {k: _smap(fn, *(s[k] for s in structs)) for k in first}
    return fn(*structs)


def _leaves(s):
    if isinstance(s, (list, tuple)):
        return [v for part in s for v in _leaves(part)]
    if isinstance(s, dict):
        return [v for k in s for v in _leaves(s[k])]
    return [s]


def _tmap(fn, *structs):
    """_smap over the torch tensors of paddle Tensors, giving paddle Tensors."""
    return _smap(lambda *vs: wrap(fn(*(to_torch(v) for v in vs))), *structs)


class Decoder:
    """The interface dynamic_decode drives: initialize, step, finalize (Paddle's paddle.nn.decode.Decoder)."""

    def initialize(self, inits):
        raise NotImplementedError

    def step(self, time, inputs, states, **kwargs):
        raise NotImplementedError

    def finalize(self, outputs, final_states, sequence_lengths):
        raise NotImplementedError

    @property
    def tracks_own_finished(self):
        return False


class BeamSearchDecoder(Decoder):
    """Beam search over an RNN cell, as Paddle's: log-softmax scores summed along each beam, finished beams
    can only extend with `end_token` at no cost, top `beam_size` of beam * vocab candidates per step."""

    def __init__(self, cell, start_token, end_token, beam_size, embedding_fn=None, output_fn=None):
        self.cell, self.embedding_fn, self.output_fn = cell, embedding_fn, output_fn
        self.start_token, self.end_token, self.beam_size = start_token, end_token, beam_size

    class OutputWrapper(NamedTuple):
        scores: Tensor
        predicted_ids: Tensor
        parent_ids: Tensor

    class StateWrapper(NamedTuple):
        cell_states: Tensor
        log_probs: Tensor
        finished: Tensor
        lengths: Tensor

    @staticmethod
    def tile_beam_merge_with_batch(x, beam_size):
        t = to_torch(x)
        return wrap(t.unsqueeze(1).expand(t.shape[0], beam_size, *t.shape[1:]).reshape(-1, *t.shape[1:]))

    def _split_batch_beams(self, x):
        t = to_torch(x)
        return wrap(t.reshape(-1, self.beam_size, *t.shape[1:]))

    def _merge_batch_beams(self, x):
        t = to_torch(x)
        return wrap(t.reshape(-1, *t.shape[2:]))

    def _expand_to_beam_size(self, x):
        t = to_torch(x).unsqueeze(1)
        return wrap(t.repeat(1, self.beam_size, *([1] * (t.dim() - 2))))

    def _float(self):
        return torch.float64 if _dtypes.get_default_dtype() == "float64" else torch.float32

    def initialize(self, initial_cell_states):
        self.kinf = 1e9
        state = to_torch(_flatten(initial_cell_states)[0])
        self.batch_size = state.shape[0]
        dev = state.device
        cell_states = _smap(self._expand_to_beam_size, initial_cell_states)
        inputs = torch.full([self.batch_size, self.beam_size], self.start_token, dtype=torch.int64, device=dev)
        row = torch.tensor([[0.0] + [-self.kinf] * (self.beam_size - 1)], dtype=torch.float32, device=dev)
        log_probs = row.repeat(self.batch_size, 1).to(self._float())
        finished = torch.zeros([self.batch_size, self.beam_size], dtype=torch.bool, device=dev)
        lengths = torch.zeros_like(inputs)
        inputs = wrap(inputs)
        if self.embedding_fn:
            inputs = self.embedding_fn(inputs)
        finished = wrap(finished)
        return inputs, self.StateWrapper(cell_states, wrap(log_probs), finished, wrap(lengths)), finished

    def _gather(self, x, beam_indices):
        t = to_torch(x)
        rows = torch.arange(t.shape[0], device=t.device).unsqueeze(1)
        return t[rows, beam_indices]

    def _beam_search_step(self, time, logits, next_cell_states, beam_state):
        logits = to_torch(logits)
        self.vocab_size = v = logits.shape[-1]
        noend = torch.full([v], -self.kinf, dtype=torch.float32, device=logits.device)
        noend[self.end_token] = 0
        noend = noend.to(self._float())
        step_log_probs = torch.log(torch.softmax(logits, -1))
        fin = to_torch(beam_state.finished).to(step_log_probs.dtype).unsqueeze(2)
        step_log_probs = fin * noend - step_log_probs * (fin - 1)
        log_probs = step_log_probs + to_torch(beam_state.log_probs).unsqueeze(2)
        scores = log_probs.reshape(-1, self.beam_size * v)
        topk_scores, topk_indices = torch.topk(scores, self.beam_size)
        beam_indices = torch.div(topk_indices, v, rounding_mode="floor")
        token_indices = topk_indices % v
        next_log_probs = self._gather(scores, topk_indices)
        next_cell_states = _tmap(lambda t: self._gather(t, beam_indices), next_cell_states)
        next_finished = self._gather(beam_state.finished, beam_indices)
        lengths = to_torch(beam_state.lengths)
        next_lengths = self._gather(lengths, beam_indices) + (~next_finished).to(lengths.dtype)
        next_finished = next_finished | (token_indices == self.end_token)
        out = self.OutputWrapper(wrap(topk_scores), wrap(token_indices), wrap(beam_indices))
        state = self.StateWrapper(next_cell_states, wrap(next_log_probs), wrap(next_finished), wrap(next_lengths))
        return out, state

    def step(self, time, inputs, states, **kwargs):
        inputs = _smap(self._merge_batch_beams, inputs)
        cell_states = _smap(self._merge_batch_beams, states.cell_states)
        cell_outputs, next_cell_states = self.cell(inputs, cell_states, **kwargs)
        cell_outputs = _smap(self._split_batch_beams, cell_outputs)
        next_cell_states = _smap(self._split_batch_beams, next_cell_states)
        if self.output_fn is not None:
            cell_outputs = self.output_fn(cell_outputs)
        out, state = self._beam_search_step(time, cell_outputs, next_cell_states, states)
        sample_ids = out.predicted_ids
        sample_ids.stop_gradient = True
        next_inputs = self.embedding_fn(sample_ids) if self.embedding_fn else sample_ids
        return out, state, next_inputs, state.finished

    def finalize(self, outputs, final_states, sequence_lengths):
        from ..functional.extension import gather_tree

        return gather_tree(outputs.predicted_ids, outputs.parent_ids), final_states

    @property
    def tracks_own_finished(self):
        return True


def _maybe_copy(state, new_state, step_mask):
    """Keep `state` where step_mask (finished) is set, else take `new_state` (Paddle's arithmetic blend)."""
    is_bool = state.dtype == torch.bool
    if is_bool:
        state, new_state = state.float(), new_state.float()
    m = step_mask.to(state.dtype).unsqueeze(1)
    m = m.reshape(m.shape + (1,) * (state.dim() - m.dim()))
    out = state * m - new_state * (m - 1)
    return out.bool() if is_bool else out


def dynamic_decode(decoder, inits=None, max_step_num=None, output_time_major=False, impute_finished=False,
                   is_test=False, return_length=False, **kwargs):
    """Run `decoder` step by step until every entry is finished (or past `max_step_num`), as Paddle's dygraph
    loop does; outputs are stacked over time ([batch, time, ...] unless output_time_major)."""
    inputs, states, finished = decoder.initialize(inits)
    sequence_lengths = wrap(torch.zeros(to_torch(finished).shape, dtype=torch.int64,
                                        device=to_torch(finished).device))
    arrays = None
    step = 0
    time = wrap(torch.zeros([1], dtype=torch.int64))
    while not bool(to_torch(finished).all()):
        step_outputs, next_states, next_inputs, next_finished = decoder.step(time, inputs, states, **kwargs)
        if not decoder.tracks_own_finished:
            nf = to_torch(next_finished) | to_torch(finished)
            finished._t = nf  # Paddle assigns into `finished` in place
            next_finished = wrap(nf)
            sl = to_torch(sequence_lengths)
            next_lengths = wrap(sl + (~nf).to(sl.dtype))
            if impute_finished:
                next_states = _tmap(lambda a, b: _maybe_copy(a, b, nf), states, next_states)
        else:
            if not hasattr(next_states, "lengths"):
                warnings.warn("`next_states` has no `lengths` attribute, the returned `sequence_lengths` would "
                              "be all zeros.")
            next_lengths = getattr(next_states, "lengths", sequence_lengths)
        if arrays is None:
            template, arrays = step_outputs, [[x] for x in _leaves(step_outputs)]
        else:
            for a, x in zip(arrays, _leaves(step_outputs)):
                a.append(x)
        inputs, states, finished, sequence_lengths = next_inputs, next_states, next_finished, next_lengths
        time = wrap(to_torch(time) + 1)
        step += 1
        if max_step_num is not None and step > max_step_num:
            break
    stacked = iter([wrap(torch.stack([to_torch(v) for v in a], 0)) for a in arrays])
    outputs = _smap(lambda _: next(stacked), template)
    final_states = states
    try:
        outputs, final_states = decoder.finalize(outputs, final_states, sequence_lengths)
    except NotImplementedError:
        pass
    if not output_time_major:
        outputs = _tmap(lambda t: t.permute(1, 0, *range(2, t.dim())), outputs)
    return (outputs, final_states, sequence_lengths) if return_length else (outputs, final_states)

