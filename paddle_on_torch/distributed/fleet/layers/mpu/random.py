"""RNGStatesTracker: named random-number states beside the global one.

Tensor-parallel code draws dropout masks and initial weights of sharded parameters inside
`with get_rng_state_tracker().rng_state():`, which swaps the global generator's state (Paddle's CPU stream
and torch's default CPU generator, plus the current CUDA one when present) for the named state and back.
`model_parallel_random_seed(seed)` seeds that state differently on each model-parallel and pipeline
rank (seed + 1 + mp_rank * pp_size + pp_rank) and the global state with `seed`, as Paddle does.
"""
import contextlib

import numpy as np
import torch

from ....._core import random as _cpu_random

__all__ = ["RNGStatesTracker", "get_rng_state_tracker", "model_parallel_random_seed", "MODEL_PARALLEL_RNG"]

MODEL_PARALLEL_RNG = "model_parallel_rng"


def _get():
    stream = _cpu_random.default_cpu()
    return (torch.get_rng_state(), torch.cuda.get_rng_state() if torch.cuda.is_available() else None,
            stream.state.clone(), stream.seed)


def _set(state):
    torch.set_rng_state(state[0])
    if state[1] is not None:
        torch.cuda.set_rng_state(state[1])
    stream = _cpu_random.default_cpu()
    stream.state.copy_(state[2])
    stream.seed = state[3]


def _seed(seed):
    torch.manual_seed(int(seed))
    _cpu_random.default_cpu().manual_seed(int(seed))


class RNGStatesTracker:
    def __init__(self):
        self.states_ = {}
        self.seeds_ = set()

    def reset(self):
        self.states_ = {}
        self.seeds_ = set()

    def add(self, name, seed):
        if seed in self.seeds_:
            raise ValueError(f"seed {seed} already exists")
        self.seeds_.add(seed)
        if name in self.states_:
            raise ValueError(f"state {name} already exists")
        orig = _get()
        _seed(seed)
        self.states_[name] = _get()
        _set(orig)

    def get_states_tracker(self):
        return {name: [s.clone() if isinstance(s, torch.Tensor) else s for s in st]
                for name, st in self.states_.items()}

    def set_states_tracker(self, states):
        for name, st in states.items():
            if name not in self.states_:
                raise ValueError(f"state {name} does not exists")
            self.states_[name] = tuple(st)

    @contextlib.contextmanager
    def rng_state(self, name=MODEL_PARALLEL_RNG):
        if name not in self.states_:
            raise ValueError(f"state {name} does not exist")
        orig = _get()
        _set(self.states_[name])
        try:
            yield
        finally:
            self.states_[name] = _get()
            _set(orig)


RNG_STATE_TRACKER = RNGStatesTracker()


def get_rng_state_tracker():
    return RNG_STATE_TRACKER


def model_parallel_random_seed(seed=None):
    from .....framework.random import seed as paddle_seed
    from ...base import topology as tp

    hcg = tp._HYBRID_PARALLEL_GROUP
    assert hcg is not None, "call fleet.init(is_collective=True) first"
    mp_rank, pp_rank = hcg.get_model_parallel_rank(), hcg.get_stage_id()
    pp_size = hcg.get_pipe_parallel_world_size()
    global_seed = seed if seed else int(np.random.randint(0, 10000))
    local_seed = global_seed + 1 + mp_rank * pp_size + pp_rank
    RNG_STATE_TRACKER.reset()
    RNG_STATE_TRACKER.add(MODEL_PARALLEL_RNG, local_seed)
    paddle_seed(global_seed)
