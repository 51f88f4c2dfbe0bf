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
