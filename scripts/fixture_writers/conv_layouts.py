"""Channel-last Convolution/Deconvolution (layout NHWC / NDHWC).

MXNet 1.9.1 computes these layouts only on GPU; on the CPU oracle the same numbers come from
the channel-first operator applied to transposed data and weights (MXNet's channel-last weight
is (num_filter, k..., in/num_group) for Convolution and (in, k..., num_filter/num_group) for
Deconvolution). Inputs, outputs and gradients are stored in the channel-last layout.
"""
import os

import numpy as np

CONFIGS = {
    'conv2d-nhwc': {'op': 'Convolution', 'data': (2, 5, 6, 3), 'weight': (4, 3, 3, 3),
                    'params': {'kernel': (3, 3), 'num_filter': 4, 'pad': (1, 1),
                               'stride': (2, 1)}, 'layout': 'NHWC'},
    'conv2d-nhwc-group-nobias': {'op': 'Convolution', 'data': (1, 4, 4, 4),
                                 'weight': (6, 2, 2, 2),
                                 'params': {'kernel': (2, 2), 'num_filter': 6, 'num_group': 2,
                                            'no_bias': True}, 'layout': 'NHWC'},
    'conv3d-ndhwc': {'op': 'Convolution', 'data': (1, 3, 4, 4, 2), 'weight': (3, 2, 2, 2, 2),
                     'params': {'kernel': (2, 2, 2), 'num_filter': 3, 'dilate': (1, 2, 1)},
                     'layout': 'NDHWC'},
    'deconv2d-nhwc': {'op': 'Deconvolution', 'data': (1, 3, 3, 2), 'weight': (2, 3, 3, 4),
                      'params': {'kernel': (3, 3), 'num_filter': 4, 'stride': (2, 2),
                                 'pad': (1, 1), 'adj': (1, 0), 'no_bias': False},
                      'layout': 'NHWC'},
}

_FIRST = {4: (0, 3, 1, 2), 5: (0, 4, 1, 2, 3)}
_LAST = {4: (0, 2, 3, 1), 5: (0, 2, 3, 4, 1)}


def inputs(name):
    cfg = CONFIGS[name]
    r = np.random.RandomState(sum(map(ord, name)))
    data = r.uniform(-1, 1, size=cfg['data']).astype(np.float32)
    weight = r.uniform(-1, 1, size=cfg['weight']).astype(np.float32)
    bias = r.uniform(-1, 1, size=cfg['params']['num_filter']).astype(np.float32)
    return data, weight, bias, r


def _with_bias(cfg):
    default = cfg['op'] == 'Deconvolution'
    return not cfg['params'].get('no_bias', default)


def write(mx, outdir):
    arrays = {}
    for name, cfg in CONFIGS.items():
        data, weight, bias, r = inputs(name)
        nd = len(cfg['data'])
        x = mx.nd.array(data.transpose(_FIRST[nd]))
        w = mx.nd.array(weight.transpose(_FIRST[nd]))
        args = [x, w]
        if _with_bias(cfg):
            args.append(mx.nd.array(bias))
        for a in args:
            a.attach_grad()
        with mx.autograd.record():
            y = getattr(mx.nd, cfg['op'])(*args, **cfg['params'])
        out = y.asnumpy().transpose(_LAST[nd])
        head = r.uniform(-1, 1, size=out.shape).astype(np.float32)
        y.backward(mx.nd.array(head.transpose(_FIRST[nd])))
        arrays[name + '/out'] = out
        arrays[name + '/head'] = head
        arrays[name + '/grad_data'] = x.grad.asnumpy().transpose(_LAST[nd])
        arrays[name + '/grad_weight'] = w.grad.asnumpy().transpose(_LAST[nd])
        if _with_bias(cfg):
            arrays[name + '/grad_bias'] = args[2].grad.asnumpy()
    tmp = os.path.join(outdir, 'conv_layouts.tmp.npz')
    np.savez(tmp, **arrays)
    os.replace(tmp, os.path.join(outdir, 'conv_layouts.npz'))
