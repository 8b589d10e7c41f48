"""Cases for mxcompat/ops/elemwise_arith.py: same-shape binary operators and scalar forms."""
import numpy as np

from . import case, rng


def arr(cid, shape=(2, 3), lo=-2.0, hi=2.0, dtype=np.float32, away=0.0):
    """Uniform values in [lo, hi), pushed at least ``away`` from zero."""
    a = rng(cid).uniform(lo, hi, size=shape)
    if away:
        a = np.where(np.abs(a) < away, np.where(a < 0, -away, away), a)
    return a.astype(dtype)


def ints(cid, shape=(2, 3), lo=-5, hi=6, dtype=np.int32, nonzero=False):
    a = rng(cid).randint(lo, hi, size=shape)
    if nonzero:
        a = np.where(a == 0, 1, a)
    return a.astype(dtype)


def ties(cid, shape=(3, 4), dtype=np.float32):
    """Small integers as floats, so that comparisons and max/min see equal pairs."""
    return rng(cid).randint(-2, 3, size=shape).astype(dtype)


# name, aliases, (lhs, rhs) ranges for float inputs, differentiable
BINARY = [
    ('elemwise_add', ['_internal._add', '_internal._plus', '_internal._Plus'], {}, True),
    ('_internal._grad_add', [], {}, False),  # MXNet registers no gradient for it
    ('elemwise_sub', ['_internal._sub', '_internal._minus', '_internal._Minus'], {}, True),
    ('elemwise_mul', ['_internal._mul', '_internal._Mul'], {}, True),
    ('elemwise_div', ['_internal._div', '_internal._Div'], {'rhs_away': 0.5}, True),
    ('_internal._mod', ['_internal._Mod'], {'rhs_away': 0.5}, True),
    ('_internal._power', ['_internal._Power'], {'lhs_lo': 0.5, 'lhs_hi': 2.0}, True),
    ('_internal._maximum', ['_internal._Maximum'], {}, True),
    ('_internal._minimum', ['_internal._Minimum'], {}, True),
    ('_internal._hypot', ['_internal._Hypot'], {}, True),
    ('_internal._equal', ['_internal._Equal'], {}, False),
    ('_internal._not_equal', ['_internal._Not_Equal'], {}, False),
    ('_internal._greater', ['_internal._Greater'], {}, False),
    ('_internal._greater_equal', ['_internal._Greater_Equal'], {}, False),
    ('_internal._lesser', ['_internal._Lesser'], {}, False),
    ('_internal._lesser_equal', ['_internal._Lesser_Equal'], {}, False),
    ('_internal._logical_and', ['_internal._Logical_And'], {}, False),
    ('_internal._logical_or', ['_internal._Logical_Or'], {}, False),
    ('_internal._logical_xor', ['_internal._Logical_Xor'], {}, False),
]


# ties at integer points make div/mod/power/hypot gradients inf or nan: forward only there
TIE_GRADS = ('elemwise_add', 'elemwise_sub', 'elemwise_mul', '_maximum', '_minimum')


def _binary_inputs(cid, opts, dtype=np.float32, shape=(2, 3)):
    lhs = arr(cid + '/l', shape, opts.get('lhs_lo', -2.0), opts.get('lhs_hi', 2.0), dtype)
    rhs = arr(cid + '/r', shape, -2.0, 2.0, dtype, away=opts.get('rhs_away', 0.0))
    return lhs, rhs


def _binary_cases():
    out = []
    for func, aliases, opts, diff in BINARY:
        short = func.split('.')[-1]
        lhs, rhs = _binary_inputs(short, opts)
        out.append(case(short + '-f32', func, [lhs, rhs], grad=[0, 1] if diff else []))
        lhs, rhs = _binary_inputs(short + '-f64', opts, np.float64)
        out.append(case(short + '-f64', func, [lhs, rhs], grad=[0, 1] if diff else []))
        lhs, rhs = _binary_inputs(short + '-f16', opts, np.float16)
        out.append(case(short + '-f16', func, [lhs, rhs], rtol=2e-3, atol=2e-3))
        # integer arrays; divisors are non-zero (MXNet crashes on integer division by zero)
        nz = short in ('elemwise_div',)
        li = ints(short + '-i32/l', (3, 4))
        ri = ints(short + '-i32/r', (3, 4), nonzero=nz)
        if short == '_power':
            li, ri = ints('pow-i/l', (3, 4), -3, 6), ints('pow-i/r', (3, 4), 0, 4)
        out.append(case(short + '-i32', func, [li, ri]))
        out.append(case(short + '-ties', func, [ties(short + '/tl'), ties(short + '/tr')],
                        grad=[0, 1] if diff and short in TIE_GRADS else []))
        for alias in aliases:
            a_short = alias.split('.')[-1]
            lhs, rhs = _binary_inputs(a_short, opts)
            out.append(case(a_short + '-alias', alias, [lhs, rhs], grad=[0, 1] if diff else []))
    return out


SCALAR = [
    # name, aliases, scalars tried, float input range, differentiable
    ('_plus_scalar', ['_PlusScalar'], [1.7, -2.5, 3], (-2, 2), True),
    ('_minus_scalar', ['_MinusScalar'], [1.7, -2.5], (-2, 2), True),
    ('_rminus_scalar', ['_RMinusScalar'], [1.7, -2.5], (-2, 2), True),
    ('_mul_scalar', ['_MulScalar'], [1.7, -2.5], (-2, 2), True),
    ('_div_scalar', ['_DivScalar'], [1.7, -2.5], (-2, 2), True),
    ('_rdiv_scalar', ['_RDivScalar'], [1.7, -2.5], (0.5, 3), True),
    ('_mod_scalar', ['_ModScalar'], [1.7, -2.5, 3], (-4, 4), True),
    ('_rmod_scalar', ['_RModScalar'], [1.7, -2.5, 3], (0.5, 3), True),
    ('_power_scalar', ['_PowerScalar'], [1.7, -2.5, 2], (0.5, 3), True),
    ('_rpower_scalar', ['_RPowerScalar'], [1.7, 2.5], (-2, 2), True),
    ('_maximum_scalar', ['_MaximumScalar'], [0.3, -2.5], (-2, 2), True),
    ('_minimum_scalar', ['_MinimumScalar'], [0.3, -2.5], (-2, 2), True),
    ('_hypot_scalar', ['_HypotScalar'], [1.7, -2.5], (-2, 2), True),
    ('_equal_scalar', ['_EqualScalar'], [1.0, 1.7, -2.5], (-2, 2), False),
    ('_not_equal_scalar', ['_NotEqualScalar'], [1.0, 1.7], (-2, 2), False),
    ('_greater_scalar', ['_GreaterScalar'], [1.0, 1.7, -2.5], (-2, 2), False),
    ('_greater_equal_scalar', ['_GreaterEqualScalar'], [1.0, 1.7, -2.5], (-2, 2), False),
    ('_lesser_scalar', ['_LesserScalar'], [1.0, 1.7, -2.5], (-2, 2), False),
    ('_lesser_equal_scalar', ['_LesserEqualScalar'], [1.0, 1.7, -2.5], (-2, 2), False),
    ('_logical_and_scalar', ['_LogicalAndScalar'], [0.0, 1.7, -0.5], (-2, 2), False),
    ('_logical_or_scalar', ['_LogicalOrScalar'], [0.0, 1.7, -0.5], (-2, 2), False),
    ('_logical_xor_scalar', ['_LogicalXorScalar'], [0.0, 1.7, -0.5], (-2, 2), False),
]


def _scalar_cases():
    out = []
    for name, aliases, scalars, (lo, hi), diff in SCALAR:
        func = '_internal.' + name
        lo_i = 1 if name in ('_rdiv_scalar', '_rmod_scalar') else -5
        for k, s in enumerate(scalars):
            x = arr('%s-%d' % (name, k), (2, 3), lo, hi)
            if not diff:
                x = np.round(x * 2) / 2  # half-integers hit the scalars exactly
            out.append(case('%s-f32-%s' % (name, s), func, [x], {'scalar': s},
                            grad=[0] if diff else []))
            xi = ints('%s-i-%d' % (name, k), (3, 4), lo_i, 6)
            out.append(case('%s-i32-%s' % (name, s), func, [xi], {'scalar': s}))
            out.append(case('%s-i32-float-%s' % (name, s), func, [xi],
                            {'scalar': s, 'is_int': False}))
        x = arr(name + '-f64', (2, 3), lo, hi, np.float64)
        out.append(case(name + '-f64', func, [x], {'scalar': scalars[0]},
                        grad=[0] if diff else []))
        x = arr(name + '-f16', (2, 3), lo, hi, np.float16)
        out.append(case(name + '-f16', func, [x], {'scalar': scalars[0]}, rtol=3e-3, atol=3e-3))
        x = arr(name + '-f32-isint0', (2, 3), lo, hi)
        out.append(case(name + '-f32-isint0', func, [x], {'scalar': scalars[0], 'is_int': False}))
        out.append(case(name + '-i64', func, [ints(name + '-i64', (4,), lo_i, 6, np.int64)],
                        {'scalar': scalars[-1]}))
        out.append(case(name + '-u8', func, [ints(name + '-u8', (4,), 1, 9, np.uint8)],
                        {'scalar': 2.0}))
        out.append(case(name + '-default', func, [arr(name + '-dflt', (3,), lo, hi)]))
        for alias in aliases:
            x = arr(alias, (2, 3), lo, hi)
            out.append(case(alias + '-alias', '_internal.' + alias, [x], {'scalar': scalars[0]},
                            grad=[0] if diff else []))
    return out


CASES = _binary_cases() + _scalar_cases() + [
    # MXNet: mod by zero is 0
    case('_mod-zero-divisor', '_internal._mod', [np.array([1.5, -2.0, 3.0], np.float32),
                                                 np.array([0.0, 0.0, 2.0], np.float32)]),
    case('_mod-zero-divisor-int', '_internal._mod', [np.array([5, -7, 3], np.int32),
                                                     np.array([0, 3, -2], np.int32)]),
    case('_mod_scalar-zero', '_internal._mod_scalar', [np.array([1.5, -2.0], np.float32)],
         {'scalar': 0.0}),
    case('_rmod_scalar-zero', '_internal._rmod_scalar', [np.array([0.0, -2.0, 1.5], np.float32)],
         {'scalar': 2.5}),
    case('_power-int-negexp', '_internal._power', [np.array([-3, -1, 2, 4, 1], np.int32),
                                                   np.array([-2, 3, -1, 2, -5], np.int32)]),
    case('_maximum-nan', '_internal._maximum', [np.array([np.nan, 1.0, 2.0], np.float32),
                                                np.array([0.0, np.nan, 3.0], np.float32)],
         grad=[0, 1]),
    case('_minimum-nan', '_internal._minimum', [np.array([np.nan, 1.0, 2.0], np.float32),
                                                np.array([0.0, np.nan, 3.0], np.float32)],
         grad=[0, 1]),
    case('_maximum_scalar-nan', '_internal._maximum_scalar',
         [np.array([np.nan, 1.0, 2.0], np.float32)], {'scalar': 1.5}, grad=[0]),
    case('_minimum_scalar-nan', '_internal._minimum_scalar',
         [np.array([np.nan, 1.0, 2.0], np.float32)], {'scalar': 1.5}, grad=[0]),
    case('_hypot_scalar-int', '_internal._hypot_scalar', [np.array([3, -4, 0], np.int32)],
         {'scalar': 4.0}),
    case('_minimum_scalar-ties', '_internal._minimum_scalar',
         [np.array([1.0, 1.5, 2.0], np.float32)], {'scalar': 1.5}, grad=[0]),
    case('_maximum_scalar-ties', '_internal._maximum_scalar',
         [np.array([1.0, 1.5, 2.0], np.float32)], {'scalar': 1.5}, grad=[0]),
    # boolean arrays: MXNet computes scalar forms in int64 (float64 with is_int=False)
    case('_plus_scalar-bool', '_internal._plus_scalar', [np.array([True, False, True])],
         {'scalar': 2.0}),
    case('_plus_scalar-bool-float', '_internal._plus_scalar', [np.array([True, False])],
         {'scalar': 1.5, 'is_int': False}),
    case('_equal_scalar-bool', '_internal._equal_scalar', [np.array([True, False])],
         {'scalar': 1.0}),
    case('_mul_scalar-bool', '_internal._mul_scalar', [np.array([True, False])],
         {'scalar': 3.7}),
    case('elemwise_add-shape-error', 'elemwise_add', [arr('e1', (2, 3)), arr('e2', (3,))],
         check='error'),
    case('elemwise_add-bcast-error', 'elemwise_add', [arr('e3', (2, 3)), arr('e4', (1, 3))],
         check='error'),
    case('elemwise_mul-dtype-error', 'elemwise_mul', [arr('e5', (2, 3)), ints('e6', (2, 3))],
         check='error'),
]
