"""Out-of-range and negative indices for every operator that hands indices to a torch kernel
(take, pick, batch_take, Embedding, one_hot, gather_nd, scatter_nd,
fill_element_0index, sequence lengths, ravel/unravel, boolean_mask, loss labels).

MXNet clips, wraps, fills nothing or raises for them; torch's kernels assert on the GPU (and
raise IndexError on the CPU), so matching MXNet's values here shows that the indices were made
safe before the kernel. Cases where MXNet reads or writes outside its buffers (and so has no
defined result) are left out. ``ERRORS`` lists the cases whose error type and message
scripts/fixture_writers/index_bounds.py records.
"""
import numpy as np

from . import case, rng


def f32(cid, *shape, dtype=np.float32):
    return rng(cid).uniform(-1, 1, size=shape).astype(dtype)


def ix(values, dtype=np.float32):
    return np.array(values, dtype=dtype)


A = f32('ib-a', 4, 3)
X = f32('ib-x', 3, 4, 2)
W = f32('ib-w', 5, 3)
OOB = ix([[-7, -1, 0], [3, 4, 11]])          # below, negative, in range, last, past, far past

CASES = [
    # take: clip sends the gradient to the clipped row, wrap to the wrapped one
    case('take-clip-axis0', 'take', [A, OOB], grad=[0]),
    case('take-wrap-axis0', 'take', [A, OOB], {'mode': 'wrap'}, grad=[0]),
    case('take-clip-axis1', 'take', [X, OOB], {'axis': 1}, grad=[0]),
    case('take-wrap-axis1', 'take', [X, OOB], {'axis': 1, 'mode': 'wrap'}, grad=[0]),
    case('take-clip-axis-last', 'take', [X, ix([-3, 2, 5])], {'axis': -1}, grad=[0]),
    case('take-wrap-axis-last', 'take', [X, ix([-3, 2, 5], np.int32)],
         {'axis': -1, 'mode': 'wrap'}, grad=[0]),
    case('take-clip-int64', 'take', [A, ix([-2, 9], np.int64)], grad=[0]),
    case('take-raise-past', 'take', [A, ix([0, 4])], {'mode': 'raise'}, check='error'),
    case('take-raise-negative', 'take', [X, ix([1, -1])], {'axis': 1, 'mode': 'raise'},
         check='error'),
    # pick
    case('pick-clip-axis0', 'pick', [A, ix([-3, 7, 2])], {'axis': 0}, grad=[0]),
    case('pick-wrap-axis0', 'pick', [A, ix([-3, 7, 2])], {'axis': 0, 'mode': 'wrap'},
         grad=[0]),
    case('pick-clip-3d', 'pick', [X, ix([[-1, 9, 3, 0]] * 3)], {'axis': 2, 'keepdims': True},
         grad=[0]),
    case('pick-wrap-3d', 'pick', [X, ix([[-1, 9, 3, 0]] * 3, np.int32)],
         {'axis': 2, 'mode': 'wrap'}, grad=[0]),
    # batch_take clips
    case('batch_take-oob', 'batch_take', [A, ix([-4, 3, 9, -1], np.int32)]),
    # Embedding clips, forward and gradient
    case('Embedding-oob', 'Embedding', [OOB, W], {'input_dim': 5, 'output_dim': 3},
         grad=[1]),
    case('Embedding-oob-int32', 'Embedding', [ix([[6, -2], [4, 0]], np.int32), W],
         {'input_dim': 5, 'output_dim': 3}, grad=[1]),
    # one_hot and onehot_encode: an index outside [0, depth) gives a row of off_value
    case('one_hot-oob-values', 'one_hot', [ix([[-1, 4], [2, 9]], np.int32)],
         {'depth': 4, 'on_value': 3.0, 'off_value': -1.0}),
    case('one_hot-oob-int64', 'one_hot', [ix([-5, 0, 3, 4], np.int64)],
         {'depth': 4, 'dtype': 'int32'}),
    case('onehot_encode-oob', 'onehot_encode', [ix([-1, 0, 3, 5]), np.zeros((4, 4), np.float32)]),
    # gather_nd: negative indices count from the end; beyond [-size, size) raises
    case('gather_nd-neg-full', 'gather_nd', [A, ix([[-4, -1, 3], [-3, -1, 0]])]),
    case('gather_nd-neg-slices', 'gather_nd', [X, ix([[-1, -3], [-4, 0]])]),
    case('gather_nd-past', 'gather_nd', [A, ix([[0, 3, 2, 5], [1, 1, 1, 1]])], check='error'),
    case('gather_nd-below', 'gather_nd', [A, ix([[0, 1], [1, -4]])], check='error'),
    case('gather_nd-past-axis1', 'gather_nd', [X, ix([[0, 2], [4, 1]], np.int32)],
         check='error'),
    # scatter_nd / _scatter_set_nd: MXNet turns a multi-index into a flat offset without
    # checking each axis, so (1, -1) lands on (0, 3); offsets outside the array (which MXNet
    # writes outside its buffer, and mxcompat drops) have no MXNet result to compare with
    case('scatter_nd-alias', 'scatter_nd', [ix([1, 2, 3, 4]), ix([[1, 0, -1, 2], [-1, 4, 5, 0]])],
         {'shape': (3, 4)}),
    # fill_element_0index: an index outside [0, columns) fills nothing
    case('fill_element_0index-oob', 'fill_element_0index',
         [A, ix([10, 20, 30, 40]), ix([-1, 3, 2, 7])]),
    # SequenceMask: lengths beyond the axis mask nothing (MXNet writes outside its buffer for
    # negative lengths)
    case('SequenceMask-oob', 'SequenceMask', [X, ix([0, 9, 2, 4])],
         {'use_sequence_length': True, 'value': -2.0}, grad=[0]),
    case('SequenceMask-oob-axis1', 'SequenceMask', [X, ix([7, 0, 5])],
         {'use_sequence_length': True, 'axis': 1}, grad=[0]),
    # SequenceReverse: a zero length leaves the sequence as it is (MXNet reads outside its
    # buffer for lengths beyond the axis, and SequenceLast for zero lengths)
    case('SequenceReverse-zero', 'SequenceReverse', [X, ix([0, 3, 1, 0])],
         {'use_sequence_length': True}, grad=[0]),
    # ravel/unravel: plain arithmetic on out-of-range values, as MXNet computes it
    case('ravel-oob', 'ravel_multi_index', [ix([[-1, 3, 5, 0], [2, -7, 9, 4]])],
         {'shape': (3, 4)}),
    case('unravel-oob', 'unravel_index', [ix([-1, 13, 30, -13])], {'shape': (3, 4)}),
    # boolean_mask: any non-zero value (negative too) keeps the row
    case('boolean_mask-values', 'contrib.boolean_mask', [A, ix([0, -2, 0.5, 3])]),
    # SoftmaxOutput: a label outside [0, classes) marks no class in the gradient
    case('SoftmaxOutput-oob-label', 'SoftmaxOutput', [A, ix([1, 5, -1, 2])], grad=[0]),
]

# error cases whose exception type and message the fixture writer records
ERRORS = [c for c in CASES if c['check'] == 'error']
