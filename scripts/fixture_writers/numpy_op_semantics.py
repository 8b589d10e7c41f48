"""mx.np operators from real MXNet 1.9.1, for behaviour MXNet's own test_numpy_op.py does not
pin down: gradients of integer arrays (MXNet differentiates them and truncates the gradient to
the array's type), imperative and hybridized; MXNet's own rules where it differs from NumPy
(integers rounded to negative decimals, float16 cumulative sums, index arrays of ``delete``,
result types, views and copies of basic indexing); and operators whose tests check only some of
their outputs (pad, unique, insert, percentile, histogram, windows, ...). The same ``run(mx)``
executes under mxcompat in tests/test_numpy_interface.py."""
import numpy as onp

from ._np_mode import run_cases, save_npz


def _f(shape, seed, low=-2, high=2, dtype='float32'):
    return onp.random.RandomState(seed).uniform(low, high, size=shape).astype(dtype)


def _int_grads(mx, out):
    np, ag = mx.np, mx.autograd

    def grad_of(name, fn, values, dtype='int32', req='write', passes=1):
        x = np.array(onp.array(values), dtype=dtype)
        x.attach_grad(grad_req=req)
        for _ in range(passes):
            with ag.record():
                y = fn(x)
            y.backward()
        out['intgrad/%s/value' % name] = y.asnumpy()
        out['intgrad/%s/grad' % name] = x.grad.asnumpy()

    grad_of('flip', lambda x: np.flip(x, 0), [[1, 2], [3, 4]])
    grad_of('mul-int', lambda x: x * 3, [1, -2, 3])
    grad_of('mul-float-scalar', lambda x: x * 2.5, [1, -2, 3])
    grad_of('mean-truncates', np.mean, [1, 2, 3])
    grad_of('square-sum', lambda x: (x * x).sum(), [1, -2, 3], dtype='int64')
    grad_of('with-float', lambda x: (x * np.array([0.5, 2.0, -1.5])).sum(), [4, 5, 6])
    grad_of('add-req', lambda x: np.transpose(x) * 2, [[1, 2, 3]], dtype='int8', req='add',
            passes=2)
    grad_of('concat', lambda x: np.concatenate([x, x * 2]), [1, 2], dtype='uint8')
    grad_of('cast-float', lambda x: x.astype('float32') * 1.5, [1, 2, 3])
    grad_of('mod', lambda x: np.mod(x, np.array([3, 4, 5], dtype='int32')) + x,
            [7, -2, 9])
    grad_of('sum-int-dtype', lambda x: np.sum(x * 2, dtype='int64'), [[1, 2], [3, 4]],
            dtype='int32')

    y = np.array(_f((2, 3), 1))
    y.attach_grad()
    with ag.record():
        z = np.mean(y, axis=1, dtype='int8')
    z.backward()
    out['intgrad/mean-int-dtype/value'] = z.asnumpy()
    out['intgrad/mean-int-dtype/grad'] = y.grad.asnumpy()

    class Rot(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return F.np.rot90(x, 1, (0, 1)) * 2

    net = Rot()
    net.hybridize()
    x = np.array(onp.arange(6).reshape(2, 3), dtype='int32')
    x.attach_grad()
    with ag.record():
        y = net(x)
    y.backward()
    out['intgrad/hybrid-rot90/value'] = y.asnumpy()
    out['intgrad/hybrid-rot90/grad'] = x.grad.asnumpy()


def _functions(mx, out):
    np = mx.np
    ints = np.array([15, 25, -15, -25, 14, -1, 5, 99, -99, 150], dtype='int32')
    out['around/int-neg1'] = np.around(ints, -1).asnumpy()
    out['around/int-neg2'] = np.around(ints.astype('int64'), -2).asnumpy()
    # MXNet's own rounding: ten times at a time in the array's type (compared as bits: its
    # last bit; zeros as +0, as mxcompat rounds -0.5 to -0 where MXNet gives +0)
    halves = onp.array([-2.5, -1.5, -0.5, -0.4, -0.0, 0.0, 0.4, 0.5, 1.5, 2.5, -0.05, 0.05,
                        -0.25, 0.25, -5., 5., -15., 15.])
    grid = onp.concatenate([halves, _f((300,), 13, -100, 100)])
    for dtype, bits in (('float32', 'int32'), ('float64', 'int64')):
        for decimals in (-1, 0, 1, 2):
            out['around/%s-%d-bits' % (dtype, decimals)] = (np.around(
                np.array(grid, dtype=dtype), decimals) + 0.0).asnumpy().view(bits)
    angles = np.array(_f((12,), 16, -400, 400, 'float64'))
    out['degrees/float64-bits'] = np.degrees(angles).asnumpy().view('int64')
    out['radians/float64-bits'] = np.radians(angles).asnumpy().view('int64')
    for dtype in ('float32', 'float64'):
        out['cbrt/signbit-' + dtype] = onp.signbit(np.cbrt(np.array(
            [0., -0., -1e-30, 1e-30, -onp.inf], dtype=dtype)).asnumpy())
    out['cumsum/float16'] = np.cumsum(np.array(_f((60,), 2, -1, 1, 'float16'))).asnumpy()
    out['cumsum/float16-axis'] = np.cumsum(np.array(_f((3, 20), 3, -1, 1, 'float16')),
                                           axis=1).asnumpy()
    x = np.zeros((3, 4))
    col, row = x[:, 1], x[1:2]
    col[:] = 5
    row[:] = 7
    out['index/copy-or-view'] = x.asnumpy()
    out['index/shares'] = onp.array([np.shares_memory(x[1:3, 1], x[2:3, 1]),
                                     np.shares_memory(x[0, 1:3], x[0, 2:3])])
    a = np.array(_f((4, 5), 4))
    out['delete/index-array'] = np.delete(
        a, np.array([-1, 1, 7, 3], dtype='int32'), axis=1).asnumpy()
    out['delete/negative-int'] = np.delete(a, -2, axis=0).asnumpy()
    out['delete/slice'] = np.delete(a, slice(None, None, 2)).asnumpy()
    out['insert/indices'] = np.insert(a, np.array([3, 0, 3], dtype='int64'),
                                      np.array([9., 8., 7.]), axis=1).asnumpy()
    out['insert/scalar-int'] = np.insert(a, 2, np.array([1., 2., 3., 4., 5.]), axis=0).asnumpy()
    out['insert/slice'] = np.insert(a, slice(0, 4, 2), np.array([6.5, -1.]), axis=1).asnumpy()
    data = np.array([0, 3, 3, 7, 1], dtype='int8')
    counts = np.bincount(data, minlength=9)
    out['bincount/plain'] = counts.asnumpy()
    out['bincount/weighted'] = np.bincount(
        data, np.array([0.5, 1., 1.5, 2., 2.5], dtype='float16')).asnumpy()
    i32 = np.array(onp.arange(24).reshape(2, 3, 4) % 7, dtype='int32')
    for interp in ('linear', 'lower', 'higher', 'nearest', 'midpoint'):
        out['percentile/' + interp] = np.percentile(i32, 40, axis=(0, 2),
                                                    interpolation=interp).asnumpy()
    out['percentile/q-array-keepdims'] = np.percentile(
        np.array(_f((3, 4), 5)), np.array([10., 55.]), axis=1, keepdims=True).asnumpy()
    f16 = np.array(_f((2, 3, 20), 12, -10, 10, 'float16'), dtype='float16')
    for interp in ('linear', 'nearest', 'midpoint'):
        out['percentile/float16-' + interp] = np.percentile(
            f16, np.array([12.5, 37.3, 99.9]), axis=2, interpolation=interp).asnumpy()
    out['percentile/nearest-tie'] = np.percentile(np.array([[5., 1., 4., 2., 3.]]),
                                                  np.array([12.5, 62.5]), axis=1,
                                                  interpolation='nearest').asnumpy()
    i8 = np.array([[100, 120, -128, 50], [127, 127, 127, 1]], dtype='int8')
    out['mean/int8-wraps'] = np.mean(i8, axis=1, dtype='int8').asnumpy()
    out['mean/int32-as-int8'] = np.mean(np.array([[1000, 1200, -1280, 500]], dtype='int32'),
                                        axis=1, dtype='int8').asnumpy()
    out['mean/truncates'] = np.mean(np.array([[-7, 3, 1]], dtype='int32'), axis=1,
                                    dtype='int32').asnumpy()
    out['quantile/float64'] = np.quantile(np.array(_f((7,), 6, dtype='float64')), 0.3).asnumpy()
    v = np.array(_f((2, 3), 7))
    for mode in ('edge', 'reflect', 'symmetric', 'maximum', 'minimum'):
        out['pad/' + mode] = np.pad(v, ((3, 1), (4, 5)), mode=mode).asnumpy()
    out['pad/constant'] = np.pad(v, ((1, 0), (0, 2)), mode='constant',
                                 constant_values=3).asnumpy()
    u = np.array([[3, 1, 3], [0, 1, 3], [3, 1, 3]], dtype='int64')
    for k, part in enumerate(np.unique(u, True, True, True)):
        out['unique/flat-%d' % k] = part.asnumpy()
    for k, part in enumerate(np.unique(u, True, True, True, axis=0)):
        out['unique/axis0-%d' % k] = part.asnumpy()
    hist, edges = np.histogram(np.array(_f((20,), 8, 0, 10)), bins=4, range=(1.0, 9.0))
    out['histogram/counts'] = hist.asnumpy()
    out['histogram/edges'] = edges.asnumpy()
    for name in ('hanning', 'hamming', 'blackman'):
        for m in (0, 1, 7):
            out['window/%s-%d' % (name, m)] = getattr(np, name)(m).asnumpy()
    out['polyval/int'] = np.polyval(np.array([2, -1, 3], dtype='int32'),
                                    np.array([[1, 2], [-3, 4]], dtype='int32')).asnumpy()
    out['ediff1d/mixed'] = np.ediff1d(np.array(_f((2, 3), 9)), to_end=np.array([1., 2.]),
                                      to_begin=-4).asnumpy()
    out['nan_to_num/float16'] = np.nan_to_num(
        np.array([onp.nan, onp.inf, -onp.inf, 1.5], dtype='float16')).asnumpy()
    out['unravel_index'] = onp.stack([r.asnumpy() for r in np.unravel_index(
        np.array([0, 5, 11, 23], dtype='int32'), (2, 3, 4))])
    out['average/weighted-1d'] = np.average(np.array(_f((2, 3), 10)), axis=1,
                                            weights=np.array([1., 2., 3.])).asnumpy()
    out['split/array_split-uneven'] = onp.concatenate(
        [p.asnumpy().ravel() for p in np.array_split(np.arange(10), 4)])
    out['sum/float16-accumulate'] = np.sum(np.array(_f((300,), 11, 0, 1, 'float16'))).asnumpy()


def _sweep_rules(mx, out):
    """MXNet's rules that a randomized sweep of mx.np against MXNet found: operators whose
    gradient MXNet registers as zero (MakeZeroGradNodes: std, var, atleast_*d, percentile,
    quantile, eig*, pinv, bincount, unique), the sum of weights ``average`` returns (0-d
    without weights and for 1-D ones), einsum in the operands' integer type, an integer
    cumsum of a recorded float array, max / min of an empty array along non-empty axes, the
    mean of nothing (0), arctan2 / hypot of an integer array and a Python number (in the
    array's type), and clip with a_min > a_max."""
    np, ag = mx.np, mx.autograd
    sym = onp.array([[2., 1., 0.], [1., 3., 1.], [0., 1., 4.]])

    def grad_of(name, fn, values, dtype='float32', signless=False):
        x = np.array(onp.array(values), dtype=dtype)
        x.attach_grad()
        with ag.record():
            y = fn(x)
        head = y[0] if isinstance(y, (list, tuple)) else y
        head.backward(np.array(onp.arange(head.size).reshape(head.shape) * 0.5 + 1.,
                               dtype=head.dtype))
        value = head.asnumpy()
        out['zerograd/%s/value' % name] = onp.abs(value) if signless else value  # (of vectors)
        out['zerograd/%s/grad' % name] = x.grad.asnumpy()

    m = _f((3, 4), 30)
    grad_of('std', np.std, m)
    grad_of('var-axis-ddof', lambda x: np.var(x, axis=1, ddof=1), m, 'float64')
    grad_of('std-method', lambda x: x.std(axis=0), m)
    grad_of('atleast_1d', np.atleast_1d, m)
    # (not a zero gradient: clip with a_min > a_max, x > a_max tested first)
    grad_of('clip-empty-range', lambda x: np.clip(x, 1.0, 0.0), [-2.0, 0.5, 3.0, 0.0])
    grad_of('atleast_2d', np.atleast_2d, _f((4,), 31))
    grad_of('atleast_3d', lambda x: np.atleast_3d(x, x), m)
    grad_of('percentile', lambda x: np.percentile(x, 40, axis=1), m)
    grad_of('quantile', lambda x: np.quantile(x, np.array([0.25, 0.5]), axis=0), m)
    grad_of('eigh-values', lambda x: np.linalg.eigh(x)[0], sym, 'float64')
    grad_of('eigh-vectors', lambda x: np.linalg.eigh(x)[1], sym, 'float64', signless=True)
    grad_of('eigvalsh', np.linalg.eigvalsh, sym)
    grad_of('eig', lambda x: np.linalg.eig(x)[0], sym, 'float64')
    grad_of('eigvals', np.linalg.eigvals, sym)
    grad_of('pinv', np.linalg.pinv, _f((3, 2), 32))
    grad_of('pinv-rcond-array', lambda x: np.linalg.pinv(x, np.array(1e-3)), _f((3, 2), 32))
    grad_of('bincount-weights', lambda x: np.bincount(
        np.array([0, 2, 2, 1], dtype='int32'), x), _f((4,), 33))
    grad_of('unique', np.unique, [3., 1., 3., 2.])
    grad_of('std-int', lambda x: np.std(x, axis=0), [[1, 5], [2, 9]], 'int32')

    a = np.array(_f((2, 3), 34, dtype='float64'), dtype='float64')
    for name, kw in (('plain', {}), ('axis', {'axis': 1}), ('axes', {'axis': (0, 1)}),
                     ('weights-1d', {'axis': 1,
                                     'weights': np.array([1., 2., 4.], dtype='float64')}),
                     ('weights-full', {'axis': 0, 'weights': np.array(_f((2, 3), 35, 0.5,
                                                                          2, 'float64'),
                                                                       dtype='float64')})):
        avg, scale = np.average(a, returned=True, **kw)
        out['average/returned-%s/avg' % name] = avg.asnumpy()
        out['average/returned-%s/sum' % name] = scale.asnumpy()
    out['average/returned-int'] = np.average(np.array([[1, 4], [6, 9]], dtype='int32'),
                                             axis=1, returned=True)[1].asnumpy()

    i32 = np.array([[1, 2, 3], [4, 5, 6]], dtype='int32')
    out['einsum/int32-sum'] = np.einsum('ij->', i32).asnumpy()
    out['einsum/int32-matmul'] = np.einsum('ij,kj->ik', i32, i32).asnumpy()
    out['einsum/int32-trace-optimize'] = np.einsum('ii', i32[:, :2], optimize=True).asnumpy()

    x = np.array([1.5, 2.7, -0.5, 3.2], dtype='float32')
    x.attach_grad()
    with ag.record():
        y = np.cumsum(x, dtype='int32')
    y.backward()
    out['cumsum/int-of-recorded/value'] = y.asnumpy()
    out['cumsum/int-of-recorded/grad'] = x.grad.asnumpy()

    empty = np.zeros((0, 3))
    out['max/empty-other-axis'] = np.max(empty, axis=1).asnumpy()
    out['min/empty-other-axis-keepdims'] = np.min(empty, axis=(1,), keepdims=True).asnumpy()
    out['amax/empty-last-axis'] = np.amax(np.zeros((2, 0, 3)), axis=-1).asnumpy()
    out['mean/empty-all'] = np.mean(empty).asnumpy()
    out['mean/empty-axis'] = np.mean(np.zeros((2, 0)), axis=1).asnumpy()
    out['mean/empty-dtype'] = np.mean(np.zeros((2, 0)), dtype='float64').asnumpy()
    out['mean/empty-int8'] = np.mean(np.zeros((0, 2), dtype='int8'), axis=0).asnumpy()

    ints = onp.array([-3, 1, 2, 7], dtype='int32')
    for dtype in ('int32', 'int8', 'int64', 'bool'):
        v = np.array(ints.astype(dtype), dtype=dtype)
        out['scalar/hypot-%s' % dtype] = np.hypot(v, 2).asnumpy()
        out['scalar/hypot-%s-float' % dtype] = np.hypot(2.5, v).asnumpy()
        out['scalar/arctan2-%s' % dtype] = np.arctan2(v, 2).asnumpy()
        out['scalar/rarctan2-%s' % dtype] = np.arctan2(1.5, v).asnumpy()


def _float_grads(mx, out):
    """Gradients of floating-point arrays where MXNet's differ from torch's functions: the
    maximum / minimum of an array and a number (all of g at ties, 0 at NaN), pick with indices
    out of range (clipped) and given as floats."""
    np, npx, ag = mx.np, mx.npx, mx.autograd

    def grad_of(name, fn, x):
        x.attach_grad()
        with ag.record():
            y = fn(x)
        y.backward()
        out['floatgrad/%s/value' % name] = y.asnumpy()
        out['floatgrad/%s/grad' % name] = x.grad.asnumpy()

    ties = onp.array([0., 1., -1., onp.nan, 0.], dtype='float32')
    grad_of('maximum-scalar', lambda x: np.maximum(x, 0) * 2, np.array(ties))
    grad_of('minimum-scalar', lambda x: np.minimum(x, 0.) * 2, np.array(ties))
    grad_of('maximum-scalar-f64', lambda x: np.maximum(x, 1), np.array(ties, dtype='float64'))
    x = np.array(onp.array([-7., -3., -12., 0.5], dtype='float32'))
    x.attach_grad()
    with ag.record():
        y = np.expm1(x)
    y.backward()
    out['floatgrad/expm1/grad-bits'] = x.grad.asnumpy().view('int32')  # (exp(x), as MXNet)
    data = _f((4, 5), 12)
    grad_of('pick-clip', lambda x: npx.pick(x, np.array([-2, 7, 3, 4], dtype='int64')) * 3,
            np.array(data))
    grad_of('pick-float-index', lambda x: npx.pick(x, np.array([[1.7], [-0.5], [9.], [2.2]]),
                                                   keepdims=True), np.array(data))
    grad_of('pick-axis0', lambda x: npx.pick(x, np.array([3, 0, 5, 1, 2], dtype='int32'),
                                             axis=0), np.array(data))


def hybrid_cases(mx, out, **hybridize):
    """A hybridized block (``hybridize``: its options) called twice, where the second call
    needs what the first did not: relu's gradient for an input with a NaN after one without
    (MXNet's is NaN there), pick's clipping of indices out of range after indices in range.
    Under mxcompat also compiled (tests/test_numpy_interface.py), where the second call must
    not reuse the first one's way."""
    np, ag = mx.np, mx.autograd

    class Block(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x, i):  # pylint: disable=arguments-differ
            return F.npx.relu(x) * 2 + F.npx.pick(x, i)
    net = Block()
    net.hybridize(**hybridize)
    for name, values, index in (('plain', [[1., -1., 0., 2.]], [2]),
                                ('nan-clip', [[onp.nan, 1., -1., 0.]], [7])):
        x = np.array(onp.array(values, dtype='float32'))
        x.attach_grad()
        with ag.record():
            y = net(x, np.array(onp.array(index, dtype='int64')))
        y.backward()
        out['hybrid/%s/value' % name] = y.asnumpy()
        out['hybrid/%s/grad' % name] = x.grad.asnumpy()


def run(mx):
    """{case id: numpy array}, computed in NumPy mode (``npx.set_np()``)."""
    return run_cases(mx, _int_grads, _float_grads, hybrid_cases, _functions, _sweep_rules)


def write(mx, outdir):
    save_npz(outdir, 'numpy_op_semantics', run(mx))
