"""paddle.batch: Paddle's legacy reader decorator, batching the samples a reader yields."""

__all__ = ["batch"]


def batch(reader, batch_size, drop_last=False):
    """Wrap a sample reader (a callable returning an iterator) into one that yields lists of batch_size."""
    batch_size = int(batch_size)
    if batch_size <= 0:
        raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")

    def batch_reader():
        b = []
        for instance in reader():
            b.append(instance)
            if len(b) == batch_size:
                yield b
                b = []
        if b and not drop_last:
            yield b

    return batch_reader
