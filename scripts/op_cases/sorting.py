"""Cases for mxcompat/ops/sorting.py (topk, sort, argsort, _histogram)."""
import numpy as np

from . import case, rng


def distinct(cid, *shape, dtype=np.float32):
    """Distinct values in random order, so that the order of ties never matters."""
    n = int(np.prod(shape))
    return (rng(cid).permutation(n).reshape(shape) * 0.25 - n * 0.1).astype(dtype)


X = distinct('x', 3, 5)
Y = distinct('y', 2, 3, 4)

TOPK = [
    case('topk-default', 'topk', [X]),
    case('topk-k3', 'topk', [X], {'k': 3}),
    case('topk-axis0', 'topk', [Y], {'axis': 0, 'k': 2}),
    case('topk-axis1-ascend', 'topk', [Y], {'axis': 1, 'k': 2, 'is_ascend': True}),
    case('topk-axis-none', 'topk', [Y], {'axis': None, 'k': 4}),
    case('topk-k0', 'topk', [X], {'k': 0}),
    case('topk-kneg', 'topk', [X], {'k': -1, 'is_ascend': True}),
    case('topk-value', 'topk', [Y], {'k': 2, 'ret_typ': 'value'}, grad=[0]),
    case('topk-value-axis0', 'topk', [Y], {'axis': 0, 'ret_typ': 'value'}, grad=[0]),
    case('topk-both', 'topk', [X], {'k': 2, 'ret_typ': 'both'}, grad=[0]),
    case('topk-both-none', 'topk', [Y], {'axis': None, 'k': 3, 'ret_typ': 'both',
                                          'is_ascend': True}, grad=[0]),
    case('topk-both-small-k', 'topk', [distinct('long', 2, 40)], {'k': 3, 'ret_typ': 'both'},
         grad=[0]),
    case('topk-mask', 'topk', [Y], {'k': 2, 'ret_typ': 'mask'}, grad=[0]),
    case('topk-mask-none', 'topk', [Y], {'axis': None, 'k': 5, 'ret_typ': 'mask'}),
    case('topk-indices-grad', 'topk', [X], {'k': 2}, grad=[0]),
    case('topk-int32', 'topk', [X], {'k': 2, 'dtype': 'int32'}),
    case('topk-int64', 'topk', [X], {'k': 2, 'dtype': np.int64, 'ret_typ': 'both'}),
    case('topk-uint8', 'topk', [X], {'k': 2, 'dtype': 'uint8'}),
    case('topk-f64idx', 'topk', [X], {'k': 2, 'dtype': 'float64'}),
    case('topk-f16idx', 'topk', [X], {'k': 2, 'dtype': 'float16'}),
    case('topk-data-int', 'topk', [distinct('xi', 3, 4, dtype=np.int32) * 4],
         {'k': 2, 'ret_typ': 'both'}),
    case('topk-data-f64', 'topk', [distinct('xd', 4, 3, dtype=np.float64)],
         {'axis': 0, 'k': 2, 'ret_typ': 'both'}, grad=[0]),
    case('topk-data-f16', 'topk', [distinct('xh', 3, 4, dtype=np.float16)],
         {'k': 2, 'ret_typ': 'value'}),
    case('topk-fluent', 'NDArray.topk', [X], {'k': 2, 'ret_typ': 'value'}),
    case('topk-k-too-big', 'topk', [X], {'k': 6}, check='error'),
    case('topk-bad-axis', 'topk', [X], {'axis': 2}, check='error'),
    case('topk-bad-ret', 'topk', [X], {'ret_typ': 'values'}, check='error'),
    case('topk-bad-dtype', 'topk', [X], {'dtype': 'int8'}, check='error'),
    case('topk-uint8-wraps', 'topk', [distinct('u8', 300)], {'dtype': 'uint8', 'k': 4}),
    case('topk-f16-rounds', 'topk', [distinct('f16', 2100)], {'dtype': 'float16', 'k': 4,
                                                              'is_ascend': True}),
]

SORT = [
    # MXNet's sort backward fails unless axis is given explicitly (its attrs lose the default)
    case('sort', 'sort', [X]),
    case('sort-grad', 'sort', [X], {'axis': -1}, grad=[0]),
    case('sort-desc', 'sort', [Y], {'axis': 2, 'is_ascend': False}, grad=[0]),
    case('sort-axis0', 'sort', [Y], {'axis': 0}, grad=[0]),
    case('sort-axis-none', 'sort', [Y], {'axis': None}, grad=[0]),
    case('sort-int', 'sort', [distinct('si', 2, 5, dtype=np.int64)], {'is_ascend': False}),
    case('sort-ties', 'sort', [np.array([[3, 1, 3, 1, 2]], np.float32)]),
    case('sort-fluent', 'NDArray.sort', [Y], {'axis': 1}),
    case('sort-bad-axis', 'sort', [Y], {'axis': -4}, check='error'),

    case('argsort', 'argsort', [X]),
    case('argsort-desc', 'argsort', [Y], {'is_ascend': False, 'axis': 1}),
    case('argsort-axis-none', 'argsort', [Y], {'axis': None}),
    case('argsort-int32', 'argsort', [X], {'dtype': 'int32'}),
    case('argsort-int64', 'argsort', [Y], {'dtype': 'int64', 'axis': 0}),
    case('argsort-float16', 'argsort', [X], {'dtype': 'float16'}),
    case('argsort-ties', 'argsort', [np.array([[2, 1, 2, 1, 0, 2]], np.float32)]),
    case('argsort-ties-desc', 'argsort', [np.array([[2, 1, 2, 1, 0, 2]], np.float32)],
         {'is_ascend': False}),
    case('argsort-grad', 'argsort', [X], grad=[0]),
    case('argsort-fluent', 'NDArray.argsort', [Y], {'axis': 0}),
    case('argsort-bad-dtype', 'argsort', [X], {'dtype': 'bool'}, check='error'),
]

H = rng('hist').uniform(-1, 3, size=(4, 6)).astype(np.float32)
HIST = [
    case('histogram-cnt', '_internal._histogram', [H], {'bin_cnt': 5, 'range': (0, 2)}),
    case('histogram-cnt-edges', '_internal._histogram',
         [np.array([0, 1, 2, 2, 3, 4, 5, 0.5], np.float32)], {'bin_cnt': 5, 'range': (0, 5)}),
    case('histogram-bins', '_internal._histogram',
         [H, np.array([-0.5, 0.0, 2.1, 3.0], np.float32)]),
    case('histogram-bins-edges', '_internal._histogram',
         [np.array([[0, 1], [2, 2], [3, 4]], np.float32), np.array([0., 2.1, 3.], np.float32)]),
    case('histogram-f64', '_internal._histogram', [H.astype(np.float64)],
         {'bin_cnt': 3, 'range': (-1, 3)}),
    case('histogram-int', '_internal._histogram', [np.array([0, 1, 1, 5, 9], np.int32)],
         {'bin_cnt': 4, 'range': (0, 8)}),
    case('histogram-cnt-no-range', '_internal._histogram', [H], {'bin_cnt': 5},
         check='error'),
]

CASES = TOPK + SORT + HIST
