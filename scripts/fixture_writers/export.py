"""Graphs written by real MXNet for ``torch.export`` programs (tests/test_export.py).

For every model of ``gluon.model_zoo.vision`` (``net.hybridize(); net(x); net.export(...)``),
an RNN language model per fused layer (Embedding, ``gluon.rnn.LSTM``/``GRU``, Dense), and a
graph with ``contrib.foreach`` and ``contrib.while_loop`` built with ``mx.sym``: the symbol JSON
MXNet writes (``symbols.json.gz``: name -> {"json", "shape"}), with every parameter set from a
numpy generator seeded by its name (``seeded``), and MXNet's predict-mode outputs for seeded
inputs at the traced batch size and another (``outputs.npz``: ``name/bB/oK``). A small
Module's ``save_checkpoint`` files are stored as MXNet writes them (``mod-symbol.json``,
``mod-0000.params``), with its outputs (a zero label) under ``module/bB/o0``.

``ZOO``, ``BATCHES``, ``shapes``, ``data`` and ``param_values`` are shared with the test.
"""
import gzip
import json
import os
import tempfile
import zlib

import numpy as np

from .model_zoo import NAMES, seeded

ZOO = NAMES  # every model of gluon.model_zoo.vision

# the smallest input side each model takes (fixed-size pools at the end of the others)
_SIDE = {'alexnet': 64, 'inceptionv3': 299, 'squeezenet1.0': 224, 'squeezenet1.1': 224,
         'densenet121': 224, 'densenet161': 224, 'densenet169': 224, 'densenet201': 224}
CLASSES = 10
VOCAB, SEQ = 50, 6
BATCHES = (2, 3)  # traced (exported) batch size, and another


def shapes(name):
    """The data shape of model ``name`` at batch size 1."""
    if name in ('lstm_lm', 'gru_lm'):
        return (1, SEQ)
    if name == 'control_flow':
        return (1, 4, 5)
    if name == 'module':
        return (1, 3, 8, 8)
    side = _SIDE.get(name, 32)
    return (1, 3, side, side)


def data(name, batch):
    """The input of model ``name`` at ``batch``."""
    r = np.random.RandomState(zlib.crc32(('input/%s/%d' % (name, batch)).encode()) & 0xffffffff)
    shape = (batch,) + shapes(name)[1:]
    if name.endswith('_lm'):
        return r.randint(0, VOCAB, size=shape).astype(np.float32)
    return r.uniform(-1, 1, size=shape).astype(np.float32)


# shapes MXNet cannot infer (inside control-flow subgraphs)
GIVEN = {'control_flow': {'w': (7, 5), 'u': (7, 7)}}


def param_values(sym, name):
    """{name: value} of every argument and auxiliary state of model ``name``'s ``sym`` but
    ``data``."""
    args, _, aux = sym.infer_shape_partial(data=shapes(name), **GIVEN.get(name, {}))
    names = sym.list_arguments() + sym.list_auxiliary_states()
    return {n: seeded(n, s) for n, s in zip(names, args + aux) if n != 'data'}


def _lm(mx, cell):
    net = mx.gluon.nn.HybridSequential()
    with net.name_scope():
        net.add(mx.gluon.nn.Embedding(VOCAB, 8))
        net.add(cell(12, num_layers=2, layout='NTC'))
        net.add(mx.gluon.nn.Dense(VOCAB, flatten=False))
    return net


def _control_flow(mx):
    """foreach over time steps of (batch, time, channel) data, then a while_loop that doubles
    the state until its mean magnitude passes 1 (a data-dependent count of steps)."""
    data = mx.sym.var('data')
    w, u = mx.sym.var('w'), mx.sym.var('u')

    def step(x, states):
        h = mx.sym.tanh(mx.sym.FullyConnected(x, weight=w, no_bias=True, num_hidden=7) +
                        mx.sym.FullyConnected(states[0], weight=u, no_bias=True, num_hidden=7))
        return h, [h]
    seq = mx.sym.swapaxes(data, 0, 1)
    init = mx.sym.zeros_like(mx.sym.FullyConnected(mx.sym.slice_axis(seq, axis=0, begin=0,
                                                                         end=1).reshape((-3, -2)),
                                                   weight=w, no_bias=True, num_hidden=7))
    outs, states = mx.sym.contrib.foreach(step, seq, [init])
    _, last = mx.sym.contrib.while_loop(
        cond=lambda s: mx.sym.mean(mx.sym.abs(s)) < 1,
        func=lambda s: (s * 3, [s * 2]), loop_vars=[states[0]], max_iterations=6)
    return mx.sym.Group([mx.sym.swapaxes(outs, 0, 1), last[0]])


def _module(mx, tmp):
    data = mx.sym.var('data')
    net = mx.sym.Convolution(data, num_filter=4, kernel=(3, 3), pad=(1, 1), name='conv')
    net = mx.sym.BatchNorm(net, name='bn')
    net = mx.sym.Activation(net, act_type='relu')
    net = mx.sym.Pooling(net, kernel=(2, 2), stride=(2, 2), pool_type='max')
    net = mx.sym.FullyConnected(net, num_hidden=5, name='fc')
    net = mx.sym.SoftmaxOutput(net, name='softmax')
    mod = mx.mod.Module(net, label_names=['softmax_label'])
    mod.bind(data_shapes=[('data', (BATCHES[0],) + shapes('module')[1:])], for_training=False)
    mod.init_params()
    arg, aux = mod.get_params()
    mod.set_params({n: mx.nd.array(seeded(n, a.shape)) for n, a in arg.items()},
                   {n: mx.nd.array(seeded(n, a.shape)) for n, a in aux.items()})
    prefix = os.path.join(tmp, 'mod')
    mod.save_checkpoint(prefix, 0)
    return prefix


def _run(mx, sym, name, outputs):
    params = {k: mx.nd.array(v) for k, v in param_values(sym, name).items()}
    for b in BATCHES:
        args = dict(params, data=mx.nd.array(data(name, b)))
        args = {k: v for k, v in args.items() if k in sym.list_arguments()}
        aux = {k: v for k, v in params.items() if k in sym.list_auxiliary_states()}
        ex = sym.bind(mx.cpu(), args, aux_states=aux, grad_req='null')
        for k, o in enumerate(ex.forward(is_train=False)):
            outputs['%s/b%d/o%d' % (name, b, k)] = o.asnumpy()


def write(mx, outdir):
    symbols, outputs = {}, {}
    tmp = tempfile.mkdtemp()
    for name in ([] if os.environ.get('EXPORT_SKIP_ZOO') else ZOO) + ['lstm_lm', 'gru_lm']:
        with mx.name.NameManager():
            if name == 'lstm_lm':
                net = _lm(mx, mx.gluon.rnn.LSTM)
            elif name == 'gru_lm':
                net = _lm(mx, mx.gluon.rnn.GRU)
            else:
                net = mx.gluon.model_zoo.vision.get_model(name, classes=CLASSES)
        net.initialize()
        net.hybridize()
        net(mx.nd.array(data(name, BATCHES[0])))
        net.export(os.path.join(tmp, 'net'))
        sym = mx.sym.load(os.path.join(tmp, 'net-symbol.json'))
        symbols[name] = sym.tojson()
        _run(mx, sym, name, outputs)
    sym = _control_flow(mx)
    symbols['control_flow'] = sym.tojson()
    _run(mx, sym, 'control_flow', outputs)
    prefix = _module(mx, tmp)
    sym, arg, aux = mx.model.load_checkpoint(prefix, 0)
    for b in BATCHES:
        args = dict(arg, data=mx.nd.array(data('module', b)), softmax_label=mx.nd.zeros((b,)))
        ex = sym.bind(mx.cpu(), args, aux_states=aux, grad_req='null')
        outputs['module/b%d/o0' % b] = ex.forward(is_train=False)[0].asnumpy()
    for suffix in ('-symbol.json', '-0000.params'):
        with open(prefix + suffix, 'rb') as src, \
                open(os.path.join(outdir, 'mod' + suffix), 'wb') as dst:
            dst.write(src.read())
    with gzip.open(os.path.join(outdir, 'symbols.json.gz'), 'wt') as f:
        json.dump(symbols, f, separators=(',', ':'), sort_keys=True)
    np.savez_compressed(os.path.join(outdir, 'outputs.npz'), **outputs)
