"""GluonCV 0.10.5's RandomTransformDataLoader as real MXNet runs it (needs ``gluoncv`` next to
MXNet): it subclasses MXNet's private ``gluon.data.dataloader._MultiWorkerIter`` and drives its
own ``multiprocessing.Pool``. For a seeded numpy random state, the batches of a small dataset
under two transforms drawn every ``interval`` batches, in the main process and with worker
processes. Run with an interpreter that has MXNet 1.9.1 and gluoncv 0.10.5.post0:

    ~/oracle-gluoncv/bin/python scripts/make_fixtures.py --only gluoncv_dataloader
"""
import os

import numpy as np

REQUIRES = 'gluoncv'
CASES = {'workers0': 0, 'workers2': 2}


def double(x):
    return x * 2


def shift(x):
    return x + 100


def run(mx, num_workers):
    """{key: array} of the batches of one pass, drawn after ``np.random.seed(3)``."""
    from gluoncv.data import RandomTransformDataLoader
    data = np.arange(40, dtype=np.float32).reshape(10, 4)
    dataset = mx.gluon.data.ArrayDataset(mx.nd.array(data))
    np.random.seed(3)
    loader = RandomTransformDataLoader([double, shift], dataset, interval=2, batch_size=3,
                                       last_batch='keep', num_workers=num_workers)
    out = {'batch%d' % i: b.asnumpy() for i, b in enumerate(loader)}
    out['len'] = np.array(len(loader))
    return out


def write(mx, outdir):
    for key, workers in CASES.items():
        np.savez(os.path.join(outdir, key + '.npz'), **run(mx, workers))
