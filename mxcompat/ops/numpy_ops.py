"""The NumPy interface's own operators (``_npi_*``, ``_np_*``, ``_npx_reshape``), with MXNet
1.9.1's names, inputs and parameters.

``mx.np`` / ``mx.npx`` are thin layers over these entries and over the legacy operators the
NumPy interface shares (the ``_npx_*`` aliases sit on their legacy entries:
``_npx_fully_connected`` on ``FullyConnected``, ...). Type rules are NumPy's as
MXNet applies them: binary operators broadcast and promote (an integer and a float array give
the float type, float32 with float64 gives float64), a Python float with an integer array gives
the integer type (the scalar truncated, except in true division and comparisons), comparisons give bool, and math functions of integer arrays compute in float64
and give the integer type back.
"""
import math

import torch

from ..base import MXNetError, dtype_torch
from ..deferred_errors import any_true, raise_at_read
from .creation import EXACT_RANGE, _device, _fill_value, exact_range, linspace
from .elemwise_arith import mod, power
# (MXNet's np and nd kernels alike)
from .elemwise_unary import clip as _clip, _cbrt, _degrees, _expm1, _radians, _rint
from .int_cast import cast_recorded as _cast, int_scalar as _int_scalar, to_int as _to_int
from .registry import register, REQUIRED, Int, Float, Bool, Str, Shape, DType, Any, Opt, Enum
from .shape_ops import _CONCAT_RULE, _fresh, _join as _join_checked, _shared, _split_parts, stack

_INT = frozenset([torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.bool])
_AXIS = (Opt(Shape), None)


def _axes(axis):
    """A torch ``dim`` from MXNet's axis parameter (None: every axis)."""
    if axis is None:
        return None
    return axis[0] if len(axis) == 1 else axis


# ------------------------------------------------------------------------ binary, broadcast
def _subtract(a, b):
    """NumPy subtraction; a bool operand with a non-bool one takes the other's type (torch
    refuses to subtract bool tensors)."""
    if isinstance(b, torch.Tensor) and (a.dtype is torch.bool) != (b.dtype is torch.bool):
        if a.dtype is torch.bool:
            a = a.to(b.dtype)
        else:
            b = b.to(a.dtype)
    return torch.sub(a, b)


def _power(a, b):
    """NumPy power; a bool exponent of a floating-point base takes the base's type (torch
    cannot differentiate a bool exponent); of two bool arrays, a bool (torch has no bool
    power: a ** b is a or not b); otherwise mx.nd's (integers as MXNet computes them)."""
    if isinstance(b, torch.Tensor) and b.dtype is torch.bool:
        if a.is_floating_point():
            b = b.to(a.dtype)
        elif a.dtype is torch.bool:
            return torch.logical_or(a, torch.logical_not(b))
    return power(a, b)


def _negative(x):
    """NumPy negation; of a bool array, in int64 as MXNet's (torch refuses it)."""
    if x.dtype is torch.bool:
        x = x.to(torch.int64)
    return torch.neg(x)


def _copysign(a, b):
    """MXNet's copysign, in ``a``'s type: ``a`` where ``a`` and ``b`` are both >= 0 or both
    < 0, else ``-a`` (a NaN is neither: ``copysign(x, nan)`` is ``-x``; -0.0 counts as >= 0)."""
    if isinstance(b, torch.Tensor):
        keep = ((a >= 0) & (b >= 0)) | ((a < 0) & (b < 0))
    elif b >= 0:
        keep = a >= 0
    elif b < 0:
        keep = a < 0
    else:  # (NaN)
        return torch.neg(a)
    return torch.where(keep, a, torch.neg(a))


_BINARY = {
    'add': torch.add, 'subtract': _subtract, 'multiply': torch.mul,
    'true_divide': torch.true_divide, 'mod': mod, 'power': _power,
    'maximum': torch.maximum, 'minimum': torch.minimum, 'arctan2': torch.atan2,
    'hypot': torch.hypot, 'copysign': _copysign, 'lcm': torch.lcm,
    'bitwise_and': torch.bitwise_and, 'bitwise_or': torch.bitwise_or,
    'bitwise_xor': torch.bitwise_xor, 'ldexp': torch.ldexp,
    'equal': torch.eq, 'not_equal': torch.ne, 'greater': torch.gt, 'greater_equal': torch.ge,
    'less': torch.lt, 'less_equal': torch.le,
}
_NO_REVERSE = frozenset(['add', 'multiply', 'maximum', 'minimum', 'hypot', 'lcm', 'bitwise_and',
                         'bitwise_or', 'bitwise_xor', 'equal', 'not_equal', 'greater',
                         'greater_equal', 'less', 'less_equal'])
_SCALAR_PARAMS = {'scalar': (Float, 1.0), 'is_int': (Bool, True)}
# the torch functions that take a Python number as their second operand
_NUMBER_OPERAND = frozenset(['add', 'subtract', 'multiply', 'true_divide', 'mod', 'power',
                             'copysign', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'equal',
                             'not_equal', 'greater', 'greater_equal', 'less', 'less_equal'])


# the reflected operators that torch computes with a Python number as the first operand
_REVERSED_NUMBER = {'subtract': torch.rsub}
# the torch functions of a floating-point array and a Python number that compute maximum and
# minimum as MXNet's scalar operators (_npi_maximum_scalar is _maximum_scalar there), whose
# gradient is g where x >= s (x <= s): all of it at ties, 0 where x is NaN (torch.maximum's
# halves it at ties and passes it at NaN)
_CLAMP = {'maximum': torch.clamp_min, 'minimum': torch.clamp_max}

_COMPARISONS = frozenset(['equal', 'not_equal', 'greater', 'greater_equal', 'less',
                          'less_equal'])


def _scalar_operands(data, scalar, is_int, rule):
    """(array, scalar) as MXNet computes an operator of an array and a Python number: the
    scalar cast to an integer array's type (truncated: ``int_array >= 1.5`` compares with 1)
    except in true division (``rule`` 'divide'), to a boolean array's type in a comparison
    (``rule`` 'compare'); other arithmetic on a boolean array is on int64 with the scalar
    truncated."""
    if data.is_floating_point() or rule == 'divide':
        return data, int(scalar) if is_int else scalar
    if data.dtype is torch.bool:
        if rule == 'compare':
            return data, bool(scalar)
        data = data.to(torch.int64)
    return data, _int_scalar(scalar, data.dtype)


def _tensor_of(data, scalar):
    """``scalar`` (a Python int or float) as a 0-d tensor of the type the promotion gives it
    with ``data``: a floating-point array's own (no result_type call, which costs more than
    the operator on a small array)."""
    # (scalar_tensor: half the cost of torch.tensor, which parses any data)
    dtype = data.dtype if data.is_floating_point() else torch.result_type(data, scalar)
    return torch.scalar_tensor(scalar, dtype=dtype, device=data.device)


def _float_ints(fn):
    """``fn`` with integer operands computed as float32 (arctan2, hypot)."""
    def op(a, b):
        if not a.is_floating_point():
            a = a.to(torch.float32)
        if isinstance(b, torch.Tensor) and not b.is_floating_point():
            b = b.to(torch.float32)
        return fn(a, b)
    return op


def _int_typed(fn):
    """``fn`` (arctan2, hypot) of an array and a Python number as MXNet's scalar operators
    compute it (mx.np gives them no ``is_int``, so their type rule keeps an integer array's
    type, int64 for bool): on an integer array in float64, truncated back to its type
    (``hypot(int32 [1, 2], 2)`` is [2, 2])."""
    def op(a, b):
        if a.is_floating_point() or b.is_floating_point():
            return fn(a, b)
        return _to_int(fn(a.to(torch.float64), b.to(torch.float64)), a.dtype)
    return op


def _in_int_type(fn):
    """``fn`` (ldexp) as MXNet computes it on an integer array and an integer operand of its
    type (an array, or a Python int the scalar operator truncated to it): in float64, cast
    back to the array's type (``ldexp(int32 [3], -1)`` is [1]); an integer and a
    floating-point array as float32."""
    floated = _float_ints(fn)

    def op(a, b):
        if a.is_floating_point() or a.dtype is torch.bool or \
                not (type(b) is int or isinstance(b, torch.Tensor) and b.dtype is a.dtype):
            return floated(a, b)
        wide = a.to(torch.float64)
        return _to_int(fn(wide, b.to(torch.float64) if type(b) is not int else b), a.dtype)
    return op


def _make_binary(name, fn):
    if name in ('arctan2', 'hypot'):
        fn, scalar_fn = _float_ints(fn), _int_typed(fn)
    else:
        fn = scalar_fn = _in_int_type(fn) if name == 'ldexp' else fn

    inputs = ('x1', 'x2') if name in ('arctan2', 'hypot') else ('lhs', 'rhs')

    rule = 'divide' if name == 'true_divide' else 'compare' if name in _COMPARISONS else None
    if name in _NUMBER_OPERAND:
        def scalar_op(data, scalar, is_int):
            if data.is_floating_point():  # (_scalar_operands' first case, inline)
                try:
                    return fn(data, int(scalar) if is_int else scalar)
                except OverflowError:  # an int beyond int64: the float, as MXNet computes it
                    return fn(data, scalar)
            return fn(*_scalar_operands(data, scalar, is_int, rule))
    else:
        clamp = _CLAMP.get(name)

        def scalar_op(data, scalar, is_int):
            if clamp is not None and data.is_floating_point():
                try:  # (torch checks that the number fits the array's type: no cost when it does)
                    return clamp(data, scalar)
                except RuntimeError:
                    pass  # a number beyond the type's range: as a tensor of that type, below
            data, s = _scalar_operands(data, scalar, is_int, rule)
            return scalar_fn(data, _tensor_of(data, s))

    rfn = _REVERSED_NUMBER.get(name)
    if rfn is not None:
        def rscalar_op(data, scalar, is_int):
            if data.is_floating_point():  # (_scalar_operands' first case, inline)
                try:
                    return rfn(data, int(scalar) if is_int else scalar)
                except OverflowError:  # (as scalar_op)
                    return rfn(data, scalar)
            return rfn(*_scalar_operands(data, scalar, is_int, rule))
    else:
        def rscalar_op(data, scalar, is_int):
            data, s = _scalar_operands(data, scalar, is_int, rule)
            return scalar_fn(_tensor_of(data, s), data)

    doc = 'NumPy-compatible %s of two arrays, broadcast, with NumPy type promotion.' % name
    register('_npi_' + name, inputs=inputs, doc=doc)(fn)  # the torch function itself: no frame
    register('_npi_%s_scalar' % name, inputs=('data',), params=_SCALAR_PARAMS,
             kernel=fn if name in _NUMBER_OPERAND else _CLAMP.get(name),
             doc=doc.replace('two arrays, broadcast', 'an array and a scalar'))(scalar_op)
    if name not in _NO_REVERSE:
        register('_npi_r%s_scalar' % name, inputs=('data',), params=_SCALAR_PARAMS,
                 doc=doc.replace('two arrays, broadcast', 'a scalar and an array'))(rscalar_op)


for _name, _fn in _BINARY.items():
    _make_binary(_name, _fn)


# ------------------------------------------------------------------------ unary
def _float_in(fn):
    """``fn`` computed in float64 for integer input and cast back to its type, as MXNet does
    (``sqrt`` of int32 [2, 5] is [1, 2])."""
    def op(x):
        if x.is_floating_point():
            return fn(x)
        return fn(x.to(torch.float64)).to(x.dtype)
    return op


def _logical_not(x):
    return torch.logical_not(x)


def _square(x):
    return x * x


def _reciprocal(x):
    """1 / x; of integers, MXNet's: in float32, cast back (1 / 0 is the type's minimum)."""
    if x.is_floating_point():
        return torch.reciprocal(x)
    return _to_int(torch.reciprocal(x.to(torch.float32)), x.dtype)


_UNARY_FLOAT = {
    'sqrt': torch.sqrt, 'cbrt': _cbrt, 'exp': torch.exp, 'expm1': _expm1,
    'log': torch.log, 'log2': torch.log2, 'log10': torch.log10, 'log1p': torch.log1p,
    'sin': torch.sin, 'cos': torch.cos, 'tan': torch.tan, 'arcsin': torch.asin,
    'arccos': torch.acos, 'arctan': torch.atan, 'sinh': torch.sinh, 'cosh': torch.cosh,
    'tanh': torch.tanh, 'arcsinh': torch.asinh, 'arccosh': torch.acosh, 'arctanh': torch.atanh,
    'degrees': _degrees, 'radians': _radians,
}
_UNARY_SAME = {
    'absolute': torch.abs, 'negative': _negative, 'sign': torch.sign,
    'rint': _rint, 'fix': torch.trunc, 'ceil': torch.ceil, 'floor': torch.floor,
    'trunc': torch.trunc, 'square': _square, 'reciprocal': _reciprocal,
    'logical_not': _logical_not, 'bitwise_not': torch.bitwise_not,
    'isnan': torch.isnan, 'isinf': torch.isinf, 'isfinite': torch.isfinite,
    'isposinf': torch.isposinf, 'isneginf': torch.isneginf,
}
for _name, _fn in _UNARY_FLOAT.items():
    register('_npi_' + _name, inputs=('x',), infer_shape='same', kernel=_fn,
             doc='NumPy-compatible element-wise %s (of the integer type for integer input).'
             % _name)(_float_in(_fn))
for _name, _fn in _UNARY_SAME.items():
    register('_npi_' + _name, inputs=('x',), infer_shape='same',
             aliases=('_npi_abs',) if _name == 'absolute' else (),
             doc='NumPy-compatible element-wise %s.' % _name)(_fn)


@register('_npi_around', inputs=('x',), params={'decimals': (Int, 0)})
def around(x, decimals):
    """Evenly round to the given number of decimals (halves to even, as NumPy; integers to
    negative decimals truncated toward zero, as MXNet).

    As MXNet, a floating-point array is scaled by ten one step at a time in its own type,
    rounded and scaled back the same way: MXNet's last bits. (MXNet's -0.5 rounds to +0, this
    to -0.)"""
    if not x.is_floating_point():
        if decimals >= 0:
            return x.clone()
        scale = 10 ** -decimals
        return torch.div(x, scale, rounding_mode='trunc') * scale
    if -1 <= decimals <= 1:  # (torch's one step is MXNet's)
        return torch.round(x, decimals=decimals)
    # (past 400 steps every finite value is already 0 or infinite either way, as in MXNet)
    steps = min(abs(decimals), 400) - 1
    up, down = (torch.Tensor.mul_, torch.Tensor.div_) if decimals > 0 else \
        (torch.Tensor.div_, torch.Tensor.mul_)
    t = x * 10 if decimals > 0 else x / 10
    for _ in range(steps):
        up(t, 10)
    t.round_()
    for _ in range(steps + 1):
        down(t, 10)
    return t


register('_npi_clip', params={'a_min': (Opt(Float), None), 'a_max': (Opt(Float), None)})(_clip)


# ------------------------------------------------------------------------ reductions
def _reduce_dtype(a, dtype):
    if dtype is not None:
        return dtype_torch(dtype)
    return torch.int64 if a.dtype is torch.bool else a.dtype


# the types torch sums in their own type as MXNet does (float16 is accumulated in float32)
_SUMS_IN_OWN_TYPE = frozenset([torch.float32, torch.float64, torch.bfloat16])


@register('_np_sum', inputs=('a',), params={
    'axis': _AXIS, 'dtype': (Opt(DType), None), 'keepdims': (Bool, False),
    'initial': (Opt(Float), None)})
def np_sum(a, axis, dtype, keepdims, initial):
    """Sum of array elements over given axes (float16 accumulated in float32, as MXNet
    does)."""
    if axis == ():
        out = a.to(_reduce_dtype(a, dtype), copy=True)
    elif dtype is None and a.dtype in _SUMS_IN_OWN_TYPE:
        # (inline _axes; torch's dtype= argument costs a little)
        out = torch.sum(a, axis[0] if axis is not None and len(axis) == 1 else axis, keepdims)
    else:
        td = _reduce_dtype(a, dtype)
        if td is torch.float16 or a.dtype is torch.float16:
            out = torch.sum(a, _axes(axis), keepdims, dtype=torch.float32).to(td)
        else:
            out = torch.sum(a, _axes(axis), keepdims, dtype=td)
    return out if initial is None else out + initial


@register('_np_prod', inputs=('a',), params={
    'axis': _AXIS, 'dtype': (Opt(DType), None), 'keepdims': (Bool, False),
    'initial': (Opt(Float), None)})
def np_prod(a, axis, dtype, keepdims, initial):
    """Product of array elements over given axes."""
    td = _reduce_dtype(a, dtype)
    out = a.to(td)
    if axis is None:  # dtype=td: torch would widen integers to int64
        out = torch.prod(out, dtype=td).reshape((1,) * a.dim() if keepdims else ())
    else:
        for d in sorted((d % a.dim() for d in axis), reverse=True):
            out = torch.prod(out, dim=d, keepdim=keepdims, dtype=td)
    return out if initial is None else out * initial


def _extreme(torch_fn, name):
    def op(a, axis, keepdims, initial):
        if initial is None and a.numel() == 0 and (axis is None or any(
                a.shape[d] == 0 for d in axis)):  # (an empty result of other axes is fine)
            raise MXNetError('%s: zero-size array to reduction operation %s which has no '
                             'identity; pass initial=' % (name, name))
        # (torch reduces every axis for dim=(); _axes inline)
        out = a.clone() if axis == () else torch_fn(
            a, () if axis is None else axis[0] if len(axis) == 1 else axis, keepdims)
        if initial is not None:
            out = (torch.maximum if torch_fn is torch.amax else torch.minimum)(
                out, torch.tensor(initial, dtype=out.dtype, device=out.device))
        return out
    op.__doc__ = 'The %s of an array or its %s along an axis.' % (
        'maximum' if torch_fn is torch.amax else 'minimum', name)
    return op


_EXTREME_PARAMS = {'axis': _AXIS, 'keepdims': (Bool, False), 'initial': (Opt(Float), None)}
register('_np_max', inputs=('a',), params=_EXTREME_PARAMS, aliases=('_np_amax',))(
    _extreme(torch.amax, 'max'))
register('_np_min', inputs=('a',), params=_EXTREME_PARAMS, aliases=('_np_amin',))(
    _extreme(torch.amin, 'min'))


@register('_npi_mean', inputs=('a',), params={
    'axis': _AXIS, 'dtype': (Opt(DType), None), 'keepdims': (Bool, False),
    'initial': (Opt(Float), None)})
def np_mean(a, axis, dtype, keepdims, initial):
    """Arithmetic mean along the specified axes (float32 for integer input; an integer input
    with an integer ``dtype`` is summed in that type, wrapping around, and the sum divided
    with truncation, as MXNet and NumPy do); the mean of no elements is 0, as MXNet gives it
    (NumPy's is NaN)."""
    td = dtype_torch(dtype) if dtype is not None else (
        a.dtype if a.is_floating_point() else torch.float32)
    if td is a.dtype and (td is torch.float32 or td is torch.float64) and axis != () and \
            a.numel():
        # (the common call; _axes inline)
        return torch.mean(a, axis[0] if axis is not None and len(axis) == 1 else axis,
                          keepdims)
    if not td.is_floating_point and not a.is_floating_point() and axis != ():
        total = torch.sum(a, dim=_axes(axis), keepdim=keepdims, dtype=td)
        return torch.div(total, max(a.numel() // max(total.numel(), 1), 1),
                         rounding_mode='trunc').to(td)
    x = a.to(torch.float64)  # accumulated in float64, as MXNet accumulates float16 widely
    return _cast(x if axis == () else (torch.mean if a.numel() else torch.sum)(
        x, dim=_axes(axis), keepdim=keepdims), td)


def _wrapped(x, dtype):
    """The int64 tensor ``x`` wrapped around into the integer type ``dtype``, as int64 again
    (integer sums and products in ``dtype``, computed in int64)."""
    return x if dtype is torch.int64 else x.to(dtype).to(torch.int64)


def _int_mean(a, dims, keepdim):
    """(The mean of the integer array ``a`` over ``dims`` as MXNet computes it, in int64,
    the count): the sum in ``a``'s type divided by the count, truncated toward zero."""
    n = math.prod(a.shape[d] for d in dims)
    total = _wrapped(a.to(torch.int64).sum(dim=dims, keepdim=keepdim), a.dtype)
    return torch.div(total, n, rounding_mode='trunc'), n


def _int_moment(a, axis, dtype, ddof, keepdims, root):
    """MXNet's variance (standard deviation with ``root``) of an integer array: about the
    mean taken in integers (truncated); without ``dtype`` all in the array's type, wrapping
    around as it does, each quotient truncated; in the floating ``dtype`` asked for
    otherwise."""
    x = a.to(torch.int64)
    dims = tuple(range(a.dim())) if axis is None else tuple(d % a.dim() for d in axis)
    mean, n = _int_mean(a, dims, True)
    if dtype is None:
        dev = _wrapped(x - mean, a.dtype)
        squares = _wrapped((_wrapped(dev * dev, a.dtype)).sum(dim=dims, keepdim=keepdims),
                           a.dtype)
        out = torch.div(squares, n - ddof, rounding_mode='trunc')
        return _to_int(torch.sqrt(out.to(torch.float64)), a.dtype) if root else out.to(a.dtype)
    td = dtype_torch(dtype)
    dev = (x - mean).to(td)
    out = (dev * dev).sum(dim=dims, keepdim=keepdims) / (n - ddof)
    return _cast(torch.sqrt(out) if root else out, td)


def _moment(torch_fn, name):
    def op(a, axis, dtype, ddof, keepdims):
        if not a.is_floating_point() and a.dtype is not torch.bool:
            if axis != ():
                return _int_moment(a, axis, dtype, ddof, keepdims, torch_fn is torch.std)
            if dtype is None:
                return torch.zeros_like(a)
        td = dtype_torch(dtype) if dtype is not None else (
            a.dtype if a.is_floating_point() else torch.float32)
        x = a.to(td) if td.is_floating_point else a.to(torch.float64)
        if axis == ():  # no axis reduced: each element is its own sample
            return ((x - x) / (1 - ddof) if ddof else x - x).to(td)
        return _cast(torch_fn(x, dim=_axes(axis), correction=ddof, keepdim=keepdims), td)
    op.__doc__ = 'The %s along the specified axes.' % name
    return op


_MOMENT_PARAMS = {'axis': _AXIS, 'dtype': (Opt(DType), None), 'ddof': (Int, 0),
                  'keepdims': (Bool, False)}
# (no gradient in MXNet 1.9.1: MakeZeroGradNodes)
register('_npi_std', inputs=('a',), params=_MOMENT_PARAMS, zero_grad=True)(
    _moment(torch.std, 'standard deviation'))
register('_npi_var', inputs=('a',), params=_MOMENT_PARAMS, zero_grad=True)(
    _moment(torch.var, 'variance'))


def _arg(torch_fn):
    def op(data, axis, keepdims):
        try:
            if axis is None:
                out = torch_fn(data.reshape(-1))
                return out.reshape((1,) * data.dim()) if keepdims else out
            return torch_fn(data, dim=axis, keepdim=keepdims)
        except (IndexError, RuntimeError) as err:  # (checked by torch: no cost when valid)
            raise MXNetError('%s: axis=%s does not name a non-empty axis of an array of shape '
                             '%s: %s' % (torch_fn.__name__, axis, tuple(data.shape), err)) \
                from None
    op.__doc__ = 'Indices of the %s values along an axis (int64).' % (
        'maximum' if torch_fn is torch.argmax else 'minimum')
    return op


_ARG_PARAMS = {'axis': (Opt(Int), None), 'keepdims': (Bool, False)}
register('_npi_argmax', params=_ARG_PARAMS, differentiable=False)(_arg(torch.argmax))
register('_npi_argmin', params=_ARG_PARAMS, differentiable=False)(_arg(torch.argmin))


def _logical(torch_fn, name):
    def op(data, axis, keepdims):
        if data.dtype is torch.uint8:  # (torch's all / any keep uint8; MXNet's give bool)
            data = data.to(torch.bool)
        if axis == ():
            return data.to(torch.bool)
        if axis is None:
            out = torch_fn(data)
            return out.reshape((1,) * data.dim()) if keepdims else out
        out = data
        for d in sorted((d % data.dim() for d in axis), reverse=True):
            out = torch_fn(out, dim=d, keepdim=keepdims)
        return out
    op.__doc__ = 'Whether %s array element along the given axes evaluates to True.' % name
    return op


_LOGICAL_PARAMS = {'axis': _AXIS, 'keepdims': (Bool, False)}
register('_np_all', params=_LOGICAL_PARAMS, differentiable=False)(_logical(torch.all, 'every'))
register('_np_any', params=_LOGICAL_PARAMS, differentiable=False,
         aliases=('_np_sometrue',))(_logical(torch.any, 'any'))


# ------------------------------------------------------------------------ creation
_NP_INIT = {'shape': (Shape, ()), 'ctx': (Any, None), 'dtype': (DType, 'float32')}


# (torch parses an unpacked shape faster than a tuple; ``*shape or ((),)``: a 0-d array)
@register('_npi_zeros', inputs=(), params=_NP_INIT, differentiable=False)
def np_zeros(shape, ctx, dtype):
    """An array of zeros (zero-dimensional for shape ())."""
    return torch.zeros(*shape or ((),), dtype=dtype_torch(dtype), device=_device(ctx))


@register('_npi_ones', inputs=(), params=_NP_INIT, differentiable=False)
def np_ones(shape, ctx, dtype):
    """An array of ones (zero-dimensional for shape ())."""
    return torch.ones(*shape or ((),), dtype=dtype_torch(dtype), device=_device(ctx))


@register('_npi_full', inputs=(), differentiable=False,
          params={'shape': (Shape, ()), 'ctx': (Any, None), 'dtype': (DType, 'float32'),
                  'value': (Float, REQUIRED)})
def np_full(*, shape, ctx, dtype, value):
    """An array filled with ``value``."""
    td = dtype_torch(dtype)
    return torch.full(shape, _fill_value(value, td), dtype=td, device=_device(ctx))


@register('_npi_arange', inputs=(), differentiable=False,
          params={'start': (Float, REQUIRED), 'stop': (Opt(Float), None), 'step': (Float, 1.0),
                  'repeat': (Int, 1), 'infer_range': (Bool, False), 'ctx': (Any, None),
                  'dtype': (DType, 'float32')})
def np_arange(start, stop, step, repeat, infer_range, ctx, dtype):
    """Evenly spaced values within a given interval (an empty array for an empty range),
    computed in float64 as NumPy does."""
    if stop is None:
        start, stop = 0.0, start
    td = dtype_torch(dtype)
    if start == 0 and step == 1 and stop.is_integer() and 0 <= stop <= EXACT_RANGE.get(td, -1):
        out = torch.arange(int(stop), dtype=td, device=_device(ctx))  # range(n): tested first
    else:
        if step == 0:
            raise MXNetError('arange: step must not be 0')
        n = max(math.ceil((stop - start) / step), 0)
        dev = _device(ctx)
        out = exact_range(n, start, step, td, dev)
        if out is None:
            out = (torch.arange(n, dtype=torch.float64, device=dev) * step + start).to(td)
    return out.repeat_interleave(repeat) if repeat > 1 else out


@register('_npi_eye', inputs=(), differentiable=False,
          params={'N': (Int, REQUIRED), 'M': (Opt(Int), None), 'k': (Int, 0),
                  'ctx': (Any, None), 'dtype': (DType, 'float32')})
def np_eye(*, N, M, k, ctx, dtype):
    """A 2-D array with ones on the k-th diagonal and zeros elsewhere."""
    m = N if M is None else M
    if N < 0 or m < 0:
        raise MXNetError('eye: N=%d and M=%d must be non-negative' % (N, m))
    out = torch.zeros((N, m), dtype=dtype_torch(dtype), device=_device(ctx))
    if N and m:
        out.diagonal(k).fill_(1)
    return out


@register('_npi_identity', inputs=(), params=_NP_INIT, differentiable=False)
def np_identity(*, shape, ctx, dtype):
    """The identity array of the given (square) shape."""
    return torch.eye(shape[0], dtype=dtype_torch(dtype), device=_device(ctx))


# ------------------------------------------------------------------------ shapes
@register('_np_reshape', inputs=('a',), params={'newshape': (Shape, REQUIRED),
                                                'order': (Str, 'C')}, keeps_size=True,
          inplace_identity=_shared)
def np_reshape(a, newshape, order, result=_fresh):
    """Gives a new shape to an array without changing its data (NumPy's -1 only). As in
    MXNet, the result is a copy, not a view of ``a``."""
    if order != 'C':
        raise NotImplementedError("reshape(order='%s'): only order='C' is supported" % order)
    try:
        return result(a, newshape)
    except RuntimeError:  # (checked by torch: no cost when valid)
        raise MXNetError(_reshape_error(a.numel(), newshape)) from None


def _reshape_error(size, newshape):
    """MXNet's message for a shape that an array of ``size`` elements cannot take."""
    known, unknown = 1, False
    for d in newshape:
        if d == -1 and unknown:
            return 'Check failed: !has_unknown_dim_size: Can only specify one unknown dimension'
        if d < 0 and d != -1:
            return ('Check failed: param.newshape[i] == -1 (%d vs. -1) : The shape dimension '
                    'size to inferred must be -1' % d)
        unknown = unknown or d == -1
        known *= d if d >= 0 else 1
    shape = '[%s]' % ','.join(str(d) for d in newshape)
    if unknown and not known:
        return ('Check failed: known_dim_size_prod != 0 (0 vs. 0) : Cannot reshape array of '
                'size %d into shape %s' % (size, shape))
    if unknown:
        return ('Check failed: src.Size() %% known_dim_size_prod == 0 (%d vs. 0) : Cannot '
                'reshape array of size %d into shape %s' % (size % known, size, shape))
    return ('Check failed: src.Size() == dst->Size() (%d vs. %d) : Cannot reshape array of '
            'size %d into shape %s' % (size, known, size, shape))


@register('_np_transpose', inputs=('a',), params={'axes': (Opt(Shape), None)})
def np_transpose(a, axes):
    """Permute the dimensions of an array (reversed without ``axes``); a copy, as in MXNet."""
    if axes is None or axes == ():
        n = a.dim()
        # (the cheapest torch spelling a call: .t() up to two axes; not a property such as
        # .mT, which the integer-gradient shadows of autograd do not follow)
        return _fresh(a.t() if n <= 2 else a.permute(*range(n - 1, -1, -1)))
    try:
        return _fresh(a.permute(*axes))
    except (IndexError, RuntimeError) as err:  # (checked by torch: no cost when valid)
        raise MXNetError('transpose: axes %s do not fit an array of %d dimensions: %s'
                         % (tuple(axes), a.dim(), err)) from None


@register('_np_squeeze', inputs=('a',), params={'axis': _AXIS}, inplace_identity=_shared)
def np_squeeze(a, axis, result=_fresh):
    """Remove single-dimensional entries from the shape of an array; a copy, as in MXNet."""
    if axis is None or a.dim() == 0:
        return result(a.squeeze())
    for d in sorted((d % a.dim() for d in axis), reverse=True):
        if a.shape[d] != 1:
            raise MXNetError('squeeze: cannot select an axis to squeeze out which has size '
                             'not equal to one')
        a = a.squeeze(d)
    return result(a)


@register('_npi_concatenate', inputs=('*data',), key_var_num_args='num_args',
          params={'num_args': (Int, REQUIRED), 'axis': (Opt(Int), 0)}, monitor_prefix='arg',
          kernel=torch.cat)
def np_concatenate(*data, num_args, axis):
    """Join a sequence of arrays along an existing axis (flattened for ``axis=None``)."""
    if axis is None:
        data, axis = [d.reshape(-1) for d in data], 0
    return _join_checked('concatenate', _CONCAT_RULE, torch.cat, data, axis)


# (the legacy operator's function: the same checks and messages)
register('_npi_stack', inputs=('*data',), key_var_num_args='num_args',
         params={'axis': (Int, 0), 'num_args': (Int, REQUIRED)}, monitor_prefix='arg',
         kernel=torch.stack)(stack)


@register('_npi_flip', params={'axis': (Opt(Shape), REQUIRED)})
def np_flip(data, axis):
    """Reverse the order of elements along the given axes (every axis for None)."""
    return torch.flip(data, tuple(range(data.dim())) if axis is None else axis)


@register('_npi_broadcast_to', inputs=('array',), params={'shape': (Shape, ())})
def np_broadcast_to(array, shape):
    """Broadcast an array to a new shape (-2: the size of the array's axis aligned with it
    from the right)."""
    if -2 in shape:
        lead = len(shape) - array.dim()
        shape = tuple(array.shape[i - lead] if d == -2 else d for i, d in enumerate(shape))
    try:  # (torch checks the shapes: no cost when they fit)
        # new memory, as MXNet's result (torch's expanded view cannot be written into)
        return _fresh(array.expand(shape))
    except RuntimeError as err:
        raise MXNetError('broadcast_to: an array of shape %s cannot be broadcast to %s: %s'
                         % (tuple(array.shape), tuple(shape), err)) from None


@register('_npi_where', inputs=('condition', 'x', 'y'))
def np_where(condition, x, y):
    """Elements of ``x`` where ``condition`` is true, of ``y`` elsewhere (broadcast)."""
    return torch.where(condition.to(torch.bool), x, y)


@register('_npi_where_lscalar', inputs=('condition', 'y'), params={'scalar': (Float, 0.0)})
def np_where_lscalar(condition, y, scalar):
    """``scalar`` where ``condition`` is true, elements of ``y`` elsewhere."""
    return torch.where(condition.to(torch.bool), torch.tensor(scalar, dtype=y.dtype,
                                                              device=y.device), y)


@register('_npi_where_rscalar', inputs=('condition', 'x'), params={'scalar': (Float, 0.0)})
def np_where_rscalar(condition, x, scalar):
    """Elements of ``x`` where ``condition`` is true, ``scalar`` elsewhere."""
    return torch.where(condition.to(torch.bool), x, torch.tensor(scalar, dtype=x.dtype,
                                                                 device=x.device))


@register('_npi_where_scalar2', inputs=('condition',), params={'x': (Float, 0.0),
                                                             'y': (Float, 0.0)})
def np_where_scalar2(condition, x, y):
    """``x`` where ``condition`` is true, ``y`` elsewhere (float32)."""
    c = condition.to(torch.bool)
    return torch.where(c, torch.tensor(x, device=c.device), torch.tensor(y, device=c.device))


@register('_npi_tril', params={'k': (Int, 0)})
def np_tril(data, k):
    """Lower triangle of an array (of each matrix in a stack)."""
    if data.dim() == 1:
        data = data.expand(data.shape[0], data.shape[0])
    return torch.tril(data, k)


@register('_np_copy', inputs=('a',))
def np_copy(a):
    """Return an array copy of the given object."""
    return a.clone()


# ------------------------------------------------------------------------ products
# (kernel: torch.mm computes the product of two matrices, and raises for other inputs)
@register('_np_dot', inputs=('a', 'b'), kernel=torch.mm)
def np_dot(a, b):
    """Dot product of two arrays, as ``numpy.dot``."""
    da, db = a.dim(), b.dim()
    if da == 0 or db == 0:
        return a * b
    if db == 1 or da <= 2 and db == 2:
        try:
            return torch.matmul(a, b)
        except RuntimeError:  # torch checks the shapes: MXNet's message where they differ
            _check_aligned(a, b)
            raise
    _check_aligned(a, b)
    return torch.tensordot(a, b, dims=([da - 1], [db - 2]))


def _check_aligned(a, b):
    k = b.shape[0] if b.dim() == 1 else b.shape[-2]
    if a.shape[-1] != k:
        raise MXNetError('dot: shapes %s and %s are not aligned: %d (dim %d) != %d; the last '
                         'axis of a must match the %s axis of b'
                         % (tuple(a.shape), tuple(b.shape), a.shape[-1], a.dim() - 1, k,
                            'only' if b.dim() == 1 else 'second-to-last'))


@register('_npi_matmul', inputs=('a', 'b'))
def np_matmul(a, b):
    """Matrix product of two arrays, as ``numpy.matmul``."""
    try:
        return torch.matmul(a, b)
    except RuntimeError as err:  # (checked by torch: no cost on the way that works)
        if a.dim() == 0 or b.dim() == 0:
            raise MXNetError('matmul: Input operand does not have enough dimensions; use * '
                             'or np.multiply for scalars') from None
        raise MXNetError('matmul: operands of shapes %s and %s do not match: %s'
                         % (tuple(a.shape), tuple(b.shape), err)) from None


@register('_npi_tensordot_int_axes', inputs=('a', 'b'), params={'axes': (Int, REQUIRED)})
def np_tensordot_int_axes(a, b, axes):
    """Tensor dot product over the last ``axes`` axes of a and the first of b."""
    return torch.tensordot(a, b, dims=axes)


@register('_npi_tensordot', inputs=('a', 'b'), params={'a_axes_summed': (Shape, REQUIRED),
                                                       'b_axes_summed': (Shape, REQUIRED)})
def np_tensordot(a, b, a_axes_summed, b_axes_summed):
    """Tensor dot product over the given pairs of axes."""
    return torch.tensordot(a, b, dims=(list(a_axes_summed), list(b_axes_summed)))


@register('_npi_einsum', inputs=('*data',), key_var_num_args='num_args',
          params={'num_args': (Int, REQUIRED), 'subscripts': (Str, ''),
                  'optimize': (Int, 0)}, monitor_prefix='arg')
def np_einsum(*data, num_args, subscripts, optimize):
    """Einstein summation over the operands, in their type (torch sums integers to int64)."""
    out = torch.einsum(subscripts, *data)
    return out if not data or out.dtype is data[0].dtype else out.to(data[0].dtype)


# ------------------------------------------------------------------------ npx
@register('_npx_reshape', inputs=('a',), keeps_size=True,
          params={'newshape': (Shape, REQUIRED), 'reverse': (Bool, False),
                  'order': (Str, 'C')}, inplace_identity=_shared)
def npx_reshape(a, newshape, reverse, order, result=_fresh):
    """Reshape with MXNet's NumPy-extension codes: -1 infers a dimension, -2 copies one, -3
    drops a dimension of size one, -4 copies every remaining one, -5 merges two, -6 splits one
    into the two that follow (either may be -1). ``reverse`` reads both shapes from the right."""
    src = list(a.shape)
    spec = list(newshape)
    if reverse:
        src, spec = src[::-1], spec[::-1]
    out, i, j, infer = [], 0, 0, None
    while j < len(spec):
        s = spec[j]
        if s >= 0:
            out.append(s)
            i += 1
        elif s == -1:
            infer = len(out)
            out.append(-1)
            i += 1
        elif s == -2:
            out.append(src[i])
            i += 1
        elif s == -3:
            if src[i] != 1:
                raise MXNetError('npx.reshape: -3 drops a dimension of size 1, got %d' % src[i])
            i += 1
        elif s == -4:
            out.extend(src[i:])
            i = len(src)
        elif s == -5:
            out.append(src[i] * src[i + 1])
            i += 2
        elif s == -6:
            d1, d2 = spec[j + 1], spec[j + 2]
            if d1 == -1:
                d1 = src[i] // d2
            elif d2 == -1:
                d2 = src[i] // d1
            out.extend([d1, d2])
            i += 1
            j += 2
        else:
            raise MXNetError('npx.reshape: invalid special value %d in newshape' % s)
        j += 1
    if reverse:
        out = out[::-1]
        if infer is not None:
            infer = len(out) - 1 - infer
    if infer is not None:
        known = 1
        for k, d in enumerate(out):
            if k != infer:
                known *= d
        out[infer] = a.numel() // known if known else 0
    return result(a, out)


# ------------------------------------------------------------------------ manipulation
def _split_outputs(attrs):
    return attrs['sections'] if attrs['sections'] > 0 else len(attrs['indices'])


def _split(name, axis_of):
    def op(data, indices, axis, squeeze_axis, sections):
        return _split_parts(name, data, indices, axis_of(data), squeeze_axis, sections)
    op.__doc__ = ('Split an array into sub-arrays (``indices`` start with 0, or ``sections``, '
                  'the first ones one longer where they do not divide the axis).')
    return op


_SPLIT_PARAMS = {'indices': (Shape, REQUIRED), 'axis': (Int, 0), 'squeeze_axis': (Bool, False),
                 'sections': (Int, 0)}
# (np.split is _split_v2's alias _npi_split) hsplit: the columns, the elements of a 1-D array
register('_npi_hsplit', params=_SPLIT_PARAMS, num_outputs=_split_outputs)(
    _split('hsplit', lambda data: 1 if data.dim() > 1 else 0))
register('_npi_dsplit', params=_SPLIT_PARAMS, num_outputs=_split_outputs)(
    _split('dsplit', lambda data: 2))


def _join(name, fn, doc, dim_param, rule):
    params = {'num_args': (Int, REQUIRED)}
    if dim_param:
        params['dim'] = (Int, 1)

    def op(*data, num_args, **dim):
        return _join_checked(name, rule, fn, data)
    op.__doc__ = doc
    return params, op


for _name, _fn, _doc, _dim, _rule in (
        ('hstack', torch.hstack, 'Stack arrays in sequence horizontally (column wise).', True,
         'arrays of the same number of dimensions, equal in all but the second (1-D: the '
         'first)'),
        ('vstack', torch.vstack, 'Stack arrays in sequence vertically (row wise).', False,
         'arrays (1-D ones as rows) of the same number of dimensions, equal in all but the '
         'first'),
        ('dstack', torch.dstack, 'Stack arrays in sequence depth wise (along the third axis).',
         True, 'arrays (viewed as at least 3-D) equal in all but the third dimension'),
        ('column_stack', torch.column_stack, 'Stack 1-D arrays as columns into a 2-D array.',
         False, 'arrays (1-D ones as columns) of the same number of dimensions, equal in all '
         'but the second')):
    _params, _op = _join(_name, _fn, _doc, _dim, _rule)
    register('_npi_' + _name, inputs=('*data',), key_var_num_args='num_args', params=_params,
             monitor_prefix='arg')(_op)


def _atleast(fn):
    def op(*arys, num_args):
        out = fn(arys)
        return tuple(_fresh(t) for t in out) if isinstance(out, (list, tuple)) \
            else (_fresh(out),)
    op.__doc__ = ('Copies of the inputs with at least %s dimensions (new arrays, as in MXNet).'
                  % fn.__name__[-2])
    return op


for _n, _fn in ((1, torch.atleast_1d), (2, torch.atleast_2d), (3, torch.atleast_3d)):
    register('_np_atleast_%dd' % _n, inputs=('*arys',), key_var_num_args='num_args',
             params={'num_args': (Int, REQUIRED)}, num_outputs=lambda a: a['num_args'],
             monitor_prefix='arg', zero_grad=True)(_atleast(_fn))


@register('_np_diagonal', params={'offset': (Int, 0), 'axis1': (Int, 0), 'axis2': (Int, 1)})
def np_diagonal(data, offset, axis1, axis2):
    """The specified diagonals (the last axis of the result indexes along them), a new
    array as in MXNet."""
    return _fresh(_diagonal(data, offset, axis1, axis2))


def _diagonal(data, offset, axis1, axis2):
    try:
        return torch.diagonal(data, offset, axis1, axis2)
    except (IndexError, RuntimeError) as err:  # (checked by torch: no cost when valid)
        raise MXNetError('diagonal: axis1=%d and axis2=%d must be two different axes of the '
                         '%d-dimensional input: %s' % (axis1, axis2, data.dim(), err)) from None


@register('_np_diag', params={'k': (Int, 0)})
def np_diag(data, k):
    """The k-th diagonal of a 2-D array, or a 2-D array with a 1-D array on its diagonal."""
    return torch.diag(data, k)


@register('_np_trace', params={'offset': (Int, 0), 'axis1': (Int, 0), 'axis2': (Int, 1)})
def np_trace(data, offset, axis1, axis2):
    """The sum along the diagonals of an array (of an integer array, in its type)."""
    diagonal = _diagonal(data, offset, axis1, axis2)
    if data.is_floating_point() or data.dtype is torch.bool:
        return diagonal.sum(-1)
    return diagonal.sum(-1, dtype=data.dtype)


@register('_np_roll', params={'shift': (Opt(Shape), None), 'axis': _AXIS})
def np_roll(data, shift, axis):
    """Roll array elements along the given axes (of the flattened array without ``axis``)."""
    if axis is None:
        return torch.roll(data.reshape(-1), shift[0]).reshape(data.shape)
    return torch.roll(data, shift if len(shift) > 1 else shift * len(axis), axis)


@register('_npi_tile', params={'reps': (Shape, REQUIRED)})
def np_tile(data, reps):
    """An array built by repeating ``data`` the number of times ``reps`` gives (0 gives an
    empty axis: sizes of 0 are known in NumPy shape semantics)."""
    try:
        return torch.tile(data, reps)
    except RuntimeError:  # (checked by torch: no cost when valid)
        raise MXNetError('tile: reps=%s must hold non-negative numbers' % (tuple(reps),)) \
            from None


@register('_npi_rot90', params={'k': (Int, 1), 'axes': (Shape, (0, 1))})
def np_rot90(data, k, axes):
    """Rotate an array by 90 degrees ``k`` times in the plane of ``axes``."""
    return torch.rot90(data, k, list(axes))


@register('_np_moveaxis', inputs=('a',), params={'source': (Shape, REQUIRED),
                                                 'destination': (Shape, REQUIRED)})
def np_moveaxis(a, source, destination):
    """Move axes of an array to new positions (a new array, as in MXNet)."""
    return _fresh(torch.movedim(a, source, destination))


@register('_npi_take', inputs=('a', 'indices'), params={'axis': (Opt(Int), None),
                                                      'mode': (Str, 'raise')})
def np_take(a, indices, axis, mode):
    """Elements of an array along an axis (of the flattened array without ``axis``)."""
    if axis is None:
        a, axis = a.reshape(-1), 0
    elif axis < 0:
        axis += a.dim()
    n = a.shape[axis]
    idx = indices.to(torch.int64)
    if mode == 'clip':
        idx = idx.clamp(0, n - 1)
    elif mode == 'wrap':
        idx = torch.remainder(idx, n)
    elif idx.numel() and any_true((idx < -n) | (idx >= n)):
        # MXNet checks in the kernel: the error is raised when the result is read
        error = MXNetError('take operator contains indices out of bound: index out of bounds '
                           'for axis %d with size %d' % (axis, n))
        if not n:
            raise error
        return raise_at_read(error, np_take(a, indices.clamp(-n, n - 1), axis, mode))
    out = torch.index_select(a, axis, torch.remainder(idx, n).reshape(-1)) if n else \
        a.narrow(axis, 0, 0)
    return out.reshape(a.shape[:axis] + indices.shape + a.shape[axis + 1:])


@register('_npi_diff', inputs=('a',), params={'n': (Int, 1), 'axis': (Int, -1)})
def np_diff(a, n, axis):
    """The n-th discrete difference along the given axis."""
    return torch.diff(a, n=n, dim=axis) if n else a.clone()


@register('_npi_full_like', inputs=('a',), differentiable=False,
          params={'fill_value': (Float, REQUIRED), 'ctx': (Any, None),
                  'dtype': (Opt(DType), None)})
def np_full_like(a, fill_value, ctx, dtype):
    """An array of ``a``'s shape (and type, without ``dtype``) filled with ``fill_value``, on
    ``a``'s device: as in MXNet, an operator with inputs runs where its inputs are, whatever its
    ``ctx`` attribute says."""
    td = a.dtype if dtype is None else dtype_torch(dtype)
    return torch.full(a.shape, _fill_value(fill_value, td), dtype=td, device=a.device)


@register('_npi_logspace', inputs=(), differentiable=False,
          params={'start': (Float, REQUIRED), 'stop': (Float, REQUIRED), 'num': (Int, REQUIRED),
                  'endpoint': (Bool, True), 'base': (Float, 10.0), 'ctx': (Any, None),
                  'dtype': (DType, 'float32')})
def np_logspace(*, start, stop, num, endpoint, base, ctx, dtype):
    """Numbers spaced evenly on a log scale."""
    exps = linspace(start=start, stop=stop, num=num, endpoint=endpoint, ctx=ctx,
                    dtype='float64')
    return torch.pow(base, exps).to(dtype_torch(dtype))


@register('_npi_indices', inputs=(), differentiable=False,
          params={'dimensions': (Shape, REQUIRED), 'dtype': (DType, 'int32'),
                  'ctx': (Any, None)})
def np_indices(*, dimensions, dtype, ctx):
    """An array representing the indices of a grid."""
    grids = torch.meshgrid(*[torch.arange(d, device=_device(ctx)) for d in dimensions],
                           indexing='ij')
    if not grids:
        return torch.zeros((0,), dtype=dtype_torch(dtype), device=_device(ctx))
    return torch.stack(grids).to(dtype_torch(dtype))


# ------------------------------------------------------------------------ more of mx.np
@register('_np_diagflat', inputs=('data',), params={'k': (Int, 0)})
def np_diagflat(data, k):
    """A 2-D array with the flattened input on its k-th diagonal."""
    return torch.diagflat(data.reshape(-1), k)


@register('_npi_diag_indices_from', inputs=('data',), differentiable=False)
def np_diag_indices_from(data):
    """The indices of the main diagonal of an n-dimensional array of equal sides, one row per
    axis (int64)."""
    if data.dim() < 2 or any(n != data.shape[0] for n in data.shape):
        raise MXNetError('diag_indices_from: the input must be at least 2-d with all sides of '
                         'equal length, got shape %s' % (tuple(data.shape),))
    idx = torch.arange(data.shape[0], dtype=torch.int64, device=data.device)
    return idx.expand(data.dim(), data.shape[0]).clone()


@register('_npi_nan_to_num', params={'copy': (Bool, True), 'nan': (Float, 0.0),
                                     'posinf': (Opt(Float), None),
                                     'neginf': (Opt(Float), None)})
def np_nan_to_num(data, copy, nan, posinf, neginf):
    """NaN replaced by ``nan``, infinities by ``posinf`` / ``neginf`` (the largest and smallest
    finite values of the type by default); the gradient is zero at the replaced elements."""
    if not data.is_floating_point():
        return data.clone()
    return torch.nan_to_num(data, nan, posinf, neginf)


@register('_npi_unravel_index_fallback', inputs=('indices',), differentiable=False,
          params={'shape': (Shape, REQUIRED)})
def np_unravel_index(indices, shape):
    """The coordinates of flat indices in an array of ``shape``, one row per axis (of the
    indices' type)."""
    idx = indices.to(torch.int64)
    total = math.prod(shape)
    if idx.numel() and bool(((idx < 0) | (idx >= total)).any()):
        raise MXNetError('unravel_index: an index is out of bounds for an array of shape %s'
                         % (tuple(shape),))
    rows = []
    for n in reversed(shape):
        rows.append(torch.remainder(idx, n))
        idx = torch.div(idx, n, rounding_mode='floor')
    return torch.stack(rows[::-1]).to(indices.dtype)


def _window(coefficients, name):
    def op(*, M, ctx, dtype):
        n = 0 if M is None else max(M, 0)
        if n == 1:
            return torch.ones(1, dtype=dtype_torch(dtype), device=_device(ctx))
        phase = torch.arange(n, dtype=torch.float64, device=_device(ctx)) * (
            2 * math.pi / max(n - 1, 1))
        out = torch.full_like(phase, coefficients[0])
        for k, c in enumerate(coefficients[1:], 1):
            out = out + c * torch.cos(k * phase)
        return out.to(dtype_torch(dtype))
    op.__doc__ = 'The %s window of ``M`` points (empty for M <= 0).' % name
    return op


_WINDOW_PARAMS = {'M': (Opt(Int), None), 'ctx': (Any, None), 'dtype': (DType, 'float32')}
for _name, _coefficients in (('hanning', (0.5, -0.5)), ('hamming', (0.54, -0.46)),
                             ('blackman', (0.42, -0.5, 0.08))):
    register('_npi_' + _name, inputs=(), differentiable=False, params=_WINDOW_PARAMS)(
        _window(_coefficients, _name))


@register('_npx_nonzero', inputs=('x',), differentiable=False, aliases=('_npi_nonzero',))
def npx_nonzero(x):
    """The indices of the non-zero elements, one row per element (int64; a 0-d input counts
    as 1-d)."""
    return torch.nonzero(x.reshape(1) if x.dim() == 0 else x)


@register('_npx_constraint_check', inputs=('input',), differentiable=False,
          params={'msg': (Str, 'Constraint violated.')})
def npx_constraint_check(input, msg):  # pylint: disable=redefined-builtin
    """``True`` (a bool scalar) when every element of ``input`` is true; ValueError with
    ``msg`` otherwise."""
    if not bool(input.all()):
        raise ValueError(msg)
    return torch.ones((), dtype=torch.bool, device=input.device)


@register('_npi_bincount', inputs=('data', 'weights'), zero_grad=True,
          params={'minlength': (Int, 0), 'has_weights': (Bool, False)},
          input_rule=lambda p: ['data', 'weights'] if p['has_weights'] else ['data'])
def np_bincount(data, weights=None, *, minlength, has_weights):
    """The number of occurrences (the sum of ``weights``) of each value in an array of
    non-negative integers; the type of ``weights``, of ``data`` without them."""
    if minlength < 0:
        raise MXNetError('bincount: minlength=%d must be non-negative' % minlength)
    idx = data.reshape(-1).to(torch.int64)
    if idx.numel() and bool((idx < 0).any()):
        raise MXNetError('bincount: the input must hold non-negative integers only')
    if weights is None:
        return torch.bincount(idx, minlength=minlength).to(data.dtype)
    return torch.bincount(idx, weights.reshape(-1).to(torch.float64),
                          minlength=minlength).to(weights.dtype)


@register('_npi_polyval', inputs=('p', 'x'))
def np_polyval(p, x):
    """The polynomial with coefficients ``p`` (highest power first) at the points ``x``."""
    out = torch.zeros_like(x, dtype=torch.result_type(p, x))
    for c in p.unbind(0):
        out = out * x + c
    return out


_EDIFF1D_INPUTS = ('input1', 'input2', 'input3')


@register('_npi_ediff1d', inputs=_EDIFF1D_INPUTS,
          params={'to_begin_arr_given': (Bool, False), 'to_end_arr_given': (Bool, False),
                  'to_begin_scalar': (Opt(Float), None), 'to_end_scalar': (Opt(Float), None)},
          input_rule=lambda p: list(_EDIFF1D_INPUTS[:1 + p['to_begin_arr_given'] +
                                                    p['to_end_arr_given']]))
def np_ediff1d(input1, input2=None, input3=None, *, to_begin_arr_given, to_end_arr_given,
               to_begin_scalar, to_end_scalar):
    """The differences between consecutive elements of the flattened array, with ``to_begin``
    and ``to_end`` (arrays, given as the next inputs, or scalars) around them."""
    extra = [t for t in (input2, input3) if t is not None]
    flat = input1.reshape(-1)

    def part(arr_given, scalar):
        if arr_given:
            return extra.pop(0).reshape(-1).to(flat.dtype)
        if scalar is None:
            return flat[:0]
        return torch.tensor([scalar], device=flat.device).to(flat.dtype)
    begin = part(to_begin_arr_given, to_begin_scalar)
    end = part(to_end_arr_given, to_end_scalar)
    return torch.cat([begin, flat[1:] - flat[:-1], end])


@register('_npi_average', inputs=('a', 'weights'),
          params={'axis': _AXIS, 'returned': (Bool, False), 'weighted': (Bool, True)},
          num_outputs=2, num_visible_outputs=lambda p: 2 if p['returned'] else 1,
          input_rule=lambda p: ['a', 'weights'] if p['weighted'] else ['a'])
def np_average(a, weights=None, *, axis, returned, weighted):
    """The weighted average along the given axes, and the sum of the weights (a 1-D
    ``weights`` runs along the single ``axis``): as MXNet gives it, 0-d without weights (the
    number of elements averaged) and for 1-D weights (their sum), not broadcast to the
    average's shape as NumPy's is."""
    dims = tuple(range(a.dim())) if axis is None else tuple(d % a.dim() for d in axis)
    integer = not a.is_floating_point()  # (MXNet's in integers, truncated, in a's type)
    if weights is None:
        if integer:
            avg = _int_mean(a, dims, False)[0].to(a.dtype)
        else:
            avg = torch.mean(a, dim=dims)
        return avg, torch.tensor(math.prod(a.shape[d] for d in dims), dtype=avg.dtype,
                                 device=avg.device)
    if weights.dim() != a.dim():
        if weights.dim() != 1 or len(dims) != 1 or weights.shape[0] != a.shape[dims[0]]:
            raise MXNetError('average: weights of shape %s must have the shape of a %s, or be '
                             '1-D along the single axis' % (tuple(weights.shape),
                                                            tuple(a.shape)))
        scale = torch.sum(weights)
        weights = weights.reshape([-1 if d == dims[0] else 1 for d in range(a.dim())])
    else:
        scale = torch.sum(weights, dim=dims)
    if integer:
        return torch.div(torch.sum(a * weights, dim=dims), scale,
                         rounding_mode='trunc').to(a.dtype), scale.to(a.dtype)
    return torch.sum(a * weights, dim=dims) / scale, scale


def _percentile(a, q, dims, interpolation, keepdims):
    """MXNet's percentile kernel: the position ``q / 100 * (n - 1)`` in float32, 'nearest'
    rounding halves away from zero, and each of the two neighbours times its float32 weight
    rounded to the input's floating type (float32 for integers), summed in the result's
    (float64 for float64 input, float32 otherwise)."""
    otype = torch.float64 if a.dtype is torch.float64 else torch.float32
    rest = [d for d in range(a.dim()) if d not in dims]
    x = a.permute(rest + list(dims)).reshape([a.shape[d] for d in rest] + [-1])
    x = torch.sort(x if x.is_floating_point() else x.to(torch.float32), dim=-1).values
    n = x.shape[-1]
    idx = (q.to(torch.float64) * (n - 1) / 100).to(torch.float32).reshape(-1)
    if interpolation == 'midpoint':
        idx = (torch.floor(idx) + torch.ceil(idx)) / 2
    if interpolation in ('lower', 'higher', 'nearest'):
        pick = {'lower': torch.floor, 'higher': torch.ceil,
                'nearest': lambda i: torch.floor(i + 0.5)}[interpolation]
        out = x[..., pick(idx).to(torch.int64)].to(otype)
    else:
        below = torch.floor(idx).to(torch.int64)
        above = (below + 1).clamp(max=n - 1)
        w_above = idx - below  # float32; a float16 neighbour times it rounds to float16
        wide = x.to(torch.float32) if x.dtype is torch.float16 else x
        out = (wide[..., below] * (1 - w_above)).to(x.dtype).to(otype) + \
            (wide[..., above] * w_above).to(x.dtype).to(otype)
    out = out.movedim(-1, 0).reshape(tuple(q.shape) + tuple(out.shape[:-1]))
    if keepdims:
        out = out.reshape(tuple(q.shape) + tuple(1 if d in dims else k
                                                 for d, k in enumerate(a.shape)))
    return out


@register('_npi_percentile', inputs=('a', 'q'), zero_grad=True,
          params={'axis': _AXIS, 'keepdims': (Bool, False), 'q_scalar': (Opt(Float), None),
                  'interpolation': (Str, 'linear')},
          input_rule=lambda p: ['a'] if p['q_scalar'] is not None else ['a', 'q'])
def np_percentile(a, q=None, *, axis, keepdims, q_scalar, interpolation):
    """The ``q``-th percentiles (0 to 100) along the given axes (float64 for float64 input,
    float32 otherwise)."""
    if interpolation not in ('linear', 'lower', 'higher', 'midpoint', 'nearest'):
        raise MXNetError("percentile: interpolation=%r must be 'linear', 'lower', 'higher', "
                         "'midpoint' or 'nearest'" % (interpolation,))
    qs = torch.tensor(q_scalar, dtype=torch.float64, device=a.device) if q is None else q
    if qs.numel() and bool(((qs < 0) | (qs > 100)).any()):
        raise MXNetError('percentile: q must be in the range [0, 100]')
    dims = tuple(range(a.dim())) if axis is None else tuple(d % a.dim() for d in axis)
    return _percentile(a, qs, dims, interpolation, keepdims)


@register('_npi_resize_fallback', differentiable=False,
          params={'new_shape': (Shape, REQUIRED)})
def np_resize(data, new_shape):
    """An array of ``new_shape`` filled with the flattened input repeated (zeros for an empty
    input)."""
    n = math.prod(new_shape)
    flat = data.reshape(-1)
    if flat.numel() == 0:
        return torch.zeros(new_shape, dtype=data.dtype, device=data.device)
    reps = -(-n // flat.numel())
    return flat.repeat(reps)[:n].reshape(new_shape)


def _pad_index(n, before, after, mode, device):
    """Source positions along an axis of length ``n`` for each position of the padded axis."""
    i = torch.arange(-before, n + after, device=device)
    if mode == 'edge':
        return i.clamp(0, n - 1)
    if mode == 'reflect':  # mirrored about the edge values
        period = 2 * (n - 1)
        if period == 0:
            return torch.zeros_like(i)
        i = torch.remainder(i, period)
        return torch.where(i >= n, period - i, i)
    period = 2 * n  # symmetric: mirrored along the edge, edge values repeated
    i = torch.remainder(i, period)
    return torch.where(i >= n, period - 1 - i, i)


@register('_npi_pad', inputs=('data',),
          params={'pad_width': (Any, REQUIRED),
                  'mode': (Enum('constant', 'edge', 'reflect', 'symmetric', 'maximum',
                                'minimum'), 'constant'),
                  'constant_value': (Float, 0.0), 'reflect_type': (Str, 'even')})
def np_pad(data, pad_width, mode, constant_value, reflect_type):
    """The array padded by ``pad_width`` ((before, after) per axis) in the given ``mode``."""
    if isinstance(pad_width, str):
        import ast
        pad_width = ast.literal_eval(pad_width)
    widths = torch.broadcast_to(torch.tensor(pad_width, dtype=torch.int64),
                                (data.dim(), 2)).tolist()
    if any(w < 0 for pair in widths for w in pair):
        raise MXNetError('pad: pad_width %s must be non-negative' % (pad_width,))
    if mode == 'constant':
        flat = [w for pair in reversed(widths) for w in pair]
        return torch.nn.functional.pad(data, flat, value=constant_value)
    out = data
    for axis, (before, after) in enumerate(widths):
        if not before and not after:
            continue
        if mode in ('maximum', 'minimum'):
            stat = (torch.amax if mode == 'maximum' else torch.amin)(out, dim=axis, keepdim=True)
            shape = list(out.shape)
            out = torch.cat([stat.expand(shape[:axis] + [before] + shape[axis + 1:]), out,
                             stat.expand(shape[:axis] + [after] + shape[axis + 1:])], axis)
        else:
            out = torch.index_select(out, axis, _pad_index(out.shape[axis], before, after,
                                                           mode, out.device))
    return out


def _unique_outputs(p):
    return 1 + p['return_index'] + p['return_inverse'] + p['return_counts']


@register('_npi_unique', zero_grad=True, num_outputs=_unique_outputs,
          params={'return_index': (Bool, False), 'return_inverse': (Bool, False),
                  'return_counts': (Bool, False), 'axis': (Opt(Int), None)})
def np_unique(data, return_index, return_inverse, return_counts, axis):
    """The sorted unique elements (slices along ``axis``), with the indices of their first
    occurrences, the inverse indices and the counts where asked (int64)."""
    x = data.reshape(-1) if axis is None else data
    dim = 0 if axis is None else axis % data.dim()
    uniq, inverse, counts = torch.unique(x, sorted=True, return_inverse=True,
                                         return_counts=True, dim=dim)
    out = [uniq]
    if return_index:
        pos = torch.arange(inverse.numel(), device=x.device)
        first = torch.full((counts.numel(),), max(inverse.numel(), 1), dtype=torch.int64,
                           device=x.device)
        out.append(first.scatter_reduce(0, inverse, pos, 'amin'))
    if return_inverse:
        out.append(inverse)
    if return_counts:
        out.append(counts)
    return tuple(out) if len(out) > 1 else uniq


def _positions(n, start, stop, step, int_ind, obj, device):
    """The positions ``obj`` (an index array), ``int_ind`` or the slice (start, stop, step)
    name along an axis of length ``n`` (an int64 tensor)."""
    if obj is not None:
        return obj.reshape(-1).to(torch.int64)
    if int_ind is not None:
        return torch.tensor([int_ind], dtype=torch.int64, device=device)
    return torch.tensor(range(*slice(start, stop, step).indices(n)), dtype=torch.int64,
                        device=device)


_DELETE_PARAMS = {'start': (Opt(Int), None), 'stop': (Opt(Int), None), 'step': (Opt(Int), None),
                  'int_ind': (Opt(Int), None), 'axis': (Opt(Int), None)}


@register('_npi_delete', inputs=('arr', 'obj'), params=_DELETE_PARAMS,
          input_rule=lambda p: ['arr'] if p['int_ind'] is not None or p['start'] is not None
          or p['stop'] is not None or p['step'] is not None else ['arr', 'obj'])
def np_delete(arr, obj=None, *, start, stop, step, int_ind, axis):
    """The array without the sub-arrays at the given positions along ``axis`` (of the
    flattened array without ``axis``); positions of ``obj`` outside [0, n) are ignored (as
    MXNet does; a negative ``int_ind`` counts from the end)."""
    if axis is None:
        arr, axis = arr.reshape(-1), 0
    axis %= max(arr.dim(), 1)
    n = arr.shape[axis]
    pos = _positions(n, start, stop, step, int_ind, obj, arr.device)
    if int_ind is not None and not -n <= int_ind < n:
        raise MXNetError('delete: index %d is out of bounds for axis %d with size %d'
                         % (int_ind, axis, n))
    if int_ind is not None and int_ind < 0:
        pos = pos + n
    keep = torch.ones(n, dtype=torch.bool, device=arr.device)
    keep[pos[(pos >= 0) & (pos < n)]] = False
    return torch.index_select(arr, axis, keep.nonzero().reshape(-1))


def _insert(arr, values, pos, as_array, axis):
    """numpy.insert along ``axis``: ``pos`` the positions (an int64 tensor), ``as_array``
    whether they came as a sequence (a single int moves the values' first axis to ``axis``)."""
    if axis is None:
        arr, axis = arr.reshape(-1), 0
    axis %= max(arr.dim(), 1)
    n = arr.shape[axis]
    if bool(((pos < -n) | (pos > n)).any()):
        raise MXNetError('insert: an index is out of bounds for axis %d with size %d'
                         % (axis, n))
    pos = torch.where(pos < 0, pos + n, pos)
    values = values.to(arr.dtype)
    values = values.reshape((1,) * (arr.dim() - values.dim()) + tuple(values.shape))
    x = arr.movedim(axis, 0)
    if pos.numel() == 1:
        index = int(pos)
        if not as_array:
            values = values.movedim(0, axis)
        v = values.movedim(axis, 0)
        v = v.expand((v.shape[0],) + tuple(x.shape[1:]))
        return torch.cat([x[:index], v, x[index:]]).movedim(0, axis)
    num = pos.numel()
    order = torch.argsort(pos, stable=True)
    new_pos = pos.clone()
    new_pos[order] += torch.arange(num, device=pos.device)
    old = torch.ones(n + num, dtype=torch.bool, device=arr.device)
    old[new_pos] = False
    v = values.movedim(axis, 0).expand((num,) + tuple(x.shape[1:]))
    out = x.new_empty((n + num,) + tuple(x.shape[1:]))
    out = out.index_put((new_pos,), v).index_put((old.nonzero().reshape(-1),), x)
    return out.movedim(0, axis)


def _insert_values(arr, values, val):
    return values if values is not None else torch.tensor(val, device=arr.device)


@register('_npi_insert_scalar', inputs=('arr', 'values'),
          params={'val': (Opt(Float), None), 'int_ind': (Opt(Int), None),
                  'axis': (Opt(Int), None)},
          input_rule=lambda p: ['arr'] if p['val'] is not None else ['arr', 'values'])
def np_insert_scalar(arr, values=None, *, val, int_ind, axis):
    """``values`` (or the scalar ``val``) inserted before position ``int_ind`` along
    ``axis`` (of the flattened array without ``axis``)."""
    pos = torch.tensor([int_ind], dtype=torch.int64, device=arr.device)
    return _insert(arr, _insert_values(arr, values, val), pos, False, axis)


@register('_npi_insert_slice', inputs=('arr', 'values'),
          params={'val': (Opt(Float), None), 'start': (Opt(Int), None),
                  'stop': (Opt(Int), None), 'step': (Opt(Int), None), 'axis': (Opt(Int), None)},
          input_rule=lambda p: ['arr'] if p['val'] is not None else ['arr', 'values'])
def np_insert_slice(arr, values=None, *, val, start, stop, step, axis):
    """``values`` (or the scalar ``val``) inserted before the positions of a slice along
    ``axis`` (of the flattened array without ``axis``)."""
    n = arr.numel() if axis is None else arr.shape[axis]
    pos = _positions(n, start, stop, step, None, None, arr.device)
    return _insert(arr, _insert_values(arr, values, val), pos, True, axis)


@register('_npi_insert_tensor', inputs=('arr', 'values', 'obj'),
          params={'val': (Opt(Float), None), 'axis': (Opt(Int), None)},
          input_rule=lambda p: ['arr', 'obj'] if p['val'] is not None
          else ['arr', 'values', 'obj'])
def np_insert_tensor(arr, values=None, obj=None, *, val, axis):
    """``values`` (or the scalar ``val``) inserted before the positions ``obj`` along
    ``axis`` (of the flattened array without ``axis``)."""
    if obj is None:  # (the scalar form passes obj second)
        obj, values = values, None
    pos = obj.reshape(-1).to(torch.int64)
    return _insert(arr, _insert_values(arr, values, val), pos, obj.dim() > 0, axis)
