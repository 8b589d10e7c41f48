"""Cases for mxcompat/ops/indexing.py, and for NDArray.__getitem__."""
import numpy as np

from . import case, rng


def f32(cid, *shape, lo=-1, hi=1, dtype=np.float32):
    return rng(cid).uniform(lo, hi, size=shape).astype(dtype)


def ar(*shape, dtype=np.float32):
    return np.arange(int(np.prod(shape))).reshape(shape).astype(dtype)


def ix(values, dtype=np.float32):
    return np.array(values, dtype=dtype)


X = f32('x345', 3, 4, 5)

SLICE = [
    case('slice-basic', 'slice', [X], {'begin': (0, 1), 'end': (2, 3)}, grad=[0]),
    case('slice-none-negstep', 'slice', [X],
         {'begin': (None, -1), 'end': (None, None), 'step': (None, -2)}, grad=[0]),
    case('slice-steps-3d', 'slice', [X],
         {'begin': (2, 0, 4), 'end': (None, 4, 0), 'step': (-1, 3, -2)}, grad=[0]),
    case('slice-clip-bounds', 'slice', [X], {'begin': (-10, 2), 'end': (10, 100)}, grad=[0]),
    case('slice-negstep-bounds', 'slice', [X],
         {'begin': (5, -1), 'end': (None, -10), 'step': (-1, -1)}, grad=[0]),
    case('slice-empty', 'slice', [X], {'begin': (1,), 'end': (0,)}),
    case('slice-int-begin', 'slice', [X], {'begin': 1, 'end': 2}),
    case('slice-string-params', 'slice', [X], {'begin': '(0, None)', 'end': '(1, None)'}),
    case('slice-empty-step', 'slice', [X], {'begin': (0, 1), 'end': (2, 3), 'step': ()}),
    case('slice-int32', 'slice', [ar(4, 5, dtype=np.int32)], {'begin': (1, None), 'end': (3, None),
                                                              'step': (1, -1)}),
    case('slice-float64', 'slice', [f32('s64', 6, dtype=np.float64)],
         {'begin': (1,), 'end': (6,), 'step': (2,)}, grad=[0]),
    case('slice-float16', 'slice', [f32('s16', 4, 3, dtype=np.float16)],
         {'begin': (None, 1), 'end': (None, 3)}, grad=[0], rtol=1e-3, atol=1e-3),
    case('crop', 'crop', [X], {'begin': (1, 0, 1), 'end': (3, 2, 4)}, grad=[0]),
    case('slice-fluent', 'NDArray.slice', [X], {'begin': (0, 1), 'end': (2, None)}, grad=[0]),
    case('slice-step-zero', 'slice', [X], {'begin': (0,), 'end': (2,), 'step': (0,)},
         check='error'),
    case('slice-len-mismatch', 'slice', [X], {'begin': (0,), 'end': (1, 2)}, check='error'),
    case('slice-too-many-axes', 'slice', [X], {'begin': (0, 0, 0, 0), 'end': (1, 1, 1, 1)},
         check='error'),
    case('slice-step-len', 'slice', [X], {'begin': (0, 0), 'end': (1, 1), 'step': (1,)},
         check='error'),
    case('slice-missing-end', 'slice', [X], {'begin': (0,)}, check='error'),

    case('slice_axis', 'slice_axis', [X], {'axis': 1, 'begin': 1, 'end': 3}, grad=[0]),
    case('slice_axis-neg', 'slice_axis', [X], {'axis': -1, 'begin': -3, 'end': None}, grad=[0]),
    case('slice_axis-neg-end', 'slice_axis', [X], {'axis': 0, 'begin': 0, 'end': -1}),
    case('slice_axis-int', 'slice_axis', [ar(3, 4, dtype=np.int64)],
         {'axis': 1, 'begin': 2, 'end': 4}),
    case('slice_axis-fluent', 'NDArray.slice_axis', [X], {'axis': 2, 'begin': 1, 'end': 2}),
    case('slice_axis-empty', 'slice_axis', [X], {'axis': 1, 'begin': 2, 'end': 2},
         check='error'),
    case('slice_axis-end-big', 'slice_axis', [X], {'axis': 1, 'begin': 0, 'end': 9},
         check='error'),
    case('slice_axis-bad-axis', 'slice_axis', [X], {'axis': 3, 'begin': 0, 'end': 1},
         check='error'),

    case('slice_like', 'slice_like', [X, np.zeros((2, 3, 4), np.float32)], grad=[0]),
    case('slice_like-axes', 'slice_like', [X, np.zeros((1, 2, 3), np.float32)],
         {'axes': (0, 2)}, grad=[0, 1]),
    case('slice_like-negaxes', 'slice_like', [X, np.zeros((2, 2), np.float32)],
         {'axes': (-2,)}, grad=[0]),
    case('slice_like-fluent', 'NDArray.slice_like', [X, np.zeros((3, 1, 2), np.float32)]),
    case('slice_like-too-big', 'slice_like', [X, np.zeros((4, 4, 5), np.float32)],
         check='error'),
    case('slice_like-ndim', 'slice_like', [X, np.zeros((2, 2), np.float32)], check='error'),
]

ASSIGN = [
    case('slice_assign', '_internal._slice_assign', [X, f32('sa-r', 2, 2, 5)],
         {'begin': (0, 1), 'end': (2, 3)}),
    case('slice_assign-negstep', '_internal._slice_assign', [X, f32('sa-r2', 3, 2, 5)],
         {'begin': (None, 3), 'end': (None, 0), 'step': (-1, -2)}),
    case('crop_assign', '_internal._crop_assign', [X, f32('ca-r', 1, 4, 2)],
         {'begin': (1, None, 0), 'end': (2, None, 4), 'step': (None, None, 3)}),
    case('slice_assign-int', '_internal._slice_assign',
         [ar(3, 4, dtype=np.int32), np.full((3, 2), -7, np.int32)],
         {'begin': (None, 1), 'end': (None, 3)}),
    case('slice_assign-bad-shape', '_internal._slice_assign', [X, f32('sa-b', 2, 2, 4)],
         {'begin': (0, 1), 'end': (2, 3)}, check='error'),
    case('slice_assign_scalar', '_internal._slice_assign_scalar', [X],
         {'scalar': 2.5, 'begin': (1, None), 'end': (3, None), 'step': (1, -2)}),
    case('slice_assign_scalar-default', '_internal._slice_assign_scalar', [X],
         {'begin': (0,), 'end': (1,)}),
    case('slice_assign_scalar-int', '_internal._slice_assign_scalar',
         [ar(3, 4, dtype=np.int32)], {'scalar': 2.7, 'begin': (0, 0), 'end': (2, 2)}),
    case('crop_assign_scalar', '_internal._crop_assign_scalar', [X],
         {'scalar': -1.0, 'begin': (None, None, 1), 'end': (None, None, 3)}),
    case('slice_assign-fluent', 'NDArray.slice_assign', [X, f32('sa-f', 1, 4, 5)],
         {'begin': (0,), 'end': (1,), 'step': (None,)}),
    case('slice_assign_scalar-fluent', 'NDArray.slice_assign_scalar', [X, 3.0],
         {'begin': (0, 0), 'end': (1, 1), 'step': (None, None)}),
]

A = f32('take-a', 4, 3)
TAKE = [
    case('take-clip', 'take', [A, ix([[0, 5], [-1, 2], [3, 3]])], grad=[0]),
    case('take-wrap', 'take', [A, ix([4, -1, 7, 1, 1])], {'mode': 'wrap'}, grad=[0]),
    case('take-axis1', 'take', [X, ix([[2, 0], [1, 1]])], {'axis': 1}, grad=[0]),
    case('take-axis-neg', 'take', [X, ix([4, 0, 6])], {'axis': -1, 'mode': 'wrap'}, grad=[0]),
    case('take-raise-ok', 'take', [A, ix([0, 3, 2], np.int32)], {'mode': 'raise'}, grad=[0]),
    case('take-raise-bad', 'take', [A, ix([0, 4])], {'mode': 'raise'}, check='error'),
    case('take-raise-neg', 'take', [A, ix([-1])], {'mode': 'raise'}, check='error'),
    case('take-float-idx', 'take', [A, ix([1.7, -0.5, 2.2])], grad=[0]),
    case('take-int64-idx', 'take', [A, ix([3, 0], np.int64)], grad=[0]),
    case('take-int-data', 'take', [ar(5, 2, dtype=np.int32), ix([4, 1, 9])]),
    case('take-1d', 'take', [f32('t1', 6), ix([[5, 0], [2, 2]])], grad=[0]),
    case('take-float64', 'take', [f32('t64', 3, 2, dtype=np.float64), ix([2, 2, 0])], grad=[0]),
    case('take-fluent', 'NDArray.take', [A, ix([1, 2])], {'axis': 0}),
    case('take-bad-axis', 'take', [A, ix([0])], {'axis': 2}, check='error'),
    case('take-bad-mode', 'take', [A, ix([0])], {'mode': 'nearest'}, check='error'),
    case('take-idx-grad', 'take', [A, ix([1, 0, 1])], grad=[0, 1]),

    case('pick', 'pick', [A, ix([0, 2, 1, 2])], grad=[0]),
    case('pick-keepdims', 'pick', [A, ix([0, 2, 1, 2])], {'keepdims': True}, grad=[0]),
    case('pick-clip', 'pick', [A, ix([-1, 5, 1, 2])], grad=[0]),
    case('pick-wrap', 'pick', [A, ix([-1, 5, 1, 3])], {'mode': 'wrap'}, grad=[0]),
    case('pick-axis0', 'pick', [A, ix([3, 0, 1])], {'axis': 0}, grad=[0]),
    case('pick-kept-index', 'pick', [X, ix([[[0], [4], [2], [1]]] * 3)], {'axis': 2}, grad=[0]),
    case('pick-3d-axis1', 'pick', [X, ix([[0, 3, 1, 1, 2]] * 3, np.int32)], {'axis': 1,
                                                                              'keepdims': True}),
    case('pick-fluent', 'NDArray.pick', [A, ix([1, 1, 0, 0])]),
    # 1-D data: MXNet's result has shape (1,) with or without keepdims, for an index of
    # shape (1,) or ()
    case('pick-1d', 'pick', [f32('pick-1d', 4), ix([2])], {'axis': 0}, grad=[0]),
    case('pick-1d-scalar-index', 'pick', [f32('pick-1d', 4), ix(5)], {'axis': -1,
                                                                        'mode': 'wrap'},
         grad=[0]),
    case('pick-1d-keepdims', 'pick', [f32('pick-1d', 4), ix([1])], {'axis': 0,
                                                                      'keepdims': True}),
    case('choose_element_0index', 'choose_element_0index', [A, ix([2, 1, 0, 0])], grad=[0]),
    case('pick-axis-none', 'pick', [A, ix([0])], {'axis': None}, check='error'),
    case('pick-bad-index-shape', 'pick', [A, ix([0, 1])], check='error'),
    # index shapes torch's gather accepts: wider along the axis, smaller or larger elsewhere
    case('pick-wide-kept-index', 'pick', [A, ix([[0, 1]] * 4)], check='error'),
    case('pick-short-kept-index', 'pick', [X, ix([[[0], [1]]] * 3)], {'axis': 2},
         check='error'),
    case('pick-deep-index', 'pick', [A, ix([[[0], [1], [2], [0]]])], check='error'),

    case('batch_take', 'batch_take', [A, ix([0, 2, 5, -1], np.int32)]),
    case('batch_take-float-idx', 'batch_take', [A, ix([0, 2, 1, 1])], check='error'),
]

D = f32('gnd', 3, 4, 2)
GATHER = [
    case('gather_nd-full', 'gather_nd', [D, ix([[0, 2, 1], [3, 0, 1], [1, 1, 0]])], grad=[0]),
    case('gather_nd-slices', 'gather_nd', [D, ix([[[0, 2], [1, 0]]])], grad=[0]),
    case('gather_nd-2', 'gather_nd', [D, ix([[0, 2], [3, 1]], np.int32)], grad=[0]),
    # MXNet's backward of gather_nd does not wrap negative indices (it writes out of bounds)
    case('gather_nd-neg', 'gather_nd', [D, ix([[-1, 0], [-4, 3]])]),
    case('gather_nd-repeat', 'gather_nd', [D, ix([[1, 1, 1, 0], [2, 2, 2, 2]])], grad=[0]),
    case('gather_nd-int', 'gather_nd', [ar(3, 4, dtype=np.int64), ix([[2, 0], [1, 3]])]),
    case('gather_nd-1d-idx', 'gather_nd', [D, ix([1, 0])], check='error'),
    case('gather_nd-oob', 'gather_nd', [D, ix([[0, 3], [0, 1]])], check='error'),
    case('gather_nd-too-many', 'gather_nd', [D, ix([[0], [0], [0], [0]])], check='error'),

    case('scatter_nd', 'scatter_nd', [f32('snd', 3), ix([[1, 1, 0], [0, 1, 0]])],
         {'shape': (2, 2)}, grad=[0]),
    case('scatter_nd-slices', 'scatter_nd', [f32('snd2', 2, 2, 2), ix([[0, 1], [1, 1]])],
         {'shape': (2, 2, 2, 2)}, grad=[0]),
    case('scatter_nd-int', 'scatter_nd', [ix([5, 6], np.int32), ix([[2, 0]], np.int32)],
         {'shape': (4,)}),
]

ONEHOT = [
    case('one_hot', 'one_hot', [ix([1, 0, 2, 0])], {'depth': 3}),
    case('one_hot-oob', 'one_hot', [ix([1, -1, 5, 2.7])], {'depth': 4}),
    case('one_hot-values', 'one_hot', [ix([[1, 0], [3, 2]], np.int32)],
         {'depth': 4, 'on_value': 2.5, 'off_value': -1.0}),
    case('one_hot-int32', 'one_hot', [ix([1, 0])],
         {'depth': 3, 'on_value': 2.7, 'off_value': -1.2, 'dtype': 'int32'}),
    case('one_hot-float64', 'one_hot', [ix([2, 0], np.int64)], {'depth': 3, 'dtype': 'float64'}),
    case('one_hot-uint8', 'one_hot', [ix([2, 0])], {'depth': 3, 'dtype': np.uint8}),
    case('one_hot-float16', 'one_hot', [ix([1])], {'depth': 2, 'dtype': 'float16',
                                                   'on_value': 0.5}),
    case('one_hot-fluent', 'NDArray.one_hot', [ix([2, 1])], {'depth': 4}),
    case('one_hot-depth0', 'one_hot', [ix([0, 1])], {'depth': 0}),
    case('one_hot-bad-dtype', 'one_hot', [ix([0])], {'depth': 2, 'dtype': 'uint16'},
         check='error'),
    case('one_hot-no-depth', 'one_hot', [ix([0])], check='error'),
    case('onehot_encode', '_internal._onehot_encode', [ix([1, 3, 0, 9]),
                                                       np.zeros((4, 5), np.float32)]),
    case('onehot_encode-f64', '_internal._onehot_encode', [ix([2, 0]),
                                                           np.zeros((2, 3), np.float64)],
         check='error'),
    case('fill_element_0index', 'fill_element_0index',
         [ar(3, 4), ix([10, 20, 30]), ix([1, 3, 0])]),
    case('fill_element_0index-float-idx', 'fill_element_0index',
         [f32('fe', 2, 3), ix([-5, 7]), ix([2.6, 0])]),
]

RAVEL = [
    case('ravel_multi_index', 'ravel_multi_index', [ix([[3, 6, 6], [4, 5, 1]])],
         {'shape': (7, 6)}),
    case('_ravel_multi_index', '_internal._ravel_multi_index',
         [ix([[1, 0], [2, 3], [0, 4]], np.int32)], {'shape': (2, 4, 5)}),
    case('ravel_multi_index-int64', 'ravel_multi_index', [ix([[1, 2]], np.int64)],
         {'shape': (5,)}),
    case('unravel_index', 'unravel_index', [ix([22, 41, 37])], {'shape': (7, 6)}),
    case('_unravel_index', '_internal._unravel_index', [ix([0, 7, 39], np.int32)],
         {'shape': (2, 4, 5)}),
    case('unravel_index-1d', 'unravel_index', [ix([3, 1], np.int64)], {'shape': (5,)}),
    case('ravel-no-shape', 'ravel_multi_index', [ix([[1], [2]])], check='error'),
    case('ravel-bad-rows', 'ravel_multi_index', [ix([[1], [2]])], {'shape': (3, 3, 3)},
         check='error'),
]

# NDArray.__getitem__ (legacy mx.nd indexing): full integer indexing gives shape (1,)
G = f32('getitem', 4, 3, 5)
GETITEM = [
    case('getitem-int', 'NDArray.__getitem__', [G, 1], grad=[0]),
    case('getitem-negint', 'NDArray.__getitem__', [G, -1], grad=[0]),
    case('getitem-int-1d', 'NDArray.__getitem__', [f32('g1', 5), 3], grad=[0]),
    case('getitem-negint-1d', 'NDArray.__getitem__', [f32('g1', 5), -1], grad=[0]),
    case('getitem-full-int', 'NDArray.__getitem__', [G, (1, 2, 3)], grad=[0]),
    case('getitem-full-negint', 'NDArray.__getitem__', [G, (-1, -2, -3)]),
    case('getitem-slice', 'NDArray.__getitem__', [G, slice(1, 3)], grad=[0]),
    case('getitem-slice-step', 'NDArray.__getitem__', [G, slice(None, None, 2)], grad=[0]),
    case('getitem-slice-negstep', 'NDArray.__getitem__', [G, slice(None, None, -1)], grad=[0]),
    case('getitem-slice-neg', 'NDArray.__getitem__', [G, slice(-3, -1)]),
    case('getitem-slice-oob', 'NDArray.__getitem__', [G, slice(2, 100)]),
    case('getitem-tuple', 'NDArray.__getitem__', [G, (1, slice(None), slice(1, 4, 2))],
         grad=[0]),
    case('getitem-tuple-negstep', 'NDArray.__getitem__',
         [G, (slice(None, None, -2), 0, slice(4, 0, -1))], grad=[0]),
    case('getitem-tuple-ints', 'NDArray.__getitem__', [G, (2, 1)], grad=[0]),
    case('getitem-ellipsis', 'NDArray.__getitem__', [G, (Ellipsis, 1)], grad=[0]),
    case('getitem-none', 'NDArray.__getitem__', [G, (None, 1)]),
    case('getitem-nd-float', 'NDArray.__getitem__', [G, ix([0, 3, 3])], grad=[0]),
    case('getitem-nd-int', 'NDArray.__getitem__', [G, ix([[1, 0], [2, 2]], np.int32)],
         grad=[0]),
    case('getitem-nd-int64', 'NDArray.__getitem__', [G, ix([3, 1], np.int64)], grad=[0]),
    case('getitem-list', 'NDArray.__getitem__', [G, [2, 0, 2]], grad=[0]),
    case('getitem-list-neg', 'NDArray.__getitem__', [G, [-1, -4]]),
    case('getitem-tuple-np', 'NDArray.__getitem__', [G, (ix([0, 1], np.int64), slice(None),
                                                         ix([4, 2], np.int64))], grad=[0]),
    case('getitem-tuple-np-float', 'NDArray.__getitem__',
         [G, (slice(1, 3), ix([0, 2, 1]))], grad=[0]),
    case('getitem-tuple-np-int-slice', 'NDArray.__getitem__',
         [G, (1, ix([0, 2], np.int32), slice(None, 3))]),
    case('getitem-tuple-list', 'NDArray.__getitem__', [G, ([0, 1], [2, 0])], grad=[0]),
    case('getitem-np-bool', 'NDArray.__getitem__', [G, np.array([True, False, True, False])],
         check='error'),
    # legacy mode reads numpy/list booleans as the integers 0 and 1
    case('getitem-list-bool', 'NDArray.__getitem__', [G, [True, False, True, False]]),
    case('getitem-tuple-np-bool', 'NDArray.__getitem__',
         [G, (slice(None), np.array([True, False, True]))]),
    case('getitem-int-data', 'NDArray.__getitem__', [ar(3, 4, dtype=np.int32), (1, 2)]),
    case('getitem-int-oob', 'NDArray.__getitem__', [G, 4], check='error'),
    case('getitem-int-oob-1d', 'NDArray.__getitem__', [f32('g1', 5), 5], check='error'),
    case('getitem-too-many', 'NDArray.__getitem__', [G, (0, 0, 0, 0)], check='error'),
]

CASES = SLICE + ASSIGN + TAKE + GATHER + ONEHOT + RAVEL + GETITEM
