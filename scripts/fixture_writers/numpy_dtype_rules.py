"""mx.np's type rules from real MXNet 1.9.1 (tests/test_dtype_rules.py): the result type
and values of each binary operator for every pair of array types and for Python int, float
and bool operands, and of unary functions and reductions for every array type. MXNet casts
a Python scalar to an integer array's type (truncating it; NaN and out-of-range values become
the type's minimum) except in true division, also in comparisons (``int_array >= 1.5``
compares with 1), and to a bool array's type in a comparison; arithmetic between a bool array
and a Python number is in int64; std, var and average of an integer array are computed in
integers, in its type. Each case is stored as [result type, values rounded to 3 decimals] or
['ERR', exception class name] where MXNet raises; the test compares the cases where MXNet
gives a result (mxcompat accepts some operand types MXNet rejects). The same ``run(mx)``
executes under mxcompat."""
import json
import os

import numpy as onp

_TYPES = ('float32', 'float64', 'float16', 'int32', 'int64', 'int8', 'uint8', 'bool')
_SCALARS = {'py_int': 2, 'py_float': 2.5, 'py_bool': True, 'py_negfloat': -0.5,
            'py_inf': float('inf'), 'py_nan': float('nan')}

_BINARY = {
    'add': lambda np, a, b: a + b, 'sub': lambda np, a, b: a - b, 'mul': lambda np, a, b: a * b,
    'div': lambda np, a, b: a / b, 'floordiv': lambda np, a, b: a // b,
    'mod': lambda np, a, b: a % b, 'pow': lambda np, a, b: a ** b,
    'maximum': lambda np, a, b: np.maximum(a, b), 'eq': lambda np, a, b: a == b,
    'ne': lambda np, a, b: a != b, 'lt': lambda np, a, b: a < b, 'le': lambda np, a, b: a <= b,
    'gt': lambda np, a, b: a > b, 'ge': lambda np, a, b: a >= b, 'rsub': lambda np, a, b: b - a,
    'rdiv': lambda np, a, b: b / a, 'rlt': lambda np, a, b: b < a,
    'and': lambda np, a, b: np.logical_and(a, b),
    'copysign': lambda np, a, b: np.copysign(a, b), 'ldexp': lambda np, a, b: np.ldexp(a, b),
    'rcopysign': lambda np, a, b: np.copysign(b, a), 'rldexp': lambda np, a, b: np.ldexp(b, a)}

_UNARY = {
    'mean': lambda np, a: a.mean(), 'sum': lambda np, a: a.sum(), 'prod': lambda np, a: np.prod(a),
    'sqrt': lambda np, a: np.sqrt(a), 'exp': lambda np, a: np.exp(a), 'abs': lambda np, a: np.abs(a),
    'neg': lambda np, a: -a, 'cumsum': lambda np, a: np.cumsum(a), 'std': lambda np, a: a.std(),
    'std-ddof1': lambda np, a: np.std(a, ddof=1), 'std-axis0': lambda np, a: np.std(a.reshape(2, 2), axis=0),
    'std-noaxis': lambda np, a: np.std(a, axis=()), 'var': lambda np, a: np.var(a),
    'var-keepdims': lambda np, a: np.var(a, keepdims=True), 'var-float32': lambda np, a: np.var(a, dtype='float32'),
    'average': lambda np, a: np.average(a), 'average-axis1': lambda np, a: np.average(a.reshape(2, 2), axis=1),
    'average-weights': lambda np, a: np.average(a, weights=a),
    'average-returned': lambda np, a: np.average(a, weights=a, returned=True)[1],
    'argmax': lambda np, a: a.argmax(), 'max': lambda np, a: a.max(), 'round': lambda np, a: np.round(a),
    'floor': lambda np, a: np.floor(a), 'sign': lambda np, a: np.sign(a), 'square': lambda np, a: np.square(a),
    'reciprocal': lambda np, a: np.reciprocal(a), 'logical_not': lambda np, a: np.logical_not(a),
    'invert': lambda np, a: np.invert(a), 'clip': lambda np, a: np.clip(a, 1, 2),
    'clip-float': lambda np, a: np.clip(a, -1.5, 2.5), 'sort': lambda np, a: np.sort(a),
    'unique': lambda np, a: np.unique(a), 'log': lambda np, a: np.log(a), 'sin': lambda np, a: np.sin(a),
    'trunc': lambda np, a: np.trunc(a), 'nonzero': lambda np, a: np.nonzero(a.reshape(2, 2))[1],
    'where1': lambda np, a: np.where(a.reshape(2, 2))[0], 'nonzero-method': lambda np, a: a.nonzero()[0],
    'zeros_like': lambda np, a: np.zeros_like(a), 'full_like': lambda np, a: np.full_like(a, 2.7),
    'astype': lambda np, a: a.astype('int32'), 'astype-None': lambda np, a: a.astype(None),
    'where': lambda np, a: np.where(a > 1, a, 0),
    'isnan': lambda np, a: np.isnan(a), 'reshape-0d': lambda np, a: np.reshape(a[1:2], ()),
    'method-reshape-0d': lambda np, a: a[2:3].reshape(()), 'squeeze-0d': lambda np, a: np.squeeze(a[3:]),
    'rint': lambda np, a: np.rint(a * 0.5 if a.dtype.kind == 'f' else a),
    'cbrt': lambda np, a: np.cbrt(a), 'trace': lambda np, a: np.trace(a.reshape(2, 2)),
    'all': lambda np, a: np.all(a), 'any-axis': lambda np, a: np.any(a.reshape(2, 2), axis=0)}


def _array(np, dtype):
    values = onp.array([-2, 0, 1, 3]) if dtype not in ('uint8', 'bool') else onp.array([0, 1, 2, 3])
    return np.array(values.astype(dtype), dtype=dtype)


def _record(out, key, fn):
    try:
        r = fn()
        out[key] = [str(onp.dtype(r.dtype)), [round(float(v), 3) for v in r.asnumpy().ravel()]]
    except Exception as err:  # pylint: disable=broad-except
        out[key] = ['ERR', type(err).__name__]


def table(ns, binary, unary, types, scalars, array, skip=None):
    """{case id: result} of each operator of ``binary`` ({name: f(ns, a, b)}) for each pair
    of ``types`` and ``scalars`` (but those ``skip(name, t1, t2)`` names), and of each of
    ``unary`` ({name: f(ns, a)}) for each type; ``array(ns, type)`` makes the operands."""
    out = {}
    for name, fn in binary.items():
        for t1 in types:
            for t2 in types + tuple(scalars):
                if skip is not None and skip(name, t1, t2):
                    continue
                b = scalars[t2] if t2 in scalars else array(ns, t2)
                _record(out, '%s/%s/%s' % (name, t1, t2),
                        lambda: fn(ns, array(ns, t1), b))  # pylint: disable=cell-var-from-loop
    for name, fn in unary.items():
        for t in types:
            _record(out, '%s/%s' % (name, t), lambda: fn(ns, array(ns, t)))  # pylint: disable=cell-var-from-loop
    return out


def save(outdir, name, cases):
    """Write ``cases`` as ``<name>.json`` in ``outdir``, atomically."""
    tmp = os.path.join(outdir, name + '.tmp.json')
    with open(tmp, 'w') as f:
        json.dump(cases, f, sort_keys=True, separators=(',', ':'))
    os.replace(tmp, os.path.join(outdir, name + '.json'))


def run(mx):
    """{case id: [type name, values] or ['ERR', exception class name]}."""
    mx.npx.set_np()
    return table(mx.np, _BINARY, _UNARY, _TYPES, _SCALARS, _array)


def write(mx, outdir):
    save(outdir, 'numpy_dtype_rules', run(mx))
