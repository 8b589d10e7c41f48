"""A NumPy-mode model exported by real MXNet 1.9.1 (tests/test_numpy_export.py).

Under ``npx.set_np()``, the HybridBlock of ``build`` (Gluon layers with ``F.np`` / ``F.npx``
operators between them) gets every parameter from a numpy generator seeded by its name,
is hybridized, runs on the inputs of ``inputs`` and is exported: ``npnet-symbol.json`` (with
MXNet's ``_npi_*`` / ``_np_*`` / ``_npx_*`` operators and ``is_np_shape``) and
``npnet-0000.params`` (``npx.save``'s format) are stored as MXNet writes them, its predict-mode
outputs in ``outputs.npz``. The test imports them with ``SymbolBlock.imports`` and exports the
same model from mxcompat, to compare with both files.
"""
import os
import zlib

import numpy as onp

from .model_zoo import seeded

INPUTS = ['data0', 'data1']


def build(mx):
    """The model: convolution, batch norm, pooling, dense, embedding, layer norm and NumPy
    operators (unary, binary with scalars, reductions, reshape, concatenate, npx softmax)."""
    nn = mx.gluon.nn

    class Net(mx.gluon.HybridBlock):
        def __init__(self, **kwargs):
            super(Net, self).__init__(**kwargs)
            with self.name_scope():
                self.conv = nn.Conv2D(4, 3, padding=1)
                self.bn = nn.BatchNorm()
                self.pool = nn.MaxPool2D()
                self.dense = nn.Dense(5)
                self.emb = nn.Embedding(7, 5)
                self.ln = nn.LayerNorm()

        def hybrid_forward(self, F, x, tokens):
            y = self.pool(F.npx.relu(self.bn(self.conv(x))))
            y = self.dense(y)
            e = self.emb(tokens).mean(axis=1)
            z = self.ln(F.np.tanh(y) * 2 + e)
            z = F.npx.softmax(z, axis=-1) + F.np.sqrt(F.np.abs(z)) - 1.5 / (F.np.exp(y) + 1)
            return z.reshape(-1, 5).sum(axis=0, keepdims=True), F.np.concatenate([z, y], axis=1)

    return Net(prefix='net_')


def inputs(mx):
    r = onp.random.RandomState(zlib.crc32(b'numpy_export') & 0xffffffff)
    return (mx.np.array(r.uniform(-1, 1, (2, 3, 6, 6)).astype('float32')),
            mx.np.array(r.randint(0, 7, (2, 3)).astype('int32'), dtype='int32'))


def seeded_net(mx):
    """``build``'s model, initialised (shapes from ``inputs``) and seeded by name."""
    net = build(mx)
    net.initialize()
    net(*inputs(mx))
    for name, p in net.collect_params().items():
        p.set_data(mx.np.array(seeded(name, p.shape)))
    return net


def write(mx, outdir):
    mx.npx.set_np()
    try:
        with mx.name.NameManager():
            net = seeded_net(mx)
        net.hybridize()
        outs = net(*inputs(mx))
        net.export(os.path.join(outdir, 'npnet'), epoch=0)
    finally:
        mx.npx.reset_np()
    onp.savez(os.path.join(outdir, 'outputs.npz'),
              **{'out%d' % i: o.asnumpy() for i, o in enumerate(outs)})
    write_ops(mx, outdir)


# One operator (or a few) per block: the attributes MXNet writes for each, from the front end's
# arguments (a dtype of None left out, lists as lists, integer indexing as slice + _npx_reshape,
# a number on the left of a symbol never an integer scalar, ...).
OPS = {
    'mean': lambda F, x: F.np.mean(x),
    'mean-dtype': lambda F, x: F.np.mean(x, axis=0, dtype='float32'),
    'std-ddof': lambda F, x: F.np.std(x, axis=0, ddof=1),
    'var': lambda F, x: F.np.var(x),
    'cumsum': lambda F, x: F.np.cumsum(x, axis=1),
    'amin-keepdims': lambda F, x: F.np.min(x, axis=1, keepdims=True),
    'argmax': lambda F, x: F.np.argmax(x, axis=1),
    'transpose': lambda F, x: F.np.transpose(x, (2, 0, 1)),
    'T': lambda F, x: x.T,
    'ravel': lambda F, x: F.np.ravel(x),
    'reshape-method': lambda F, x: x.reshape(4, -1),
    'swapaxes': lambda F, x: F.np.swapaxes(x, 0, 2),
    'expand_dims': lambda F, x: F.np.expand_dims(x, 1),
    'repeat': lambda F, x: F.np.repeat(x, 2, axis=1),
    'sort': lambda F, x: F.np.sort(x, axis=1),
    'argsort': lambda F, x: F.np.argsort(x, axis=-1),
    'concatenate': lambda F, x: F.np.concatenate([x, x], axis=-1),
    'concatenate-none': lambda F, x: F.np.concatenate([x, x], axis=None),
    'stack': lambda F, x: F.np.stack([x, x], axis=1),
    'vstack': lambda F, x: F.np.vstack([x, x]),
    'split-sections': lambda F, x: F.np.split(x, 2, axis=2)[1],
    'split-indices': lambda F, x: F.np.split(x, [1, 3], axis=2)[2],
    'hsplit': lambda F, x: F.np.hsplit(x, 3)[0],
    'dsplit': lambda F, x: F.np.dsplit(x, 2)[1],
    'dsplit-one': lambda F, x: F.np.dsplit(x, 1),
    'getitem-int': lambda F, x: x[1],
    'getitem-slice': lambda F, x: x[0:1],
    'getitem-tuple': lambda F, x: x[0:1, ::2, 1:],
    'getitem-negative': lambda F, x: x[:, -1, 0],
    'zeros_like': lambda F, x: F.np.zeros_like(x) + x,
    'ones_like-dtype': lambda F, x: F.np.ones_like(x, dtype='float32') * x,
    'full_like': lambda F, x: F.np.full_like(x, 2.5) + x,
    'where': lambda F, x: F.np.where(x > 0, x, F.np.zeros_like(x)),
    'ones': lambda F, x: x + F.np.ones((3, 4), dtype='float32'),
    'arange': lambda F, x: x + F.np.arange(1, 9, 2, dtype='float32'),
    'eye': lambda F, x: F.np.dot(x, F.np.eye(4)),
    'power': lambda F, x: F.np.power(x, 2),
    'rpower': lambda F, x: 2 ** x,
    'rsubtract': lambda F, x: 1 - x,
    'rtrue_divide': lambda F, x: 1 / (x + 3),
    'rmultiply': lambda F, x: 2 * x,
    'mod': lambda F, x: F.np.mod(x, 0.3),
    'tensordot-lists': lambda F, x: F.np.tensordot(x, x, axes=([1, 2], [1, 2])),
    'einsum': lambda F, x: F.np.einsum('ijk,ijk->i', x, x),
    'astype': lambda F, x: x.astype('float64'),
    'around': lambda F, x: F.np.around(x, 2),
    'linalg_norm': lambda F, x: F.np.linalg.norm(x, axis=-1),
    'npx_softmax': lambda F, x: F.npx.softmax(x, axis=1),
    'npx_reshape': lambda F, x: F.npx.reshape(x, (-2, -1)),
    'npx_batch_dot': lambda F, x: F.npx.batch_dot(x, x, transpose_b=True),
    'npx_topk': lambda F, x: F.npx.topk(x, k=2, axis=-1),
    'npx_pick': lambda F, x: F.npx.pick(x, F.np.argmax(x, axis=-1), axis=-1),
}


def _op_block(mx, fn):
    class One(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return fn(F, x)
    return One(prefix='op_')


def op_input(mx):
    r = onp.random.RandomState(zlib.crc32(b'numpy_export/ops') & 0xffffffff)
    return mx.np.array(r.uniform(-1, 1, (3, 3, 4)).astype('float32'))


def export_op(mx, case, path):
    """Hybridize and run ``OPS[case]``'s block on ``op_input`` (NumPy mode on), export it to
    ``path``; returns its output."""
    with mx.name.NameManager():
        net = _op_block(mx, OPS[case])
    net.hybridize()
    out = net(op_input(mx))
    net.export(path)
    return out


def write_ops(mx, outdir):
    """``ops/<case>-symbol.json`` for every case of ``OPS``, its outputs in ``ops.npz``."""
    os.makedirs(os.path.join(outdir, 'ops'), exist_ok=True)
    outs = {}
    mx.npx.set_np()
    try:
        for case in sorted(OPS):
            outs[case] = export_op(mx, case, os.path.join(outdir, 'ops', case)).asnumpy()
            os.remove(os.path.join(outdir, 'ops', case + '-0000.params'))
    finally:
        mx.npx.reset_np()
    onp.savez(os.path.join(outdir, 'ops.npz'), **outs)
