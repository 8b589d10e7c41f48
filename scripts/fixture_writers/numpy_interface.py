"""MXNet's NumPy interface (mx.np / mx.npx) from real MXNet 1.9.1: ndarray semantics (type
promotion with MXNet's float32 default, zero-dimensional and zero-size arrays, NumPy indexing
and assignment, broadcasting), a representative set of mx.np / np.linalg functions, npx
operators, npx.image's operators (imperative and in a hybridized block), a small NumPy-mode
Gluon model (Dense + Conv2D, hybridized) trained two steps from name-seeded weights, and
``npx.save`` files with 0-d arrays. The same ``run(mx)`` executes
under mxcompat in tests/test_numpy_interface.py."""
import io
import os
import zlib

import numpy as onp

from ._np_mode import run_cases, save_npz


def _rng(name):
    return onp.random.RandomState(zlib.crc32(name.encode()) & 0x7fffffff)


def _data(shape, name, dtype='float32', low=-2, high=2):
    return _rng(name).uniform(low, high, size=shape).astype(dtype)


def _error(mx, fn):
    """'<exception type>: <message>' of ``fn()`` (an MXNetError's message without MXNet's
    traceback: its text after the last 'MXNetError: '), or 'none'."""
    try:
        fn()
    except Exception as err:  # pylint: disable=broad-except
        return '%s: %s' % (type(err).__name__, str(err).split('MXNetError: ')[-1])
    return 'none'


def _semantics(mx, out):
    np = mx.np
    a = np.array(_data((2, 3), 'a'))
    i32 = np.array(onp.arange(6, dtype='int32').reshape(2, 3), dtype='int32')
    f64 = np.array(_data((3,), 'f64', 'float64'), dtype='float64')
    out['promote/int32+float32'] = (i32 + a).asnumpy()
    out['promote/float32+float64'] = (a + f64).asnumpy()
    out['promote/int32+pyfloat'] = (i32 + 1.5).asnumpy()
    out['promote/int32*pyint'] = (i32 * 3).asnumpy()
    out['promote/int32/int32'] = (i32 / np.array([1, 2, 4], dtype='int32')).asnumpy()
    out['promote/pyint-int32'] = (10 - i32).asnumpy()
    out['promote/cmp'] = (a > 0.5).asnumpy()
    out['promote/eq-scalar'] = (i32 == 4).asnumpy()
    out['promote/mod'] = (a % 0.7).asnumpy()
    out['promote/rpow'] = (2 ** i32).asnumpy()
    out['create/list'] = np.array([[1, 2], [3, 4]]).asnumpy()
    out['create/onp-int64'] = np.array(onp.arange(3)).asnumpy()
    out['create/zeros-0d'] = np.zeros(()).asnumpy()
    out['create/ones-int'] = np.ones((2, 2), dtype='int32').asnumpy()
    out['create/full'] = np.full((2, 3), 7).asnumpy()
    out['create/arange'] = np.arange(2, 11, 3).asnumpy()
    out['create/linspace'] = np.linspace(0, 1, 5).asnumpy()
    out['create/eye'] = np.eye(3, 4, k=1).asnumpy()
    out['zerod/scalar-array'] = np.array(3.5).asnumpy()
    out['zerod/sum'] = a.sum().asnumpy()
    out['zerod/index'] = a[1, 2].asnumpy()
    out['zerod/vector-index'] = f64[1].asnumpy()
    out['zerod/item'] = onp.array(a[0, 1].item())
    out['zerod/arith'] = (np.array(2.0) * a).asnumpy()
    z = np.zeros((0, 3))
    out['zerosize/sum0'] = z.sum(axis=0).asnumpy()
    out['zerosize/reshape'] = z.reshape(3, 0).asnumpy()
    for k, shape in enumerate([4, (4, -1), (-1, -1), (0, -1), (-2, 3), (7, 0)]):
        out['reshape/error-%d' % k] = onp.array(_error(mx, lambda: a.reshape(shape)))
    base = np.array(_data((2, 3), 'reshape_view'))
    view = base.reshape_view((0, -1, 1))  # (MXNet's codes: a view, written through)
    view[1, 2, 0] = 7
    out['reshape_view/codes'] = view.asnumpy()
    out['reshape_view/written'] = base.asnumpy()
    out['reshape_view/reverse'] = onp.array(base.reshape_view((-1, 0), reverse=True).shape)
    out['reshape_view/type'] = onp.array(type(view).__name__)
    out['zerosize/concat'] = np.concatenate([z, a], axis=0).asnumpy()
    out['zerosize/shape'] = onp.array((z + 1).shape)
    x = np.array(_data((4, 5, 3), 'x'))
    out['index/basic'] = x[1:3, ::2, 1].asnumpy()
    out['index/negative-step'] = x[::-1, 3:0:-2].asnumpy()
    out['index/newaxis-ellipsis'] = x[None, ..., 0].asnumpy()
    out['index/int-array'] = x[np.array([0, 2, 3], dtype='int32')].asnumpy()
    out['index/two-arrays'] = x[np.array([0, 3], dtype='int64'),
                                np.array([1, 4], dtype='int64')].asnumpy()
    out['index/bool-mask'] = x[x > 1].asnumpy()
    out['index/mixed'] = x[1:, np.array([0, 2], dtype='int32'), :2].asnumpy()
    y = np.array(_data((3, 4), 'y'))
    y[1] = 5
    out['setitem/row-scalar'] = y.asnumpy()
    y[:, 1:3] = np.array([[-1.0, -2.0]])
    out['setitem/broadcast'] = y.asnumpy()
    y[y < 0] = 0
    out['setitem/bool-mask'] = y.asnumpy()
    y[np.array([0, 2], dtype='int32')] = np.array([9.0, 8.0, 7.0, 6.0])
    out['setitem/int-array'] = y.asnumpy()
    yi = np.zeros((2, 2), dtype='int32')
    yi[0] = 2.7
    out['setitem/int-from-float'] = yi.asnumpy()
    b1 = np.array(_data((2, 1, 3), 'b1'))
    b2 = np.array(_data((4, 1), 'b2'))
    out['broadcast/add'] = (b1 + b2).asnumpy()
    out['broadcast/maximum'] = np.maximum(b1, b2).asnumpy()
    out['broadcast/to'] = np.broadcast_to(b2, (3, 4, 5)).asnumpy()
    g = np.array(_data((2, 3), 'g'))
    g.attach_grad()
    with mx.autograd.record():
        h = (g * g + np.exp(g)).sum()
    h.backward()
    out['autograd/grad'] = g.grad.asnumpy()


def _functions(mx, out):
    np = mx.np
    a = np.array(_data((3, 4), 'fa'))
    i = np.array(onp.arange(12, dtype='int32').reshape(3, 4) - 5, dtype='int32')
    out['fn/sqrt-int'] = np.sqrt(np.abs(i)).asnumpy()
    out['fn/exp'] = np.exp(a).asnumpy()
    out['fn/log1p'] = np.log1p(np.abs(a)).asnumpy()
    out['fn/tanh'] = np.tanh(a).asnumpy()
    out['fn/sign-int'] = np.sign(i).asnumpy()
    out['fn/floor'] = np.floor(a).asnumpy()
    out['fn/around'] = np.around(a, 1).asnumpy()
    out['fn/clip'] = np.clip(a, -0.5, 0.5).asnumpy()
    out['fn/mean-int'] = np.mean(i, axis=1).asnumpy()
    out['fn/sum-int'] = np.sum(i, axis=0).asnumpy()
    out['fn/sum-axes'] = np.sum(a, axis=(0, 1), keepdims=True).asnumpy()
    out['fn/prod'] = np.prod(a, axis=1).asnumpy()
    out['fn/max'] = np.max(a, axis=0).asnumpy()
    out['fn/min-keepdims'] = np.min(a, axis=1, keepdims=True).asnumpy()
    out['fn/std'] = np.std(a, axis=0).asnumpy()
    out['fn/var-ddof'] = np.var(a, axis=1, ddof=1).asnumpy()
    out['fn/argmax'] = np.argmax(a, axis=1).asnumpy()
    out['fn/argmin-flat'] = np.argmin(a).asnumpy()
    out['fn/cumsum'] = np.cumsum(a, axis=1).asnumpy()
    out['fn/reshape'] = np.reshape(a, (2, -1)).asnumpy()
    out['fn/transpose'] = np.transpose(np.array(_data((2, 3, 4), 'ft')), (1, 2, 0)).asnumpy()
    out['fn/swapaxes'] = np.swapaxes(a, 0, 1).asnumpy()
    out['fn/flip'] = np.flip(a, axis=1).asnumpy()
    out['fn/squeeze'] = np.squeeze(np.ones((1, 3, 1))).asnumpy()
    out['fn/expand_dims'] = np.expand_dims(a, 1).asnumpy()
    out['fn/stack'] = np.stack([a, a * 2], axis=1).asnumpy()
    out['fn/concatenate'] = np.concatenate([a, a], axis=1).asnumpy()
    out['fn/where'] = np.where(a > 0, a, np.zeros_like(a)).asnumpy()
    out['fn/tril'] = np.tril(a, -1).asnumpy()
    out['fn/dot'] = np.dot(a, a.T).asnumpy()
    out['fn/dot-vec'] = np.dot(a, np.ones((4,))).asnumpy()
    out['fn/matmul'] = np.matmul(np.array(_data((2, 3, 4), 'fm')), np.ones((4, 2))).asnumpy()
    out['fn/tensordot'] = np.tensordot(np.array(_data((2, 3, 4), 'fd')),
                                       np.array(_data((4, 3), 'fe')),
                                       axes=([1, 2], [1, 0])).asnumpy()
    out['fn/einsum'] = np.einsum('ij,kj->ik', a, a).asnumpy()
    out['fn/maximum-scalar'] = np.maximum(a, 0.25).asnumpy()
    out['fn/power'] = np.power(np.abs(a), 1.5).asnumpy()
    out['fn/arctan2'] = np.arctan2(a, np.ones_like(a)).asnumpy()
    out['fn/isnan'] = np.isnan(np.log(a)).asnumpy()
    for key, call in (('exp-no-input', lambda: np.exp()), ('add-one-input', lambda: np.add(a)),
                      ('exp-name', lambda: np.exp(a, name='e')),
                      ('equal-where', lambda: np.equal(a, a, where=True))):
        out['fn/error-%s' % key] = onp.array(_error(mx, call))
    # inputs an operator refuses (types, shapes): the exception's type
    for key, call in (('dot-types', lambda: np.dot(a, np.ones((4, 2), dtype='float64'))),
                      ('inner-shapes', lambda: np.inner(a, np.ones((3,)))),
                      ('bitwise-float', lambda: np.bitwise_and(a, a)),
                      ('add-shapes', lambda: a + np.ones((5,)))):
        out['fn/error-type-%s' % key] = onp.array(_error(mx, call).split(':')[0])
    out['fn/fabs'] = np.fabs(a).asnumpy()
    out['fn/genfromtxt'] = np.genfromtxt(io.StringIO('1,2.5\n-3,4'), delimiter=',').asnumpy()
    np.set_printoptions(precision=3, threshold=5)
    try:
        out['fn/set_printoptions'] = onp.array([repr(a), str(np.arange(10))])
    finally:
        np.set_printoptions(precision=8, threshold=1000)  # (NumPy's defaults)
    m = np.array(_data((3, 3), 'lm') + 3 * onp.eye(3, dtype='float32'))
    out['linalg/norm'] = np.linalg.norm(a).asnumpy()
    out['linalg/norm-axis'] = np.linalg.norm(a, axis=1).asnumpy()
    out['linalg/norm-ord1'] = np.linalg.norm(a, ord=1, axis=0).asnumpy()
    out['linalg/det'] = np.linalg.det(m).asnumpy()
    out['linalg/inv'] = np.linalg.inv(m).asnumpy()
    out['linalg/solve'] = np.linalg.solve(m, np.ones((3, 2))).asnumpy()
    out['linalg/slogdet-sign'], out['linalg/slogdet-log'] = \
        [r.asnumpy() for r in np.linalg.slogdet(m)]


def _npx(mx, out):
    np, npx = mx.np, mx.npx
    x = np.array(_data((2, 3, 4), 'nx'))
    out['npx/relu'] = npx.relu(x).asnumpy()
    out['npx/sigmoid'] = npx.sigmoid(x).asnumpy()
    out['npx/softmax'] = npx.softmax(x, axis=-1).asnumpy()
    out['npx/log_softmax'] = npx.log_softmax(x, axis=1).asnumpy()
    out['npx/activation'] = npx.activation(x, act_type='softrelu').asnumpy()
    out['npx/reshape-codes'] = npx.reshape(x, (-2, -1)).asnumpy()
    out['npx/reshape-split'] = npx.reshape(x, (-2, -6, 3, -1, -2)).asnumpy()
    out['npx/reshape-merge'] = npx.reshape(x, (-5, -2)).asnumpy()
    out['npx/reshape-reverse'] = npx.reshape(x, (-1, 4), reverse=True).asnumpy()
    idx = np.array([[0, 2, 1], [3, 0, 2]], dtype='int32')
    out['npx/one_hot'] = npx.one_hot(idx, 4).asnumpy()
    out['npx/pick'] = npx.pick(x, idx, axis=2).asnumpy()
    out['npx/topk'] = npx.topk(x, k=2, axis=-1, ret_typ='value').asnumpy()
    out['npx/batch_dot'] = npx.batch_dot(x, np.ones((2, 4, 2))).asnumpy()
    out['npx/arange_like'] = npx.arange_like(x, axis=1).asnumpy()
    out['npx/layer_norm'] = npx.layer_norm(x, np.ones((4,)), np.zeros((4,)), axis=-1).asnumpy()
    out['npx/fully_connected'] = npx.fully_connected(
        x, np.array(_data((5, 12), 'nfw')), np.array(_data((5,), 'nfb')),
        num_hidden=5).asnumpy()
    img = np.array(_data((1, 2, 5, 5), 'nimg'))
    out['npx/convolution'] = npx.convolution(
        img, np.array(_data((3, 2, 3, 3), 'ncw')), np.array(_data((3,), 'ncb')),
        kernel=(3, 3), num_filter=3, pad=(1, 1)).asnumpy()
    out['npx/pooling'] = npx.pooling(img, kernel=(2, 2), stride=(2, 2),
                                     pool_type='max').asnumpy()
    out['npx/batch_norm'] = npx.batch_norm(
        img, np.ones((2,)), np.zeros((2,)), np.array([0.1, -0.2]), np.array([1.5, 0.5]),
        fix_gamma=False).asnumpy()
    out['npx/embedding'] = npx.embedding(
        np.array([[0, 3], [2, 1]], dtype='int32'), np.array(_data((4, 3), 'new')),
        input_dim=4, output_dim=3).asnumpy()
    out['npx/sequence_mask'] = npx.sequence_mask(
        x, np.array([1, 2], dtype='float32'), use_sequence_length=True, axis=1,
        value=-1).asnumpy()


def _npx_image(mx, out):
    """npx.image's operators on a uint8 image, and F.npx.image in a hybridized block."""
    np, npx = mx.np, mx.npx
    img = np.array(_rng('img').randint(0, 256, (6, 8, 3)).astype('uint8'), dtype='uint8')
    tensor = npx.image.to_tensor(img)
    out['image/to_tensor'] = tensor.asnumpy()
    out['image/normalize'] = npx.image.normalize(tensor, (0.5, 0.4, 0.3),
                                                 (0.2, 0.25, 0.3)).asnumpy()
    out['image/resize'] = npx.image.resize(img, (4, 3)).asnumpy()
    out['image/crop'] = npx.image.crop(img, 1, 2, 4, 3).asnumpy()
    out['image/flip_left_right'] = npx.image.flip_left_right(img).asnumpy()
    out['image/flip_top_bottom'] = npx.image.flip_top_bottom(img).asnumpy()
    out['image/adjust_lighting'] = npx.image.adjust_lighting(
        img.astype('float32'), alpha=(0.05, -0.02, 0.03)).asnumpy()

    class ToNormalized(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):  # pylint: disable=arguments-differ
            return F.npx.image.normalize(F.npx.image.to_tensor(x), 0.5, 0.25)

    block = ToNormalized()
    block.hybridize()
    out['image/hybrid'] = block(img).asnumpy()
    out['image/hybrid-type'] = onp.array(type(block(img)).__name__ == 'ndarray')


def _gluon_model(mx, out):
    np = mx.np
    nn = mx.gluon.nn
    with mx.name.NameManager():  # the same parameter names (seeds) however many nets before
        net = nn.HybridSequential()
        with net.name_scope():
            net.add(nn.Conv2D(4, kernel_size=3, padding=1, in_channels=2, activation='relu'))
            net.add(nn.MaxPool2D(pool_size=2))
            net.add(nn.Dense(8, in_units=4 * 3 * 3, activation='tanh'))
            net.add(nn.Dense(3, in_units=8))
    net.initialize()
    params = net.collect_params()
    for name in sorted(params.keys()):
        p = params[name]
        p.set_data(np.array(_rng(name).normal(0, 0.3, size=p.shape).astype('float32')))
    net.hybridize()
    trainer = mx.gluon.Trainer(params, 'sgd', {'learning_rate': 0.1, 'momentum': 0.9})
    loss_fn = mx.gluon.loss.SoftmaxCrossEntropyLoss()
    x = np.array(_data((4, 2, 6, 6), 'gx'))
    label = np.array([0, 2, 1, 2], dtype='float32')
    for step in range(2):
        with mx.autograd.record():
            pred = net(x)
            loss = loss_fn(pred, label)
        loss.backward()
        trainer.step(4)
        out['gluon/pred-%d' % step] = pred.asnumpy()
        out['gluon/loss-%d' % step] = loss.asnumpy()
    out['gluon/out-type'] = onp.array(type(net(x)).__name__ == 'ndarray')
    for k, name in enumerate(sorted(params.keys())):
        out['gluon/param-%d' % k] = params[name].data().asnumpy()


def run(mx):
    """{case id: numpy array}, computed in NumPy mode (``npx.set_np()``)."""
    return run_cases(mx, _semantics, _functions, _npx, _npx_image, _gluon_model)


def saved_arrays(mx):
    """The arrays of the ``npx.save`` file: 0-d, zero-size and ordinary arrays."""
    np = mx.np
    return {'scalar': np.array(2.5), 'int-scalar': np.array(7, dtype='int32'),
            'empty': np.zeros((0, 3)), 'matrix': np.array(_data((2, 3), 'saved'))}


def write(mx, outdir):
    save_npz(outdir, 'numpy_interface', run(mx))
    mx.npx.set_np()
    mx.npx.save(os.path.join(outdir, 'npx_save.params'), saved_arrays(mx))
    mx.npx.save(os.path.join(outdir, 'npx_save_list.params'),
                [mx.np.array(1.0), mx.np.ones((2,))])
