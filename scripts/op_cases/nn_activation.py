"""Cases for mxcompat/ops/nn_activation.py: Activation, LeakyReLU, softmax, log_softmax,
softmin, SoftmaxActivation, Dropout."""
import numpy as np

from . import case, rng


def arr(cid, *shape, lo=-3, hi=3, dtype=np.float32):
    return rng(cid).uniform(lo, hi, size=shape).astype(dtype)


def tol(dtype):
    if dtype == np.float16:
        return {'rtol': 1e-2, 'atol': 1e-2}
    if dtype == np.float64:
        return {'rtol': 1e-5, 'atol': 1e-7}
    return {'rtol': 1e-4, 'atol': 1e-6}


def act(cid, func, shape=(2, 3, 4), dtype=np.float32, lo=-3, hi=3, grad=True, train=False,
        op_dtype=None, **params):
    data = arr(cid, *shape, lo=lo, hi=hi, dtype=dtype)
    if op_dtype:
        params['dtype'] = op_dtype
    return case(cid, func, kwargs=dict(params, data=data), grad=['data'] if grad else (),
                train=train, **tol(dtype))


def ones(*shape):
    return np.ones(shape, dtype=np.float32)


MOMENTS = {'check': 'moments', 'rtol': 0.05, 'atol': 0.02}

CASES = [
    # Activation
    act('act-relu', 'Activation', act_type='relu'),
    act('act-sigmoid', 'Activation', act_type='sigmoid'),
    act('act-tanh', 'Activation', act_type='tanh'),
    act('act-softrelu', 'Activation', act_type='softrelu'),
    act('act-softrelu-large', 'Activation', lo=15, hi=30, act_type='softrelu'),
    act('act-softsign', 'Activation', act_type='softsign'),
    # MXNet's gradient, g / (1 + |x|)^2, to the last bit and 0 at an infinite x
    case('act-softsign-inf-grad', 'Activation',
         kwargs={'data': np.array([np.inf, -np.inf, 7.8, -9.3, 0.0, 2.5], np.float32),
                 'act_type': 'softsign'}, grad=['data'], rtol=1e-8, atol=0),
    act('act-relu-f64', 'Activation', dtype=np.float64, act_type='relu'),
    act('act-tanh-f64', 'Activation', dtype=np.float64, act_type='tanh'),
    act('act-sigmoid-f16', 'Activation', dtype=np.float16, act_type='sigmoid'),
    act('act-softrelu-f16', 'Activation', dtype=np.float16, act_type='softrelu'),
    case('act-missing-type', 'Activation', kwargs={'data': arr('amt', 2)}, check='error'),

    # LeakyReLU
    act('leaky', 'LeakyReLU'),
    act('leaky-slope', 'LeakyReLU', act_type='leaky', slope=0.1),
    act('leaky-negative-slope', 'LeakyReLU', act_type='leaky', slope=-0.5),
    act('leaky-f64', 'LeakyReLU', dtype=np.float64, slope=0.3),
    act('elu', 'LeakyReLU', act_type='elu'),
    act('elu-slope', 'LeakyReLU', act_type='elu', slope=1.5),
    act('selu', 'LeakyReLU', act_type='selu'),
    act('selu-f64', 'LeakyReLU', dtype=np.float64, act_type='selu'),
    act('gelu', 'LeakyReLU', act_type='gelu'),
    act('gelu-f64', 'LeakyReLU', dtype=np.float64, act_type='gelu'),
    case('prelu', 'LeakyReLU', kwargs={'data': arr('prelu/d', 2, 3, 4),
                                       'gamma': arr('prelu/g', 3, lo=0, hi=0.5),
                                       'act_type': 'prelu'}, grad=['data', 'gamma'],
         rtol=1e-4, atol=1e-6),
    case('prelu-scalar-gamma', 'LeakyReLU', kwargs={'data': arr('prelu1/d', 2, 3, 2, 2),
                                                    'gamma': np.array([0.2], np.float32),
                                                    'act_type': 'prelu'},
         grad=['data', 'gamma'], rtol=1e-4, atol=1e-6),
    case('prelu-2d', 'LeakyReLU', kwargs={'data': arr('prelu2/d', 4, 3),
                                          'gamma': arr('prelu2/g', 3, lo=0, hi=0.5),
                                          'act_type': 'prelu'}, grad=['data', 'gamma'],
         rtol=1e-4, atol=1e-6),
    case('prelu-f64', 'LeakyReLU', kwargs={'data': arr('prelu64/d', 2, 2, 3, dtype=np.float64),
                                           'gamma': arr('prelu64/g', 2, lo=0, hi=0.5,
                                                        dtype=np.float64),
                                           'act_type': 'prelu'}, grad=['data', 'gamma'],
         rtol=1e-5, atol=1e-7),
    case('prelu-bad-gamma', 'LeakyReLU', kwargs={'data': arr('prelub/d', 2, 3, 4),
                                                 'gamma': arr('prelub/g', 4),
                                                 'act_type': 'prelu'}, check='error'),
    # rrelu in predict mode (slope (lower+upper)/2) returns (output, mask); MXNet leaves the
    # mask unwritten (uninitialized memory), so only shapes and dtypes can be compared. (Its
    # training mode crashes MXNet 1.9.1 on CPU.)
    case('rrelu-predict', 'LeakyReLU', kwargs={'data': arr('rrelu', 2, 3, 4),
                                               'act_type': 'rrelu'}, check='shape'),
    case('rrelu-predict-bounds', 'LeakyReLU', kwargs={'data': arr('rrelub', 3, 4),
                                                      'act_type': 'rrelu', 'lower_bound': 0.2,
                                                      'upper_bound': 0.6}, check='shape'),

    # softmax family
    act('softmax', 'softmax'),
    act('softmax-axis0', 'softmax', axis=0),
    act('softmax-axis1', 'softmax', axis=1),
    act('softmax-temperature', 'softmax', temperature=2.5),
    act('softmax-f64', 'softmax', dtype=np.float64, axis=-2),
    act('softmax-f16', 'softmax', dtype=np.float16),
    act('softmax-f16-to-f32', 'softmax', dtype=np.float16, op_dtype='float32'),
    act('softmax-f32-to-f64', 'softmax', op_dtype='float64'),
    act('softmax-large', 'softmax', lo=500, hi=1000),
    case('softmax-length', 'softmax',
         kwargs={'data': arr('sml/d', 3, 5), 'length': np.array([2, 5, 1], np.int32),
                 'use_length': True}, grad=['data'], rtol=1e-4, atol=1e-6),
    case('softmax-length-axis0', 'softmax',
         kwargs={'data': arr('sml0/d', 4, 2, 3), 'length': np.array([[1, 4, 2], [3, 3, 4]],
                                                                    np.int64),
                 'use_length': True, 'axis': 0, 'temperature': 0.5}, grad=['data'],
         rtol=1e-4, atol=1e-6),
    # a length of 0 gives zeros, with zero gradient (not NaN)
    case('softmax-length-zero', 'softmax',
         kwargs={'data': arr('smlz/d', 2, 4, 3), 'length': np.array([[0, 1, 4], [2, 0, 3]],
                                                                    np.int32),
                 'use_length': True, 'axis': 1}, grad=['data'], rtol=1e-4, atol=1e-6),
    case('softmax-length-zero-f16', 'softmax',
         kwargs={'data': arr('smlz16/d', 3, 4, dtype=np.float16),
                 'length': np.array([0, 4, 2], np.int32), 'use_length': True, 'dtype': 'float32',
                 'temperature': 2.0}, grad=['data'], rtol=1e-2, atol=1e-2),
    case('softmax-length-float', 'softmax',
         kwargs={'data': arr('smlf/d', 2, 3), 'length': np.array([1, 2], np.float32),
                 'use_length': True}, check='error'),
    case('softmax-int', 'softmax', kwargs={'data': np.array([[1, 2]], np.int32)},
         check='error'),
    act('log_softmax', 'log_softmax'),
    act('log_softmax-axis0-temperature', 'log_softmax', axis=0, temperature=0.7),
    act('log_softmax-f64', 'log_softmax', dtype=np.float64),
    act('log_softmax-f16-to-f32', 'log_softmax', dtype=np.float16, op_dtype='float32'),
    act('softmin', 'softmin'),
    act('softmin-axis1-temperature', 'softmin', axis=1, temperature=3.0),
    act('softmin-f64', 'softmin', dtype=np.float64),
    case('ndarray-softmax', 'NDArray.softmax', [arr('nds', 2, 3)], {'axis': 0},
         grad=[0], rtol=1e-4, atol=1e-6),
    case('ndarray-log_softmax', 'NDArray.log_softmax', [arr('ndls', 2, 3)],
         {'temperature': 2.0}, grad=[0], rtol=1e-4, atol=1e-6),
    case('ndarray-softmin', 'NDArray.softmin', [arr('ndsm', 3, 2)], grad=[0], rtol=1e-4,
         atol=1e-6),
    act('softmax-activation', 'SoftmaxActivation'),
    act('softmax-activation-2d', 'SoftmaxActivation', shape=(3, 5)),
    act('softmax-activation-channel', 'SoftmaxActivation', shape=(2, 3, 2, 2), mode='channel'),
    case('softmax-activation-channel-2d', 'SoftmaxActivation',
         kwargs={'data': arr('sac2', 2, 3), 'mode': 'channel'}, check='error'),

    # Dropout: identity in predict mode; the training distribution is compared by moments
    act('dropout-predict', 'Dropout', p=0.5),
    act('dropout-predict-axes', 'Dropout', p=0.3, axes=(1,)),
    act('dropout-train-p0', 'Dropout', train=True, p=0.0),
    act('dropout-train-p1', 'Dropout', train=True, p=1.0),
    act('dropout-train-p1-axes', 'Dropout', train=True, p=1.0, axes=(0,)),
    case('dropout-train', 'Dropout', kwargs={'data': ones(100, 200), 'p': 0.5}, train=True,
         **MOMENTS),
    case('dropout-train-p02', 'Dropout', kwargs={'data': ones(200, 100), 'p': 0.2},
         train=True, **MOMENTS),
    case('dropout-train-axes', 'Dropout', kwargs={'data': ones(200, 4, 50), 'p': 0.4,
                                                  'axes': (1,)}, train=True, **MOMENTS),
    case('dropout-always-predict', 'Dropout', kwargs={'data': ones(100, 200), 'p': 0.5,
                                                      'mode': 'always'}, **MOMENTS),
    case('dropout-train-f64', 'Dropout', kwargs={'data': np.ones((100, 100)), 'p': 0.6,
                                                 'cudnn_off': True}, train=True, **MOMENTS),
]
