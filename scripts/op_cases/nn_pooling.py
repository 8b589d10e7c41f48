"""Cases for mxcompat/ops/nn_pooling.py: Pooling, Pooling_v1, UpSampling."""
import numpy as np

from . import case, rng


def arr(cid, *shape, dtype=np.float32):
    # distinct values, so that max pooling has a unique maximum in every window
    r = rng(cid)
    n = int(np.prod(shape))
    return (r.permutation(n).reshape(shape) / n * 2 - 1 + r.uniform(-1e-3, 1e-3, size=shape)) \
        .astype(dtype)


def relu_arr(cid, *shape):
    """Distinct values with the negative ones set to 0, as after a relu: windows of zeros."""
    a = arr(cid, *shape)
    return np.where(a > 0, a, 0).astype(np.float32)


def pool(cid, shape, dtype=np.float32, func='Pooling', grad=True, relu=False, **params):
    tol = {'rtol': 1e-2, 'atol': 1e-2} if dtype == np.float16 else {'rtol': 1e-5, 'atol': 1e-6}
    kwargs = dict(params, data=relu_arr(cid, *shape) if relu else arr(cid, *shape, dtype=dtype))
    # train mode: MXNet's oneDNN max pooling keeps its argmax workspace only when training
    return case(cid, func, kwargs=kwargs, grad=['data'] if grad else (), train=True, **tol)


def up(cid, shapes, dtype=np.float32, **params):
    args = [arr('%s/%d' % (cid, i), *s, dtype=dtype) for i, s in enumerate(shapes)]
    return case(cid, 'UpSampling', args, params, grad=list(range(len(args))), rtol=1e-4,
                atol=1e-5)


CASES = [
    # max / avg / sum, 1-D to 3-D, valid convention
    pool('max-2d', (2, 2, 5, 6), kernel=(2, 2), pool_type='max'),
    pool('max-2d-stride-pad', (1, 2, 7, 6), kernel=(3, 3), stride=(2, 2), pad=(1, 1)),
    pool('avg-2d', (2, 2, 6, 6), kernel=(3, 3), stride=(2, 2), pool_type='avg'),
    pool('avg-2d-pad', (1, 2, 5, 5), kernel=(3, 3), stride=(2, 2), pad=(1, 1),
         pool_type='avg'),
    pool('avg-2d-pad-exclude', (1, 2, 5, 5), kernel=(3, 3), stride=(2, 2), pad=(1, 1),
         pool_type='avg', count_include_pad=False),
    pool('sum-2d', (1, 3, 4, 5), kernel=(2, 3), stride=(1, 2), pool_type='sum'),
    pool('max-1d', (2, 3, 9), kernel=(3,), stride=(2,)),
    pool('avg-1d-pad', (2, 2, 7), kernel=(3,), stride=(2,), pad=(1,), pool_type='avg'),
    pool('sum-1d', (1, 2, 6), kernel=(2,), pool_type='sum'),
    pool('max-3d', (1, 2, 4, 5, 5), kernel=(2, 2, 3), stride=(2, 1, 2)),
    pool('avg-3d-pad', (1, 1, 4, 4, 5), kernel=(2, 3, 3), pad=(1, 1, 1), stride=(2, 2, 2),
         pool_type='avg'),
    # 'full' convention: ceil, including windows torch's ceil_mode would drop
    pool('max-2d-full', (1, 2, 6, 7), kernel=(3, 3), stride=(2, 2),
         pooling_convention='full'),
    pool('avg-2d-full-fwd', (1, 2, 6, 7), kernel=(3, 3), stride=(2, 2), pool_type='avg',
         pooling_convention='full', grad=False),
    # MXNet's float32 (oneDNN) backward divides clipped 'full' windows by the whole kernel,
    # unlike its forward; its own kernels (float64) are consistent
    pool('avg-2d-full', (1, 2, 6, 7), dtype=np.float64, kernel=(3, 3), stride=(2, 2),
         pool_type='avg', pooling_convention='full'),
    pool('avg-2d-full-pad', (1, 1, 5, 6), kernel=(3, 2), stride=(2, 2), pad=(1, 1),
         pool_type='avg', pooling_convention='full'),
    pool('avg-2d-full-pad-exclude', (1, 1, 5, 6), kernel=(3, 2), stride=(2, 2), pad=(1, 1),
         pool_type='avg', pooling_convention='full', count_include_pad=False),
    pool('sum-2d-full', (1, 2, 5, 5), kernel=(2, 2), stride=(2, 2), pool_type='sum',
         pooling_convention='full'),
    pool('max-1d-full-stride-gt-kernel', (1, 2, 7), kernel=(2,), stride=(3,), pad=(1,),
         pooling_convention='full'),
    pool('avg-1d-full-stride-gt-kernel', (1, 2, 7), kernel=(2,), stride=(3,), pad=(1,),
         pool_type='avg', pooling_convention='full'),
    pool('max-3d-full', (1, 1, 5, 4, 5), kernel=(2, 2, 2), stride=(2, 2, 2),
         pooling_convention='full'),
    # MXNet 1.9.1 checks pad[0..2] for 'same': it works only with a 3-element zero pad
    # (float64 runs MXNet's own kernels; its oneDNN path rejects these windows)
    pool('max-1d-same', (2, 2, 7), dtype=np.float64, kernel=(3,), stride=(2,), pad=(0, 0, 0),
         pooling_convention='same'),
    pool('avg-1d-same', (1, 2, 8), dtype=np.float64, kernel=(3,), stride=(3,), pad=(0, 0, 0),
         pooling_convention='same', pool_type='avg'),
    pool('max-1d-same-int-kernel', (1, 1, 10), kernel=2, stride=2, pad=(0, 0, 0),
         pooling_convention='same'),
    case('pool-same-pad', 'Pooling', kwargs={'data': arr('psp', 1, 1, 10), 'kernel': 2,
                                             'stride': 2, 'pad': 2,
                                             'pooling_convention': 'same'}, check='error'),
    # large padding (more than half the kernel)
    pool('max-2d-big-pad', (1, 1, 4, 4), kernel=(2, 2), pad=(1, 1)),
    pool('avg-2d-big-pad', (1, 1, 4, 4), kernel=(2, 2), pad=(1, 1), stride=(2, 2),
         pool_type='avg'),
    # lp pooling
    pool('lp1-2d', (1, 2, 4, 4), kernel=(2, 2), pool_type='lp', p_value=1),
    pool('lp2-2d', (1, 2, 5, 5), kernel=(3, 3), stride=(2, 2), pool_type='lp', p_value=2),
    pool('lp3-1d', (1, 2, 6), kernel=(2,), stride=(2,), pool_type='lp', p_value=3),
    pool('lp2-2d-pad-full', (1, 1, 5, 5), kernel=(2, 2), stride=(2, 2), pad=(1, 1),
         pool_type='lp', p_value=2, pooling_convention='full'),
    # global pooling ignores kernel, stride and pad
    pool('global-max', (2, 3, 4, 5), kernel=(2, 2), global_pool=True),
    pool('global-avg', (2, 3, 4, 5), kernel=(3, 3), pad=(1, 1), global_pool=True,
         pool_type='avg'),
    pool('global-sum-1d', (2, 3, 6), global_pool=True, pool_type='sum'),
    pool('global-avg-3d', (1, 2, 2, 3, 3), global_pool=True, pool_type='avg'),
    pool('global-lp2', (1, 2, 3, 3), global_pool=True, pool_type='lp', p_value=2),
    # windows of zeros (after a relu): MXNet's gradient there is 0, not the root's NaN
    pool('lp2-2d-zero-windows', (1, 2, 4, 6), relu=True, kernel=(2, 2), stride=(2, 2),
         pool_type='lp', p_value=2),
    pool('lp3-2d-zero-windows-pad-full', (1, 1, 4, 5), relu=True, kernel=(1, 2),
         stride=(1, 2), pad=(0, 1), pool_type='lp', p_value=3, pooling_convention='full'),
    pool('global-lp3-zero-channel', (2, 2, 1, 2), relu=True, global_pool=True,
         pool_type='lp', p_value=3),
    # channel-last layouts
    pool('max-2d-nhwc', (2, 5, 6, 3), kernel=(2, 2), stride=(2, 2), layout='NHWC'),
    pool('avg-1d-nwc', (2, 6, 3), kernel=(3,), pad=(1,), pool_type='avg', layout='NWC'),
    pool('avg-3d-ndhwc', (1, 3, 4, 4, 2), kernel=(2, 2, 2), pool_type='avg', layout='NDHWC'),
    pool('global-avg-nhwc', (2, 3, 4, 5), global_pool=True, pool_type='avg', layout='NHWC'),
    # dtypes and inert options
    pool('max-2d-f64', (1, 2, 4, 4), dtype=np.float64, kernel=(2, 2)),
    pool('avg-2d-f64-full', (1, 2, 5, 5), dtype=np.float64, kernel=(2, 2), stride=(2, 2),
         pool_type='avg', pooling_convention='full'),
    pool('max-2d-f16', (1, 2, 4, 4), dtype=np.float16, kernel=(2, 2)),
    pool('avg-2d-f16', (1, 2, 4, 4), dtype=np.float16, kernel=(2, 2), pool_type='avg'),
    pool('avg-3d-f16', (1, 2, 4, 4, 4), dtype=np.float16, kernel=(2, 2, 2), pad=(1, 1, 1),
         pool_type='avg'),
    pool('sum-3d-f16', (1, 1, 3, 4, 4), dtype=np.float16, kernel=(2, 2, 2), pool_type='sum'),
    pool('lp3-2d-f16', (2, 2, 8, 8), dtype=np.float16, kernel=(4, 5), stride=(2, 1),
         pool_type='lp', p_value=3),
    pool('lp2-1d-f16', (3, 3, 10), dtype=np.float16, kernel=(4,), pad=(2,), stride=(2,),
         pool_type='lp', p_value=2),
    pool('max-cudnn-off', (1, 1, 4, 4), kernel=(2, 2), cudnn_off=True),
    # errors
    case('pool-bad-rank', 'Pooling', kwargs={'data': arr('pbr', 2, 4, 4), 'kernel': (2, 2)},
         check='error'),
    case('pool-kernel-too-big', 'Pooling', kwargs={'data': arr('pbk', 1, 1, 2, 2),
                                                   'kernel': (3, 3)}, check='error'),
    case('pool-lp-no-p', 'Pooling', kwargs={'data': arr('plp', 1, 1, 4, 4), 'kernel': (2, 2),
                                            'pool_type': 'lp'}, check='error'),
    case('pool-bad-2d-data', 'Pooling', kwargs={'data': arr('pb2', 4, 4), 'kernel': (2,)},
         check='error'),

    # Pooling_v1: zero padding is seen by max, avg divides by the kernel area
    pool('v1-max', (1, 2, 5, 5), func='Pooling_v1', kernel=(2, 2), stride=(2, 2)),
    pool('v1-max-pad', (1, 2, 4, 4), func='Pooling_v1', kernel=(3, 3), pad=(1, 1)),
    pool('v1-avg-pad', (1, 2, 4, 4), func='Pooling_v1', kernel=(3, 3), pad=(1, 1),
         pool_type='avg'),
    pool('v1-sum', (1, 2, 4, 5), func='Pooling_v1', kernel=(2, 2), pool_type='sum'),
    pool('v1-max-full', (1, 1, 5, 6), func='Pooling_v1', kernel=(2, 2), stride=(2, 2),
         pooling_convention='full'),
    pool('v1-avg-full-pad', (1, 1, 5, 5), func='Pooling_v1', kernel=(2, 2), stride=(2, 2),
         pad=(1, 1), pool_type='avg', pooling_convention='full'),
    pool('v1-global-avg', (2, 2, 3, 4), func='Pooling_v1', global_pool=True, pool_type='avg'),
    pool('v1-global-max', (2, 2, 3, 4), func='Pooling_v1', kernel=(1, 1), global_pool=True),
    case('v1-bad-rank', 'Pooling_v1', kwargs={'data': arr('v1br', 2, 4, 4), 'kernel': (2, 2)},
         check='error'),

    # UpSampling
    up('up-nearest', [(1, 2, 2, 3)], scale=2, sample_type='nearest', num_args=1),
    up('up-nearest-3', [(2, 1, 2, 2)], scale=3, sample_type='nearest', num_args=1),
    up('up-nearest-concat', [(1, 2, 2, 2), (1, 3, 1, 1), (1, 1, 4, 4)], scale=2,
       sample_type='nearest', num_args=3),
    up('up-nearest-sum', [(1, 2, 2, 2), (1, 2, 1, 1)], scale=2, sample_type='nearest',
       num_args=2, multi_input_mode='sum'),
    up('up-nearest-f64', [(1, 1, 2, 2)], dtype=np.float64, scale=2, sample_type='nearest',
       num_args=1),
    up('up-bilinear', [(1, 2, 3, 3), (2, 1, 4, 4)], scale=2, sample_type='bilinear',
       num_args=2, num_filter=2),
    up('up-bilinear-3', [(1, 2, 2, 2), (2, 1, 5, 5)], scale=3, sample_type='bilinear',
       num_args=2, num_filter=2),
    case('up-nearest-bad-size', 'UpSampling', [arr('ubs/0', 1, 1, 2, 2),
                                              arr('ubs/1', 1, 1, 3, 3)],
         {'scale': 2, 'sample_type': 'nearest', 'num_args': 2}, check='error'),
    case('up-bad-rank', 'UpSampling', [arr('ubr', 2, 2, 2)],
         {'scale': 2, 'sample_type': 'nearest', 'num_args': 1}, check='error'),
]
