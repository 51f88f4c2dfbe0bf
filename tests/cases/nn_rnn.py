"""paddle.nn recurrent cells and networks: parameter layout and names, gate order, outputs, final states,
sequence_length, time_major, directions, initial states, gradients, reprs and errors."""
from tests.cases import case, data, fill_parameters


def _x(paddle, shape, seed):
    return paddle.to_tensor(data(shape, seed), stop_gradient=False)


def _grads(layer, names):
    params = dict(layer.named_parameters())
    return [params[n].grad for n in names]


@case
def cells_layout(paddle):
    nn = paddle.nn
    out = []
    for cell in (nn.SimpleRNNCell(3, 4), nn.LSTMCell(3, 4), nn.GRUCell(3, 4), nn.SimpleRNNCell(3, 4, "relu"),
                 nn.LSTMCell(3, 4, proj_size=2)):
        out.append([repr(cell), [(n, list(p.shape), p.stop_gradient) for n, p in cell.named_parameters()],
                    cell.state_shape])
    return out


@case(rtol=1e-5, atol=1e-5)  # float32 matmul summation order
def simple_rnn_cell_step(paddle):
    cell = fill_parameters(paddle.nn.SimpleRNNCell(3, 4), 1)
    x = _x(paddle, [2, 3], 2)
    h0 = paddle.to_tensor(data([2, 4], 3))
    y, h = cell(x, h0)
    y2, _ = fill_parameters(paddle.nn.SimpleRNNCell(3, 4, activation="relu"), 4)(x)
    (y.sum() + y2.sum()).backward()
    return [y, h, y2, x.grad, cell.weight_hh.grad]


@case(rtol=1e-5, atol=1e-5)
def lstm_cell_step(paddle):
    cell = fill_parameters(paddle.nn.LSTMCell(3, 4), 5)
    x = _x(paddle, [2, 3], 6)
    states = (paddle.to_tensor(data([2, 4], 7)), paddle.to_tensor(data([2, 4], 8)))
    y, (h, c) = cell(x, states)
    y0, (h0, c0) = cell(x)
    (y.sum() + c.sum()).backward()
    return [y, h, c, y0, c0, x.grad, cell.weight_ih.grad, cell.bias_hh.grad]


@case(rtol=1e-5, atol=1e-5)
def lstm_cell_proj(paddle):
    cell = fill_parameters(paddle.nn.LSTMCell(3, 4, proj_size=2), 9)
    x = _x(paddle, [2, 3], 10)
    y, (h, c) = cell(x, (paddle.to_tensor(data([2, 2], 11)), paddle.to_tensor(data([2, 4], 12))))
    y.sum().backward()
    return [y, h, c, cell.weight_ho.grad]


@case
def lstm_cell_proj_default_states(paddle):  # Paddle's state_shape gives h the hidden size: matmul fails
    return paddle.nn.LSTMCell(3, 4, proj_size=2)(paddle.ones([2, 3]))


@case(rtol=1e-5, atol=1e-5)
def gru_cell_step(paddle):
    cell = fill_parameters(paddle.nn.GRUCell(3, 4), 11)
    x = _x(paddle, [2, 3], 12)
    h0 = paddle.to_tensor(data([2, 4], 13))
    y, h = cell(x, h0)
    y.sum().backward()
    return [y, h, x.grad, cell.weight_hh.grad, cell.bias_ih.grad]


@case
def cell_initial_states(paddle):
    cell = paddle.nn.LSTMCell(3, 4)
    x = paddle.ones([5, 2, 3])
    return [cell.get_initial_states(x, batch_dim_idx=1), cell.get_initial_states(x, shape=[3], init_value=1.5),
            paddle.nn.GRUCell(3, 2).get_initial_states(paddle.ones([2, 3], dtype="float64"))]


@case
def cell_errors(paddle):
    errs = []
    for f in (lambda: paddle.nn.SimpleRNNCell(3, 0), lambda: paddle.nn.SimpleRNNCell(3, 4, activation="sigmoid"),
              lambda: paddle.nn.LSTMCell(3, 4, proj_size=4), lambda: paddle.nn.GRUCell(3, -1),
              lambda: paddle.nn.BiRNN(paddle.nn.GRUCell(3, 4), paddle.nn.GRUCell(2, 4)),
              lambda: paddle.nn.LSTM(3, 4, direction="backward")):
        try:
            f()
            errs.append("no error")
        except Exception as e:  # noqa: BLE001
            errs.append(type(e).__name__)
    return errs


@case(rtol=1e-5, atol=1e-5)
def rnn_wrapper(paddle):
    cell = fill_parameters(paddle.nn.GRUCell(3, 4), 14)
    x = _x(paddle, [2, 5, 3], 15)
    rnn = paddle.nn.RNN(cell)
    out, h = rnn(x)
    out_r, h_r = paddle.nn.RNN(cell, is_reverse=True)(x)
    out_l, h_l = rnn(x, sequence_length=paddle.to_tensor([5, 3]))
    (out.sum() + h_l.sum()).backward()
    return [out, h, out_r, h_r, out_l, h_l, x.grad, cell.weight_ih.grad, repr(rnn)]


@case(rtol=1e-5, atol=1e-5)
def rnn_wrapper_time_major_lstm(paddle):
    cell = fill_parameters(paddle.nn.LSTMCell(3, 4), 16)
    x = _x(paddle, [5, 2, 3], 17)
    init = (paddle.to_tensor(data([2, 4], 18)), paddle.to_tensor(data([2, 4], 19)))
    out, (h, c) = paddle.nn.RNN(cell, time_major=True)(x, init, sequence_length=paddle.to_tensor([2, 5]))
    return [out, h, c]


@case(rtol=1e-5, atol=1e-5)
def birnn_wrapper(paddle):
    fw = fill_parameters(paddle.nn.SimpleRNNCell(3, 4), 20)
    bw = fill_parameters(paddle.nn.SimpleRNNCell(3, 4), 21)
    birnn = paddle.nn.BiRNN(fw, bw)
    x = _x(paddle, [2, 4, 3], 22)
    out, (hf, hb) = birnn(x, sequence_length=paddle.to_tensor([4, 2]))
    out2, _ = birnn(x, (paddle.to_tensor(data([2, 4], 23)), paddle.to_tensor(data([2, 4], 24))))
    out.sum().backward()
    return [out, hf, hb, out2, x.grad, bw.weight_hh.grad, repr(birnn)]


@case
def networks_layout(paddle):
    nn = paddle.nn
    out = []
    for net in (nn.LSTM(3, 4, num_layers=2, direction="bidirect"), nn.GRU(3, 4, time_major=True),
                nn.SimpleRNN(3, 4, activation="relu", dropout=0.1, num_layers=2),
                nn.LSTM(3, 4, direction="bidirectional"), nn.LSTM(3, 4, proj_size=2, num_layers=2)):
        out.append([repr(net), [(n, list(p.shape), p.stop_gradient) for n, p in net.named_parameters()], len(net)])
    return out


@case(rtol=1e-5, atol=1e-5)
def lstm_network(paddle):
    net = fill_parameters(paddle.nn.LSTM(3, 4, num_layers=2), 25)
    x = _x(paddle, [2, 5, 3], 26)
    out, (h, c) = net(x)
    (out.sum() + c.sum()).backward()
    return [out, h, c, x.grad, net.weight_ih_l0.grad, net.bias_hh_l1.grad]


@case(rtol=1e-5, atol=1e-5)
def lstm_bidirect_initial_states(paddle):
    net = fill_parameters(paddle.nn.LSTM(3, 4, num_layers=2, direction="bidirect"), 27)
    x = _x(paddle, [2, 5, 3], 28)
    h0 = paddle.to_tensor(data([4, 2, 4], 29))
    c0 = paddle.to_tensor(data([4, 2, 4], 30))
    out, (h, c) = net(x, (h0, c0))
    out.mean().backward()
    return [out, h, c, x.grad, net.weight_hh_l1_reverse.grad]


@case(rtol=1e-5, atol=1e-5)
def lstm_sequence_length(paddle):
    net = fill_parameters(paddle.nn.LSTM(3, 4, direction="bidirect"), 31)
    x = _x(paddle, [3, 5, 3], 32)
    out, (h, c) = net(x, sequence_length=paddle.to_tensor([5, 2, 3]))
    out.sum().backward()
    return [out, h, c, x.grad]


@case(rtol=1e-5, atol=1e-5)
def gru_network(paddle):
    net = fill_parameters(paddle.nn.GRU(3, 4, num_layers=2, time_major=True), 33)
    x = _x(paddle, [5, 2, 3], 34)
    out, h = net(x, paddle.to_tensor(data([2, 2, 4], 35)))
    out2, h2 = net(x, sequence_length=paddle.to_tensor([3, 5]))
    (out.sum() + h2.sum()).backward()
    return [out, h, out2, h2, x.grad, net.weight_ih_l1.grad]


@case(rtol=1e-5, atol=1e-5)
def gru_bidirect(paddle):
    net = fill_parameters(paddle.nn.GRU(3, 4, direction="bidirect"), 36)
    x = _x(paddle, [2, 4, 3], 37)
    out, h = net(x)
    return [out, h]


@case(rtol=1e-5, atol=1e-5)
def simple_rnn_network(paddle):
    net = fill_parameters(paddle.nn.SimpleRNN(3, 4, num_layers=2, activation="relu"), 38)
    x = _x(paddle, [2, 4, 3], 39)
    out, h = net(x)
    out.sum().backward()
    net2 = fill_parameters(paddle.nn.SimpleRNN(3, 4, direction="bidirect"), 40)
    out2, h2 = net2(x, sequence_length=paddle.to_tensor([4, 1]))
    return [out, h, x.grad, net.weight_hh_l0.grad, out2, h2]


@case(rtol=1e-5, atol=1e-5)
def lstm_proj_network(paddle):
    net = fill_parameters(paddle.nn.LSTM(3, 4, num_layers=2, proj_size=2), 41)
    x = _x(paddle, [2, 4, 3], 42)
    out, (h, c) = net(x)
    out2, (h2, c2) = net(x, sequence_length=paddle.to_tensor([4, 2]))
    out.sum().backward()
    return [out, h, c, out2, h2, c2, x.grad]


@case
def frozen_weights_attr(paddle):
    net = paddle.nn.GRU(3, 2, weight_ih_attr=False)
    return [[(n, p.stop_gradient) for n, p in net.named_parameters()], net.weight_ih_l0]


@case
def eval_mode_dropout_ignored(paddle):
    net = fill_parameters(paddle.nn.LSTM(3, 4, num_layers=2, dropout=0.5), 43)
    net.eval()
    out, (h, c) = net(paddle.to_tensor(data([2, 3, 3], 44)))
    return [out, h, c]
