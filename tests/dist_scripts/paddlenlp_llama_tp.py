"""PaddleNLP's LlamaForCausalLM at tensor_parallel_degree=2 (fleet, mp 2) against one process: each rank loads
its shard of the Paddle-saved weights (split by PaddleNLP's own tensor-parallel mappings), then the eval logits
(vocab-parallel: each rank holds its half of the vocabulary) and four AdamW losses (parallel cross entropy)
equal the single-process results real Paddle recorded (tests/data/paddlenlp/llama.npz)."""
import os
import sys

import numpy as np
import paddle
import paddle.distributed as dist
from paddle.distributed import fleet

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
import paddlenlp.data  # noqa: E402,F401  (before paddlenlp.transformers: an import cycle)
import paddlenlp.transformers as T  # noqa: E402

from tests import paddlenlp_cases as C  # noqa: E402

DATA = os.path.join(ROOT, "tests", "data", "paddlenlp")

strategy = fleet.DistributedStrategy()
strategy.hybrid_configs = {"dp_degree": 1, "mp_degree": 2, "pp_degree": 1}
fleet.init(is_collective=True, strategy=strategy)
hcg = fleet.get_hybrid_communicate_group()
rank, mp = hcg.get_model_parallel_rank(), hcg.get_model_parallel_world_size()
assert mp == 2 and rank == dist.get_rank()

case = C.CASES["llama"]
config = T.LlamaConfig(**case.config, tensor_parallel_degree=mp, tensor_parallel_rank=rank,
                       tensor_parallel_output=True)
paddle.seed(C.SEED)
model = T.LlamaForCausalLM(config)
state = paddle.load(os.path.join(DATA, case.weights + ".pdparams"))
state = T.LlamaForCausalLM.convert_tensor_parallel(None, config, state_dict=state)
own = model.state_dict()
assert sorted(state) == sorted(own)
for k in own:
    assert list(own[k].shape) == list(state[k].shape), (k, own[k].shape, state[k].shape)
model.set_state_dict(state)

logits, losses = C.run(paddle, model, case)
with np.load(os.path.join(DATA, "llama.npz")) as f:
    want_logits, want_losses = f["logits"], f["losses"]
shard = want_logits.shape[-1] // mp
np.testing.assert_allclose(logits, want_logits[..., rank * shard:(rank + 1) * shard], rtol=1e-4, atol=1e-4)
np.testing.assert_allclose(losses, want_losses, rtol=1e-4, atol=1e-4)
print("TP OK", rank, np.abs(np.array(losses) - want_losses).max(), flush=True)
dist.barrier()
