"""Cases for mxcompat/ops/nn_norm.py: BatchNorm(_v1), LayerNorm, InstanceNorm, GroupNorm,
L2Normalization, LRN. (BatchNorm's moving-statistics updates are checked by
tests/test_batchnorm_moving.py.)"""
import numpy as np

from . import case, rng


def arr(cid, *shape, lo=-1, hi=1, dtype=np.float32):
    return rng(cid).uniform(lo, hi, size=shape).astype(dtype)


def bn(cid, shape, axis=1, dtype=np.float32, pdtype=None, train=True, grad_outputs=(0,),
       func='BatchNorm', tol=None, grad=('data', 'gamma', 'beta'), **params):
    c = shape[axis]
    pdtype = pdtype or dtype
    kwargs = {'data': arr(cid + '/d', *shape, lo=-2, hi=3, dtype=dtype),
              'gamma': arr(cid + '/g', c, lo=0.5, hi=1.5, dtype=pdtype),
              'beta': arr(cid + '/b', c, dtype=pdtype),
              'moving_mean': arr(cid + '/mm', c, dtype=pdtype),
              'moving_var': arr(cid + '/mv', c, lo=0.5, hi=2, dtype=pdtype)}
    if axis != 1:
        params['axis'] = axis
    kwargs.update(params)
    tol = tol or ({'rtol': 2e-2, 'atol': 2e-2} if dtype == np.float16 else
                  {'rtol': 1e-4, 'atol': 1e-5})
    return case(cid, func, kwargs=kwargs, grad=list(grad), train=train,
                grad_outputs=list(grad_outputs) if grad_outputs is not None else None, **tol)


def norm3(cid, func, shape, pshape, dtype=np.float32, grad_outputs=None, **params):
    kwargs = {'data': arr(cid + '/d', *shape, lo=-2, hi=2, dtype=dtype),
              'gamma': arr(cid + '/g', *pshape, lo=0.5, hi=1.5, dtype=dtype),
              'beta': arr(cid + '/b', *pshape, dtype=dtype)}
    kwargs.update(params)
    tol = {'rtol': 2e-2, 'atol': 2e-2} if dtype == np.float16 else {'rtol': 1e-4, 'atol': 1e-5}
    return case(cid, func, kwargs=kwargs, grad=['data', 'gamma', 'beta'], **tol,
                grad_outputs=grad_outputs)


def unary(cid, func, shape, dtype=np.float32, **params):
    tol = {'rtol': 2e-2, 'atol': 2e-2} if dtype == np.float16 else {'rtol': 1e-4, 'atol': 1e-5}
    return case(cid, func, kwargs=dict(params, data=arr(cid, *shape, lo=-2, hi=2, dtype=dtype)),
                grad=['data'], **tol)


CASES = [
    # BatchNorm, training mode: batch statistics (biased variance)
    bn('bn-train', (2, 3, 4, 4), fix_gamma=False),
    bn('bn-train-fix-gamma', (2, 3, 4, 4)),
    bn('bn-train-mean-var', (2, 3, 3, 3), fix_gamma=False, output_mean_var=True),
    bn('bn-train-2d', (5, 3), fix_gamma=False),
    bn('bn-train-3d', (2, 3, 5), fix_gamma=False, output_mean_var=True),
    bn('bn-train-5d', (2, 3, 2, 2, 3), fix_gamma=False),
    bn('bn-train-axis-last', (2, 4, 3), axis=-1, fix_gamma=False, output_mean_var=True),
    bn('bn-train-axis2', (2, 3, 4, 2), axis=2, fix_gamma=False),
    bn('bn-train-eps', (4, 2, 3), fix_gamma=False, eps=0.1, momentum=0.5),
    bn('bn-train-f64', (2, 3, 4), dtype=np.float64, fix_gamma=False, output_mean_var=True),
    bn('bn-train-f16', (2, 3, 4), dtype=np.float16, pdtype=np.float32, fix_gamma=False),
    bn('bn-train-global-stats', (2, 3, 4, 4), fix_gamma=False, use_global_stats=True,
       output_mean_var=True),
    bn('bn-train-cudnn-off', (2, 2, 3, 3), fix_gamma=False, cudnn_off=True),
    # predict mode: moving statistics. (MXNet's backward runs in training mode by default and
    # then applies the training formula to data's gradient, which it documents as undefined
    # after a predict-mode forward: only gamma's and beta's gradients are compared.)
    bn('bn-predict', (2, 3, 4, 4), train=False, fix_gamma=False, grad=('gamma', 'beta')),
    bn('bn-predict-fix-gamma-mean-var', (2, 3, 4), train=False, output_mean_var=True,
       grad=('gamma', 'beta')),
    bn('bn-predict-axis-last', (3, 2, 4), axis=-1, train=False, fix_gamma=False,
       grad=('gamma', 'beta')),
    bn('bn-predict-f64', (2, 3), dtype=np.float64, train=False, fix_gamma=False,
       grad=('gamma', 'beta')),
    bn('bn-predict-fwd-f16', (2, 3, 4), dtype=np.float16, pdtype=np.float32, train=False,
       fix_gamma=False, grad=()),
    case('bn-bad-axis', 'BatchNorm',
         kwargs={'data': arr('bnba/d', 2, 3, 4), 'gamma': arr('bnba/g', 3),
                 'beta': arr('bnba/b', 3), 'moving_mean': arr('bnba/m', 3),
                 'moving_var': arr('bnba/v', 3, lo=0.5), 'axis': 3}, check='error'),
    # BatchNorm_v1 cannot be called imperatively in MXNet 1.9.1 (its moving statistics are
    # not arguments of mx.nd.BatchNorm_v1)
    case('bn_v1-three-inputs', 'BatchNorm_v1',
         kwargs={'data': arr('bnv1/d', 2, 3, 4, 4), 'gamma': arr('bnv1/g', 3),
                 'beta': arr('bnv1/b', 3)}, check='error'),

    # contrib.SyncBatchNorm on one device: BatchNorm whose var output is the variance
    bn('syncbn-train', (2, 3, 4, 4), func='contrib.SyncBatchNorm', key='bn0', fix_gamma=False,
       output_mean_var=True),
    bn('syncbn-train-fix-gamma-3d', (4, 2, 3), func='contrib.SyncBatchNorm', key='bn1'),
    bn('syncbn-predict', (2, 3, 4), func='contrib.SyncBatchNorm', key='bn2', train=False,
       fix_gamma=False, grad=()),

    # LayerNorm
    norm3('ln', 'LayerNorm', (2, 3, 5), (5,)),
    norm3('ln-axis1', 'LayerNorm', (2, 4, 3), (4,), axis=1),
    norm3('ln-axis0-2d', 'LayerNorm', (3, 2), (3,), axis=0),
    norm3('ln-mean-std', 'LayerNorm', (3, 4), (4,), output_mean_var=True, eps=1e-3,
          grad_outputs=[0]),
    norm3('ln-mean-std-axis1', 'LayerNorm', (2, 3, 2), (3,), axis=1, output_mean_var=True,
          grad_outputs=[0]),
    norm3('ln-f64', 'LayerNorm', (2, 6), (6,), dtype=np.float64),
    norm3('ln-f16', 'LayerNorm', (2, 6), (6,), dtype=np.float16),
    case('ln-bad-gamma', 'LayerNorm',
         kwargs={'data': arr('lnb/d', 2, 3), 'gamma': arr('lnb/g', 2),
                 'beta': arr('lnb/b', 3)}, check='error'),

    # InstanceNorm
    norm3('instnorm', 'InstanceNorm', (2, 3, 5), (3,)),
    norm3('instnorm-4d', 'InstanceNorm', (2, 2, 3, 3), (2,), eps=1e-5),
    norm3('instnorm-one-position', 'InstanceNorm', (2, 3, 1), (3,)),
    case('instnorm-bad-rank', 'InstanceNorm',
         kwargs={'data': arr('inb/d', 2, 3), 'gamma': arr('inb/g', 3),
                 'beta': arr('inb/b', 3)}, check='error'),

    # GroupNorm: gamma and beta have one value per group
    norm3('groupnorm', 'GroupNorm', (2, 4, 3), (2,), num_groups=2),
    norm3('groupnorm-4d-mean-std', 'GroupNorm', (2, 6, 2, 2), (3,), num_groups=3,
          output_mean_var=True, grad_outputs=[0]),
    norm3('groupnorm-one-group', 'GroupNorm', (2, 3, 4), (1,), eps=1e-3),
    norm3('groupnorm-f64', 'GroupNorm', (1, 4, 3), (4,), dtype=np.float64, num_groups=4),
    case('groupnorm-bad-groups', 'GroupNorm',
         kwargs={'data': arr('gnb/d', 2, 3, 4), 'gamma': arr('gnb/g', 2),
                 'beta': arr('gnb/b', 2), 'num_groups': 2}, check='error'),

    # L2Normalization
    unary('l2norm-instance', 'L2Normalization', (2, 3, 4)),
    unary('l2norm-instance-2d', 'L2Normalization', (3, 4), eps=1e-3),
    unary('l2norm-channel', 'L2Normalization', (2, 3, 2, 2), mode='channel'),
    unary('l2norm-spatial', 'L2Normalization', (2, 3, 2, 3), mode='spatial'),
    unary('l2norm-f64', 'L2Normalization', (2, 3, 4), dtype=np.float64, mode='channel'),
    case('l2norm-channel-2d', 'L2Normalization', kwargs={'data': arr('l2b', 2, 3),
                                                         'mode': 'channel'}, check='error'),

    # LRN
    unary('lrn', 'LRN', (2, 5, 3, 3), nsize=3),
    unary('lrn-params', 'LRN', (1, 6, 2, 2), nsize=5, alpha=0.01, beta=0.5, knorm=1.0),
    case('lrn-bad-rank', 'LRN', kwargs={'data': arr('lrnb', 2, 5, 3), 'nsize': 3},
         check='error'),
]
