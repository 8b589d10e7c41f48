"""DataLoader batches in NumPy mode from real MXNet 1.9.1 (tests/test_numpy_dataloader.py):
for each way of loading (in the process, two worker processes, two worker threads), the
class and context of the batches' arrays and their values. The same ``run(mx)`` executes under
mxcompat in the test."""
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
    finally:
        mx.npx.reset_np()
    return out


def write(mx, outdir):
    onp.savez(os.path.join(outdir, 'batches.npz'), **run(mx))
