"""Cases for mxcompat/ops/sequence.py (SequenceMask, SequenceLast, SequenceReverse)."""
import numpy as np

from . import case, rng


def f32(cid, *shape, dtype=np.float32):
    return rng(cid).uniform(-1, 1, size=shape).astype(dtype)


D = f32('seq-d', 4, 3, 2)          # (max_len, batch, feature)
DB = f32('seq-db', 3, 4, 2)        # (batch, max_len, feature)
L3 = np.array([2, 4, 1], np.float32)
LB = np.array([1, 3, 4], np.float32)
D4 = f32('seq-d4', 3, 2, 2, 3)

CASES = [
    case('SequenceMask-nolen', 'SequenceMask', [D], grad=[0]),
    case('SequenceMask', 'SequenceMask', [D, L3], {'use_sequence_length': True}, grad=[0]),
    case('SequenceMask-value', 'SequenceMask', [D, L3],
         {'use_sequence_length': True, 'value': -1.5}, grad=[0]),
    case('SequenceMask-axis1', 'SequenceMask', [DB, LB],
         {'use_sequence_length': True, 'axis': 1, 'value': 7.0}, grad=[0]),
    case('SequenceMask-4d', 'SequenceMask', [D4, np.array([3, 0], np.float32)],
         {'use_sequence_length': True}, grad=[0]),
    case('SequenceMask-2d', 'SequenceMask', [f32('sm2', 3, 2), np.array([1, 2], np.float32)],
         {'use_sequence_length': True, 'value': 1.0}),
    case('SequenceMask-int-len', 'SequenceMask', [D, np.array([3, 1, 4], np.int32)],
         {'use_sequence_length': True}, grad=[0]),
    case('SequenceMask-float-len', 'SequenceMask', [D, np.array([2.7, 0.2, 3.5], np.float32)],
         {'use_sequence_length': True}),
    case('SequenceMask-f64', 'SequenceMask', [D.astype(np.float64), L3.astype(np.float64)],
         {'use_sequence_length': True, 'value': 0.5}, grad=[0]),
    case('SequenceMask-int-data', 'SequenceMask',
         [np.arange(24).reshape(4, 3, 2).astype(np.int32), np.array([1, 2, 3], np.int32)],
         {'use_sequence_length': True, 'value': -1.7}),
    case('SequenceMask-axis2', 'SequenceMask', [D, L3],
         {'use_sequence_length': True, 'axis': 2}, check='error'),
    case('SequenceMask-missing-len', 'SequenceMask', [D], {'use_sequence_length': True},
         check='error'),
    case('SequenceMask-unused-len', 'SequenceMask', [D, L3], check='error'),
    case('SequenceMask-1d', 'SequenceMask', [f32('sm1', 4)], check='error'),

    # MXNet's SequenceLast backward without sequence_length reads uninitialised lengths
    case('SequenceLast-nolen', 'SequenceLast', [D]),
    case('SequenceLast', 'SequenceLast', [D, L3], {'use_sequence_length': True}, grad=[0]),
    case('SequenceLast-axis1', 'SequenceLast', [DB, LB],
         {'use_sequence_length': True, 'axis': 1}, grad=[0]),
    case('SequenceLast-axis1-nolen', 'SequenceLast', [DB], {'axis': 1}),
    case('SequenceLast-4d', 'SequenceLast', [D4, np.array([3, 1], np.int32)],
         {'use_sequence_length': True}, grad=[0]),
    case('SequenceLast-2d', 'SequenceLast', [f32('sl2', 3, 2), np.array([1, 3], np.float32)],
         {'use_sequence_length': True}, grad=[0]),
    case('SequenceLast-float-len', 'SequenceLast', [D, np.array([2.9, 1.1, 4.0], np.float32)],
         {'use_sequence_length': True}),
    case('SequenceLast-axis2', 'SequenceLast', [D], {'axis': 2}, check='error'),

    case('SequenceReverse-nolen', 'SequenceReverse', [D], grad=[0]),
    case('SequenceReverse', 'SequenceReverse', [D, L3], {'use_sequence_length': True},
         grad=[0]),
    case('SequenceReverse-4d', 'SequenceReverse', [D4, np.array([2, 0], np.float32)],
         {'use_sequence_length': True}, grad=[0]),
    case('SequenceReverse-int-len', 'SequenceReverse', [D, np.array([4, 3, 2], np.int32)],
         {'use_sequence_length': True}, grad=[0]),
    case('SequenceReverse-int-data', 'SequenceReverse',
         [np.arange(12).reshape(4, 3).astype(np.int64), np.array([3, 1, 4], np.int64)],
         {'use_sequence_length': True}),
    case('SequenceReverse-axis1', 'SequenceReverse', [D], {'axis': 1}, check='error'),
]
