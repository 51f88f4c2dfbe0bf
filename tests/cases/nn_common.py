"""nn common layers and functional ops: Linear, Bilinear, Flatten, dropout, Embedding, pad, interpolate,
fold/unfold, similarity, one_hot, label_smooth, sequence_mask, temporal_shift,
class_center_sample."""
import numpy as np

from tests.cases import case, data, fill_parameters


@case(rtol=1e-5, atol=1e-5)  # matmul summation order
def linear_layer_grad(paddle):
    m = fill_parameters(paddle.nn.Linear(4, 3), 1)
    x = paddle.to_tensor(data([2, 5, 4], 1), stop_gradient=False)
    y = m(x)
    (y * y).sum().backward()
    return y, x.grad, m.weight.grad, m.bias.grad, m.weight.shape, repr(m), repr(paddle.nn.Linear(2, 3, name="fc"))


@case
def linear_attrs(paddle):
    c = paddle.nn.initializer.Constant
    m = paddle.nn.Linear(2, 3, weight_attr=paddle.ParamAttr(initializer=c(0.5)), bias_attr=False)
    m2 = paddle.nn.Linear(2, 2, weight_attr=c(2.0), bias_attr=paddle.ParamAttr(initializer=c(1.0)))
    x = paddle.to_tensor([[1.0, 2.0]])
    return m(x), m.bias is None, m2(x), m.weight.stop_gradient, paddle.nn.functional.linear(x, m2.weight)


@case(rtol=1e-5, atol=1e-5)  # summation order
def bilinear(paddle):
    m = fill_parameters(paddle.nn.Bilinear(3, 2, 4), 2)
    x1, x2 = paddle.to_tensor(data([5, 3], 2)), paddle.to_tensor(data([5, 2], 3))
    return m(x1, x2), m.weight.shape, m.bias.shape, repr(m), paddle.nn.functional.bilinear(x1, x2, m.weight)


@case
def identity_flatten_unflatten(paddle):
    x = paddle.to_tensor(data([2, 3, 4, 5], 4))
    return (paddle.nn.Identity(1, a=2)(x), paddle.nn.Flatten()(x), paddle.nn.Flatten(0, 2)(x),
            paddle.nn.Unflatten(1, [3, 1])(x), repr(paddle.nn.Unflatten(1, [3, 1])), repr(paddle.nn.Flatten()))


@case
def dropout_eval_and_edges(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([3, 4], 5))
    m = paddle.nn.Dropout(0.3)
    m.eval()
    return (m(x), F.dropout(x, 0.0), F.dropout(x, 1.0), F.dropout(x, 0.4, training=False),
            F.dropout(x, 0.4, training=False, mode="downscale_in_infer"), F.dropout(x, 1.0, mode="downscale_in_infer"),
            F.dropout2d(x.reshape([1, 3, 2, 2]), training=False), F.alpha_dropout(x, 0.5, training=False),
            repr(m), repr(paddle.nn.Dropout2D(0.2)), repr(paddle.nn.AlphaDropout(0.1)), repr(paddle.nn.Dropout3D()))


@case(random=True)
def dropout_train(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([4, 6, 2, 2], 6))
    return (F.dropout(x, 0.5), F.dropout(x, 0.5, axis=1), F.dropout(x, 0.5, axis=[0, 1]),
            F.dropout(x, 0.5, mode="downscale_in_infer"), F.dropout2d(x), F.dropout3d(x.unsqueeze(2)),
            F.alpha_dropout(x, 0.3), F.feature_alpha_dropout(x, 0.3), paddle.nn.Dropout(0.2)(x),
            F.dropout1d(x[:, :, 0]))


@case
def dropout_statistics(paddle):
    paddle.seed(3)
    y = paddle.nn.functional.dropout(paddle.ones([20000]), 0.25)
    kept = float((y > 0).astype("float32").mean())
    return abs(kept - 0.75) < 0.02, float(y.max()) == float(1 / 0.75)


@case
def dropout_bad_p(paddle):
    return paddle.nn.functional.dropout(paddle.ones([2]), 1.5)


@case
def dropout_bad_mode(paddle):
    return paddle.nn.functional.dropout(paddle.ones([2]), 0.5, mode="other")


@case
def embedding_padding_idx(paddle):
    m = fill_parameters(paddle.nn.Embedding(5, 3, padding_idx=1), 7)
    ids = paddle.to_tensor([[0, 1, 4], [1, 2, 2]])
    y = m(ids)
    (y * y).sum().backward()
    m2 = paddle.nn.Embedding(4, 2, padding_idx=-1)
    return (y, m.weight.grad, m2.weight[3], repr(m), repr(m2), repr(paddle.nn.Embedding(3, 2, sparse=True)),
            paddle.nn.functional.embedding(ids, m.weight), paddle.nn.functional.embedding(ids, m.weight, 2))


@case
def embedding_bad_padding_idx(paddle):
    return paddle.nn.Embedding(3, 2, padding_idx=5)


@case
def interpolate_nearest_align_corners(paddle):
    return paddle.nn.functional.interpolate(paddle.ones([1, 1, 2, 2]), size=[3, 3], align_corners=True)


@case
def interpolate_int_size(paddle):
    return paddle.nn.functional.interpolate(paddle.ones([1, 1, 2]), size=3, mode="linear")


@case
def pad_functional(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([1, 2, 3, 4], 8))
    return [F.pad(x, [1, 2]), F.pad(x, [1, 0, 2, 1], value=3.0), F.pad(x, [0, 0, 0, 0, 1, 1, 2, 0]),
            F.pad(x, [1, 1, 0, 2], mode="reflect"), F.pad(x, [2, 1, 1, 0], mode="replicate"),
            F.pad(x, [1, 1, 1, 1], mode="circular"), F.pad(x.transpose([0, 2, 3, 1]), [1, 0, 2, 1], data_format="NHWC"),
            F.pad(x[0], [1, 2], mode="reflect"), F.pad(x.unsqueeze(2), [1, 1, 0, 0, 1, 0], mode="replicate"),
            F.zeropad2d(x, [1, 0, 0, 2]), F.pad(x, [0, 0, 0, 0, 1, 1, 2, 0], pad_from_left_axis=False)]


@case
def pad_layers(paddle):
    nn = paddle.nn
    x = paddle.to_tensor(data([1, 2, 3, 4], 9))
    layers = [nn.Pad2D(1), nn.Pad2D([1, 0, 2, 1], mode="reflect"), nn.ZeroPad2D(2), nn.ConstantPad2D(1, 2.5),
              nn.ReflectionPad2D([1, 1, 0, 1]), nn.ReplicationPad2D(1), nn.CircularPad2D(1)]
    layers1 = [nn.Pad1D([1, 2], value=1.0), nn.ZeroPad1D(1), nn.ReflectionPad1D(2), nn.ConstantPad1D(1, -1.0),
               nn.ReplicationPad1D(1), nn.CircularPad1D(1)]
    layers3 = [nn.Pad3D(1), nn.ZeroPad3D([1, 0, 0, 0, 0, 1]), nn.ReplicationPad3D(1), nn.ConstantPad3D(1, 0.5)]
    return ([(repr(m), m(x)) for m in layers] + [(repr(m), m(x[0])) for m in layers1]
            + [(repr(m), m(x.unsqueeze(2))) for m in layers3])


@case
def pad_bad_mode(paddle):
    return paddle.nn.functional.pad(paddle.ones([1, 1, 2, 2]), [1, 1, 1, 1], mode="edge")


@case
def interpolate_modes(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([1, 2, 3, 4], 10))
    return [F.interpolate(x, scale_factor=2), F.interpolate(x, size=[5, 7]), F.interpolate(x, size=[5, 7],
            mode="nearest"), F.interpolate(x, size=[5, 7], mode="bilinear"),
            F.interpolate(x, size=[5, 7], mode="bilinear", align_corners=True),
            F.interpolate(x, size=[5, 7], mode="bilinear", align_mode=1),
            F.interpolate(x, scale_factor=[1.5, 2.5], mode="bilinear"), F.interpolate(x, size=[6, 6], mode="bicubic"),
            F.interpolate(x, size=[6, 6], mode="bicubic", align_corners=True), F.interpolate(x, size=[2, 2], mode="area"),
            F.interpolate(x[:, :, 0], size=[7], mode="linear"), F.interpolate(x[:, :, 0], size=[7], mode="linear",
            align_mode=1), F.interpolate(x.unsqueeze(2), scale_factor=2, mode="trilinear"),
            F.interpolate(x.transpose([0, 2, 3, 1]), size=[4, 5], mode="bilinear", data_format="NHWC"),
            F.upsample(x, scale_factor=3), F.interpolate(x, size=paddle.to_tensor([4, 6]), mode="nearest")]


@case
def upsample_layers(paddle):
    nn = paddle.nn
    x = paddle.to_tensor(data([1, 1, 3, 3], 11))
    layers = [nn.Upsample(scale_factor=2), nn.Upsample(size=[4, 5], mode="bilinear", align_corners=True),
              nn.UpsamplingNearest2D(scale_factor=2), nn.UpsamplingBilinear2D(size=[5, 5])]
    return [(repr(m), m(x)) for m in layers]


@case
def interpolate_wrong_rank(paddle):
    return paddle.nn.functional.interpolate(paddle.ones([1, 1, 3]), size=[4], mode="bilinear")


@case
def interpolate_no_size(paddle):
    return paddle.nn.functional.interpolate(paddle.ones([1, 1, 3, 3]))


@case
def fold_unfold(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([1, 2, 5, 6], 12))
    u = F.unfold(x, [2, 3], strides=1, paddings=1)
    u2 = F.unfold(x, 2, paddings=[1, 0, 0, 1], dilations=2)
    m = paddle.nn.Unfold(3, strides=2)
    f = paddle.nn.Fold([4, 5], 2)
    cols = paddle.to_tensor(data([1, 8, 12], 13))
    return (u, u2, m(x), repr(m), F.fold(cols, [4, 5], 2), f(cols), repr(f), F.fold(cols, [2, 3], 2, paddings=1))


@case
def cosine_and_pairwise(paddle):
    F = paddle.nn.functional
    a, b = paddle.to_tensor(data([3, 4], 14)), paddle.to_tensor(data([3, 4], 15))
    return (F.cosine_similarity(a, b), F.cosine_similarity(a, b, axis=0), F.cosine_similarity(a, b[:1]),
            paddle.nn.CosineSimilarity(axis=-1)(a, b), repr(paddle.nn.CosineSimilarity()),
            F.pairwise_distance(a, b), F.pairwise_distance(a, b, p=1, keepdim=True),
            F.pairwise_distance(a, b, p=float("inf")), paddle.nn.PairwiseDistance(3.0)(a, b),
            repr(paddle.nn.PairwiseDistance()), repr(paddle.nn.PairwiseDistance(1.0, 1e-3, True)))


@case
def one_hot_label_smooth(paddle):
    F = paddle.nn.functional
    lab = paddle.to_tensor([[1], [3], [0]])
    oh = F.one_hot(lab, 4)
    return (oh, F.one_hot(paddle.to_tensor([0, 2], dtype="int32"), 3), F.label_smooth(oh),
            F.label_smooth(oh, epsilon=0.3), F.label_smooth(oh, prior_dist=paddle.to_tensor([[0.1, 0.2, 0.3, 0.4]])))


@case
def sequence_mask(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor([[1, 3], [0, 2]])
    return F.sequence_mask(x), F.sequence_mask(x, 5), F.sequence_mask(x, dtype="float32"), \
        F.sequence_mask(paddle.to_tensor([2, 1], dtype="int32"), 4, dtype="bool")


@case
def temporal_shift(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(data([4, 8, 2, 2], 16))
    return (F.temporal_shift(x, 2), F.temporal_shift(x, 4, 0.125),
            F.temporal_shift(x.transpose([0, 2, 3, 1]), 2, data_format="NHWC"))


# ---------------------------------------------------------------- class_center_sample (one process)
@case
def class_center_sample_all_positive(paddle):
    F = paddle.nn.functional
    lab = paddle.to_tensor([7, 3, 3, 9, 0, 7])
    res = list(F.class_center_sample(lab, 10, 4)) + list(F.class_center_sample(lab, 12, 3))
    res += list(F.class_center_sample(lab.astype("int32"), 10, 2, group=False))
    return res


@case
def class_center_sample_negatives_properties(paddle):
    # the negatives are random: check what is fixed (positives first and sorted, distinct, remap, range)
    F = paddle.nn.functional
    lab = paddle.to_tensor([11, 2, 5, 2, 17, 11, 0])
    paddle.seed(5)
    remap, centers = F.class_center_sample(lab, 20, 9)
    c = centers.numpy().tolist()
    return [remap, centers.shape, str(centers.dtype), c[:4], len(set(c)) == len(c), all(0 <= v < 20 for v in c),
            [c[i] for i in remap.numpy().tolist()] == lab.numpy().tolist(), remap.stop_gradient]


@case(random=True)
def class_center_sample_random_shape(paddle):
    return list(paddle.nn.functional.class_center_sample(paddle.to_tensor([1, 4, 1]), 30, 10))


@case
def class_center_sample_too_many_samples(paddle):
    return paddle.nn.functional.class_center_sample(paddle.to_tensor([1, 2]), 5, 6)


@case
def class_center_sample_2d_label(paddle):
    return paddle.nn.functional.class_center_sample(paddle.to_tensor([[1, 2]]), 5, 3)


@case
def class_center_sample_bad_group(paddle):
    return paddle.nn.functional.class_center_sample(paddle.to_tensor([1, 2]), 5, 3, group=3)


# ---------------------------------------------------------------- interpolate of integer inputs
# Paddle computes the linear-family modes in float32 and truncates.
@case
def bilinear_uint8_truncates(paddle):
    x = paddle.to_tensor(np.arange(48, dtype="uint8").reshape([1, 3, 4, 4]) * 5)
    F = paddle.nn.functional
    # (align_corners=True is left out: where the float32 value lands within rounding of an integer,
    # Paddle's and torch's coordinate arithmetic can truncate to neighbours; docs/compatibility.md)
    return [F.interpolate(x, size=[7, 5], mode="bilinear"), F.interpolate(x, size=[3, 9], mode="bilinear"),
            F.interpolate(x, scale_factor=1.5, mode="nearest")]


@case
def interpolate_tensor_sizes_and_factors(paddle):
    F, T = paddle.nn.functional, paddle.to_tensor
    x = paddle.arange(4, dtype="float32").reshape([1, 1, 2, 2])
    return [F.interpolate(x, scale_factor=T(2.0)), F.interpolate(x, scale_factor=T([2.0, 3.0])),
            F.interpolate(x, scale_factor=[T(2.0), 1.0]), F.interpolate(x, size=T([3, 4])),
            F.interpolate(x, size=[T(3), 4]), F.pad(x, [T(1), 0, 0, 1]),
            F.adaptive_avg_pool2d(x, T([1, 2])), F.adaptive_max_pool2d(x, [T(1), None])]


@case
def interpolate_0d_size_tensor_rejected(paddle):
    return paddle.nn.functional.interpolate(paddle.ones([1, 1, 2]), size=paddle.to_tensor(4), mode="linear",
                                            data_format="NCW")
