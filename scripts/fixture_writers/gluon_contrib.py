"""``gluon.contrib`` blocks (nn, rnn, cnn) as real MXNet runs them.

Every model in MODELS is built by a function of the ``mx`` module it is given (the test
builds the same ones with mxcompat); parameters and inputs come from numpy generators seeded
by name. Written per model: parameter names and shapes, repr, predict-mode outputs, and the
gradients of the input and of every parameter for seeded head gradients.
"""
import json
import os
import zlib

import numpy as np


def seeded(key, shape, lo=-0.5, hi=0.5):
    r = np.random.RandomState(zlib.crc32(key.encode()) & 0xffffffff)
    if key.endswith('running_var') or key.endswith('gamma'):
        lo, hi = 0.5, 1.5
    return r.uniform(lo, hi, size=shape).astype(np.float32)


def _concurrent(mx, hybrid):
    c = mx.gluon.contrib.nn
    nn = mx.gluon.nn
    net = (c.HybridConcurrent if hybrid else c.Concurrent)(axis=1, prefix='cc_')
    with net.name_scope():
        net.add(nn.Dense(3, flatten=False), c.Identity(), nn.Dense(2, flatten=False))
    return net, (2, 4), {}


def _pixel(cls, factor, shape):
    def build(mx):
        return getattr(mx.gluon.contrib.nn, cls)(factor), shape, {}
    return build


def _sync_bn(mx):
    # training mode: MXNet's predict-mode backward of SyncBatchNorm gives NaN
    return mx.gluon.contrib.nn.SyncBatchNorm(num_devices=1, prefix='sbn_'), (2, 3, 2, 2), \
        {'train': True}


def _cell(cls, args, kwargs, shape, steps=2, layout='NTC'):
    """A contrib recurrent cell unrolled over ``steps`` with seeded begin states."""
    def build(mx):
        cell = getattr(mx.gluon.contrib.rnn, cls)(*args, prefix='c_', **kwargs)
        return cell, shape, {'unroll': steps, 'layout': layout}
    return build


def _vardrop(mx):
    base = mx.gluon.rnn.LSTMCell(3, prefix='c_')
    return mx.gluon.contrib.rnn.VariationalDropoutCell(base, 0.3, 0.2, 0.4), (2, 3, 4), \
        {'unroll': 3, 'layout': 'NTC'}


def _deform(cls, **kw):
    def build(mx):
        net = getattr(mx.gluon.contrib.cnn, cls)(prefix='d_', **kw)
        # MXNet computes the modulated deformable convolution's gradient on GPU only
        return net, (1, 2, 5, 5), {'grad': cls == 'DeformableConvolution'}
    return build


MODELS = {
    'concurrent': lambda mx: _concurrent(mx, False),
    'hybrid_concurrent': lambda mx: _concurrent(mx, True),
    'pixelshuffle1d': _pixel('PixelShuffle1D', 2, (1, 4, 3)),
    'pixelshuffle2d': _pixel('PixelShuffle2D', (2, 3), (1, 12, 2, 3)),
    'pixelshuffle3d': _pixel('PixelShuffle3D', (2, 1, 2), (1, 8, 2, 3, 2)),
    'syncbatchnorm': _sync_bn,
    'conv1d_rnn': _cell('Conv1DRNNCell', ((2, 5), 3, 3, 3), {'i2h_pad': 1}, (2, 2, 2, 5)),
    'conv2d_lstm': _cell('Conv2DLSTMCell', ((2, 4, 4), 2, 3, 3), {}, (1, 2, 2, 4, 4)),
    'conv2d_gru_relu': _cell('Conv2DGRUCell', ((2, 4, 4), 2, (3, 1), 1),
                             {'activation': 'relu', 'i2h_pad': (1, 0)}, (1, 2, 2, 4, 4)),
    'conv3d_rnn': _cell('Conv3DRNNCell', ((1, 3, 3, 3), 2, 1, 3), {}, (1, 2, 1, 3, 3, 3)),
    'conv2d_lstm_dilate': _cell('Conv2DLSTMCell', ((2, 5, 5), 2, 3, 3),
                                {'i2h_dilate': 2, 'h2h_dilate': 2}, (1, 2, 2, 5, 5)),
    'conv3d_gru': _cell('Conv3DGRUCell', ((1, 2, 3, 3), 1, 1, 1), {}, (1, 2, 1, 2, 3, 3)),
    'lstmp': _cell('LSTMPCell', (5, 3), {}, (2, 3, 4), steps=3),
    'lstmp_tnc': _cell('LSTMPCell', (4, 2), {'input_size': 3}, (2, 2, 3), layout='TNC'),
    'vardrop_predict': _vardrop,
    'deformable_conv': _deform('DeformableConvolution', channels=3, kernel_size=3,
                               padding=1),
    'deformable_conv_nobias_act': _deform('DeformableConvolution', channels=2, kernel_size=2,
                                          strides=2, use_bias=False, activation='tanh',
                                          num_deformable_group=2),
    'modulated_deformable_conv': _deform('ModulatedDeformableConvolution', channels=3,
                                         kernel_size=3, padding=1),
}


def build(mx, name):
    return MODELS[name](mx)


def forward(mx, net, name, shape, opts, x):
    if 'unroll' in opts:
        batch = shape[opts['layout'].find('N')]
        states = [mx.nd.array(seeded('%s/s%d' % (name, i), info['shape']))
                  for i, info in enumerate(net.state_info(batch))]
        out, states = net.unroll(opts['unroll'], x, begin_state=states,
                                 layout=opts['layout'], merge_outputs=True)
        return [out] + list(states)
    return [net(x)]


def prepare(mx, name):
    """Model, spec and seeded input, with every parameter set from ``seeded``."""
    net, shape, opts = build(mx, name)
    net.initialize()
    x = mx.nd.array(seeded(name + '/x', shape, -1, 1))
    forward(mx, net, name, shape, opts, x)
    for key, p in net.collect_params().items():
        lo, hi = (-0.2, 0.2) if 'offset' in key else (-0.5, 0.5)
        p.set_data(mx.nd.array(seeded(key, p.shape, lo, hi)))
    return net, shape, opts, x


def run(mx, name, hybridize=False):
    net, shape, opts, x = prepare(mx, name)
    if hybridize:
        net.hybridize()
    if not opts.get('grad', True):
        return net, [o.asnumpy() for o in forward(mx, net, name, shape, opts, x)], {}
    x.attach_grad()
    with mx.autograd.record(train_mode=opts.get('train', False)):
        outs = forward(mx, net, name, shape, opts, x)
    mx.autograd.backward(outs, [mx.nd.array(seeded('%s/head%d' % (name, i), o.shape, -1, 1))
                                for i, o in enumerate(outs)])
    grads = {'x': x.grad.asnumpy()}
    for key, p in net.collect_params().items():
        if p.grad_req != 'null':
            grads[key] = p.grad().asnumpy()
    return net, [o.asnumpy() for o in outs], grads


def write(mx, outdir):
    arrays, facts = {}, {}
    for name in MODELS:
        net, outs, grads = run(mx, name)
        for i, o in enumerate(outs):
            arrays['%s/out%d' % (name, i)] = o
        for k, g in grads.items():
            arrays['%s/grad/%s' % (name, k)] = g
        facts[name] = {'params': [[k, list(p.shape)] for k, p in net.collect_params().items()],
                       'repr': repr(net), 'num_outputs': len(outs), 'grads': sorted(grads)}
    np.savez_compressed(os.path.join(outdir, 'gluon_contrib.npz'), **arrays)
    with open(os.path.join(outdir, 'facts.json'), 'w') as f:
        json.dump(facts, f, sort_keys=True)
