"""MXNet 1.9.1's int8 inference graphs (oneDNN): a small network quantized by real MXNet's
``mx.contrib.quantization.quantize_net`` (naive calibration), whose symbol file holds the
operators GluonCV's int8 model zoo is made of: ``_contrib_quantize_v2``, ``_sg_mkldnn_conv``
(quantized convolution with folded BatchNorm, ReLU, a residual sum and ReLU after the sum; int8
and uint8 data, int8 and uint8 outputs), ``_contrib_quantized_pooling`` (max and avg) and
``_contrib_dequantize``. The writer stores MXNet's graph, and the outputs of every node for
parameters seeded by name; ``run(mx, json_text)`` loads the graph under mxcompat in
tests/test_quantization.py. ``histograms(mx)`` combines calibration histograms with
``combine_histogram``. The network's float32 graph after MXNet's oneDNN fusion pass
(``_sg_mkldnn_conv`` unquantized) is stored and compared too."""
import json
import os
import tempfile

import numpy as np

from scripts.fixture_writers._layer_cases import seeded

SHAPE = (2, 3, 8, 8)


def data():
    return np.random.RandomState(7).uniform(-1, 1, SHAPE).astype(np.float32)


def _network(mx):
    nn = mx.gluon.nn

    class Net(nn.HybridBlock):
        def __init__(self, **kwargs):
            super(Net, self).__init__(**kwargs)
            with self.name_scope():
                self.c0, self.b0 = nn.Conv2D(8, 3, padding=1, use_bias=False), nn.BatchNorm()
                self.p0 = nn.MaxPool2D(2)
                self.c1, self.b1 = nn.Conv2D(8, 3, padding=1), nn.BatchNorm()
                self.c2, self.b2 = nn.Conv2D(8, 1), nn.BatchNorm()
                self.c3, self.b3 = nn.Conv2D(8, 1), nn.BatchNorm()
                self.p1 = nn.AvgPool2D(2)

        def hybrid_forward(self, F, x):
            y = self.p0(F.Activation(self.b0(self.c0(x)), act_type='relu'))
            z = self.b2(self.c2(self.b1(self.c1(y))))
            z = F.Activation(z + self.b3(self.c3(y)), act_type='relu')  # int8 sum, uint8 out
            return self.p1(z)
    return Net(prefix='qnet_')


def quantized_graph(mx):
    """MXNet's int8 graph of the network, as symbol JSON (real MXNet only)."""
    import logging
    from mxnet.contrib.quantization import quantize_net
    net = _network(mx)
    net.initialize()
    net.hybridize()
    x = mx.nd.array(data())
    net(x)
    for p in net.collect_params().values():
        p.set_data(mx.nd.array(seeded(p.name, p.shape)))
    calib = mx.gluon.data.DataLoader(
        mx.gluon.data.ArrayDataset(x, mx.nd.zeros((SHAPE[0], 1))), batch_size=1)
    qnet = quantize_net(net, quantized_dtype='auto', calib_data=calib, calib_mode='naive',
                        num_calib_examples=SHAPE[0], ctx=mx.cpu(),
                        logger=logging.getLogger('quiet'))
    with tempfile.TemporaryDirectory() as tmp:
        qnet.export(os.path.join(tmp, 'qnet'))
        with open(os.path.join(tmp, 'qnet-symbol.json')) as f:
            return f.read()


def float_graph(mx):
    """MXNet's float32 graph of the network after its oneDNN fusion pass, as symbol JSON
    (``_sg_mkldnn_conv`` without quantization; real MXNet only)."""
    net = _network(mx)
    sym = net(mx.sym.var('data'))
    return sym.get_backend_symbol('MKLDNN').tojson()


def run(mx, json_text):
    """{node name: its outputs} for the graph ``json_text`` run on ``data()``, every
    parameter seeded by name."""
    sym = mx.sym.load_json(json_text)
    internals = sym.get_internals()
    names = [n for n in internals.list_outputs()
             if not any(n == a for a in internals.list_inputs())]
    group = mx.sym.Group([internals[n] for n in names])
    block = mx.gluon.SymbolBlock(group, mx.sym.var('data'))
    arg_shapes, _, aux_shapes = sym.infer_shape(data=SHAPE)
    shapes = dict(zip(sym.list_arguments(), arg_shapes))
    shapes.update(zip(sym.list_auxiliary_states(), aux_shapes))
    for name, p in block.collect_params().items():
        p.shape = shapes[name]
        p.initialize(init=mx.init.Constant(0))
        p.set_data(mx.nd.array(seeded(name, shapes[name])))
    outs = block(mx.nd.array(data()))
    return {n: o.asnumpy() for n, o in zip(names, outs)}


def histograms(mx):
    """{case: array} of ``combine_histogram`` growing and keeping a histogram."""
    import importlib
    combine = importlib.import_module(mx.__name__ + '.contrib.quantization').combine_histogram
    r = np.random.RandomState(3)
    a, b, c = r.normal(0, 1, 500), r.normal(0, 3, 500), r.normal(0, 0.5, 500)
    th = float(np.abs(a).max())
    hist = np.histogram(a, bins=21, range=(-th, th))
    state = (hist[0], hist[1], float(a.min()), float(a.max()), th)
    out = {}
    for key, arr in (('grow', b), ('keep', c)):
        state = combine(state, arr, float(arr.min()), float(arr.max()), float(np.abs(arr).max()))
        for k, v in enumerate(state):
            out['hist/%s/%d' % (key, k)] = np.asarray(v)
    return out


def write(mx, outdir):
    text = quantized_graph(mx)
    with open(os.path.join(outdir, 'qnet-symbol.json'), 'w') as f:
        f.write(text)
    res = run(mx, text)
    fused = float_graph(mx)
    with open(os.path.join(outdir, 'fused-symbol.json'), 'w') as f:
        f.write(fused)
    res.update(('float/' + k, v) for k, v in run(mx, fused).items())
    res.update(histograms(mx))
    np.savez(os.path.join(outdir, 'quantization.npz'), **res)
    ops = sorted({n['op'] for n in json.loads(text)['nodes']})
    print('quantization: %d outputs of %s' % (len(res), ', '.join(ops)))
