"""NumPy's dispatch protocols on mx.np arrays and mx.np's fallback to official NumPy, from real
MXNet 1.9.1: NumPy functions and ufuncs given mx.np arrays run as mx.np's own (MXNet's lists)
or on NumPy copies with mx.np results; ``mx.np.fallback`` / ``mx.np.linalg``'s fallback
functions; the errors of ``split`` / ``hsplit`` / ``vsplit`` / ``dsplit``; assignment of a
recorded array inside ``autograd.record()``. The same ``run(mx)`` executes under mxcompat in
tests/test_numpy_dispatch.py."""
import os
import zlib

import numpy as onp


def _data(shape, name, dtype='float32'):
    rng = onp.random.RandomState(zlib.crc32(name.encode()) & 0x7fffffff)
    return rng.uniform(-2, 2, size=shape).astype(dtype)


def _kind(mx, result):
    """'mx.np.ndarray', or the Python / NumPy scalar type's name."""
    if isinstance(result, mx.np.ndarray):
        return 'mx.np.ndarray'
    return type(result).__name__


def _error(mx, fn):
    """The name of the exception ``fn()`` raises ('none' without one); MXNetError's names
    whether its message is MXNet's in-place-while-recording message."""
    try:
        fn()
    except mx.base.MXNetError as err:
        return 'MXNetError' + ('/inplace' if 'Inplace operations' in str(err) else '')
    except Exception as err:  # pylint: disable=broad-except
        return type(err).__name__
    return 'none'


def _put(mx, out, key, result):
    out[key + '/kind'] = onp.array(_kind(mx, result))
    value = result.asnumpy() if isinstance(result, mx.np.ndarray) else onp.asarray(result)
    out[key] = value


def _dispatch(mx, out):
    np = mx.np
    a = np.array(_data((3, 4), 'a'))
    ai = np.array(onp.arange(12, dtype='int32').reshape(3, 4), dtype='int32')
    _put(mx, out, 'function/sum', onp.sum(a, axis=1))
    _put(mx, out, 'function/mean-int', onp.mean(ai))
    _put(mx, out, 'function/concatenate', onp.concatenate([a, a], axis=0))
    _put(mx, out, 'function/moveaxis-fallback', onp.moveaxis(a, 0, 1))
    _put(mx, out, 'function/median-fallback', onp.median(a, axis=0))
    _put(mx, out, 'ufunc/add', onp.add(a, ai))
    _put(mx, out, 'ufunc/sqrt-int', onp.sqrt(ai))
    _put(mx, out, 'ufunc/fabs-fallback', onp.fabs(a))
    _put(mx, out, 'ufunc/log1p-fallback', onp.log1p(onp.abs(a)))
    _put(mx, out, 'np/sometrue', np.sometrue(a > 1, axis=1))
    _put(mx, out, 'np/sometrue-keepdims', np.sometrue(ai, 0, True))
    _put(mx, out, 'np/product', np.product(ai + 1, axis=0))
    for dt in ('int8', 'uint8', 'int32', 'bool'):  # integer reductions keep the input's type
        small = np.array(onp.arange(1, 7).reshape(2, 3) % 3, dtype=dt)
        _put(mx, out, 'np/prod-' + dt, np.prod(small, axis=0))
        _put(mx, out, 'np/prod-all-' + dt, np.prod(small))
        _put(mx, out, 'np/cumsum-' + dt, np.cumsum(small, axis=1))


def _fallback(mx, out):
    np = mx.np
    a = np.array(_data((3, 4), 'fa'))
    v = np.array(onp.sort(_data((6,), 'fv')))
    sq = np.array(_data((3, 3), 'fsq'))
    out['fallback/all'] = onp.array(np.fallback.__all__)
    out['fallback/linalg-all'] = onp.array(np.fallback_linalg.__all__)
    _put(mx, out, 'fallback/ptp', np.ptp(a))
    _put(mx, out, 'fallback/ptp-axis', np.ptp(a, axis=1))
    _put(mx, out, 'fallback/argwhere', np.argwhere(a > 0))
    _put(mx, out, 'fallback/searchsorted', np.searchsorted(v, np.array([0.0, 1.5])))
    _put(mx, out, 'fallback/searchsorted-scalar', np.searchsorted(v, 0.5))
    _put(mx, out, 'fallback/allclose', np.allclose(a, a + 1e-9))
    _put(mx, out, 'fallback/count_nonzero', np.count_nonzero(a > 0, axis=1))
    _put(mx, out, 'fallback/cov', np.cov(a))
    _put(mx, out, 'fallback/nanmax', np.nanmax(a, axis=0))
    _put(mx, out, 'fallback/positive', np.positive(a))
    _put(mx, out, 'fallback/take_along_axis',
         np.take_along_axis(a, np.array([[0], [2], [1]], dtype='int64'), axis=1))
    modf = np.modf(a)
    out['fallback/modf/kind'] = onp.array([_kind(mx, r) for r in modf] + [type(modf).__name__])
    out['fallback/modf-frac'] = modf[0].asnumpy()
    _put(mx, out, 'fallback/linalg-matrix_power', np.linalg.matrix_power(sq, 3))
    _put(mx, out, 'fallback/linalg-multi_dot', np.linalg.multi_dot([sq, sq, sq]))


def _splits(mx, out):
    np = mx.np
    r = np.arange(10)
    out['split/unequal'] = onp.array(_error(mx, lambda: np.split(r, 3)))
    out['split/float'] = onp.array(_error(mx, lambda: np.split(r, 2.5)))
    for k, part in enumerate(np.split(r, [3, 7])):
        out['split/indices-%d' % k] = part.asnumpy()
    m = np.array(_data((2, 10), 'm'))
    for k, part in enumerate(np.hsplit(m, 3)):  # unequal sections: no error, as array_split
        out['hsplit/unequal-%d' % k] = part.asnumpy()
    for k, part in enumerate(np.hsplit(r, 3)):
        out['hsplit/1d-unequal-%d' % k] = part.asnumpy()
    out['vsplit/1d'] = onp.array(_error(mx, lambda: np.vsplit(r, 2)))
    out['vsplit/unequal'] = onp.array(_error(mx, lambda: np.vsplit(np.ones((3, 2)), 2)))
    out['dsplit/2d'] = onp.array(_error(mx, lambda: np.dsplit(m, 2)))
    out['dsplit/unequal'] = onp.array(_error(mx, lambda: np.dsplit(np.ones((2, 2, 10)), 3)))
    out['norm/nuc'] = np.linalg.norm(np.array(_data((3, 4), 'n')), 'nuc').asnumpy()


def _hybrid_split(mx, out):
    """split / vsplit / dsplit in a hybridized NumPy-mode block (traced on symbols)."""
    class Split(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):  # pylint: disable=arguments-differ
            left, right = F.np.split(x, 2, axis=1)
            top = F.np.vsplit(x, 2)[0]
            front = F.np.dsplit(F.np.reshape(x, (4, 3, 2)), 2)[1]
            return left * 2 + right, top, front
    net = Split()
    net.hybridize()
    for k, result in enumerate(net(mx.np.array(_data((4, 6), 'hs')))):
        out['hybrid-split/out-%d' % k] = result.asnumpy()


def _recorded_assignment(mx, out):
    def assign(module, key, value_shape, attach):
        def fn():
            x = module.zeros((2, 3))
            y = module.ones(value_shape)
            if attach:
                y.attach_grad()
            with mx.autograd.record():
                x[key] = y
        return onp.array(_error(mx, fn))
    out['setitem/np-row-recorded'] = assign(mx.np, 1, (3,), True)
    out['setitem/np-row-constant'] = assign(mx.np, 1, (3,), False)
    out['setitem/np-ellipsis-recorded'] = assign(mx.np, Ellipsis, (2, 3), True)
    out['setitem/np-int32-row-recorded'] = onp.array(_error(mx, _int_target(mx)))
    mx.npx.reset_np()
    try:
        out['nd/cumsum-int32'] = mx.nd.cumsum(mx.nd.array([[1, 2], [3, 4]], dtype='int32'),
                                              axis=0).asnumpy()
        out['setitem/nd-row-recorded'] = assign(mx.nd, 1, (3,), True)
        out['setitem/nd-row-constant'] = assign(mx.nd, 1, (3,), False)
        out['setitem/nd-all-recorded'] = assign(mx.nd, slice(None), (2, 3), True)
    finally:
        mx.npx.set_np()


def _int_target(mx):
    def fn():
        x = mx.np.zeros((2, 3), dtype='int32')
        y = mx.np.ones((3,))
        y.attach_grad()
        with mx.autograd.record():
            x[1] = y
    return fn


def run(mx):
    """{case id: numpy array}, computed in NumPy mode (``npx.set_np()``)."""
    out = {}
    mx.npx.set_np()
    try:
        for part in (_dispatch, _fallback, _splits, _hybrid_split, _recorded_assignment):
            part(mx, out)
    finally:
        mx.npx.reset_np()
    return out


def write(mx, outdir):
    out = run(mx)
    tmp = os.path.join(outdir, 'numpy_dispatch.tmp.npz')
    onp.savez_compressed(tmp, **out)
    os.replace(tmp, os.path.join(outdir, 'numpy_dispatch.npz'))
