"""Cases for mxcompat/ops/matmul.py (dot, batch_dot, khatri_rao, im2col, col2im)."""
import numpy as np

from . import case, rng


def f32(cid, *shape, dtype=np.float32):
    return rng(cid).uniform(-1, 1, size=shape).astype(dtype)


DOT = [
    case('dot-2d', 'dot', [f32('a23', 2, 3), f32('b34', 3, 4)], grad=[0, 1]),
    case('dot-ta', 'dot', [f32('a32', 3, 2), f32('b34', 3, 4)], {'transpose_a': True},
         grad=[0, 1]),
    case('dot-tb', 'dot', [f32('a23', 2, 3), f32('b43', 4, 3)], {'transpose_b': True},
         grad=[0, 1]),
    case('dot-ta-tb', 'dot', [f32('a32', 3, 2), f32('b43', 4, 3)],
         {'transpose_a': True, 'transpose_b': True}, grad=[0, 1]),
    case('dot-1d-1d', 'dot', [f32('v1', 5), f32('v2', 5)], grad=[0, 1]),
    case('dot-1d-2d', 'dot', [f32('v3', 3), f32('b34', 3, 4)], grad=[0, 1]),
    case('dot-2d-1d', 'dot', [f32('a23', 2, 3), f32('v3', 3)], grad=[0, 1]),
    case('dot-1d-2d-ta', 'dot', [f32('v3', 3), f32('b34', 3, 4)], {'transpose_a': True},
         grad=[0, 1]),
    case('dot-2d-1d-tb', 'dot', [f32('a23', 2, 3), f32('v3', 3)], {'transpose_b': True},
         grad=[0, 1]),
    case('dot-3d-2d', 'dot', [f32('a234', 2, 3, 4), f32('b45', 4, 5)], grad=[0, 1]),
    case('dot-3d-3d', 'dot', [f32('a234', 2, 3, 4), f32('b452', 4, 5, 2)], grad=[0, 1]),
    case('dot-3d-ta', 'dot', [f32('a234', 2, 3, 4), f32('b25', 2, 5)], {'transpose_a': True},
         grad=[0, 1]),
    case('dot-3d-tb', 'dot', [f32('a23', 2, 3), f32('b543', 5, 4, 3)], {'transpose_b': True},
         grad=[0, 1]),
    case('dot-f64', 'dot', [f32('a23', 2, 3, dtype=np.float64), f32('b34', 3, 4, dtype=np.float64)],
         grad=[0, 1]),
    case('dot-fluent-none-stype', 'dot', [f32('a23', 2, 3), f32('b34', 3, 4)],
         {'forward_stype': 'default'}),
    case('dot-shape-error', 'dot', [f32('a23', 2, 3), f32('b43', 4, 3)], check='error'),
    case('dot-transpose-vectors', 'dot', [f32('v1', 5), f32('v2', 5)], {'transpose_a': True},
         check='error'),
    case('dot-int', 'dot', [np.ones((2, 2), np.int32), np.ones((2, 2), np.int32)],
         check='error'),
    case('dot-mixed-dtype', 'dot', [f32('a23', 2, 3), f32('b34', 3, 4, dtype=np.float64)],
         check='error'),
    case('dot-bad-stype', 'dot', [f32('a23', 2, 3), f32('b34', 3, 4)],
         {'forward_stype': 'dense'}, check='error'),

    case('batch_dot', 'batch_dot', [f32('ba', 2, 3, 4), f32('bb', 2, 4, 5)], grad=[0, 1]),
    case('batch_dot-ta', 'batch_dot', [f32('bta', 2, 4, 3), f32('bb', 2, 4, 5)],
         {'transpose_a': True}, grad=[0, 1]),
    case('batch_dot-tb', 'batch_dot', [f32('ba', 2, 3, 4), f32('btb', 2, 5, 4)],
         {'transpose_b': True}, grad=[0, 1]),
    case('batch_dot-ta-tb', 'batch_dot', [f32('bta', 2, 4, 3), f32('btb', 2, 5, 4)],
         {'transpose_a': True, 'transpose_b': True}, grad=[0, 1]),
    case('batch_dot-4d', 'batch_dot', [f32('b4a', 2, 2, 3, 4), f32('b4b', 2, 2, 4, 1)],
         grad=[0, 1]),
    case('batch_dot-f64', 'batch_dot', [f32('ba', 2, 3, 4, dtype=np.float64),
                                        f32('bb', 2, 4, 5, dtype=np.float64)], grad=[0, 1]),
    case('batch_dot-2d', 'batch_dot', [f32('a23', 2, 3), f32('b34', 3, 4)], check='error'),
    case('batch_dot-batch-mismatch', 'batch_dot', [f32('ba', 2, 3, 4), f32('bb3', 3, 4, 5)],
         check='error'),
    case('batch_dot-k-mismatch', 'batch_dot', [f32('ba', 2, 3, 4), f32('ba', 2, 3, 4)],
         check='error'),
]

KR = [
    case('khatri_rao', 'khatri_rao', [np.array([[1, -1], [2, -3]], np.float32),
                                      np.array([[1, 4], [2, 5], [3, 6]], np.float32)]),
    case('khatri_rao-3', 'khatri_rao', [f32('k1', 2, 3), f32('k2', 1, 3), f32('k3', 3, 3)]),
    case('khatri_rao-1', 'khatri_rao', [f32('k1', 2, 3)]),
    case('khatri_rao-f64', 'khatri_rao', [f32('k4', 2, 2, dtype=np.float64),
                                          f32('k5', 3, 2, dtype=np.float64)]),
    case('khatri_rao-cols', 'khatri_rao', [f32('k1', 2, 3), f32('k5', 3, 2)], check='error'),
]

IM = [
    case('im2col-2d', 'im2col', [f32('im2', 2, 3, 5, 4)], {'kernel': (2, 3)}, grad=[0]),
    case('im2col-2d-params', 'im2col', [f32('im2', 2, 3, 5, 4)],
         {'kernel': (3, 2), 'stride': (2, 1), 'dilate': (1, 2), 'pad': (1, 2)}, grad=[0]),
    # MXNet 1.9.1 declares 1-D and 3-D kernels but fails on them
    case('im2col-1d', 'im2col', [f32('im1', 2, 2, 7)], {'kernel': (3,)}, check='error'),
    case('im2col-3d', 'im2col', [f32('im3', 1, 2, 4, 3, 5)], {'kernel': (2, 2, 3)},
         check='error'),
    case('im2col-f64', 'im2col', [f32('im2', 1, 2, 4, 4, dtype=np.float64)],
         {'kernel': (2, 2), 'stride': (2, 2)}, grad=[0]),
    case('im2col-too-big', 'im2col', [f32('im2', 1, 1, 3, 3)], {'kernel': (4, 4)},
         check='error'),
    case('im2col-stride-ndim', 'im2col', [f32('im2', 1, 1, 3, 3)],
         {'kernel': (2, 2), 'stride': (1,)}, check='error'),

    case('col2im-2d', 'col2im', [f32('c2', 2, 3 * 6, 8)],
         {'output_size': (5, 4), 'kernel': (2, 3)}, grad=[0]),
    case('col2im-2d-params', 'col2im', [f32('c2p', 1, 2 * 6, 18)],
         {'output_size': (5, 4), 'kernel': (3, 2), 'stride': (2, 1), 'dilate': (1, 2),
          'pad': (1, 2)}, grad=[0]),
    case('col2im-1d', 'col2im', [f32('c1', 2, 2 * 3, 3)],
         {'output_size': (7,), 'kernel': (3,), 'stride': (2,), 'pad': (1,), 'dilate': (2,)},
         check='error'),
    case('col2im-bad-size', 'col2im', [f32('c2', 2, 18, 11)],
         {'output_size': (5, 4), 'kernel': (2, 3)}, check='error'),
]

CASES = DOT + KR + IM
