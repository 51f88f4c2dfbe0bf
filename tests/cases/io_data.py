"""paddle.io: datasets, samplers' index sequences, DistributedBatchSampler's shares, DataLoader batches.

Shuffled orders are compared by value where Paddle draws them from numpy's global generator
(RandomSampler, WeightedRandomSampler, DistributedBatchSampler): the cases seed numpy themselves.
Multi-process loading is tested in tests/test_dataloader.py.
"""
import numpy as np

from tests.cases import case


def _map_ds(paddle, fn, n):
    class D(paddle.io.Dataset):
        def __len__(self):
            return n

        def __getitem__(self, i):
            return fn(i)

    return D()


def _iter_ds(paddle, values):
    class D(paddle.io.IterableDataset):
        def __iter__(self):
            return iter(values)

    return D()


def _batches(paddle, fn, n=5, **kw):
    return list(paddle.io.DataLoader(_map_ds(paddle, fn, n), **kw))


# ---------------------------------------------------------------- datasets


@case
def tensor_dataset_rows(paddle):
    x = paddle.arange(12, dtype="float32").reshape([4, 3])
    y = paddle.to_tensor([3, 1, 4, 1])
    ds = paddle.io.TensorDataset([x, y])
    return len(ds), list(ds[2]), list(ds[-1])


@case
def tensor_dataset_first_dims_differ(paddle):
    return paddle.io.TensorDataset([paddle.zeros([3, 2]), paddle.zeros([4])])


@case
def compose_dataset_fields(paddle):
    a = _map_ds(paddle, lambda i: (np.float32(i), i * 10), 3)
    b = _map_ds(paddle, lambda i: np.array([i, -i]), 3)
    ds = paddle.io.ComposeDataset([a, b])
    return len(ds), [type(v).__name__ for v in ds[1]], ds[2][1], ds[2][2]


@case
def compose_dataset_lengths_differ(paddle):
    return paddle.io.ComposeDataset([_map_ds(paddle, lambda i: i, 3), _map_ds(paddle, lambda i: i, 4)])


@case
def compose_dataset_refuses_iterable(paddle):
    return paddle.io.ComposeDataset([_iter_ds(paddle, [1, 2])])


@case
def concat_dataset_indexing(paddle):
    ds = paddle.io.ConcatDataset([_map_ds(paddle, lambda i: ("a", i), 2), _map_ds(paddle, lambda i: ("b", i), 3),
                                  _map_ds(paddle, lambda i: ("c", i), 1)])
    return len(ds), ds.cumulative_sizes, [ds[i] for i in range(6)], ds[-1], ds[-6]


@case
def concat_dataset_index_too_negative(paddle):
    ds = paddle.io.ConcatDataset([_map_ds(paddle, lambda i: i, 2)])
    return ds[-3]


@case
def concat_dataset_refuses_iterable(paddle):
    return paddle.io.ConcatDataset([_iter_ds(paddle, [1])])


@case
def chain_dataset_iterates_in_order(paddle):
    ds = paddle.io.ChainDataset([_iter_ds(paddle, [1, 2]), _iter_ds(paddle, [3]), _iter_ds(paddle, [])])
    return [v for v in ds]


@case
def chain_dataset_list_asks_len(paddle):
    return list(paddle.io.ChainDataset([_iter_ds(paddle, [1])]))  # list() asks len(): RuntimeError, as in Paddle


@case
def chain_dataset_refuses_map_style(paddle):
    return paddle.io.ChainDataset([_map_ds(paddle, lambda i: i, 2)])


@case
def subset_indexing(paddle):
    ds = paddle.io.Subset(_map_ds(paddle, lambda i: i * i, 10), [7, 2, 5])
    return len(ds), [ds[i] for i in range(3)]


@case
def iterable_dataset_has_no_len_or_getitem(paddle):
    ds = _iter_ds(paddle, [1])
    out = []
    for f in (len, lambda d: d[0]):
        try:
            f(ds)
        except Exception as e:  # noqa: BLE001
            out.append(type(e).__name__)
    return out


@case
def dataset_base_is_abstract(paddle):
    ds = paddle.io.Dataset()
    out = []
    for f in (len, lambda d: d[0]):
        try:
            f(ds)
        except Exception as e:  # noqa: BLE001
            out.append(type(e).__name__)
    return out


@case
def random_split_lengths(paddle):
    ds = _map_ds(paddle, lambda i: i, 10)
    parts = paddle.io.random_split(ds, [3, 7])
    values = sorted(v for p in parts for v in (p[i] for i in range(len(p))))
    return [len(p) for p in parts], values, [type(p).__name__ for p in parts]


@case
def random_split_fractions(paddle):
    ds = _map_ds(paddle, lambda i: i, 11)
    return ([len(p) for p in paddle.io.random_split(ds, [0.5, 0.3, 0.2])],
            [len(p) for p in paddle.io.random_split(ds, [0.25, 0.25, 0.25, 0.25])])


@case
def random_split_wrong_sum(paddle):
    return paddle.io.random_split(_map_ds(paddle, lambda i: i, 10), [3, 8])


# ---------------------------------------------------------------- samplers


@case
def sequence_sampler(paddle):
    s = paddle.io.SequenceSampler(list("abcd"))
    return list(s), len(s)


@case
def random_sampler_numpy_seeded(paddle):
    np.random.seed(11)
    a = list(paddle.io.RandomSampler(list(range(8))))
    b = list(paddle.io.RandomSampler(list(range(8)), replacement=True, num_samples=12))
    c = list(paddle.io.RandomSampler(list(range(8)), num_samples=3))
    return a, b, c, len(paddle.io.RandomSampler(list(range(8)), replacement=True, num_samples=12))


@case
def random_sampler_is_a_permutation(paddle):
    return sorted(paddle.io.RandomSampler(list(range(20))))


@case
def random_sampler_generator_yields_indices(paddle):
    return list(paddle.io.RandomSampler(list(range(5)), generator=iter([4, 0, 2])))


@case
def random_sampler_replacement_not_bool(paddle):
    return paddle.io.RandomSampler([1, 2], replacement=1)


@case
def random_sampler_too_many_samples(paddle):
    return paddle.io.RandomSampler([1, 2], num_samples=3)


@case
def random_sampler_bad_num_samples(paddle):
    return paddle.io.RandomSampler([1, 2], replacement=True, num_samples=0)


@case
def weighted_sampler_numpy_seeded(paddle):
    np.random.seed(5)
    s = paddle.io.WeightedRandomSampler(np.array([0.1, 0.0, 0.6, 0.3]), 6)
    t = paddle.io.WeightedRandomSampler(np.array([0.0, 2.0, 1.0, 1.0]), 3, replacement=False)
    return list(s), len(s), list(t), len(t)


@case
def weighted_sampler_2d_weights(paddle):
    # Paddle divides each row by the row sums broadcast along the last axis: only square weights work
    np.random.seed(2)
    s = paddle.io.WeightedRandomSampler(np.array([[1.0, 3.0], [2.0, 2.0]]), 3)
    t = paddle.io.WeightedRandomSampler(np.array([[1.0, 1, 0, 0], [0, 0, 2, 2]]), 2)
    out = [list(s), len(s), len(t)]
    try:
        list(iter(t))
    except ValueError:
        out.append("ValueError")
    return out


@case
def weighted_sampler_list_weights(paddle):
    np.random.seed(5)
    s = paddle.io.WeightedRandomSampler([1.0, 2.0, 3.0], 4)
    return list(iter(s))


@case
def weighted_sampler_list_weights_len(paddle):
    return len(paddle.io.WeightedRandomSampler([1.0, 2.0, 3.0], 4))


@case
def weighted_sampler_bad_args(paddle):
    out = []
    for kw in ({"num_samples": 0}, {"num_samples": 2, "replacement": 1}):
        try:
            paddle.io.WeightedRandomSampler(np.ones(3), **kw)
        except Exception as e:  # noqa: BLE001
            out.append(type(e).__name__)
    return out


@case
def weighted_sampler_not_enough_positive(paddle):
    return list(iter(paddle.io.WeightedRandomSampler(np.array([1.0, 0, 0]), 2, replacement=False)))


@case
def subset_random_sampler_permutes_indices(paddle):
    s = paddle.io.SubsetRandomSampler([9, 4, 7, 1])
    return sorted(s), len(s)


@case
def subset_random_sampler_empty(paddle):
    return paddle.io.SubsetRandomSampler([])


@case
def batch_sampler_over_dataset(paddle):
    ds = list(range(7))
    a = paddle.io.BatchSampler(ds, batch_size=3)
    b = paddle.io.BatchSampler(ds, batch_size=3, drop_last=True)
    return list(a), len(a), list(b), len(b)


@case
def batch_sampler_over_sampler(paddle):
    s = paddle.io.BatchSampler(sampler=paddle.io.SequenceSampler(list(range(5))), batch_size=2)
    t = paddle.io.BatchSampler(sampler=[4, 3, 2, 1, 0], batch_size=4)
    return list(s), len(s), list(t)


@case
def batch_sampler_shuffled_numpy_seeded(paddle):
    np.random.seed(3)
    s = paddle.io.BatchSampler(list(range(10)), shuffle=True, batch_size=4)
    return list(s), type(s.sampler).__name__


@case
def batch_sampler_errors(paddle):
    out = []
    for kw in ({}, {"dataset": [1], "sampler": [0]}, {"sampler": [0], "shuffle": True},
               {"dataset": [1], "batch_size": 0}, {"dataset": [1], "drop_last": 1},
               {"dataset": [1], "shuffle": 1}):
        try:
            paddle.io.BatchSampler(**kw)
            out.append("ok")
        except Exception as e:  # noqa: BLE001
            out.append(type(e).__name__)
    return out


@case
def batch_sampler_refuses_iterable_dataset(paddle):
    return paddle.io.BatchSampler(_iter_ds(paddle, [1]))


@case
def distributed_batch_sampler_shares(paddle):
    out = []
    for n, bs, nranks, drop in ((10, 2, 2, False), (10, 3, 3, False), (7, 2, 3, True), (5, 4, 2, False),
                                (3, 1, 4, False), (16, 4, 2, True)):
        shares = []
        for rank in range(nranks):
            s = paddle.io.DistributedBatchSampler(list(range(n)), batch_size=bs, num_replicas=nranks, rank=rank,
                                                  drop_last=drop)
            shares.append([list(s), len(s), s.num_samples, s.total_size])
        out.append(shares)
    return out


@case
def distributed_batch_sampler_shuffle_epochs(paddle):
    s = paddle.io.DistributedBatchSampler(list(range(11)), batch_size=3, num_replicas=2, rank=1, shuffle=True)
    first, second = list(s), list(s)  # each pass shuffles with the epoch, then advances it
    s.set_epoch(7)
    return first, second, list(s), s.epoch


@case
def distributed_batch_sampler_single_process_defaults(paddle):
    s = paddle.io.DistributedBatchSampler(list(range(5)), batch_size=2)
    return s.nranks, s.local_rank, list(s)


@case
def distributed_batch_sampler_errors(paddle):
    out = []
    for kw in ({"batch_size": 0}, {"batch_size": 2, "num_replicas": 0}, {"batch_size": 2, "rank": -1},
               {"batch_size": 2, "shuffle": 1}, {"batch_size": 2, "drop_last": None}):
        try:
            paddle.io.DistributedBatchSampler([1, 2], **kw)
            out.append("ok")
        except Exception as e:  # noqa: BLE001
            out.append(type(e).__name__)
    return out


# ---------------------------------------------------------------- collation


@case
def collate_python_numbers(paddle):
    return (_batches(paddle, lambda i: i, batch_size=2)[0], _batches(paddle, lambda i: i / 2, batch_size=2)[0],
            _batches(paddle, lambda i: i % 2 == 0, batch_size=2)[0],
            _batches(paddle, lambda i: 1j * i, batch_size=2)[0])


@case
def collate_numpy_scalars(paddle):
    return (_batches(paddle, lambda i: np.float32(i), batch_size=3)[0],
            _batches(paddle, lambda i: np.int8(i), batch_size=3)[0],
            _batches(paddle, lambda i: np.float64(i), batch_size=3)[0])


@case
def collate_numpy_arrays(paddle):
    return [_batches(paddle, lambda i, d=d: np.full([2, 3], i, dtype=d), batch_size=2)[-1]
            for d in ("float32", "float64", "float16", "int32", "int64", "uint8", "bool")]


@case
def collate_numpy_uint16_is_bfloat16(paddle):
    return _batches(paddle, lambda i: np.zeros([2], "uint16"), n=2, batch_size=2)[0].dtype


@case
def collate_tensors(paddle):
    b = _batches(paddle, lambda i: paddle.full([2], i, dtype="int32"), batch_size=2)
    c = _batches(paddle, lambda i: paddle.to_tensor([float(i)], stop_gradient=False), batch_size=4)
    return b[0], b[-1], c[0]


@case
def collate_tuple_sample_becomes_list(paddle):
    b = _batches(paddle, lambda i: (np.ones([3], "float32") * i, i), batch_size=2)
    return type(b[0]).__name__, b[0], len(b)


@case
def collate_nested_structures(paddle):
    b = _batches(paddle, lambda i: {"img": np.zeros([1, 2], "float32") + i, "meta": {"id": i, "name": f"s{i}"},
                                    "pair": (i, [i * 0.5])}, batch_size=3)
    return b[0], sorted(b[0].keys())


@case
def collate_strings_stay_lists(paddle):
    return _batches(paddle, lambda i: (np.array([i]), "abc"[i % 3]), batch_size=3)[0]


# An error inside Paddle's loading thread hangs real Paddle's DataLoader (or ends in SystemError), so
# collation errors are recorded through default_collate_fn itself; tests/test_dataloader.py checks
# that the DataLoader passes them on.


@case
def collate_fields_differ(paddle):
    return paddle.io.dataloader.collate.default_collate_fn([[1], [1, 2]])


@case
def collate_unsupported_type(paddle):
    return paddle.io.dataloader.collate.default_collate_fn([object(), object()])


@case
def collate_batch_without_tensors_ends_iteration(paddle):
    return (_batches(paddle, lambda i: "s", batch_size=2),
            _batches(paddle, lambda i: i, batch_size=2, collate_fn=lambda b: b),
            _batches(paddle, lambda i: i, batch_size=None))


@case
def default_collate_fn_returns_numpy(paddle):
    f = paddle.io.dataloader.collate.default_collate_fn
    r = f([(np.ones(2, "float32"), 1, "a"), (np.zeros(2, "float32"), 2, "b")])
    return type(r).__name__, r[0], r[1], r[2], f([{"k": 1.5}, {"k": 2.5}])["k"]


@case
def default_convert_fn_keeps_samples(paddle):
    f = paddle.io.dataloader.collate.default_convert_fn
    r = f((np.ones(2), (1, "x"), {"a": (2,)}))
    return type(r).__name__, r[0], r[1], r[2]


# ---------------------------------------------------------------- DataLoader


@case
def dataloader_batches_and_len(paddle):
    ds = _map_ds(paddle, lambda i: (np.array([i, i], "float32"), i), 7)
    a = paddle.io.DataLoader(ds, batch_size=3)
    b = paddle.io.DataLoader(ds, batch_size=3, drop_last=True)
    return len(a), list(a), len(b), [x for x, _ in b]


@case
def dataloader_without_batching(paddle):
    ds = _map_ds(paddle, lambda i: (np.array([i, i + 1]), np.float32(i)), 3)
    loader = paddle.io.DataLoader(ds, batch_size=None)
    return len(loader), list(loader)


@case
def dataloader_custom_collate(paddle):
    ds = _map_ds(paddle, lambda i: i, 5)
    loader = paddle.io.DataLoader(ds, batch_size=2, collate_fn=lambda b: (np.array(b) * 2, len(b), "tag", None))
    return list(loader)


@case
def dataloader_collate_returns_tensor(paddle):
    ds = _map_ds(paddle, lambda i: i, 4)
    return list(paddle.io.DataLoader(ds, batch_size=2, collate_fn=lambda b: paddle.to_tensor(b, dtype="float32")))


@case
def dataloader_batch_sampler(paddle):
    ds = _map_ds(paddle, lambda i: np.array([i]), 6)
    bs = paddle.io.BatchSampler(sampler=[5, 0, 3, 1], batch_size=3)
    loader = paddle.io.DataLoader(ds, batch_sampler=bs)
    return len(loader), list(loader), loader.batch_size


@case
def dataloader_distributed_batch_sampler(paddle):
    ds = _map_ds(paddle, lambda i: i, 9)
    bs = paddle.io.DistributedBatchSampler(ds, batch_size=2, num_replicas=2, rank=1)
    return list(paddle.io.DataLoader(ds, batch_sampler=bs))


@case
def dataloader_shuffle_numpy_seeded(paddle):
    ds = _map_ds(paddle, lambda i: i, 9)
    np.random.seed(21)
    loader = paddle.io.DataLoader(ds, batch_size=4, shuffle=True)
    return list(loader), list(loader)


@case
def dataloader_iterable_dataset(paddle):
    ds = _iter_ds(paddle, [np.array([v], "float32") for v in range(7)])
    return ([b for b in paddle.io.DataLoader(ds, batch_size=3)],
            [b for b in paddle.io.DataLoader(ds, batch_size=3, drop_last=True)],
            [b for b in paddle.io.DataLoader(ds, batch_size=None)][:2])


@case
def dataloader_iterable_len(paddle):
    return len(paddle.io.DataLoader(_iter_ds(paddle, [1]), batch_size=1))


@case
def dataloader_iterable_shuffle(paddle):
    return paddle.io.DataLoader(_iter_ds(paddle, [1]), shuffle=True)


@case
def dataloader_iterable_batch_sampler(paddle):
    return paddle.io.DataLoader(_iter_ds(paddle, [1]), batch_sampler=paddle.io.BatchSampler([0], batch_size=1))


@case
def dataloader_argument_errors(paddle):
    ds = _map_ds(paddle, lambda i: i, 3)
    bs = paddle.io.BatchSampler(ds, batch_size=2)
    out = []
    for kw in ({"batch_size": 0}, {"num_workers": -1}, {"batch_sampler": bs, "batch_size": 2},
               {"batch_sampler": bs, "shuffle": True}, {"prefetch_factor": 0}, {"timeout": -1}):
        try:
            paddle.io.DataLoader(ds, **kw)
            out.append("ok")
        except Exception as e:  # noqa: BLE001
            out.append(type(e).__name__)
    return out


@case
def dataloader_attributes(paddle):
    ds = _map_ds(paddle, lambda i: i, 3)
    a = paddle.io.DataLoader(ds, batch_size=2, drop_last=True)
    b = paddle.io.DataLoader(ds, batch_size=None, num_workers=0, use_shared_memory=True)
    return (a.batch_size, a.drop_last, a.auto_collate_batch, a.num_workers, a.return_list,
            type(a.batch_sampler).__name__,
            b.batch_sampler, b.auto_collate_batch, b.use_shared_memory, a.dataset is ds)


@case
def dataloader_call_and_iterator_len(paddle):
    loader = paddle.io.DataLoader(_map_ds(paddle, lambda i: i, 5), batch_size=2)
    it = loader()
    return len(it), next(it), list(it)


@case
def dataloader_plain_list_dataset(paddle):
    return list(paddle.io.DataLoader([np.float32(v) for v in range(5)], batch_size=2))


@case
def dataloader_tensor_dataset(paddle):
    x = paddle.arange(6, dtype="float32").reshape([3, 2])
    ds = paddle.io.TensorDataset([x, paddle.to_tensor([0, 1, 0])])
    return list(paddle.io.DataLoader(ds, batch_size=2))


@case
def get_worker_info_in_main_process(paddle):
    return paddle.io.get_worker_info()
