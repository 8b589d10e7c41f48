"""Cases for mxcompat/ops/nn_dense_conv.py: FullyConnected, Convolution(_v1), Deconvolution,
Embedding."""
import numpy as np

from . import case, rng


def arr(cid, *shape, dtype=np.float32):
    return rng(cid).uniform(-1, 1, size=shape).astype(dtype)


def fc(cid, dshape, num_hidden, flatten=True, no_bias=False, dtype=np.float32, **kw):
    in_dim = int(np.prod(dshape[1:])) if flatten else dshape[-1]
    kwargs = {'data': arr(cid + '/d', *dshape, dtype=dtype),
              'weight': arr(cid + '/w', num_hidden, in_dim, dtype=dtype),
              'num_hidden': num_hidden, 'flatten': flatten}
    grad = ['data', 'weight']
    if no_bias:
        kwargs['no_bias'] = True
    else:
        kwargs['bias'] = arr(cid + '/b', num_hidden, dtype=dtype)
        grad.append('bias')
    kw.setdefault('rtol', 1e-4)
    kw.setdefault('atol', 1e-5)
    return case(cid, 'FullyConnected', kwargs=kwargs, grad=grad, **kw)


def conv(cid, func, dshape, wshape, no_bias=False, dtype=np.float32, grad=True, **params):
    kwargs = {'data': arr(cid + '/d', *dshape, dtype=dtype),
              'weight': arr(cid + '/w', *wshape, dtype=dtype)}
    names = ['data', 'weight']
    default_no_bias = func == 'Deconvolution'
    if no_bias != default_no_bias:
        kwargs['no_bias'] = no_bias
    if not no_bias:
        kwargs['bias'] = arr(cid + '/b', params['num_filter'], dtype=dtype)
        names.append('bias')
    kwargs.update(params)
    extra = {'rtol': 1e-4, 'atol': 1e-5} if dtype == np.float32 else {}
    return case(cid, func, kwargs=kwargs, grad=names if grad else (), **extra)


CASES = [
    # FullyConnected
    fc('fc-flatten', (2, 3, 4), 5),
    fc('fc-noflatten', (2, 3, 4), 5, flatten=False),
    fc('fc-nobias', (3, 6), 4, no_bias=True),
    fc('fc-2d-flatten', (3, 6), 2),
    fc('fc-f64', (2, 5), 3, dtype=np.float64),
    fc('fc-noflatten-4d', (2, 2, 3, 4), 3, flatten=False),
    case('fc-bad-weight', 'FullyConnected',
         kwargs={'data': arr('fcb/d', 2, 5), 'weight': arr('fcb/w', 3, 4), 'num_hidden': 3,
                 'no_bias': True}, check='error'),
    case('fc-bad-num-hidden', 'FullyConnected',
         kwargs={'data': arr('fcn/d', 2, 4), 'weight': arr('fcn/w', 3, 4),
                 'bias': arr('fcn/b', 3), 'num_hidden': 5}, check='error'),
    case('fc-bad-bias', 'FullyConnected',
         kwargs={'data': arr('fcbb/d', 2, 4), 'weight': arr('fcbb/w', 3, 4),
                 'bias': arr('fcbb/b', 4), 'num_hidden': 3}, check='error'),
    # MXNet's lower bound on num_hidden, for a Python int too
    case('fc-num-hidden-0', 'FullyConnected',
         kwargs={'data': arr('fcz/d', 2, 4), 'weight': arr('fcz/w', 0, 4),
                 'bias': arr('fcz/b', 0), 'num_hidden': 0}, check='error'),
    case('fc-num-hidden-neg', 'FullyConnected',
         kwargs={'data': arr('fcz/d', 2, 4), 'weight': arr('fcz/w', 1, 4),
                 'bias': arr('fcz/b', 1), 'num_hidden': -1}, check='error'),
    # shapes torch would broadcast silently: one weight row, a (1,) or (1, num_hidden) bias
    case('fc-bad-weight-rows', 'FullyConnected',
         kwargs={'data': arr('fcr/d', 2, 4), 'weight': arr('fcr/w', 1, 4),
                 'bias': arr('fcr/b', 3), 'num_hidden': 3}, check='error'),
    case('fc-bad-bias-1', 'FullyConnected',
         kwargs={'data': arr('fcb1/d', 2, 4), 'weight': arr('fcb1/w', 3, 4),
                 'bias': arr('fcb1/b', 1), 'num_hidden': 3}, check='error'),
    case('fc-bad-bias-2d', 'FullyConnected',
         kwargs={'data': arr('fcb2/d', 2, 4), 'weight': arr('fcb2/w', 3, 4),
                 'bias': arr('fcb2/b', 1, 3), 'num_hidden': 3}, check='error'),
    case('fc-mixed-dtype', 'FullyConnected',
         kwargs={'data': arr('fcm/d', 2, 4, dtype=np.float64), 'weight': arr('fcm/w', 3, 4),
                 'bias': arr('fcm/b', 3), 'num_hidden': 3}, check='error'),

    # Convolution 1-D / 2-D / 3-D
    conv('conv1d', 'Convolution', (2, 3, 7), (4, 3, 3), kernel=(3,), num_filter=4),
    conv('conv1d-stride-pad-dilate', 'Convolution', (2, 2, 9), (3, 2, 3), kernel=(3,),
         stride=(2,), pad=(1,), dilate=(2,), num_filter=3),
    conv('conv2d', 'Convolution', (2, 3, 5, 6), (4, 3, 3, 3), kernel=(3, 3), num_filter=4),
    conv('conv2d-nobias', 'Convolution', (1, 2, 5, 5), (3, 2, 2, 2), no_bias=True,
         kernel=(2, 2), num_filter=3),
    conv('conv2d-stride-pad', 'Convolution', (2, 2, 7, 6), (3, 2, 3, 2), kernel=(3, 2),
         stride=(2, 1), pad=(1, 2), num_filter=3),
    conv('conv2d-dilate', 'Convolution', (1, 2, 7, 7), (2, 2, 3, 3), kernel=(3, 3),
         dilate=(2, 2), num_filter=2),
    conv('conv2d-group', 'Convolution', (2, 4, 5, 5), (6, 2, 3, 3), kernel=(3, 3),
         num_filter=6, num_group=2, pad=(1, 1)),
    conv('conv2d-depthwise', 'Convolution', (1, 3, 5, 5), (3, 1, 3, 3), kernel=(3, 3),
         num_filter=3, num_group=3),
    conv('conv3d', 'Convolution', (1, 2, 4, 5, 5), (3, 2, 2, 3, 3), kernel=(2, 3, 3),
         num_filter=3, stride=(1, 2, 1), pad=(1, 0, 1)),
    conv('conv2d-f64', 'Convolution', (1, 2, 5, 5), (2, 2, 3, 3), dtype=np.float64,
         kernel=(3, 3), num_filter=2),
    conv('conv2d-workspace-cudnn', 'Convolution', (1, 2, 4, 4), (2, 2, 2, 2), kernel=(2, 2),
         num_filter=2, workspace=256, cudnn_off=True, cudnn_tune='off'),
    # one kernel position per axis (mxcompat computes these as one matrix product)
    conv('conv2d-one-window-1x1', 'Convolution', (2, 6, 1, 1), (5, 6, 3, 3), kernel=(3, 3),
         num_filter=5, pad=(1, 1)),
    conv('conv2d-one-window-stride', 'Convolution', (2, 4, 2, 2), (5, 4, 3, 3), kernel=(3, 3),
         num_filter=5, stride=(2, 2), pad=(1, 1), no_bias=True),
    conv('conv2d-one-window-1x1-kernel', 'Convolution', (2, 4, 2, 3), (3, 4, 1, 1),
         kernel=(1, 1), num_filter=3, stride=(2, 3)),
    conv('conv2d-one-window-whole', 'Convolution', (2, 3, 4, 4), (2, 3, 4, 4), kernel=(4, 4),
         num_filter=2),
    conv('conv1d-one-window', 'Convolution', (2, 3, 3), (4, 3, 4), kernel=(4,), num_filter=4,
         stride=(4,), pad=(2,)),
    conv('conv3d-one-window', 'Convolution', (1, 2, 1, 2, 2), (3, 2, 3, 3, 3),
         kernel=(3, 3, 3), num_filter=3, stride=(1, 2, 2), pad=(1, 1, 1)),
    conv('conv2d-one-window-f64', 'Convolution', (2, 3, 1, 1), (2, 3, 3, 3), dtype=np.float64,
         kernel=(3, 3), num_filter=2, pad=(1, 1)),
    case('conv-bad-rank', 'Convolution',
         kwargs={'data': arr('cbr/d', 2, 5, 5), 'weight': arr('cbr/w', 3, 2, 2, 2),
                 'kernel': (2, 2), 'num_filter': 3, 'no_bias': True}, check='error'),
    case('conv-bad-channels', 'Convolution',
         kwargs={'data': arr('cbc/d', 1, 2, 5, 5), 'weight': arr('cbc/w', 3, 3, 2, 2),
                 'kernel': (2, 2), 'num_filter': 3, 'no_bias': True}, check='error'),
    case('conv-bad-group', 'Convolution',
         kwargs={'data': arr('cbg/d', 1, 3, 5, 5), 'weight': arr('cbg/w', 4, 1, 2, 2),
                 'kernel': (2, 2), 'num_filter': 4, 'num_group': 2, 'no_bias': True},
         check='error'),
    case('conv-kernel-too-big', 'Convolution',
         kwargs={'data': arr('cbk/d', 1, 1, 2, 2), 'weight': arr('cbk/w', 1, 1, 3, 3),
                 'kernel': (3, 3), 'num_filter': 1, 'no_bias': True}, check='error'),

    # Convolution_v1
    conv('conv_v1-2d', 'Convolution_v1', (2, 3, 5, 5), (4, 3, 3, 3), kernel=(3, 3),
         num_filter=4, pad=(1, 1), stride=(2, 2)),
    conv('conv_v1-group-nobias', 'Convolution_v1', (1, 4, 5, 5), (2, 2, 2, 2), no_bias=True,
         kernel=(2, 2), num_filter=2, num_group=2),
    conv('conv_v1-dilate', 'Convolution_v1', (1, 2, 6, 6), (2, 2, 2, 2), kernel=(2, 2),
         num_filter=2, dilate=(2, 2)),

    # Deconvolution
    conv('deconv1d', 'Deconvolution', (2, 3, 5), (3, 2, 3), kernel=(3,), num_filter=2),
    conv('deconv1d-stride-adj-bias', 'Deconvolution', (1, 2, 4), (2, 3, 3), no_bias=False,
         kernel=(3,), stride=(2,), pad=(1,), adj=(1,), num_filter=3),
    conv('deconv2d', 'Deconvolution', (2, 3, 4, 4), (3, 2, 3, 3), kernel=(3, 3),
         num_filter=2),
    conv('deconv2d-stride-pad-bias', 'Deconvolution', (1, 2, 3, 4), (2, 3, 4, 3),
         no_bias=False, kernel=(4, 3), stride=(2, 2), pad=(1, 1), num_filter=3),
    conv('deconv2d-adj', 'Deconvolution', (1, 2, 3, 3), (2, 2, 3, 3), kernel=(3, 3),
         stride=(3, 2), adj=(2, 1), num_filter=2),
    conv('deconv2d-dilate', 'Deconvolution', (1, 2, 3, 3), (2, 2, 2, 2), kernel=(2, 2),
         dilate=(2, 2), num_filter=2),
    conv('deconv2d-group', 'Deconvolution', (1, 4, 3, 3), (4, 3, 3, 3), kernel=(3, 3),
         num_group=2, num_filter=6, stride=(2, 2)),
    # MXNet's oneDNN path ignores target_shape; its own kernels (float64) apply it
    conv('deconv2d-target-shape', 'Deconvolution', (1, 2, 3, 3), (2, 2, 4, 4), kernel=(4, 4),
         stride=(2, 2), target_shape=(6, 7), num_filter=2, dtype=np.float64),
    conv('deconv2d-target-shape-odd', 'Deconvolution', (1, 2, 4, 4), (2, 1, 3, 3),
         kernel=(3, 3), stride=(2, 2), target_shape=(8, 7), num_filter=1, dtype=np.float64),
    conv('deconv1d-target-shape', 'Deconvolution', (2, 2, 4), (2, 3, 3), kernel=(3,),
         stride=(2,), target_shape=(7,), num_filter=3, dtype=np.float64, no_bias=False),
    conv('deconv2d-f64', 'Deconvolution', (1, 2, 3, 3), (2, 2, 3, 3), dtype=np.float64,
         kernel=(3, 3), stride=(2, 2), num_filter=2),
    conv('deconv3d', 'Deconvolution', (1, 2, 2, 3, 3), (2, 2, 2, 2, 2), kernel=(2, 2, 2),
         stride=(2, 1, 2), num_filter=2),
    case('deconv-bad-weight', 'Deconvolution',
         kwargs={'data': arr('dbw/d', 1, 2, 3, 3), 'weight': arr('dbw/w', 3, 2, 3, 3),
                 'kernel': (3, 3), 'num_filter': 2}, check='error'),
    case('deconv-bad-adj', 'Deconvolution',
         kwargs={'data': arr('dba/d', 1, 2, 3, 3), 'weight': arr('dba/w', 2, 2, 3, 3),
                 'kernel': (3, 3), 'num_filter': 2, 'stride': (2, 2), 'adj': (2, 2)},
         check='error'),

    # Embedding
    case('embedding', 'Embedding',
         kwargs={'data': np.array([[0, 2, 1], [3, 3, 0]], dtype=np.float32),
                 'weight': arr('emb/w', 4, 5), 'input_dim': 4, 'output_dim': 5},
         grad=['weight']),
    case('embedding-input-dim-0', 'Embedding',
         kwargs={'data': np.array([0.0], dtype=np.float32), 'weight': arr('emb0/w', 1, 5),
                 'input_dim': 0, 'output_dim': 5}, check='error'),
    case('embedding-clip-trunc', 'Embedding',
         kwargs={'data': np.array([-1.0, 0.7, 2.5, 9.0, 3.9], dtype=np.float32),
                 'weight': arr('embc/w', 4, 3), 'input_dim': 4, 'output_dim': 3},
         grad=['weight']),
    case('embedding-f64', 'Embedding',
         kwargs={'data': np.array([[1, 0], [1, 1]], dtype=np.float64),
                 'weight': arr('emb64/w', 3, 2, dtype=np.float64), 'input_dim': 3,
                 'output_dim': 2, 'dtype': 'float64'}, grad=['weight']),
    case('embedding-f16', 'Embedding',
         kwargs={'data': np.array([2, 0, 2], dtype=np.float16),
                 'weight': arr('emb16/w', 3, 4, dtype=np.float16), 'input_dim': 3,
                 'output_dim': 4, 'dtype': 'float16'}, grad=['weight']),
    case('embedding-bad-weight', 'Embedding',
         kwargs={'data': np.array([1, 0], dtype=np.float32), 'weight': arr('embb/w', 3, 4),
                 'input_dim': 4, 'output_dim': 4}, check='error'),
]
