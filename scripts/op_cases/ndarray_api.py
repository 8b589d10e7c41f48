"""Cases for NDArray's own members and mx.nd's Python-level functions (ndarray/ndarray.py)."""
import numpy as np

from . import Raw, case, rng


def f32(cid, *shape, lo=-1, hi=1):
    return rng(cid).uniform(lo, hi, size=shape).astype(np.float32)


X = f32('x', 2, 3)
POS = f32('pos', 2, 3, lo=0.1, hi=2)
UNIT = f32('unit', 2, 3, lo=-0.9, hi=0.9)
BIG = f32('big', 2, 3, lo=1.1, hi=3)

# fluent element-wise methods, each with its gradient
_UNARY = {'abs': X, 'arccos': UNIT, 'arccosh': BIG, 'arcsin': UNIT, 'arcsinh': X,
          'arctan': X, 'arctanh': UNIT, 'cbrt': POS, 'ceil': X, 'cos': X, 'cosh': X,
          'degrees': X, 'exp': X, 'expm1': X, 'fix': X * 3, 'floor': X * 3, 'log': POS,
          'log10': POS, 'log1p': POS, 'log2': POS, 'radians': X, 'rcbrt': POS,
          'reciprocal': POS, 'relu': X, 'rint': X * 3, 'round': X * 3, 'rsqrt': POS,
          'sigmoid': X, 'sign': X, 'sin': X, 'sinh': X, 'sqrt': POS, 'square': X, 'tan': UNIT,
          'tanh': X, 'trunc': X * 3, 'ones_like': X, 'zeros_like': X}

CASES = [case('method-%s' % name, 'NDArray.%s' % name, [data], grad=[0])
         for name, data in sorted(_UNARY.items())]

CASES += [
    # properties
    case('T', 'NDArray.T', [X], grad=[0]),
    case('shape', 'NDArray.shape', [X]),
    case('size', 'NDArray.size', [X]),
    case('ndim', 'NDArray.ndim', [X]),
    case('dtype', 'NDArray.dtype', [X.astype(np.float16)]),
    case('dtype-int', 'NDArray.dtype', [np.arange(3, dtype=np.int64)]),
    case('context', 'NDArray.context', [X]),
    case('ctx', 'NDArray.ctx', [X]),
    case('stype', 'NDArray.stype', [X]),
    case('writable', 'NDArray.writable', [X]),
    case('grad-none', 'NDArray.grad', [X]),
    # conversion and copies
    case('asnumpy', 'NDArray.asnumpy', [X]),
    case('asscalar', 'NDArray.asscalar', [np.array([2.5], np.float32)]),
    case('asscalar-not-scalar', 'NDArray.asscalar', [X], check='error'),
    case('astype', 'NDArray.astype', [X * 10, 'int32']),
    case('astype-nocopy', 'NDArray.astype', [X, 'float32'], {'copy': False}),
    case('astype-f16-grad', 'NDArray.astype', [X, 'float64'], grad=[0]),
    case('copy', 'NDArray.copy', [X], grad=[0]),
    case('copyto-ctx', 'NDArray.copyto', [X, 'ctx:cpu(0)']),
    case('copyto-array', 'NDArray.copyto', [X, np.zeros((2, 3), np.float32)]),
    case('copyto-shape-mismatch', 'NDArray.copyto', [X, np.zeros((3, 2), np.float32)],
         check='error'),
    case('as_in_context', 'NDArray.as_in_context', [X, 'ctx:cpu(0)']),
    case('as_nd_ndarray', 'NDArray.as_nd_ndarray', [X]),
    case('detach', 'NDArray.detach', [X]),
    case('tostype-default', 'NDArray.tostype', [X, 'default']),
    case('wait_to_read', 'NDArray.wait_to_read', [X]),
    case('attach_grad', 'NDArray.attach_grad', [X]),
    case('backward-unrecorded', 'NDArray.backward', [X], check='error'),
    # mx.nd Python-level functions
    case('array-list', 'array', [[[1, 2], [3, 4]]]),
    case('array-int64-source', 'array', [np.arange(4, dtype=np.int64)]),
    case('array-dtype', 'array', [X], {'dtype': 'float64'}),
    case('empty', 'empty', [(2, 3)], check='shape'),
    case('empty-int', 'empty', [(4,)], {'dtype': 'int32'}, check='shape'),
    case('zeros', 'zeros', [(2, 3)]),
    case('zeros-dtype', 'zeros', [(2,)], {'dtype': 'int64'}),
    case('ones', 'ones', [(3, 1)]),
    case('ones-int-shape', 'ones', [4], {'dtype': 'float16'}),
    case('full', 'full', [(2, 2), 7.5]),
    case('full-int', 'full', [(3,), 2], {'dtype': 'int32'}),
    case('from_numpy', 'from_numpy', [Raw(X.copy())]),
    case('from_numpy-copy', 'from_numpy', [Raw(X.copy())], {'zero_copy': False}),
    case('concatenate', 'concatenate', [[X, f32('c2', 4, 3)]]),
    case('concatenate-axis1', 'concatenate', [[X, f32('c3', 2, 2)]], {'axis': 1}),
    case('moveaxis', 'moveaxis', [f32('m', 2, 3, 4), 0, 2]),
    case('moveaxis-multi', 'moveaxis', [f32('m2', 2, 3, 4), [0, 1], [2, 0]]),
    case('moveaxis-bad', 'moveaxis', [f32('m3', 2, 3), 0, [0, 1]], check='error'),
    case('onehot_encode', 'onehot_encode', [np.array([0, 2, 1], np.float32),
                                            np.zeros((3, 4), np.float32)]),
    case('histogram-range', 'histogram', [f32('h', 20)], {'bins': 4, 'range': (-1.0, 1.0)}),
    case('cumsum', 'cumsum', [X]),
    case('cumsum-axis', 'cumsum', [X], {'axis': 1}, grad=[0]),
    case('cumsum-dtype', 'cumsum', [np.arange(6, dtype=np.int32).reshape(2, 3)],
         {'axis': 0, 'dtype': 'float64'}),
    case('waitall', 'waitall', []),
]
