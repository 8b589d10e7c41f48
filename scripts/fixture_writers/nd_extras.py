"""MXNet results for mx.nd functions that take or return non-array values: DLPack capsules,
CachedOp (a symbol run on NDArrays) and asscalar of arrays of size 1 (MXNet returns
``asnumpy()[()]`` for those that are not 1-D), and reshape of a one-element array to the
empty shape given positionally (``()`` or ``[]``), which MXNet accepts."""
import os

import numpy as np


def _seeded(name, shape):
    return np.random.RandomState(sum(map(ord, name))).uniform(-1, 1, shape).astype(np.float32)


def run(mx):
    """{name: numpy array}: the same calls made by tests/test_nd_extras.py under mxcompat."""
    out = {}
    for dtype in ('float32', 'float64', 'int32', 'uint8'):
        x = mx.nd.array(_seeded('dl' + dtype, (2, 3)) * 10, dtype=dtype)
        out['dlpack_read_' + dtype] = mx.nd.from_dlpack(x.to_dlpack_for_read()).asnumpy()
        out['dlpack_write_' + dtype] = mx.nd.from_dlpack(
            mx.nd.to_dlpack_for_write(x)).asnumpy()
    sym = mx.sym.Convolution(mx.sym.var('data'), kernel=(3, 3), num_filter=4, name='c') + 2
    sym = mx.sym.Group([mx.sym.relu(sym), mx.sym.sum(sym, axis=1)])
    op = mx.nd.CachedOp(sym)
    args = [mx.nd.array(_seeded(n, s)) for n, s in
            (('data', (2, 3, 5, 5)), ('c_weight', (4, 3, 3, 3)), ('c_bias', (4,)))]
    res = op(*args)
    out['cached_relu'], out['cached_sum'] = res[0].asnumpy(), res[1].asnumpy()
    args[1].attach_grad()
    with mx.autograd.record():
        res = op(*args)
        loss = (res[0] * 2).sum() + res[1].sum()
    loss.backward()
    out['cached_grad_weight'] = args[1].grad.asnumpy()
    for shape in ((1,), (1, 1), (1, 1, 1)):
        value = mx.nd.full(shape, 7, dtype='int32').asscalar()
        out['asscalar_%d' % len(shape)] = np.asarray(value)
    for shape, target in (((1,), ()), ((1, 1), ()), ((1,), [])):
        y = mx.nd.full(shape, 3.5).reshape(target)
        key = 'reshape0d_%d_%s' % (len(shape), type(target).__name__)
        out[key], out[key + '_shape'] = y.asnumpy(), np.array(y.shape, dtype=np.int64)
        out[key + '_back'] = y.reshape((1,)).asnumpy()
    return out


def write(mx, outdir):
    tmp = os.path.join(outdir, 'nd_extras.tmp.npz')
    np.savez(tmp, **run(mx))
    os.replace(tmp, os.path.join(outdir, 'nd_extras.npz'))
