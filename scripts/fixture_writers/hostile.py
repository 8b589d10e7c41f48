"""Fixtures for hostile-input tests and the fuzzing seeds, written by real MXNet 1.9.1.

* ``states-p{0,2,4,5}.states``: one Trainer-style states file (SGD with momentum, a
  FactorScheduler, a numpy ``rescale_grad``) pickled at each pickle protocol, with the arrays
  MXNet holds in ``states.npz``;
* ``seeds/``: small files of every format the fuzzer (``tests/fuzz_targets.py``) mutates:
  ``nd.save`` lists and dicts of several dtypes, row_sparse and csr arrays, Gluon ``.params``,
  an exported ``-symbol.json`` with its ``.params``, a ``.rec``/``.idx`` pair of packed JPEG and
  PNG images, and ``Trainer.save_states`` files.
"""
import os
import pickle
import warnings

import numpy as np

from scripts.fixture_writers.recordio import png_bytes

JPEG_6X5 = bytes.fromhex(
    'ffd8ffe000104a46494600010100000100010000ffdb004300100b0c0e0c0a100e0d0e1211101318281a1816'
    '16183123251d283a333d3c3933383740485c4e404457453738506d51575f626768673e4d71797064785c6567'
    '63ffdb0043011112121815182f1a1a2f63423842636363636363636363636363636363636363636363636363'
    '6363636363636363636363636363636363636363636363636363ffc000110800060005030122000211010311'
    '01ffc4001500010100000000000000000000000000000004ffc4001f10000202010403000000000000000000'
    '00010200031105122122415191ffc4001501010100000000000000000000000000000304ffc4001711010101'
    '0100000000000000000000000001020011ffda000c03010002110311003f00a2bd36c7af6e6b4218b746604e'
    '7d9079f83cc4440aa450746c14f5dfffd9')
"""A 6x5 RGB JPEG (quality 50): input bytes for the packed records."""


def _trainer_states(mx):
    """The (states, optimizer) MXNet's updater holds after two SGD-momentum steps."""
    sched = mx.lr_scheduler.FactorScheduler(step=1, factor=0.5)
    opt = mx.optimizer.create('sgd', momentum=0.9, learning_rate=0.1, lr_scheduler=sched,
                              rescale_grad=np.float32(0.5))
    updater = mx.optimizer.get_updater(opt)
    rs = np.random.RandomState(3)
    weights = [mx.nd.array(rs.randn(3, 2)), mx.nd.array(rs.randn(4))]
    for _ in range(2):
        for i, w in enumerate(weights):
            updater(i, mx.nd.array(rs.randn(*w.shape)), w)
    return updater


def _write_seeds(mx, outdir):
    os.makedirs(outdir, exist_ok=True)
    rs = np.random.RandomState(11)
    arrays = [mx.nd.array(rs.randn(2, 3), dtype=dt) for dt in ('float32', 'float16', 'int32')]
    arrays.append(mx.nd.array(rs.randint(0, 255, (5,)), dtype='uint8'))
    mx.nd.save(os.path.join(outdir, 'list.params'), arrays)
    mx.nd.save(os.path.join(outdir, 'dict.params'),
               {'a': arrays[0], 'b': mx.nd.array([1.5], dtype='float64')})
    dense = np.zeros((4, 3), dtype=np.float32)
    dense[1] = [1, 2, 3]
    dense[3, 2] = 4
    mx.nd.save(os.path.join(outdir, 'sparse.params'),
               [mx.nd.array(dense).tostype('row_sparse'), mx.nd.array(dense).tostype('csr')])
    net = mx.gluon.nn.HybridSequential()
    with net.name_scope():
        net.add(mx.gluon.nn.Conv2D(2, 3, strides=(1, 1)), mx.gluon.nn.Dense(3))
    net.initialize(mx.init.Xavier())
    net.hybridize()
    net(mx.nd.array(rs.randn(1, 1, 5, 5)))
    net.save_parameters(os.path.join(outdir, 'net.params'))
    net.export(os.path.join(outdir, 'net'), epoch=0)
    rec = mx.recordio.MXIndexedRecordIO(os.path.join(outdir, 'img.idx'),
                                        os.path.join(outdir, 'img.rec'), 'w')
    img = (rs.rand(6, 5, 3) * 255).astype(np.uint8)
    for i, data in enumerate((JPEG_6X5, png_bytes(img))):
        rec.write_idx(i, mx.recordio.pack(mx.recordio.IRHeader(0, float(i), i, 0), data))
    rec.close()
    updater = _trainer_states(mx)
    with open(os.path.join(outdir, 'trainer.states'), 'wb') as f:
        f.write(updater.get_states(dump_optimizer=True))
    with open(os.path.join(outdir, 'plain.states'), 'wb') as f:
        f.write(updater.get_states(dump_optimizer=False))


def write(mx, outdir):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        updater = _trainer_states(mx)
    states = pickle.loads(updater.get_states(dump_optimizer=True))
    for protocol in (0, 2, 4, 5):
        with open(os.path.join(outdir, 'states-p%d.states' % protocol), 'wb') as f:
            f.write(pickle.dumps(states, protocol=protocol))
    arrays = {}
    for idx, (mom, ) in ((i, (s,)) for i, s in updater.states.items()):
        arrays['s%d' % idx] = mom.asnumpy()
    opt = updater.optimizer
    arrays['meta'] = np.array([opt.num_update, opt.learning_rate, opt.rescale_grad],
                              dtype=np.float64)
    np.savez(os.path.join(outdir, 'states.npz'), **arrays)
    _write_seeds(mx, os.path.join(outdir, 'seeds'))
