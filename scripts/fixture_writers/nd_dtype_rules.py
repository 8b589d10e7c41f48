"""mx.nd's type rules from real MXNet 1.9.1 (tests/test_dtype_rules.py): result type and
values of the NDArray operators for every pair of array types and for Python scalars
(including infinity and values out of a narrow type's range, which MXNet casts as C does on
x86: ops/int_cast.py), and of unary operators for every array type (integer clip, power and
smooth_l1 among them). Stored as numpy_dtype_rules stores them; the test compares the cases
where MXNet gives a result. Integer division and remainder by zero are left out: MXNet's
process dies of SIGFPE there. The same ``run(mx)`` executes under mxcompat."""
import numpy as onp

from .numpy_dtype_rules import save, table

_TYPES = ('float32', 'float64', 'float16', 'int32', 'int64', 'int8', 'uint8')
_SCALARS = {'py_int': 2, 'py_float': 2.5, 'py_inf': float('inf'), 'py_big': 300.7}
_DIVIDING = ('div', 'mod', 'rdiv', 'rmod', 'pow', 'rpow')

_BINARY = {
    'add': lambda nd, a, b: a + b, 'sub': lambda nd, a, b: a - b, 'mul': lambda nd, a, b: a * b,
    'div': lambda nd, a, b: a / b, 'mod': lambda nd, a, b: a % b, 'pow': lambda nd, a, b: a ** b,
    'eq': lambda nd, a, b: a == b, 'lt': lambda nd, a, b: a < b, 'ge': lambda nd, a, b: a >= b,
    'rsub': lambda nd, a, b: b - a, 'rdiv': lambda nd, a, b: b / a, 'rpow': lambda nd, a, b: b ** a,
    'rmod': lambda nd, a, b: b % a, 'maximum': lambda nd, a, b: nd.maximum(a, b)}

_UNARY = {
    'mean': lambda nd, a: a.mean(), 'sum': lambda nd, a: a.sum(), 'prod': lambda nd, a: nd.prod(a),
    'sqrt': lambda nd, a: nd.sqrt(a), 'exp': lambda nd, a: nd.exp(a), 'abs': lambda nd, a: nd.abs(a),
    'neg': lambda nd, a: -a, 'argmax': lambda nd, a: a.argmax(), 'max': lambda nd, a: a.max(),
    'round': lambda nd, a: nd.round(a), 'floor': lambda nd, a: nd.floor(a),
    'sign': lambda nd, a: nd.sign(a), 'square': lambda nd, a: nd.square(a),
    'reciprocal': lambda nd, a: nd.reciprocal(a), 'clip': lambda nd, a: nd.clip(a, 1, 2),
    'clip-float': lambda nd, a: nd.clip(a, -1.5, 2.5), 'sort': lambda nd, a: nd.sort(a),
    'moments-mean': lambda nd, a: nd.moments(a.reshape((2, 2)), axes=(1,))[0],
    'moments-var': lambda nd, a: nd.moments(a.reshape((2, 2)), axes=(1,))[1],
    'moments-all': lambda nd, a: nd.moments(a, axes=(0,), keepdims=True)[1],
    'log': lambda nd, a: nd.log(a), 'sin': lambda nd, a: nd.sin(a), 'relu': lambda nd, a: nd.relu(a),
    'sigmoid': lambda nd, a: nd.sigmoid(a), 'norm': lambda nd, a: nd.norm(a),
    'astype': lambda nd, a: a.astype('int32'), 'astype-None': lambda nd, a: a.astype(None),
    'topk': lambda nd, a: nd.topk(a, k=2),
    'argsort': lambda nd, a: nd.argsort(a), 'rsqrt': lambda nd, a: nd.rsqrt(a),
    'logical_not': lambda nd, a: nd.logical_not(a), 'full': lambda nd, a: nd.full((2,), 2.7, dtype=a.dtype),
    'where': lambda nd, a: nd.where(a > 0, a, nd.zeros_like(a)), 'one_hot': lambda nd, a: nd.one_hot(a, 4),
    'pick': lambda nd, a: nd.pick(a.reshape((2, 2)), nd.array([0, 1], dtype=a.dtype)),
    'take': lambda nd, a: nd.take(a, nd.array([0, 2], dtype=a.dtype)),
    'smooth_l1': lambda nd, a: nd.smooth_l1(a, scalar=1.0),
    'mean-axis': lambda nd, a: nd.mean(a.reshape((2, 2)), axis=0), 'trunc': lambda nd, a: nd.trunc(a),
    'ceil': lambda nd, a: nd.ceil(a), 'fix': lambda nd, a: nd.fix(a), 'rint': lambda nd, a: nd.rint(a),
    'gamma': lambda nd, a: nd.gamma(a), 'erf': lambda nd, a: nd.erf(a), 'cbrt': lambda nd, a: nd.cbrt(a),
    'log1p': lambda nd, a: nd.log1p(a), 'expm1': lambda nd, a: nd.expm1(a),
    'tanh': lambda nd, a: nd.tanh(a), 'arctan': lambda nd, a: nd.arctan(a),
    'degrees': lambda nd, a: nd.degrees(a), 'tile': lambda nd, a: nd.tile(a, reps=(2,)),
    'flip': lambda nd, a: nd.flip(a, axis=0)}


def _array(nd, dtype):
    values = onp.array([-2, 1, 2, 3]) if dtype != 'uint8' else onp.array([4, 1, 2, 3])
    return nd.array(values.astype(dtype), dtype=dtype)


def _crashes(name, t1, t2):
    return t2 == 'py_inf' and name in _DIVIDING and 'int' in t1  # (0 after the cast: SIGFPE)


def run(mx):
    """{case id: [type name, values] or ['ERR', exception class name]}."""
    return table(mx.nd, _BINARY, _UNARY, _TYPES, _SCALARS, _array, _crashes)


def write(mx, outdir):
    save(outdir, 'nd_dtype_rules', run(mx))
