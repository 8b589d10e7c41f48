"""Cases for mxcompat/ops/broadcast_binary.py and the mx.nd.add/maximum/... helpers
(mxcompat/ndarray/arith.py)."""
import numpy as np

from . import case
from .elemwise_arith import arr, ints, ties

# name, aliases, options, differentiable
BROADCAST = [
    ('broadcast_add', ['broadcast_plus'], {}, True),
    ('broadcast_sub', ['broadcast_minus'], {}, True),
    ('broadcast_mul', [], {}, True),
    ('broadcast_div', [], {'rhs_away': 0.5}, True),
    ('broadcast_mod', [], {'rhs_away': 0.5}, True),
    ('broadcast_power', [], {'lhs_lo': 0.5}, True),
    ('broadcast_maximum', [], {}, True),
    ('broadcast_minimum', [], {}, True),
    ('broadcast_hypot', [], {'lhs_away': 0.2}, True),
    ('broadcast_equal', [], {}, False),
    ('broadcast_not_equal', [], {}, False),
    ('broadcast_greater', [], {}, False),
    ('broadcast_greater_equal', [], {}, False),
    ('broadcast_lesser', [], {}, False),
    ('broadcast_lesser_equal', [], {}, False),
    ('broadcast_logical_and', [], {}, False),
    ('broadcast_logical_or', [], {}, False),
    ('broadcast_logical_xor', [], {}, False),
]

SHAPES = [((2, 3), (2, 3)), ((2, 3), (1, 3)), ((2, 1, 4), (3, 1)), ((4,), (2, 3, 1))]
# ties make these gradients inf/nan at integer points
TIE_GRADS = ('broadcast_add', 'broadcast_sub', 'broadcast_mul', 'broadcast_maximum',
             'broadcast_minimum')


def _inputs(cid, opts, ls, rs, dtype=np.float32):
    lhs = arr(cid + '/l', ls, opts.get('lhs_lo', -2.0), 2.0, dtype, away=opts.get('lhs_away', 0))
    rhs = arr(cid + '/r', rs, -2.0, 2.0, dtype, away=opts.get('rhs_away', 0.0))
    return lhs, rhs


def _cases():
    out = []
    for name, aliases, opts, diff in BROADCAST:
        g = [0, 1] if diff else []
        for k, (ls, rs) in enumerate(SHAPES):
            lhs, rhs = _inputs('%s-%d' % (name, k), opts, ls, rs)
            out.append(case('%s-f32-%d' % (name, k), name, [lhs, rhs], grad=g))
        lhs, rhs = _inputs(name + '-f64', opts, (3, 1), (1, 2), np.float64)
        out.append(case(name + '-f64', name, [lhs, rhs], grad=g))
        lhs, rhs = _inputs(name + '-f16', opts, (2, 3), (3,), np.float16)
        out.append(case(name + '-f16', name, [lhs, rhs], rtol=2e-3, atol=2e-3))
        li = ints(name + '-i/l', (3, 4))
        ri = ints(name + '-i/r', (1, 4), nonzero=name == 'broadcast_div')
        if name == 'broadcast_power':
            li, ri = ints('bpow-i/l', (3, 4), -3, 6), ints('bpow-i/r', (1, 4), -1, 4)
        out.append(case(name + '-i32', name, [li, ri]))
        out.append(case(name + '-i64', name, [li.astype(np.int64), ri.astype(np.int64)]))
        out.append(case(name + '-ties', name, [ties(name + '/tl', (3, 4)),
                                               ties(name + '/tr', (3, 1))],
                        grad=g if name in TIE_GRADS else []))
        out.append(case(name + '-shape-error', name, [arr(name + 'e1', (2, 3)),
                                                      arr(name + 'e2', (4,))], check='error'))
        for alias in aliases:
            lhs, rhs = _inputs(alias, opts, (2, 3), (2, 1))
            out.append(case(alias + '-alias', alias, [lhs, rhs], grad=g))
    return out


# mx.nd.add & co: (function, broadcast twin) -- scalar forms go to _*_scalar / _r*_scalar
HELPERS = ['add', 'subtract', 'multiply', 'divide', 'true_divide', 'modulo', 'power', 'maximum',
           'minimum', 'equal', 'not_equal', 'greater', 'greater_equal', 'lesser', 'lesser_equal',
           'logical_and', 'logical_or', 'logical_xor']


def _helper_cases():
    out = []
    for name in HELPERS:
        diff = name not in ('equal', 'not_equal', 'greater', 'greater_equal', 'lesser',
                            'lesser_equal', 'logical_and', 'logical_or', 'logical_xor')
        g = [0, 1] if diff else []
        pos = name in ('power', 'divide', 'true_divide', 'modulo')
        a = arr(name + '/a', (2, 3), 0.5 if pos else -2.0, 2.0)
        b = arr(name + '/b', (1, 3), 0.5 if pos else -2.0, 2.0)
        out.append(case('nd.%s-arrays' % name, name, [a, b], grad=g))
        out.append(case('nd.%s-array-scalar' % name, name, [a, 1.5], grad=[0] if diff else []))
        out.append(case('nd.%s-scalar-array' % name, name, [1.5, a], grad=[1] if diff else []))
        ai = ints(name + '/ai', (2, 3), 1, 6)
        out.append(case('nd.%s-int-scalar' % name, name, [ai, 2.7]))
        out.append(case('nd.%s-scalar-int' % name, name, [3.6, ai]))
        if not pos:
            t = ties(name + '/t', (2, 3))
            out.append(case('nd.%s-ties-scalar' % name, name, [t, 1]))
            out.append(case('nd.%s-scalar-ties' % name, name, [1, t]))
    out.append(case('nd.add-np-scalar', 'add', [arr('nps', (3,)), np.float32(1.25)], grad=[0]))
    out.append(case('nd.maximum-np-int-scalar', 'maximum', [np.int64(1), arr('npi', (3,))]))
    out.append(case('nd.add-bad-type', 'add', [arr('bad', (2,)), 'x'], check='error'))
    out.append(case('nd.maximum-shape-error', 'maximum', [arr('m1', (2, 3)), arr('m2', (2,))],
                    check='error'))
    return out


CASES = _cases() + _helper_cases() + [
    case('broadcast_add-dtype-error', 'broadcast_add', [arr('d1', (2, 3)), ints('d2', (2, 3))],
         check='error'),
    case('broadcast_mod-zero', 'broadcast_mod', [np.array([[1.5, -2.0], [3.0, 4.5]], np.float32),
                                                 np.array([0.0, 2.0], np.float32)]),
    case('broadcast_maximum-nan', 'broadcast_maximum',
         [np.array([[np.nan, 1.0, 2.0]], np.float32), np.array([[0.0], [np.nan]], np.float32)],
         grad=[0, 1]),
    case('broadcast_minimum-nan', 'broadcast_minimum',
         [np.array([[np.nan, 1.0, 2.0]], np.float32), np.array([[0.0], [np.nan]], np.float32)],
         grad=[0, 1]),
    case('broadcast_add-scalar-like', 'broadcast_add', [arr('s1', (2, 3)), arr('s2', (1,))],
         grad=[0, 1]),
]
