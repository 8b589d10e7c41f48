"""DataLoader batches in NumPy mode from real MXNet 1.9.1 (tests/test_numpy_dataloader.py):
for each way of loading (in the process, two worker processes, two worker threads), the
class and context of the batches' arrays (with cpu(0), and with cpu(1), the default context)
and their values; and gluon.utils.split_and_load of data that is not an NDArray (numpy
arrays, a list), which MXNet converts to ``mx.np.ndarray`` in NumPy mode ('.../sal_kind': class,
dtype and context of each slice). The same ``run(mx)`` executes under mxcompat in the test."""
import os

import numpy as onp

WAYS = [(0, False), (2, False), (2, True)]  # (num_workers, thread_pool)


def run(mx):
    """{'<workers>-<threads>/<k>': batch k's arrays, '.../kind': their class and context}."""
    out = {}
    mx.npx.set_np()
    try:
        data = mx.gluon.data.ArrayDataset(mx.np.arange(12).reshape(6, 2),
                                          mx.np.arange(6, dtype='int32'))
        for workers, threads in WAYS:
            loader = mx.gluon.data.DataLoader(data, 3, num_workers=workers,
                                              thread_pool=threads)
            for k, (X, y) in enumerate(loader):
                key = '%d-%s/%d' % (workers, threads, k)
                out[key + '/X'], out[key + '/y'] = X.asnumpy(), y.asnumpy()
                out[key + '/kind'] = onp.array(['%s.%s %s' % (type(a).__module__.split('.')[-1],
                                                              type(a).__name__, a.ctx)
                                                for a in (X, y)])
        inputs = {'f64': onp.arange(8.).reshape(4, 2), 'f32': onp.ones((4, 3), 'float32'),
                  'i64': onp.arange(4), 'list': [[1, 2], [3, 4]]}
        for name, value in inputs.items():
            for ctxs in ([mx.cpu(0)], [mx.cpu(0), mx.cpu(1)]):
                parts = mx.gluon.utils.split_and_load(value, ctxs, even_split=False)
                key = 'split_and_load/%s-%d' % (name, len(ctxs))
                for k, part in enumerate(parts):
                    out['%s/%d' % (key, k)] = part.asnumpy()
                out[key + '/sal_kind'] = onp.array(['%s.%s %s %s' % (
                    type(a).__module__.split('.')[-1], type(a).__name__, a.dtype, a.ctx)
                                                    for a in parts])
    finally:
        mx.npx.reset_np()
    return out


def write(mx, outdir):
    """``run(mx)`` with cpu(0) the default context, plus '.../kind1': the classes and contexts
    with cpu(1) the default context (the values are the same there)."""
    with mx.cpu(0):
        out = run(mx)
    with mx.cpu(1):
        out1 = run(mx)
    for key, value in out1.items():
        if key.endswith('/kind'):
            out[key + '1'] = value
        else:
            onp.testing.assert_array_equal(value, out[key], err_msg=key)
    onp.savez(os.path.join(outdir, 'batches.npz'), **out)
