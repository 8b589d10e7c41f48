"""Fixtures of ``mxcompat convert`` and ``mxcompat inspect``: parameter files and symbol JSON
written by real MXNet 1.9.1, the arrays and facts MXNet reports for them, and the outputs of
the models whose parameters they hold.

* ``cnn.params`` (``save_parameters``: structural names ``0.weight``, ``1.gamma``, ...),
  ``cnn-prefixed.params`` (``collect_params().save``: ``cnn_conv0_weight``, ...) and
  ``cnn-symbol.json`` + ``cnn-0000.params`` (``export``: ``arg:``/``aux:`` keys) of one Gluon
  CNN (Conv2D, BatchNorm, Activation, Flatten, Dense);
* ``lstm.params`` and ``gru.params``: Gluon RNN layers (a two-layer bidirectional LSTM, a GRU;
  ``save_parameters``), ``gru-prefixed.params`` (the GRU's ``collect_params().save``);
* ``mlp-symbol.json`` + ``mlp-0002.params``: a Module checkpoint (``save_checkpoint``) of an
  MLP with BatchNorm;
* ``dict.params`` / ``list.params``: ``mx.nd.save`` of arrays of several dtypes (float16
  included);
* ``unsupported-symbol.json``: a graph using ``_contrib_getnnz``, an operator of MXNet that
  mxcompat lacks;
* ``expected.json``: for each params file, MXNet's ``nd.load`` view of it (per array in file
  order: name, shape, dtype, size, the sha256 of its bytes and, for floating-point arrays, of
  its ``astype('float16')`` bytes); for each symbol, ``list_arguments``,
  ``list_auxiliary_states``, ``list_outputs`` and the operator of every node;
* ``outputs.npz``: inputs and MXNet's outputs of the CNN, the RNN layers and the MLP.

Every weight comes from a numpy generator seeded by the parameter's name.
"""
import hashlib
import json
import os
import zlib

import numpy as np


def _value(name, shape, positive=False):
    r = np.random.RandomState(zlib.crc32(name.encode()) % (2 ** 31))
    v = r.uniform(-0.5, 0.5, size=shape).astype(np.float32)
    return np.abs(v) + 0.5 if positive else v


def _seed_params(mx, params):
    for name, p in params.items():
        p.set_data(mx.nd.array(_value(name, p.shape, name.endswith('var'))))


def _cnn(mx):
    net = mx.gluon.nn.HybridSequential(prefix='cnn_')
    with net.name_scope():
        net.add(mx.gluon.nn.Conv2D(4, 3, in_channels=2), mx.gluon.nn.BatchNorm(in_channels=4),
                mx.gluon.nn.Activation('relu'), mx.gluon.nn.Flatten(),
                mx.gluon.nn.Dense(3, in_units=64))
    net.initialize()
    _seed_params(mx, net.collect_params())
    return net


def _mlp(mx):
    data = mx.sym.Variable('data')
    net = mx.sym.FullyConnected(data, num_hidden=8, name='fc1')
    net = mx.sym.BatchNorm(net, fix_gamma=False, name='bn1')
    net = mx.sym.Activation(net, act_type='relu', name='relu1')
    net = mx.sym.FullyConnected(net, num_hidden=3, name='fc2')
    return mx.sym.SoftmaxOutput(net, name='softmax')


def _sha(a):
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


def _describe_params(mx, path):
    loaded = mx.nd.load(path)
    items = loaded.items() if isinstance(loaded, dict) else \
        ((None, a) for a in loaded)
    out = []
    for k, a in items:
        floating = np.issubdtype(a.dtype, np.floating)
        out.append([k, list(a.shape), np.dtype(a.dtype).name, int(a.size), _sha(a.asnumpy()),
                    _sha(a.astype('float16').asnumpy()) if floating else None])
    return out


def _describe_symbol(mx, path):
    sym = mx.sym.load(path)
    nodes = json.loads(sym.tojson())['nodes']
    return {'arguments': sym.list_arguments(), 'aux': sym.list_auxiliary_states(),
            'outputs': sym.list_outputs(), 'ops': [n['op'] for n in nodes]}


def write(mx, outdir):
    out = {}
    rs = np.random.RandomState(5)

    net = _cnn(mx)
    net.hybridize()
    x = rs.uniform(-1, 1, (2, 2, 6, 6)).astype(np.float32)
    out['cnn_x'] = x
    out['cnn_y'] = net(mx.nd.array(x)).asnumpy()
    net.save_parameters(os.path.join(outdir, 'cnn.params'))
    net.collect_params().save(os.path.join(outdir, 'cnn-prefixed.params'))
    net.export(os.path.join(outdir, 'cnn'), epoch=0)

    for kind, layer in (('lstm', mx.gluon.rnn.LSTM(4, num_layers=2, bidirectional=True,
                                                    input_size=3, prefix='lstm_')),
                        ('gru', mx.gluon.rnn.GRU(5, input_size=3, prefix='gru_'))):
        layer.initialize()
        _seed_params(mx, layer.collect_params())
        x = rs.uniform(-1, 1, (4, 2, 3)).astype(np.float32)  # TNC
        out[kind + '_x'] = x
        out[kind + '_y'] = layer(mx.nd.array(x)).asnumpy()
        layer.save_parameters(os.path.join(outdir, kind + '.params'))
    layer.collect_params().save(os.path.join(outdir, 'gru-prefixed.params'))

    sym = _mlp(mx)
    mod = mx.mod.Module(sym, data_names=['data'], label_names=['softmax_label'])
    mod.bind(data_shapes=[('data', (3, 5))], for_training=False)
    arg_shapes, _, aux_shapes = sym.infer_shape(data=(3, 5))
    args = {n: mx.nd.array(_value(n, s)) for n, s in zip(sym.list_arguments(), arg_shapes)
            if n not in ('data', 'softmax_label')}
    aux = {n: mx.nd.array(_value(n, s, n.endswith('var')))
           for n, s in zip(sym.list_auxiliary_states(), aux_shapes)}
    mod.set_params(args, aux)
    x = rs.uniform(-1, 1, (3, 5)).astype(np.float32)
    mod.forward(mx.io.DataBatch([mx.nd.array(x)]), is_train=False)
    out['mlp_x'] = x
    out['mlp_y'] = mod.get_outputs()[0].asnumpy()
    mod.save_checkpoint(os.path.join(outdir, 'mlp'), 2)

    arrays = {'w32': mx.nd.array(_value('w32', (2, 3))),
              'w16': mx.nd.array(_value('w16', (3,)), dtype='float16'),
              'w64': mx.nd.array(_value('w64', (2, 2)), dtype='float64'),
              'i32': mx.nd.array(np.arange(6).reshape(2, 3), dtype='int32'),
              'i64': mx.nd.array([7, -8], dtype='int64'),
              'u8': mx.nd.array([0, 200, 255], dtype='uint8')}
    mx.nd.save(os.path.join(outdir, 'dict.params'), arrays)
    mx.nd.save(os.path.join(outdir, 'list.params'),
               [arrays['w32'], arrays['w16'], arrays['i64']])

    data = mx.sym.Variable('data')
    odd = mx.sym.contrib.getnnz(data, name='nnz') + mx.sym.FullyConnected(
        data, num_hidden=2, name='fc')
    odd.save(os.path.join(outdir, 'unsupported-symbol.json'))

    expected = {'params': {}, 'symbols': {}}
    for name in ('cnn.params', 'cnn-prefixed.params', 'cnn-0000.params', 'lstm.params',
                 'gru.params', 'gru-prefixed.params', 'mlp-0002.params', 'dict.params',
                 'list.params'):
        expected['params'][name] = _describe_params(mx, os.path.join(outdir, name))
    for name in ('cnn-symbol.json', 'mlp-symbol.json', 'unsupported-symbol.json'):
        expected['symbols'][name] = _describe_symbol(mx, os.path.join(outdir, name))
    with open(os.path.join(outdir, 'expected.json'), 'w') as f:
        json.dump(expected, f, indent=1, sort_keys=True)
    np.savez_compressed(os.path.join(outdir, 'outputs.npz'), **out)
