"""Cases for mxcompat/ops/reduce.py."""
import numpy as np

from . import case, rng


def f32(cid, *shape, lo=-1, hi=1):
    return rng(cid).uniform(lo, hi, size=shape).astype(np.float32)


def ints(cid, *shape, lo=-5, hi=6, dtype=np.int32):
    return rng(cid).randint(lo, hi, size=shape).astype(dtype)


# ties, zeros and NaNs where MXNet's gradients differ from the textbook ones
TIES = np.array([[1, 3, 3, 0], [2, 0, -1, 2], [5, 5, 5, 5]], dtype=np.float32)
ZEROS = np.array([[1, 3, 0.5, 2], [2, 0, -1, 4]], dtype=np.float32)
NANS = np.array([[1, np.nan, 3, 0.5], [2, 0.25, np.nan, -1]], dtype=np.float32)

CASES = []

# sum / mean / prod / max / min / nansum / nanprod: axis, keepdims, exclude variants
_VARIANTS = [
    ('all', {}),
    ('all-keep', {'keepdims': True}),
    ('ax1', {'axis': 1}),
    ('ax-neg', {'axis': -1, 'keepdims': True}),
    ('ax-tuple', {'axis': (0, 2)}),
    ('ax-tuple-keep', {'axis': (0, 2), 'keepdims': True}),
    ('ax-empty', {'axis': ()}),
    ('exclude', {'axis': 1, 'exclude': True}),
    ('exclude-keep', {'axis': (0,), 'exclude': True, 'keepdims': True}),
    ('exclude-all', {'axis': (0, 1, 2), 'exclude': True}),
    ('every-axis', {'axis': (0, 1, 2)}),
]
for op in ('sum', 'mean', 'prod', 'max', 'min', 'nansum', 'nanprod'):
    lo = 0.5 if 'prod' in op else -1
    for vid, kw in _VARIANTS:
        cid = '%s-%s' % (op, vid)
        CASES.append(case(cid, op, [f32(cid, 2, 3, 4, lo=lo, hi=1.5)], kw, grad=[0]))

for op, alias in (('sum', 'sum_axis'), ('max', 'max_axis'), ('min', 'min_axis')):
    CASES.append(case(alias, alias, [f32(alias, 3, 4)], {'axis': 0}, grad=[0]))

CASES += [
    # gradients at ties (max/min: every maximal element gets the full gradient)
    case('max-ties', 'max', [TIES], {'axis': 1}, grad=[0]),
    case('min-ties', 'min', [TIES], {'axis': 1, 'keepdims': True}, grad=[0]),
    case('max-ties-all', 'max', [TIES], grad=[0]),
    case('min-ties-ax0', 'min', [TIES], {'axis': 0}, grad=[0]),
    # prod gradient is out / x (NaN at zeros)
    case('prod-zeros', 'prod', [ZEROS], {'axis': 1}, grad=[0]),
    case('prod-zeros-all', 'prod', [ZEROS], grad=[0]),
    # NaN handling
    case('nansum-nan', 'nansum', [NANS], {'axis': 1}, grad=[0]),
    case('nansum-nan-all', 'nansum', [NANS], grad=[0]),
    case('nanprod-nan', 'nanprod', [NANS], {'axis': 0}, grad=[0]),
    case('sum-nan', 'sum', [NANS], {'axis': 1}),
    # full reductions of other shapes and dtypes (shape (1,) out, a copy for a (1,) input)
    case('sum-all-one', 'sum', [np.array([2.5], np.float32)], grad=[0]),
    case('sum-all-1d', 'sum', [f32('sa1', 7)], grad=[0]),
    case('sum-all-2d-f64', 'sum', [f32('sa2', 3, 4).astype(np.float64)], grad=[0]),
    case('sum-all-f16', 'sum', [f32('sa16', 3, 4).astype(np.float16)], rtol=1e-2, atol=1e-2),
    # dtypes
    case('sum-f64', 'sum', [f32('s64', 3, 4).astype(np.float64)], {'axis': 0}, grad=[0]),
    case('sum-f16', 'sum', [f32('s16', 3, 4).astype(np.float16)], {'axis': 1}, grad=[0],
         rtol=1e-3, atol=1e-3),
    case('mean-f16', 'mean', [f32('m16', 3, 4).astype(np.float16)], grad=[0], rtol=1e-3,
         atol=1e-3),
    case('max-f64', 'max', [f32('x64', 3, 4).astype(np.float64)], {'axis': 1}, grad=[0]),
    case('sum-i32', 'sum', [ints('si', 3, 4)], {'axis': 1}),
    case('sum-i8-wrap', 'sum', [np.array([100, 100, 100], dtype=np.int8)]),
    case('sum-u8-wrap', 'sum', [np.array([200, 200], dtype=np.uint8)]),
    case('sum-i64', 'sum', [ints('s64i', 2, 3, dtype=np.int64)], {'axis': (0, 1)}),
    case('mean-i32-trunc', 'mean', [np.array([[-7, 0, 0], [7, 1, 0]], dtype=np.int32)],
         {'axis': 1}),
    case('mean-i32-all', 'mean', [ints('mi', 3, 4)]),
    case('prod-i32', 'prod', [ints('pi', 2, 3, lo=-3, hi=4)], {'axis': 0}),
    case('prod-u8-wrap', 'prod', [np.array([200, 200], dtype=np.uint8)]),
    case('max-i32', 'max', [ints('xi', 3, 4)], {'axis': 0}),
    case('min-u8', 'min', [ints('nu', 3, 4, lo=0, hi=200, dtype=np.uint8)], {'axis': 1}),
    case('nansum-i32', 'nansum', [ints('nsi', 3, 4)], {'axis': 1}),
    case('nanprod-i32', 'nanprod', [ints('npi', 3, 2, lo=-3, hi=4)], {'axis': 1}),
    # string attributes as MXNet accepts them
    case('sum-str-axis', 'sum', [f32('ss', 2, 3)], {'axis': '(1,)', 'keepdims': 'True'}),
    # errors
    case('sum-bad-axis', 'sum', [f32('sba', 2, 3)], {'axis': 2}, check='error'),
    case('sum-bad-neg-axis', 'sum', [f32('sbn', 2, 3)], {'axis': -3}, check='error'),
    case('sum-dup-axis', 'sum', [f32('sda', 2, 3)], {'axis': (1, -1)}, check='error'),
    case('max-empty', 'max', [np.zeros((0, 3), dtype=np.float32)], check='error'),
    case('mean-bad-kwarg', 'mean', [f32('mbk', 2, 3)], {'axes': 1}, check='error'),
]

# norm
CASES += [
    case('norm-default', 'norm', [f32('n0', 3, 4)], grad=[0]),
    case('norm-keep', 'norm', [f32('nk', 3, 4)], {'keepdims': True}, grad=[0]),
    case('norm-ax1', 'norm', [f32('n1', 2, 3, 4)], {'axis': 1}, grad=[0]),
    case('norm-ax-neg-keep', 'norm', [f32('nn', 2, 3, 4)], {'axis': -1, 'keepdims': True},
         grad=[0]),
    case('norm-ax-pair', 'norm', [f32('np', 2, 3, 4)], {'axis': (1, 2)}, grad=[0]),
    case('norm-ord1', 'norm', [f32('o1', 2, 3, 4)], {'ord': 1}, grad=[0]),
    case('norm-ord1-ax', 'norm', [ZEROS], {'ord': 1, 'axis': 1}, grad=[0]),
    case('norm-ord1-keep', 'norm', [f32('o1k', 2, 3, 4)], {'ord': 1, 'axis': (0, 2),
                                                            'keepdims': True}, grad=[0]),
    case('norm-zero-grad', 'norm', [np.zeros((2, 3), dtype=np.float32)], {'axis': 1},
         grad=[0]),
    case('norm-f64', 'norm', [f32('n64', 3, 4).astype(np.float64)], {'axis': 0}, grad=[0]),
    case('norm-f16', 'norm', [f32('n16', 3, 4).astype(np.float16)], {'axis': 1}, rtol=2e-3,
         atol=2e-3),
    case('norm-i32', 'norm', [ints('ni', 3, 4)], {'axis': 1}),
    # out_dtype other than the input's fails in MXNet 1.9.1 (TBlob type check), mxcompat casts
    case('norm-out-same', 'norm', [f32('nof', 3, 4)], {'axis': 1, 'out_dtype': 'float32'}),
    case('norm-bad-ord', 'norm', [f32('nbo', 2, 3)], {'ord': 3}, check='error'),
    case('norm-bad-axis', 'norm', [f32('nba', 2, 3)], {'axis': 2}, check='error'),
    case('NDArray.norm', 'NDArray.norm', [f32('mn', 2, 3)], {'axis': 1}),
]

# argmax / argmin / argmax_channel (indices in the input's dtype, first of ties)
CASES += [
    case('argmax-all', 'argmax', [f32('am', 3, 4)]),
    case('argmax-all-keep', 'argmax', [f32('amk', 3, 4)], {'keepdims': True}),
    case('argmax-ax0', 'argmax', [f32('am0', 3, 4)], {'axis': 0}),
    case('argmax-ax-neg-keep', 'argmax', [f32('amn', 2, 3, 4)], {'axis': -1, 'keepdims': True}),
    case('argmax-ties', 'argmax', [TIES], {'axis': 1}),
    case('argmax-1d', 'argmax', [f32('am1', 5)], {'axis': 0, 'keepdims': True}),
    case('argmax-f64', 'argmax', [f32('am64', 3, 4).astype(np.float64)], {'axis': 1}),
    case('argmax-f16', 'argmax', [f32('am16', 3, 4).astype(np.float16)], {'axis': 1}),
    case('argmax-i32', 'argmax', [ints('ami', 3, 4)], {'axis': 0}),
    case('argmin-all', 'argmin', [f32('an', 3, 4)]),
    case('argmin-ax1', 'argmin', [f32('an1', 2, 3, 4)], {'axis': 1}),
    case('argmin-ties', 'argmin', [TIES], {'axis': 0, 'keepdims': True}),
    case('argmin-i32', 'argmin', [ints('ani', 3, 4)], {'axis': 1}),
    case('argmax-bad-axis', 'argmax', [f32('amb', 3, 4)], {'axis': 2}, check='error'),
    case('argmax_channel', 'argmax_channel', [f32('ac', 3, 4)]),
    case('argmax_channel-3d', 'argmax_channel', [f32('ac3', 2, 3, 4)]),
    case('argmax_channel-f64', 'argmax_channel', [TIES.astype(np.float64)]),
    case('NDArray.argmax', 'NDArray.argmax', [f32('mam', 3, 4)], {'axis': 1}),
    case('NDArray.argmin', 'NDArray.argmin', [f32('man', 3, 4)], {'axis': 0}),
    case('NDArray.argmax_channel', 'NDArray.argmax_channel', [f32('mac', 3, 4)]),
]

# moments
CASES += [
    case('moments-ax1', 'moments', [f32('mo', 3, 4)], {'axes': (1,)}, grad=[0]),
    case('moments-keep', 'moments', [f32('mok', 2, 3, 4)], {'axes': (0, 2), 'keepdims': True},
         grad=[0]),
    case('moments-all', 'moments', [f32('moa', 2, 3)], {'axes': (0, 1)}, grad=[0]),
    case('moments-neg', 'moments', [f32('mon', 2, 3, 4)], {'axes': (-1,)}, grad=[0],
         grad_outputs=[1]),
    case('moments-f64', 'moments', [f32('mo64', 3, 4).astype(np.float64)], {'axes': (0,)},
         grad=[0]),
    case('moments-no-axes', 'moments', [f32('mona', 2, 3)], check='error'),
]

# NDArray fluent methods
CASES += [
    case('NDArray.sum', 'NDArray.sum', [f32('ms', 2, 3)], {'axis': 1}, grad=[0]),
    case('NDArray.sum-pos', 'NDArray.sum', [f32('msp', 2, 3), 0]),
    case('NDArray.mean', 'NDArray.mean', [f32('mm', 2, 3)], {'axis': 0, 'keepdims': True},
         grad=[0]),
    case('NDArray.prod', 'NDArray.prod', [f32('mp', 2, 3, lo=0.5, hi=2)], grad=[0]),
    case('NDArray.max', 'NDArray.max', [f32('mx', 2, 3)], {'axis': 1}, grad=[0]),
    case('NDArray.min', 'NDArray.min', [f32('mi', 2, 3)], {'exclude': True, 'axis': 1}),
    case('NDArray.nansum', 'NDArray.nansum', [NANS], {'axis': 0}),
    case('NDArray.nanprod', 'NDArray.nanprod', [NANS], {'axis': 1}),
]
