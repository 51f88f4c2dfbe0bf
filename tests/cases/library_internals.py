"""Private names Paddle's libraries reach (PaddleNLP's Trainer and modeling), beyond the documented API."""
from tests.cases import case


@case
def dataloader_iter_classes(paddle):
    # PaddleNLP's Trainer accepts a DataLoader iterator by isinstance and reads its _batch_sampler / _dataset
    from paddle.io.dataloader.dataloader_iter import _DataLoaderIterBase, _DataLoaderIterSingleProcess

    ds = paddle.io.TensorDataset([paddle.arange(6).reshape([6, 1])])
    loader = paddle.io.DataLoader(ds, batch_size=4, drop_last=True)
    it = iter(loader)
    return [isinstance(it, _DataLoaderIterBase), isinstance(it, _DataLoaderIterSingleProcess),
            isinstance(loader, _DataLoaderIterBase), it._batch_sampler is loader.batch_sampler, it._dataset is ds,
            it._drop_last, it._num_workers, it._auto_collate_batch, it._batch_sampler.batch_size, len(list(it))]



@case
def tensor_use_gpudnn(paddle):
    # PaddleNLP's LlamaPretrainingCriterion3DAuto: logits.astype("float32")._use_gpudnn(False)
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    y = (x * 2)._use_gpudnn(False)
    (y * 3).sum().backward()
    z = x._use_gpudnn(True)
    return [y, y.stop_gradient, x.grad, z is x, z.stop_gradient, z]


# ---------------------------------------------------------------- names issue 27 found in libraries' code


@case
def tensor_grad_ivar(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    before = x._grad_ivar()
    (x * x).sum().backward()
    g = x._grad_ivar()
    return [before, g, g.stop_gradient, paddle.to_tensor([1.0])._grad_ivar()]


@case
def parameter_block_for_initializers(paddle):
    # PaddleSeg's initializers run init(param, param.block)
    p = paddle.create_parameter([2, 3], "float32")
    paddle.nn.initializer.Constant(2.0)(p, p.block)
    return [p.block.idx, type(p.block.program).__name__, p, paddle.nn.Linear(2, 2).weight.block.idx]


@case
def names_paddle_331_does_not_have(paddle):
    out = []
    for get in (lambda: paddle.is_compiled_with_mlu, lambda: paddle.utils.profiler):
        try:
            get()
            out.append("present")
        except AttributeError as e:
            out.append(type(e).__name__)
    return out


@case
def utils_profiler_module_is_absent(paddle):
    import paddle.utils.profiler  # noqa: F401


def _boxes(rng, n, m):
    import numpy as np

    xy = rng.rand(n, m, 2) * 50
    wh = rng.rand(n, m, 2) * 20 + 1
    return np.concatenate([xy, xy + wh], -1).astype("float32")


@case
def layer_helper_runs_detection_ops_in_dygraph(paddle):
    # the dygraph path of PaddleDetection's helpers: LayerHelper(...).append_op runs the operator at once
    import numpy as np
    from paddle.base.layer_helper import LayerHelper

    rng = np.random.RandomState(0)
    b, s = paddle.to_tensor(_boxes(rng, 2, 10)), paddle.to_tensor(rng.rand(2, 3, 10).astype("float32"))
    helper = LayerHelper("multiclass_nms3", bboxes=b, scores=s, name=None)
    out = helper.create_variable_for_type_inference(dtype=b.dtype)
    index = helper.create_variable_for_type_inference(dtype="int32")
    num = helper.create_variable_for_type_inference(dtype="int32")
    fresh = [repr(out), out._is_initialized()]
    helper.append_op(type="multiclass_nms3",
                     inputs={"BBoxes": b, "Scores": s, "RoisNum": paddle.to_tensor(np.array([10, 10], "int32"))},
                     outputs={"Out": out, "Index": index, "NmsRoisNum": num},
                     attrs={"background_label": 0, "score_threshold": 0.3, "nms_top_k": 5, "nms_threshold": 0.4,
                            "keep_top_k": 6, "nms_eta": 1.0, "normalized": False})
    x = paddle.to_tensor(rng.rand(1, 4, 2, 3).astype("float32"))
    h2 = LayerHelper("anchor_generator", input=x)
    a, v = (h2.create_variable_for_type_inference(h2.input_dtype()) for _ in range(2))
    h2.append_op(type="anchor_generator", inputs={"Input": x}, outputs={"Anchors": a, "Variances": v},
                 attrs={"anchor_sizes": [32.0, 64.0], "aspect_ratios": [0.5, 1.0], "variances": [0.1, 0.1, 0.2, 0.2],
                        "stride": [16.0, 16.0], "offset": 0.5})
    act = LayerHelper("some_layer", act="hard_swish").append_activation(paddle.to_tensor([-4.0, 1.0, 5.0]))
    return [helper.name, helper.layer_type, str(helper.input_dtype("bboxes")), fresh, out, index, num, a, v, act]


@case
def layer_helper_nms_without_rois_num_fails_in_dygraph(paddle):
    # Paddle's tracer reads the absent RoisNum input as the length of an output "Rois": its assertion fails
    import numpy as np
    from paddle.base.layer_helper import LayerHelper

    rng = np.random.RandomState(1)
    b, s = paddle.to_tensor(_boxes(rng, 1, 4)), paddle.to_tensor(rng.rand(1, 2, 4).astype("float32"))
    helper = LayerHelper("multiclass_nms3")
    out = helper.create_variable_for_type_inference(dtype=b.dtype)
    helper.append_op(type="multiclass_nms3", inputs={"BBoxes": b, "Scores": s}, outputs={"Out": out}, attrs={})


@case
def process_mesh_larger_than_the_world(paddle):
    # accepted at construction in one process (its first use needs the processes it names)
    import paddle.distributed as dist

    mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["x", "y"])
    return [mesh.shape, mesh.process_ids, mesh.dim_names, mesh.ndim, mesh.get_dim_size("y"),
            mesh.get_mesh_with_dim("y").process_ids]
