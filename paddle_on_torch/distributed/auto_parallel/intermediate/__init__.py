"""paddle.distributed.auto_parallel.intermediate: the intermediate auto-parallel API, a package as in Paddle
(`import paddle.distributed.auto_parallel.intermediate.parallelize as parallelize` gives the module, whose
`parallelize` is the function paddle.distributed.parallelize)."""
__all__ = []
