"""Cases for mxcompat/ops/elemwise_unary.py."""
import numpy as np

from . import case, rng
from .elemwise_arith import arr, ints

# name, float input range, differentiable
MATH = [
    ('abs', (-2, 2), True), ('sign', (-2, 2), True), ('round', (-3, 3), True),
    ('rint', (-3, 3), True), ('ceil', (-3, 3), True), ('floor', (-3, 3), True),
    ('trunc', (-3, 3), True), ('fix', (-3, 3), True), ('square', (-2, 2), True),
    ('sqrt', (0.1, 3), True), ('rsqrt', (0.1, 3), True), ('cbrt', (-3, 3), True),
    ('rcbrt', (0.2, 3), True), ('exp', (-2, 2), True), ('log', (0.1, 3), True),
    ('log10', (0.1, 3), True), ('log2', (0.1, 3), True), ('log1p', (-0.5, 2), True),
    ('expm1', (-2, 2), True), ('sin', (-3, 3), True), ('cos', (-3, 3), True),
    ('tan', (-1.2, 1.2), True), ('arcsin', (-0.9, 0.9), True), ('arccos', (-0.9, 0.9), True),
    ('arctan', (-3, 3), True), ('sinh', (-2, 2), True), ('cosh', (-2, 2), True),
    ('tanh', (-2, 2), True), ('arcsinh', (-3, 3), True), ('arccosh', (1.1, 3), True),
    ('arctanh', (-0.9, 0.9), True), ('degrees', (-3, 3), True), ('radians', (-200, 200), True),
    ('reciprocal', (0.2, 3), True), ('negative', (-2, 2), True), ('relu', (-2, 2), True),
    ('sigmoid', (-3, 3), True), ('softsign', (-3, 3), True), ('erf', (-2, 2), True),
    ('erfinv', (-0.9, 0.9), True), ('gamma', (0.2, 4), True), ('gammaln', (0.2, 4), True),
    ('logical_not', (-2, 2), False), ('identity', (-2, 2), True),
    ('_internal._copy', (-2, 2), True), ('BlockGrad', (-2, 2), True),
    ('stop_gradient', (-2, 2), True), ('make_loss', (-2, 2), True),
    ('zeros_like', (-2, 2), False), ('ones_like', (-2, 2), False),
]
# f16 values are close to the f32 ones; the x of the steep functions are kept small
F16_TOL = dict(rtol=5e-3, atol=5e-3)


def _math_cases():
    out = []
    for name, (lo, hi), diff in MATH:
        g = [0] if diff else []
        short = name.split('.')[-1]
        out.append(case(short + '-f32', name, [arr(short, (2, 3), lo, hi)], grad=g))
        out.append(case(short + '-f64', name, [arr(short + '64', (2, 3), lo, hi, np.float64)],
                        grad=g))
        out.append(case(short + '-f16', name, [arr(short + '16', (2, 3), lo, hi, np.float16)],
                        **F16_TOL))
        out.append(case(short + '-i32', name, [ints(short + 'i', (3, 4), -5, 9)]))
        out.append(case(short + '-u8', name, [ints(short + 'u', (4,), 0, 9, np.uint8)]))
        # MXNet's tgamma truncates 14! to 87178291199: keep gamma's integers at most 13
        hi_i = 14 if short == 'gamma' else 70
        out.append(case(short + '-i64', name, [ints(short + 'l', (4,), 1, hi_i, np.int64)]))
    return out


HALVES = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.49999997, -0.49999997, 3.7, -3.7,
                   1e7 + 0.5, -0.0], np.float32)

CASES = _math_cases() + [
    case('round-halves', 'round', [HALVES]), case('rint-halves', 'rint', [HALVES]),
    case('fix-halves', 'fix', [HALVES]), case('trunc-halves', 'trunc', [HALVES]),
    case('ceil-halves', 'ceil', [HALVES], grad=[0]), case('floor-halves', 'floor', [HALVES]),
    case('round-grad-halves', 'round', [HALVES], grad=[0]),
    case('abs-zero-grad', 'abs', [np.array([-1.0, 0.0, 2.0], np.float32)], grad=[0]),
    case('sign-zero-grad', 'sign', [np.array([-1.0, 0.0, 2.0], np.float32)], grad=[0]),
    case('relu-zero-grad', 'relu', [np.array([-1.0, 0.0, 2.0], np.float32)], grad=[0]),
    case('relu-nan-inf', 'relu', [np.array([np.nan, -np.inf, np.inf, -1.0, 0.5], np.float32)],
         grad=[0]),
    case('cbrt-cubes', 'cbrt', [np.array([-27, -8, 0, 1, 8, 27, 64, 125, 1000], np.int32)]),
    case('cbrt-cubes-f32', 'cbrt', [np.array([-27, -8, 1, 8, 27, 64, 125, 1000], np.float32)]),
    # MXNet's gradients, of the output (cbrt) or of the input (rcbrt): infinite at 0
    case('cbrt-zero-grad', 'cbrt', [np.array([0.0, -8.0, 27.0, 2.0, -3.3], np.float32)],
         grad=[0]),
    case('rcbrt-zero-grad', 'rcbrt', [np.array([0.0, -8.0, 27.0, 2.0, -3.3], np.float32)],
         grad=[0]),
    # MXNet's gradient of expm1 is exp(x), to the last digits where exp(x) is small
    case('expm1-small-grad', 'expm1',
         [np.array([-7.0, -3.0, -8.58, -2.5, -12.0, 0.5], np.float32)], grad=[0], rtol=1e-6,
         atol=0),
    # MXNet's factors are float32's 180 / pi and pi / 180, also for float64
    case('degrees-f32-last-bit', 'degrees', [arr('degb', (20,), -7, 7)], grad=[0], rtol=1e-8,
         atol=0),
    case('degrees-f64-factor', 'degrees', [arr('degd', (6,), -7, 7, np.float64)], grad=[0],
         rtol=1e-13, atol=0),
    case('radians-f64-factor', 'radians', [arr('radd', (6,), -400, 400, np.float64)],
         grad=[0], rtol=1e-13, atol=0),
    case('softsign-inf-grad', 'softsign',
         [np.array([np.inf, -np.inf, 7.8, -9.3, 0.0, 2.5], np.float32)], grad=[0], rtol=1e-8,
         atol=0),
    # MXNet's gradient at an infinite x is +-1 (and NaN at NaN)
    case('smooth_l1-inf-grad', 'smooth_l1',
         [np.array([np.inf, -np.inf, 0.5, -3.0, np.nan], np.float32)], {'scalar': 2.0},
         grad=[0]),
    # float64 cube roots as MXNet's libm gives them, to a few ulps, over the whole range
    case('cbrt-f64-wide', 'cbrt', [rng('cbrt-wide').uniform(-1, 1, 60) *
                                   10.0 ** rng('cbrt-exp').randint(-300, 300, 60)],
         rtol=1e-15, atol=0),
    case('gamma-negative', 'gamma', [np.array([-0.5, -1.5, -2.5, 0.5, 5.0], np.float32)],
         grad=[0]),
    case('gamma-f64-wide', 'gamma', [np.array([-3.3, 0.1, 1.0, 7.5, 20.0], np.float64)]),
    case('gammaln-negative', 'gammaln', [np.array([-0.5, -1.5, 0.5, 5.0], np.float32)],
         grad=[0]),
    case('erfinv-edges', 'erfinv', [np.array([-1.0, 1.0, 0.0, 0.999, -3.0, 2.0], np.float32)]),
    case('erfinv-int-edges', 'erfinv', [np.array([-3, -1, 0, 1, 2], np.int32)]),
    case('gamma-poles', 'gamma', [np.array([-3.0, -1.0, 0.0, -0.0, 2.0, 0.5, 6.0], np.float32)]),
    case('gamma-int-factorials', 'gamma', [np.arange(-2, 13, dtype=np.int64)]),
    case('sqrt-int-neg', 'sqrt', [np.array([-4, -1, 0, 4, 10], np.int32)]),
    case('hard_sigmoid', 'hard_sigmoid', [arr('hs', (3, 4), -4, 4)], grad=[0]),
    case('hard_sigmoid-ab', 'hard_sigmoid', [arr('hsab', (3, 4), -4, 4)],
         {'alpha': 0.5, 'beta': 0.25}, grad=[0]),
    case('hard_sigmoid-f64', 'hard_sigmoid', [arr('hs64', (2, 3), -4, 4, np.float64)],
         grad=[0]),
    case('hard_sigmoid-f16', 'hard_sigmoid', [arr('hs16', (2, 3), -4, 4, np.float16)],
         **F16_TOL),
    case('hard_sigmoid-edges', 'hard_sigmoid', [np.array([-2.5, 2.5, 0.0, -3.0, 3.0],
                                                         np.float32)], grad=[0]),
    case('hard_sigmoid-int', 'hard_sigmoid', [ints('hsi', (3,))], check='error'),
    case('smooth_l1', 'smooth_l1', [arr('sl1', (3, 4), -3, 3)], grad=[0]),
    case('smooth_l1-sigma', 'smooth_l1', [arr('sl1s', (3, 4), -2, 2)], {'scalar': 2.0},
         grad=[0]),
    case('smooth_l1-sigma-small', 'smooth_l1', [arr('sl1t', (3, 4), -3, 3)], {'scalar': 0.5},
         grad=[0]),
    case('smooth_l1-f64', 'smooth_l1', [arr('sl164', (3,), -3, 3, np.float64)], grad=[0]),
    case('smooth_l1-edge', 'smooth_l1', [np.array([-1.0, 1.0, 0.0], np.float32)], grad=[0]),
    case('clip', 'clip', [arr('clip', (3, 4), -3, 3)], {'a_min': -1.0, 'a_max': 1.5}, grad=[0]),
    case('clip-edges', 'clip', [np.array([-1.0, 1.5, 0.0, -2.0, 2.0], np.float32)],
         {'a_min': -1.0, 'a_max': 1.5}, grad=[0]),
    case('clip-f64', 'clip', [arr('clip64', (3,), -3, 3, np.float64)],
         {'a_min': -1.0, 'a_max': 1.5}, grad=[0]),
    case('clip-f16', 'clip', [arr('clip16', (3,), -3, 3, np.float16)],
         {'a_min': -1.0, 'a_max': 1.5}),
    case('clip-int', 'clip', [ints('clipi', (3, 4))], {'a_min': -1.5, 'a_max': 2.7}),
    case('clip-nan', 'clip', [np.array([np.nan, 5.0, -5.0], np.float32)],
         {'a_min': -1.0, 'a_max': 1.0}),
    # a_min > a_max: MXNet tests x > a_max first (a_max above it, a_min elsewhere)
    case('clip-empty-range', 'clip', [np.array([-2.0, 0.5, 3.0, 0.0, np.nan], np.float32)],
         {'a_min': 1.0, 'a_max': 0.0}, grad=[0]),
    case('clip-int-empty-range', 'clip', [np.array([-2, 0, 1, 3], np.int32)],
         {'a_min': 1.0, 'a_max': 0.0}),
    case('clip-positional', 'clip', [arr('clipp', (2, 2), -3, 3), -0.5, 0.5], grad=[0]),
    case('clip-fluent', 'NDArray.clip', [arr('clipf', (2, 2), -3, 3), -0.5, 0.5], grad=[0]),
    case('clip-missing', 'clip', [arr('clipm', (2, 2))], {'a_min': 0.0}, check='error'),
    case('MakeLoss', 'MakeLoss', [arr('ml', (3, 4))], grad=[0]),
    case('MakeLoss-scale', 'MakeLoss', [arr('mls', (3, 4))], {'grad_scale': 2.5}, grad=[0]),
    case('MakeLoss-batch', 'MakeLoss', [arr('mlb', (3, 4))],
         {'grad_scale': 2.0, 'normalization': 'batch'}, grad=[0]),
    case('MakeLoss-batch-3d', 'MakeLoss', [arr('mlb3', (2, 3, 4))],
         {'normalization': 'batch'}, grad=[0]),
    case('MakeLoss-batch-1d', 'MakeLoss', [arr('mlb1', (5,))],
         {'normalization': 'batch'}, grad=[0]),
    case('MakeLoss-valid', 'MakeLoss', [arr('mlv', (3, 4))],
         {'normalization': 'valid', 'valid_thresh': 0.2}, grad=[0]),
    case('MakeLoss-valid-none', 'MakeLoss', [arr('mlvn', (3, 4), -2, -1)],
         {'normalization': 'valid', 'grad_scale': 3.0}, grad=[0]),
    case('make_loss-f64-grad', 'make_loss', [arr('mkl', (2, 3), -2, 2, np.float64)], grad=[0]),
    case('identity_with_attr_like_rhs', '_internal._identity_with_attr_like_rhs',
         [arr('iwl', (2, 3)), arr('iwr', (2, 3))], grad=[0]),
    case('identity_with_attr_like_rhs-shape', '_internal._identity_with_attr_like_rhs',
         [arr('iwl2', (2, 3)), arr('iwr2', (3, 2))], check='error'),
    case('zeros_like-i64-2d', 'zeros_like', [ints('zl', (2, 2), dtype=np.int64)]),
    case('ones_like-f16-2d', 'ones_like', [arr('ol', (2, 2), dtype=np.float16)]),
    case('Cast-f16', 'Cast', [arr('c1', (2, 3), -3, 3)], {'dtype': 'float16'}, rtol=1e-3,
         atol=1e-3),
    case('Cast-f64-grad', 'Cast', [arr('c2', (2, 3), -3, 3)], {'dtype': 'float64'}, grad=[0]),
    case('Cast-f16-grad', 'Cast', [arr('c2h', (2, 3), -3, 3)], {'dtype': 'float16'}, grad=[0],
         rtol=1e-3, atol=1e-3),
    case('Cast-int32', 'Cast', [arr('c3', (2, 3), -300, 300)], {'dtype': 'int32'}),
    case('Cast-uint8', 'Cast', [np.array([-2.7, 300.0, 1.5, 255.9, 0.2], np.float32)],
         {'dtype': 'uint8'}),
    case('Cast-int8', 'Cast', [np.array([-2.7, 100.0, 1.5, -128.9], np.float32)],
         {'dtype': 'int8'}),
    case('Cast-bool', 'Cast', [np.array([-2.7, 0.0, 1.5], np.float32)], {'dtype': 'bool'}),
    case('Cast-np-dtype', 'Cast', [ints('c4', (3,))], {'dtype': np.float64}),
    case('cast', 'cast', [ints('c5', (3,), dtype=np.int64)], {'dtype': 'float32'}),
    case('Cast-same', 'Cast', [arr('c6', (3,))], {'dtype': 'float32'}, grad=[0]),
    case('Cast-missing-dtype', 'Cast', [arr('c7', (3,))], check='error'),
    case('amp_cast', 'amp_cast', [arr('ac', (2, 3))], {'dtype': 'float16'}, rtol=1e-3, atol=1e-3),
    case('amp_cast-int', 'amp_cast', [ints('aci', (3,))], {'dtype': 'float16'}),
    # the oracle's MKLDNN build cannot run amp_cast/amp_multicast between float16 and float64
    case('amp_multicast-narrow', 'amp_multicast', [arr('amn1', (2,)), arr('amn2', (3,))],
         {'num_outputs': 2, 'cast_narrow': True}, grad=[0, 1]),
    case('amp_multicast-grad', 'amp_multicast', [arr('amg1', (2,)), arr('amg2', (3,))],
         {'num_outputs': 2}, grad=[0, 1]),
    case('add_n', 'add_n', [arr('an1', (2, 3)), arr('an2', (2, 3)), arr('an3', (2, 3))],
         grad=[0, 1, 2]),
    case('add_n-one', 'add_n', [arr('an4', (2, 3))], grad=[0]),
    case('add_n-two-int', 'add_n', [ints('an5', (2, 3)), ints('an6', (2, 3))]),
    case('add_n-f16', 'add_n', [arr('an7', (4,), dtype=np.float16),
                                arr('an8', (4,), dtype=np.float16)], **F16_TOL),
    case('add_n-shape-error', 'add_n', [arr('an9', (2, 3)), arr('an10', (3,))], check='error'),
    case('ElementWiseSum', 'ElementWiseSum', [arr('es1', (2, 2)), arr('es2', (2, 2))],
         grad=[0, 1]),
    case('where', 'where', [rng('wc').randint(0, 2, (2, 3)).astype(np.float32),
                            arr('wx', (2, 3)), arr('wy', (2, 3))], grad=[1, 2]),
    case('where-1d', 'where', [np.array([1.0, 0.0, -2.0], np.float32),
                               arr('wx1', (3, 2)), arr('wy1', (3, 2))], grad=[1, 2]),
    case('where-int-cond', 'where', [np.array([[0, 3], [-1, 0]], np.int32),
                                     arr('wx2', (2, 2)), arr('wy2', (2, 2))], grad=[1, 2]),
    case('where-int-values', 'where', [np.array([1.0, 0.0], np.float32),
                                       ints('wx3', (2,)), ints('wy3', (2,))]),
    case('where-kwargs', 'where', kwargs={'condition': np.array([0.0, 1.0], np.float32),
                                          'x': arr('wx4', (2,)), 'y': arr('wy4', (2,))},
         grad=['x', 'y']),
    case('where-bad-cond', 'where', [np.ones((2,), np.float32), arr('wx5', (3, 2)),
                                     arr('wy5', (3, 2))], check='error'),
    case('where-xy-shape', 'where', [np.ones((3,), np.float32), arr('wx6', (3, 2)),
                                     arr('wy6', (3, 3))], check='error'),
    case('all_finite', 'all_finite', [arr('af', (2, 3))]),
    case('all_finite-inf', 'all_finite', [np.array([1.0, np.inf], np.float32)]),
    case('all_finite-nan-f16', 'all_finite', [np.array([1.0, np.nan], np.float16)]),
    case('multi_all_finite', 'multi_all_finite', [arr('maf1', (2,)), arr('maf2', (3,))],
         {'num_arrays': 2}),
    case('multi_all_finite-nan', 'multi_all_finite',
         [arr('maf3', (2,)), np.array([np.nan], np.float32)], {'num_arrays': 2}),
]
