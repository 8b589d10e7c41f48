"""Cases for mxcompat/ops/shape_ops.py (and NDArray.reshape, which shares infer_reshape)."""
import numpy as np

from . import case, rng


def f32(cid, *shape, lo=-1, hi=1):
    return rng(cid).uniform(lo, hi, size=shape).astype(np.float32)


def ints(cid, *shape, dtype=np.int32):
    return rng(cid).randint(-9, 10, size=shape).astype(dtype)


X = f32('x234', 2, 3, 4)

# Reshape special values, forward and reverse (with the op and with NDArray.reshape)
_RESHAPES = [
    ('copy-infer', (4, 0, -1), False),
    ('minus2', (-2,), False),
    ('minus2-tail', (2, -2, 1), False),
    ('minus3', (-3, 4), False),
    ('minus3-infer', (2, -3, -1), False),
    ('minus4', (-4, 1, 2, -2), False),
    ('minus4-infer', (-4, -1, 1, 0, 0), False),
    ('minus4-infer2', (-4, 2, -1, -2), False),
    ('zero-infer-zero', (0, -1, 0), False),
    ('flat', (-1,), False),
    ('rev-infer', (-1, 0), True),
    ('rev-minus3', (2, -3), True),
    ('rev-zero-minus3', (0, -3), True),
    ('rev-copy', (0, 0, -1), True),
    ('plain', (6, 4), False),
]
CASES = []
for rid, shape, rev in _RESHAPES:
    CASES.append(case('Reshape-' + rid, 'Reshape', [X], {'shape': shape, 'reverse': rev},
                      grad=[0]))
    CASES.append(case('NDArray.reshape-' + rid, 'NDArray.reshape', [X, shape],
                      {'reverse': rev}))

CASES += [
    case('reshape-alias', 'reshape', [f32('ra', 10, 5, 4)], {'shape': (-1, 0), 'reverse': True}),
    case('reshape-str', 'reshape', [X], {'shape': '(0, -1)'}),
    case('NDArray.reshape-args', 'NDArray.reshape', [X, 4, -1]),
    case('NDArray.reshape-kw', 'NDArray.reshape', [X], {'shape': (-3, -2)}),
    case('NDArray.reshape-chain', 'NDArray.reshape', [f32('rc', 2, 15), 0, -4, 3, -1]),
    case('Reshape-i32', 'Reshape', [ints('ri', 2, 3)], {'shape': (3, 2)}),
    case('Reshape-target-shape', 'Reshape', [f32('rt', 2, 3)], {'target_shape': (3, 0)},
         grad=[0]),
    case('Reshape-keep-highest', 'Reshape', [f32('rk', 2, 3, 2)],
         {'target_shape': (5, 0), 'keep_highest': True}),
    case('Reshape-target-full', 'Reshape', [f32('rf', 2, 3)], {'target_shape': (6,)}),
    case('Reshape-shape-wins', 'Reshape', [f32('rw', 2, 3)],
         {'shape': (3, 2), 'target_shape': (6,)}),
    # errors
    case('Reshape-two-infer', 'Reshape', [X], {'shape': (-1, -1)}, check='error'),
    case('Reshape-too-many-zeros', 'Reshape', [X], {'shape': (0, 0, 0, 0)}, check='error'),
    case('Reshape-minus3-short', 'Reshape', [X], {'shape': (-3, -3)}, check='error'),
    case('Reshape-minus4-bad', 'Reshape', [X], {'shape': (-4, 3, -1, -2)}, check='error'),
    case('Reshape-bad-value', 'Reshape', [X], {'shape': (-5,)}, check='error'),
    case('Reshape-rev-minus4', 'Reshape', [f32('r4', 6, 4)], {'shape': (-4, 2, 3, 0),
                                                              'reverse': True}, check='error'),
    case('NDArray.reshape-size', 'NDArray.reshape', [X, (5, -1)], check='error'),
    case('NDArray.reshape-size2', 'NDArray.reshape', [X, (5,)], check='error'),
    case('NDArray.reshape-quirk', 'NDArray.reshape', [X, (-2, -1)], check='error'),
]

# Flatten, expand_dims, squeeze, reshape_like, shape_array, size_array
CASES += [
    case('Flatten', 'Flatten', [X], grad=[0]),
    case('flatten-1d', 'flatten', [f32('f1', 3)]),
    case('flatten-4d', 'flatten', [f32('f4', 2, 1, 3, 2)], grad=[0]),
    case('NDArray.flatten', 'NDArray.flatten', [X]),
    case('NDArray.flatten-inplace', 'NDArray.flatten', [X], {'inplace': True}),
    case('expand_dims-0', 'expand_dims', [X], {'axis': 0}, grad=[0]),
    case('expand_dims-end', 'expand_dims', [X], {'axis': 3}),
    case('expand_dims-neg', 'expand_dims', [X], {'axis': -4}),
    case('expand_dims-neg1', 'expand_dims', [X], {'axis': -1}),
    case('expand_dims-bad', 'expand_dims', [X], {'axis': 4}, check='error'),
    case('expand_dims-i64', 'expand_dims', [ints('ei', 2, 3, dtype=np.int64)], {'axis': 1}),
    case('NDArray.expand_dims', 'NDArray.expand_dims', [X, 1]),
    case('NDArray.expand_dims-inplace', 'NDArray.expand_dims', [X], {'axis': -2,
                                                                     'inplace': True}),
    case('squeeze-all', 'squeeze', [f32('sq', 1, 3, 1, 2)], grad=[0]),
    case('squeeze-axis', 'squeeze', [f32('sqa', 1, 3, 1)], {'axis': -1}),
    case('squeeze-axes', 'squeeze', [f32('sqt', 1, 3, 1)], {'axis': (0, 2)}, grad=[0]),
    case('squeeze-ones', 'squeeze', [f32('sqo', 1, 1)]),
    case('squeeze-empty-axes', 'squeeze', [f32('sqe', 1, 2, 1)], {'axis': ()}),
    case('squeeze-bad', 'squeeze', [f32('sqb', 1, 2, 1)], {'axis': 1}, check='error'),
    case('squeeze-out-of-range', 'squeeze', [f32('sqr', 1, 2, 1)], {'axis': 3}, check='error'),
    case('NDArray.squeeze', 'NDArray.squeeze', [f32('msq', 1, 5, 1, 3, 1)], {'axis': (0, 2)}),
    case('NDArray.squeeze-inplace', 'NDArray.squeeze', [f32('msqi', 1, 5, 1)],
         {'inplace': True}),
    case('reshape_like', 'reshape_like', [X, np.zeros((4, 6), np.float32)], grad=[0]),
    case('reshape_like-part', 'reshape_like', [X, np.zeros((6, 1, 5), np.float32)],
         {'lhs_begin': 0, 'lhs_end': 2, 'rhs_begin': 0, 'rhs_end': 1}, grad=[0]),
    case('reshape_like-neg', 'reshape_like', [f32('rln', 30, 12), np.zeros((4, 2, 2, 3),
                                                                           np.float32)],
         {'lhs_begin': -1, 'rhs_begin': 1}),
    case('reshape_like-bad', 'reshape_like', [X, np.zeros((5,), np.float32)], check='error'),
    case('NDArray.reshape_like', 'NDArray.reshape_like', [X, np.zeros((12, 2), np.float32)]),
    case('shape_array', 'shape_array', [X]),
    case('shape_array-1d', 'shape_array', [ints('sa', 7)]),
    case('size_array', 'size_array', [X]),
    case('NDArray.shape_array', 'NDArray.shape_array', [X]),
    case('NDArray.size_array', 'NDArray.size_array', [f32('msa', 3, 5)]),
]

# transpose, SwapAxis, reverse/flip, depth_to_space, space_to_depth
D = np.arange(48, dtype=np.float32).reshape(1, 8, 2, 3)
S = np.arange(48, dtype=np.float32).reshape(1, 3, 4, 4)
CASES += [
    case('transpose-default', 'transpose', [X], grad=[0]),
    case('transpose-axes', 'transpose', [X], {'axes': (1, 0, 2)}, grad=[0]),
    case('transpose-2d', 'transpose', [f32('t2', 3, 5)]),
    case('transpose-f16', 'transpose', [X.astype(np.float16)], {'axes': (2, 0, 1)}),
    case('transpose-i32', 'transpose', [ints('ti', 2, 3)]),
    case('transpose-bad-len', 'transpose', [X], {'axes': (0, 1)}, check='error'),
    case('transpose-neg', 'transpose', [X], {'axes': (-1, 0, 1)}, check='error'),
    case('NDArray.transpose', 'NDArray.transpose', [X], {'axes': (2, 1, 0)}),
    case('SwapAxis', 'SwapAxis', [X], {'dim1': 0, 'dim2': 2}, grad=[0]),
    case('swapaxes-neg', 'swapaxes', [X], {'dim1': -1, 'dim2': 1}, grad=[0]),
    case('swapaxes-default', 'swapaxes', [X]),
    case('swapaxes-bad', 'swapaxes', [X], {'dim1': 3, 'dim2': 0}, check='error'),
    case('NDArray.swapaxes', 'NDArray.swapaxes', [X, 0, 1]),
    case('reverse', 'reverse', [X], {'axis': 1}, grad=[0]),
    case('flip-multi', 'flip', [X], {'axis': (0, 2)}, grad=[0]),
    case('flip-dup', 'flip', [X], {'axis': (0, 0)}),
    case('flip-i32', 'flip', [ints('fi', 3, 4)], {'axis': 0}),
    case('flip-neg', 'flip', [X], {'axis': -1}, check='error'),
    case('flip-bad', 'flip', [X], {'axis': 3}, check='error'),
    case('NDArray.flip', 'NDArray.flip', [X], {'axis': 2}),
    case('depth_to_space', 'depth_to_space', [D], {'block_size': 2}, grad=[0]),
    case('depth_to_space-rand', 'depth_to_space', [f32('d2s', 2, 9, 2, 2)], {'block_size': 3},
         grad=[0]),
    case('depth_to_space-bad', 'depth_to_space', [D], {'block_size': 3}, check='error'),
    case('space_to_depth', 'space_to_depth', [S], {'block_size': 2}, grad=[0]),
    case('space_to_depth-rand', 'space_to_depth', [f32('s2d', 2, 2, 6, 3)], {'block_size': 3},
         grad=[0]),
    case('space_to_depth-bad', 'space_to_depth', [D], {'block_size': 2}, check='error'),
    case('NDArray.depth_to_space', 'NDArray.depth_to_space', [D, 2]),
    case('NDArray.space_to_depth', 'NDArray.space_to_depth', [S, 2]),
]

# tile, repeat
CASES += [
    case('tile', 'tile', [X], {'reps': (2, 1, 3)}, grad=[0]),
    case('tile-short', 'tile', [X], {'reps': (2,)}, grad=[0]),
    case('tile-long', 'tile', [f32('tl', 2, 3)], {'reps': (2, 1, 2)}, grad=[0]),
    case('tile-empty', 'tile', [X], {'reps': ()}),
    case('tile-i32', 'tile', [ints('tli', 2, 2)], {'reps': (2, 2)}),
    case('tile-zero', 'tile', [X], {'reps': (0, 1)}, check='error'),
    case('NDArray.tile', 'NDArray.tile', [f32('mtl', 2, 3)], {'reps': (3,)}),
    case('repeat-flat', 'repeat', [X], {'repeats': 2}, grad=[0]),
    case('repeat-axis', 'repeat', [X], {'repeats': 3, 'axis': 1}, grad=[0]),
    case('repeat-neg-axis', 'repeat', [X], {'repeats': 2, 'axis': -1}, grad=[0]),
    case('repeat-zero', 'repeat', [X], {'repeats': 0, 'axis': 1}),
    case('repeat-i64', 'repeat', [ints('rpi', 2, 2, dtype=np.int64)], {'repeats': 2,
                                                                      'axis': 0}),
    case('repeat-bad-axis', 'repeat', [X], {'repeats': 2, 'axis': 3}, check='error'),
    case('repeat-negative', 'repeat', [X], {'repeats': -1, 'axis': 0}, check='error'),
    case('NDArray.repeat', 'NDArray.repeat', [f32('mrp', 2, 3)], {'repeats': 2, 'axis': 0}),
]

# broadcasting
Y = f32('y214', 2, 1, 4)
CASES += [
    case('broadcast_to', 'broadcast_to', [Y], {'shape': (2, 3, 4)}, grad=[0]),
    case('broadcast_to-zero', 'broadcast_to', [Y], {'shape': (0, 3, 0)}, grad=[0]),
    case('broadcast_to-i32', 'broadcast_to', [ints('bti', 1, 3)], {'shape': (2, 3)}),
    case('broadcast_to-ndim', 'broadcast_to', [Y], {'shape': (5, 2, 3, 4)}, check='error'),
    case('broadcast_to-bad', 'broadcast_to', [Y], {'shape': (2, 3, 5)}, check='error'),
    case('NDArray.broadcast_to', 'NDArray.broadcast_to', [f32('mbt', 3, 1), (2, 3, 4)]),
    case('NDArray.broadcast_to-bad', 'NDArray.broadcast_to', [f32('mbb', 3, 2), (3, 3)],
         check='error'),
    case('broadcast_axis', 'broadcast_axis', [Y], {'axis': 1, 'size': 3}, grad=[0]),
    case('broadcast_axes', 'broadcast_axes', [f32('bas', 1, 2, 1)],
         {'axis': (0, 2), 'size': (3, 4)}, grad=[0]),
    case('broadcast_axis-empty', 'broadcast_axis', [Y]),
    case('broadcast_axis-bad', 'broadcast_axis', [Y], {'axis': 0, 'size': 3}, check='error'),
    case('broadcast_axis-mismatch', 'broadcast_axis', [Y], {'axis': (1,), 'size': (3, 4)},
         check='error'),
    case('broadcast_axis-neg', 'broadcast_axis', [Y], {'axis': -2, 'size': 3}, check='error'),
    case('NDArray.broadcast_axes', 'NDArray.broadcast_axes', [Y], {'axis': 1, 'size': 2}),
    case('broadcast_like', 'broadcast_like', [Y, X], grad=[0]),
    case('broadcast_like-axes', 'broadcast_like', [Y, np.zeros((7, 5), np.float32)],
         {'lhs_axes': (1,), 'rhs_axes': (-1,)}, grad=[0]),
    case('broadcast_like-bad', 'broadcast_like', [Y, np.zeros((7, 5), np.float32)],
         check='error'),
    case('NDArray.broadcast_like', 'NDArray.broadcast_like', [f32('mbl', 3, 1), X]),
]

# Concat, stack, split
A, B, C = f32('ca', 2, 3, 4), f32('cb', 2, 2, 4), f32('cc', 2, 1, 4)
CASES += [
    case('Concat', 'Concat', [A, B, C], {'dim': 1}, grad=[0, 1, 2]),
    case('concat-default-dim', 'concat', [A, A], grad=[0, 1]),
    case('concat-dim0', 'concat', [A, A], {'dim': 0}),
    case('concat-neg', 'concat', [A, A, A], {'dim': -1}, grad=[0, 1, 2]),
    case('concat-one', 'concat', [A], {'dim': 0}),
    case('concat-num-args', 'concat', [A, A], {'dim': 2, 'num_args': 2}),
    case('concat-i32', 'concat', [ints('ci', 2, 2), ints('cj', 2, 3)], {'dim': 1}),
    case('concat-f16', 'concat', [A.astype(np.float16), B.astype(np.float16)], {'dim': 1}),
    case('concat-bad-shape', 'concat', [A, f32('cbs', 2, 3, 5)], {'dim': 1}, check='error'),
    case('concat-bad-dtype', 'concat', [A, A.astype(np.float64)], {'dim': 1}, check='error'),
    case('concat-bad-dim', 'concat', [A, A], {'dim': 3}, check='error'),
    case('concat-bad-ndim', 'concat', [A, f32('cbn', 3, 4)], {'dim': 0}, check='error'),
    case('stack', 'stack', [A, A, A], grad=[0, 1, 2]),
    case('stack-last', 'stack', [A, A], {'axis': 3}, grad=[0, 1]),
    case('stack-neg', 'stack', [A, A], {'axis': -1}),
    case('stack-mid', 'stack', [B, B], {'axis': 1, 'num_args': 2}),
    case('stack-i32', 'stack', [ints('si', 3), ints('sj', 3)], {'axis': 0}),
    case('stack-bad-axis', 'stack', [A, A], {'axis': 4}, check='error'),
    case('stack-bad-shape', 'stack', [A, B], check='error'),
    case('stack-bad-dtype', 'stack', [A, A.astype(np.float16)], check='error'),
    case('SliceChannel', 'SliceChannel', [X], {'num_outputs': 3}, grad=[0]),
    case('split-axis0-squeeze', 'split', [X], {'num_outputs': 2, 'axis': 0,
                                               'squeeze_axis': True}, grad=[0]),
    case('split-num-outputs-0', 'split', [X], {'num_outputs': 0}, check='error'),
    case('split-neg', 'split', [X], {'num_outputs': 2, 'axis': -1}, grad=[0]),
    case('split-one', 'split', [X], {'num_outputs': 1, 'axis': 1}),
    case('split-partial-grad', 'split', [X], {'num_outputs': 3, 'axis': 1}, grad=[0],
         grad_outputs=[1]),
    case('split-i32', 'split', [ints('spi', 4, 2)], {'num_outputs': 2, 'axis': 0}),
    case('split-bad', 'split', [X], {'num_outputs': 5, 'axis': 1}, check='error'),
    case('split-bad-squeeze', 'split', [X], {'num_outputs': 2, 'axis': 2,
                                             'squeeze_axis': True}, check='error'),
    case('NDArray.split', 'NDArray.split', [X], {'num_outputs': 2, 'axis': 2}),
    case('_split_v2', '_internal._split_v2', [X], {'indices': (0, 1, 3), 'axis': 2}, grad=[0]),
    case('_split_v2-sections', '_internal._split_v2', [X], {'indices': (), 'sections': 2,
                                                            'axis': -1}, grad=[0]),
    case('_split_v2-uneven', '_internal._split_v2', [f32('spu', 7, 2)],
         {'indices': (), 'sections': 3, 'axis': 0}),
    case('_split_v2-squeeze', '_internal._split_v2', [X], {'indices': (0, 1, 2), 'axis': 1,
                                                           'squeeze_axis': True}),
    case('_split_v2-big', '_internal._split_v2', [X], {'indices': (0, 2, 7), 'axis': 2},
         check='error'),
    case('_split_v2-no-zero', '_internal._split_v2', [X], {'indices': (1, 2), 'axis': 2},
         check='error'),
    case('split_v2', 'split_v2', [X, (1, 2)], {'axis': 2}, grad=[0]),
    case('split_v2-int', 'split_v2', [X, 2], {'axis': 2}),
    case('split_v2-axis0', 'split_v2', [f32('s0', 4, 2), (1,)]),
    case('split_v2-squeeze', 'split_v2', [X, 3], {'axis': 1, 'squeeze_axis': True}),
    case('split_v2-uneven', 'split_v2', [X, 3], {'axis': 2}, check='error'),
    case('NDArray.split_v2', 'NDArray.split_v2', [X, (1,)], {'axis': 1}),
]

# Pad
P = f32('p1234', 1, 2, 3, 4)
P5 = f32('p5', 1, 2, 2, 3, 3)
CASES += [
    case('Pad-constant', 'Pad', [P], {'mode': 'constant', 'pad_width': (0, 0, 0, 0, 1, 2, 2, 1),
                                      'constant_value': -1.5}, grad=[0]),
    case('pad-edge', 'pad', [P], {'mode': 'edge', 'pad_width': (0, 0, 0, 0, 1, 2, 2, 1)},
         grad=[0]),
    case('pad-reflect', 'pad', [P], {'mode': 'reflect', 'pad_width': (0, 0, 0, 0, 2, 1, 3, 2)},
         grad=[0]),
    case('pad-5d-constant', 'pad', [P5], {'mode': 'constant',
                                          'pad_width': (0, 0, 0, 0, 1, 0, 0, 1, 2, 1)},
         grad=[0]),
    case('pad-5d-edge', 'pad', [P5], {'mode': 'edge',
                                      'pad_width': (0, 0, 0, 0, 1, 1, 2, 0, 1, 2)}, grad=[0]),
    case('pad-5d-reflect', 'pad', [P5], {'mode': 'reflect',
                                         'pad_width': (0, 0, 0, 0, 1, 1, 2, 1, 1, 2)}, grad=[0]),
    case('pad-f64', 'pad', [P.astype(np.float64)], {'mode': 'edge',
                                                    'pad_width': (0, 0, 0, 0, 1, 1, 1, 1)}),
    case('pad-3d', 'pad', [X], {'mode': 'constant', 'pad_width': (0, 0, 1, 1, 1, 1)},
         check='error'),
    case('pad-first-axes', 'pad', [P], {'mode': 'constant',
                                        'pad_width': (1, 0, 0, 0, 1, 2, 2, 1)}, check='error'),
    case('pad-short', 'pad', [P], {'mode': 'constant', 'pad_width': (0, 0, 1, 1)},
         check='error'),
    case('pad-reflect-big', 'pad', [P], {'mode': 'reflect',
                                         'pad_width': (0, 0, 0, 0, 3, 3, 1, 1)}, check='error'),
    case('pad-bad-mode', 'pad', [P], {'mode': 'wrap', 'pad_width': (0, 0, 0, 0, 1, 1, 1, 1)},
         check='error'),
    case('NDArray.pad', 'NDArray.pad', [P], {'mode': 'constant',
                                             'pad_width': (0, 0, 0, 0, 1, 1, 1, 1)}),
]

# diag
M = f32('m34', 3, 4)
CASES += [
    case('diag-1d', 'diag', [f32('dg1', 3)], grad=[0]),
    case('diag-1d-k', 'diag', [f32('dg1k', 3)], {'k': 1}, grad=[0]),
    case('diag-1d-negk', 'diag', [f32('dg1n', 2)], {'k': -2}),
    case('diag-2d', 'diag', [M], grad=[0]),
    case('diag-2d-k', 'diag', [M], {'k': 2}, grad=[0]),
    case('diag-2d-negk', 'diag', [M], {'k': -1}, grad=[0]),
    case('diag-2d-edge', 'diag', [M], {'k': 4}),
    case('diag-3d', 'diag', [X], {'k': 1, 'axis1': -1, 'axis2': 0}, grad=[0]),
    case('diag-3d-axes', 'diag', [X], {'axis1': 1, 'axis2': 2}, grad=[0]),
    case('diag-i32', 'diag', [ints('dgi', 3, 3)]),
    case('diag-same-axis', 'diag', [X], {'axis1': 0, 'axis2': 0}, check='error'),
    case('diag-no-diagonal', 'diag', [M], {'k': 5}, check='error'),
    case('NDArray.diag', 'NDArray.diag', [M, 1]),
]

# _rnn_param_concat (Concat under another name)
CASES += [
    case('_rnn_param_concat', '_internal._rnn_param_concat', [f32('rp1', 6), f32('rp2', 4)],
         {'dim': 0}, grad=[0, 1]),
]

CASES += [
    case('depth_to_space-zero-dim', 'depth_to_space', [np.zeros((1, 4, 0, 3), np.float32)],
         {'block_size': 2}, check='error'),
    case('space_to_depth-zero-depth', 'space_to_depth', [np.zeros((1, 0, 2, 2), np.float32)],
         {'block_size': 2}, check='error'),
    case('space_to_depth-block0', 'space_to_depth', [S], {'block_size': 0}, check='error'),
]
