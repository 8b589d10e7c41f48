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
