"""PipelineLayer: a model written as a list of layer descriptions, cut into pipeline stages.

Each rank builds only the layers of its own stage (LayerDesc entries are built lazily, with
`paddle.seed(1234 + layer_index)` before each so that a layer's initial weights do not depend on
the partition), as Paddle does.  SharedLayerDesc entries with the same key share one layer per
stage; where the key appears on several stages, the weights are broadcast from the first of them at
construction and their gradients all-reduced over those stages after each backward
(`allreduce_shared_weight_gradients`), so the copies stay equal.
"""
import math
import re
from functools import partial

import torch
import torch.distributed as tdist

from .....framework.random import get_rng_state, seed as paddle_seed, set_rng_state
from .....nn.layer.layers import Layer
from .....nn.layer.container import LayerDict
from ...base import topology as tp
from ...layers.mpu.random import get_rng_state_tracker
from ...recompute.recompute import recompute
from ....._report import unsupported

__all__ = ["LayerDesc", "SharedLayerDesc", "SegmentLayers", "PipelineLayer"]


class LayerDesc:
    def __init__(self, layer_func, *inputs, **kwargs):
        self.layer_func = layer_func
        self.inputs = inputs
        self.kwargs = kwargs
        if not (isinstance(layer_func, type) and issubclass(layer_func, Layer)):
            raise TypeError("The input(layer_func) should be a derived class of Layer.")

    def build_layer(self, **extra_kwargs):
        return self.layer_func(*self.inputs, **{**self.kwargs, **extra_kwargs})

    def __repr__(self):
        args = [repr(a) for a in self.inputs] + [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return f"{self.layer_func.__name__}({', '.join(args)})"


class SharedLayerDesc(LayerDesc):
    def __init__(self, key, layer_func, forward_func=None, shared_weight_attr="weight", *inputs, **kwargs):
        super().__init__(layer_func, *inputs, **kwargs)
        self.layer_name = key
        self.forward_func = forward_func
        if isinstance(shared_weight_attr, str):
            shared_weight_attr = [shared_weight_attr]
        assert isinstance(shared_weight_attr, list) and all(isinstance(a, str) for a in shared_weight_attr)
        self.shared_weight_attr = shared_weight_attr


class LocalSharedLayerDesc(LayerDesc):
    """A layer shared within one pipeline stage (Paddle uses it only for its dualpipev schedule)."""

    def __init__(self, key, layer_func, forward_func=None, shared_weight_attr="weight", *inputs, **kwargs):
        super().__init__(layer_func, *inputs, **kwargs)
        self.layer_name = key
        self.forward_func = forward_func
        if isinstance(shared_weight_attr, str):
            shared_weight_attr = [shared_weight_attr]
        assert isinstance(shared_weight_attr, list) and all(isinstance(a, str) for a in shared_weight_attr)
        self.shared_weight_attr = shared_weight_attr


class SegmentLayers:
    def __init__(self, layers_desc, num_parts, method="uniform", num_virtual_pipeline_stage=None):
        self._layers_desc = layers_desc
        self.method = method
        self.num_parts = num_parts
        self.num_items = len(layers_desc)
        assert self.num_items >= self.num_parts, "layer number should be greater than number of segments"

    def do_segment(self):
        if isinstance(self.method, list):
            seg = list(self.method)
            assert seg[0] == 0, "seg_method[0] should be 0"
            if self.num_parts == len(seg):
                return seg + [self.num_items]
            if self.num_parts == len(seg) - 1:
                return seg
            raise ValueError(f"We set seg_method as {seg}, this length is {len(seg)}, but the number of stages is "
                             f"{self.num_parts}")
        if self.method == "uniform":
            return self.uniform(self.num_items, self.num_parts)
        if isinstance(self.method, str) and self.method.startswith("layer:"):
            regex = re.compile(self.method.split(":")[1], re.IGNORECASE)
            weights = [1 if regex.search(_desc_name(d) or "") else 0 for d in self._layers_desc]
            assert sum(weights) > 0, "weight_idxs' length should be greater than 0"
            assert sum(weights) % self.num_parts == 0, \
                f"number of layers ({sum(weights)}) should be divided by part number({self.num_parts})"
            part = sum(weights) // self.num_parts
            result, count, idx = [0] * (self.num_parts + 1), 0, 1
            for i, w in enumerate(weights):
                count += w
                if count == part:
                    result[idx] = i + 1
                    idx += 1
                    count = 0
            result[self.num_parts] = len(weights)
            return result
        raise ValueError(f"method {self.method} is not supported")

    @staticmethod
    def uniform(num_items, num_parts):
        result = [0] * (num_parts + 1)
        size = math.floor(num_items / num_parts)
        extra = num_items % num_parts
        for i in range(1, num_parts):
            offset = 1 if i > (num_parts - extra) else 0
            result[i] = int(min(result[i - 1] + size + offset, num_items))
        result[num_parts] = num_items
        return result


def _desc_name(d):
    if isinstance(d, Layer):
        return type(d).__name__
    if isinstance(d, LayerDesc):
        return d.layer_func.__name__
    return getattr(d, "__name__", None)


class PipelineLayer(Layer):
    def __init__(self, layers, num_stages=None, topology=None, loss_fn=None, seg_method="uniform",
                 recompute_interval=0, recompute_ctx=None, num_virtual_pipeline_stages=None, use_cudagraph=False,
                 use_dualpipev=False):
        super().__init__()
        if num_stages is None and topology is None:
            raise ValueError("should provide num_stages or topology")
        if num_virtual_pipeline_stages and num_virtual_pipeline_stages > 1:
            raise unsupported("paddle.distributed.fleet.meta_parallel.PipelineLayer",
                              " with num_virtual_pipeline_stages > 1 (the interleaved VPP schedule)")
        if use_dualpipev:
            raise unsupported("paddle.distributed.fleet.meta_parallel.PipelineLayer", " with use_dualpipev=True")
        self._num_virtual_pipeline_stages = 1
        self._loss_fn = loss_fn if isinstance(loss_fn, list) else [loss_fn]
        self._topo = topology
        self._recompute_interval = recompute_interval
        self.recompute_ctx = recompute_ctx
        self._base_seed = 1234
        world = tdist.get_world_size() if tdist.is_initialized() else 1
        self.global_rank = tdist.get_rank() if tdist.is_initialized() else 0
        if self._topo is not None:
            self._stage_id = self._topo.get_coord(self.global_rank).pipe
            self._num_stages = self._topo.get_dim_size("pipe")
            if num_stages:
                assert self._num_stages == num_stages, f"num_stages should be equal to be {self._num_stages}"
        else:
            if world % num_stages != 0:
                raise ValueError(f"should provide correct num_stages({num_stages}) which can be divided by "
                                 f"world_size({world})")
            self._topo = tp.CommunicateTopology(["data", "pipe", "model"], [world // num_stages, num_stages, 1])
            self._stage_id = self._topo.get_coord(self.global_rank).pipe
            self._num_stages = num_stages
        self._layers_desc = list(layers)
        self._num_layers = len(self._layers_desc)
        self.shared_layers = LayerDict()
        self.segment_parts = SegmentLayers(self._layers_desc, self._num_stages, seg_method).do_segment()
        self._start_pos = self.segment_parts[self._stage_id]
        self._end_pos = self.segment_parts[self._stage_id + 1]
        self.run_function = []
        self._build_layer()
        self.shared_comm = self._construct_shared_comm()
        self._synchronize_shared_weights()

    def get_stage_from_index(self, layer_idx):
        assert 0 <= layer_idx < self._num_layers, "layer_idx is out of bound"
        for stage in range(self._num_stages):
            if self.segment_parts[stage] <= layer_idx < self.segment_parts[stage + 1]:
                return stage

    def get_num_virtual_stages(self):
        return 1

    def get_model_chunks(self):
        return None

    def _build_layer(self):
        orig_rng, orig_tracker = get_rng_state(), get_rng_state_tracker().get_states_tracker()
        for index, desc in enumerate(self._layers_desc[self._start_pos:self._end_pos]):
            layer_index = self._start_pos + index
            paddle_seed(self._base_seed + layer_index)
            if isinstance(desc, Layer):
                self.run_function.append(desc)
                self.add_sublayer(str(layer_index), desc)
            elif isinstance(desc, LocalSharedLayerDesc):  # as in Paddle without dualpipev
                raise NotImplementedError("Only dualpipev is supported to use LocalSharedLayerDesc yet")
            elif isinstance(desc, SharedLayerDesc):
                if desc.layer_name not in self.shared_layers:
                    self.shared_layers[desc.layer_name] = desc.build_layer()
                shared = self.shared_layers[desc.layer_name]
                self.run_function.append(shared if desc.forward_func is None else partial(desc.forward_func, shared))
            elif isinstance(desc, LayerDesc):
                layer = desc.build_layer()
                self.run_function.append(layer)
                self.add_sublayer(str(layer_index), layer)
            else:
                self.run_function.append(desc)
        set_rng_state(orig_rng)
        get_rng_state_tracker().set_states_tracker(orig_tracker)

    def _construct_shared_comm(self):
        """A group per shared key over the stages that hold it (one per pipeline line of the topology)."""
        comm = {}
        if self._num_stages == 1:
            return comm
        stages, attrs = {}, {}
        for idx, desc in enumerate(self._layers_desc):
            if isinstance(desc, SharedLayerDesc):
                stages.setdefault(desc.layer_name, set()).add(self.get_stage_from_index(idx))
                attrs.setdefault(desc.layer_name, desc.shared_weight_attr)
        for key in sorted(stages, key=list(stages).index):
            if len(stages[key]) < 2:
                continue
            for line in self._topo.get_comm_list("pipe"):
                ranks = [line[s] for s in sorted(stages[key])]
                pg = tdist.new_group(ranks)
                if self.global_rank in ranks:
                    comm[key] = {"ranks": ranks, "group": pg, "weight_attr": attrs[key],
                                 "layer": self.shared_layers[key]}
        return comm

    @torch.no_grad()
    def _synchronize_shared_weights(self):
        for key, c in self.shared_comm.items():
            for attr in c["weight_attr"]:
                p = getattr(c["layer"], attr)
                tdist.broadcast(p._t.detach(), src=min(c["ranks"]), group=c["group"])
                # the copies on later stages do not count again in the global grad-clip norm
                p.is_firstly_shared = self.global_rank == min(c["ranks"])

    @torch.no_grad()
    def allreduce_shared_weight_gradients(self):
        for key, c in self.shared_comm.items():
            for attr in c["weight_attr"]:
                p = getattr(c["layer"], attr)
                if p._t.grad is None:
                    p._t.grad = torch.zeros_like(p._t)
                tdist.all_reduce(p._t.grad, group=c["group"])

    def forward_function(self, start, end):
        def execute_func(*x):
            x = x[0] if len(x) == 1 else x
            for layer in self.run_function[start:end]:
                x = layer(x)
            return x

        return execute_func

    def forward(self, input, chunk_id=None):
        if self._recompute_interval == 0:
            return self.forward_function(0, len(self.run_function))(input)
        n = len(self.run_function)
        for start in range(0, n, self._recompute_interval):
            end = min(start + self._recompute_interval, n)
            args = input if isinstance(input, tuple) else (input,)
            funcs = self.run_function[start:end]
            if self._need_recompute(funcs, args):
                input = recompute(self.forward_function(start, end), *args,
                                  preserve_rng_state=(self.recompute_ctx or {}).get("preserve_rng_state", True))
            else:
                input = self.forward_function(start, end)(*args)
        return input

    @staticmethod
    def _need_recompute(funcs, inputs):
        from .....tensor.tensor import Tensor

        if not any(not x.stop_gradient for x in inputs if isinstance(x, Tensor)):
            return False
        return any(len(f.parameters()) > 0 for f in funcs if isinstance(f, Layer))


class PipelineLayerChunk(Layer):
    """One virtual-stage chunk of Paddle's interleaved pipeline layer: not provided (isinstance tests see none)."""

    __paddle_on_torch_unsupported__ = "paddle.distributed.fleet.meta_parallel.parallel_layers.pp_layers.PipelineLayerChunk"

    def __init__(self, *args, **kwargs):
        raise unsupported("paddle.distributed.fleet.meta_parallel.parallel_layers.pp_layers.PipelineLayerChunk",
                          ": interleaved (virtual-stage) pipeline chunks")
