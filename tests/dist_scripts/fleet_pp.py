"""Pipeline parallel at 2 ranks (pp 2): train_batch with 1F1B and FThenB (and delay_scale_loss) against
the same layers run in this process without a pipeline; eval_batch's outputs and loss; a
SharedLayerDesc with forward_func tying the first and last stage."""
import sys

import numpy as np
import paddle
from paddle.distributed import fleet
from paddle.distributed.fleet.meta_parallel import LayerDesc, PipelineLayer, SharedLayerDesc

mode, delay = sys.argv[1], sys.argv[2] == "delay"
acc = int(sys.argv[3]) if len(sys.argv) > 3 else 4  # 1: fewer micro-batches than stages
strategy = fleet.DistributedStrategy()
strategy.hybrid_configs = {"dp_degree": 1, "mp_degree": 1, "pp_degree": 2, "pp_configs": {"delay_scale_loss": delay}}
strategy.pipeline_configs = {"accumulate_steps": acc, "micro_batch_size": 8 // acc, "schedule_mode": mode}
fleet.init(is_collective=True, strategy=strategy)
hcg = fleet.get_hybrid_communicate_group()
stage = hcg.get_stage_id()


class Proj(paddle.nn.Linear):
    pass


def tied_head(layer, x):  # the last stage reuses the first stage's projection, transposed
    return paddle.matmul(x, layer.weight, transpose_y=True)


descs = [SharedLayerDesc("proj", Proj, None, "weight", 4, 6), LayerDesc(paddle.nn.Tanh), LayerDesc(Proj, 6, 6),
         LayerDesc(paddle.nn.Tanh), SharedLayerDesc("proj", Proj, tied_head, "weight", 4, 6)]
model = PipelineLayer(descs, topology=hcg.topology(), loss_fn=paddle.nn.MSELoss())
assert model.segment_parts == [0, 2, 5], model.segment_parts
assert [type(f).__name__ for f in model.run_function] == (["Proj", "Tanh"] if stage == 0 else
                                                          ["Proj", "Tanh", "partial"])

# the reference: the same layers, built with the same per-layer seeds, in this process
paddle.seed(1234)
proj = Proj(4, 6)
paddle.seed(1236)
mid = Proj(6, 6)
ref_params = [proj.weight, proj.bias, mid.weight, mid.bias]
np.testing.assert_array_equal(model.shared_layers["proj"].weight.numpy(), proj.weight.numpy())


def ref_forward(x):
    return tied_head(proj, paddle.tanh(mid(paddle.tanh(proj(x)))))


model = fleet.distributed_model(model)
opt = fleet.distributed_optimizer(paddle.optimizer.Momentum(0.1, parameters=model.parameters()))
ref_opt = paddle.optimizer.Momentum(0.1, parameters=ref_params)
rs = np.random.RandomState(0)
for step in range(3):
    x = paddle.to_tensor(rs.standard_normal((8, 4)).astype("float32"))
    y = paddle.to_tensor(rs.standard_normal((8, 4)).astype("float32"))
    loss = model.train_batch([x, y], opt)
    ref_loss = paddle.nn.functional.mse_loss(ref_forward(x), y)
    ref_loss.backward()
    ref_opt.step()
    ref_opt.clear_grad()
    np.testing.assert_allclose(float(loss), float(ref_loss), rtol=1e-5)
mine = model._layers.shared_layers["proj"]
np.testing.assert_allclose(mine.weight.numpy(), proj.weight.numpy(), rtol=1e-5, atol=1e-6)
if stage == 0:
    np.testing.assert_allclose(mine.bias.numpy(), proj.bias.numpy(), rtol=1e-5, atol=1e-6)
else:
    np.testing.assert_allclose(model._layers.run_function[0].weight.numpy(), mid.weight.numpy(), rtol=1e-5,
                               atol=1e-6)
out = model.eval_batch([x, y], compute_loss=False)
if stage == 1:  # one output per micro-batch, as Paddle
    assert isinstance(out, list) and len(out) == acc and out[0].shape == [8 // acc, 4], out
    np.testing.assert_allclose(paddle.concat(out).numpy(), ref_forward(x).numpy(), rtol=1e-5, atol=1e-6)
else:
    assert out is None
ev = model.eval_batch([x, y], compute_loss=True)
np.testing.assert_allclose(float(ev), float(paddle.nn.functional.mse_loss(ref_forward(x), y)), rtol=1e-5)
print("PP OK", mode, delay, acc, flush=True)
