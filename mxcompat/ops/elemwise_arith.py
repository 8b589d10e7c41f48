"""Element-wise binary arithmetic: same-shape operators (``elemwise_add``, ``_mod``, ``_equal``,
...) and their scalar forms (``_plus_scalar``, ``_rdiv_scalar``, ...).

The kernels (``add`` ... ``logical_xor``) are shared with broadcast_binary.py. They take two
tensors of one dtype and follow MXNet's numerics:

* integer division truncates toward zero; ``mod`` takes the divisor's sign and is 0 where the
  divisor is 0; ``power`` and ``hypot`` of integers are computed in float32 and truncated;
* comparisons and logical operators return 1/0 in the input's dtype and have zero gradient;
* ``maximum``/``minimum`` propagate NaN from either side, and on ties their whole gradient goes
  to the left operand.

Scalar forms cast the scalar to the array's dtype first (an int32 array plus 1.7 adds 1), unless
``is_int=False`` is given for an integer array: then the array is promoted to float64.
"""
import torch

from ..base import MXNetError, torch_to_np_type
from .int_cast import int_scalar, to_int
from .registry import register, Float, Bool

__all__ = ['add', 'sub', 'mul', 'div', 'mod', 'power', 'maximum', 'minimum', 'hypot', 'equal',
           'not_equal', 'greater', 'greater_equal', 'lesser', 'lesser_equal', 'logical_and',
           'logical_or', 'logical_xor', 'dtype_mismatch']


# ------------------------------------------------------------------------------ tensor kernels
add = torch.add
sub = torch.sub
mul = torch.mul


def div(a, b):
    if a.is_floating_point():
        return torch.div(a, b)
    return torch.div(a, b, rounding_mode='trunc')


def mod(a, b):
    """a % b, with MXNet's 0 for a zero divisor (torch gives NaN or raises); ``b`` an array
    or a number."""
    if not isinstance(b, torch.Tensor):
        return torch.zeros_like(a) if b == 0 else torch.remainder(a, b)
    zero = b == 0
    if a.is_floating_point():
        return torch.where(zero, 0, torch.remainder(a, b))
    return torch.where(zero, 0, torch.remainder(a, torch.where(zero, 1, b)))


def power(a, b):
    """a ** b (``b`` an array or a number); of integers, MXNet's: computed in float32 and
    cast back (int_cast: 7 ** 10 is 282475264; a negative exponent gives 0, or the type's
    minimum for 0), in the type of the operands' promotion."""
    tensor = isinstance(b, torch.Tensor)
    if a.is_floating_point() or (b.is_floating_point() if tensor else isinstance(b, float)):
        return torch.pow(a, b)
    return to_int(torch.pow(a.float(), b.float() if tensor else b), torch.result_type(a, b))


def hypot(a, b):
    if a.is_floating_point():
        return torch.hypot(a, b)
    return to_int(torch.hypot(a.float(), b.float()), a.dtype)


class _TieLeft(torch.autograd.Function):
    """maximum/minimum with MXNet's gradient: the left operand takes it where a >= b (a <= b
    for minimum), the right one where a < b (a > b); neither where a NaN is involved."""

    @staticmethod
    def forward(ctx, a, b, is_max):
        if is_max:
            ctx.save_for_backward(torch.ge(a, b), torch.lt(a, b))
        else:
            ctx.save_for_backward(torch.le(a, b), torch.gt(a, b))
        ctx.shapes = (a.shape, b.shape)
        return torch.maximum(a, b) if is_max else torch.minimum(a, b)

    @staticmethod
    def backward(ctx, g):
        left, right = ctx.saved_tensors
        sa, sb = ctx.shapes
        ga = gb = None
        if ctx.needs_input_grad[0]:
            ga = torch.where(left, g, 0).sum_to_size(sa)
        if ctx.needs_input_grad[1]:
            gb = torch.where(right, g, 0).sum_to_size(sb)
        return ga, gb, None


def maximum(a, b):
    if (a.requires_grad or b.requires_grad) and torch.is_grad_enabled():
        return _TieLeft.apply(a, b, True)
    return torch.maximum(a, b)


def minimum(a, b):
    if (a.requires_grad or b.requires_grad) and torch.is_grad_enabled():
        return _TieLeft.apply(a, b, False)
    return torch.minimum(a, b)


def _logic(fn):
    def kernel(a, b):
        return fn(a, b).to(a.dtype)
    kernel.__name__ = fn.__name__
    return kernel


equal = _logic(torch.eq)
not_equal = _logic(torch.ne)
greater = _logic(torch.gt)
greater_equal = _logic(torch.ge)
lesser = _logic(torch.lt)
lesser_equal = _logic(torch.le)
logical_and = _logic(torch.logical_and)
logical_or = _logic(torch.logical_or)
logical_xor = _logic(torch.logical_xor)


def dtype_mismatch(opname, lhs, rhs):
    return MXNetError('%s: operands must have the same dtype, got lhs %s and rhs %s; cast one '
                      'with astype()' % (opname, torch_to_np_type(lhs.dtype).__name__,
                                         torch_to_np_type(rhs.dtype).__name__))


# ------------------------------------------------------------------------------ same-shape ops
def _same_shape(name, kernel, aliases, doc, differentiable=True):
    def op(lhs, rhs):
        if lhs.shape != rhs.shape or lhs.dtype is not rhs.dtype:
            _mismatch(name, lhs, rhs)
        return kernel(lhs, rhs)
    op.__name__ = name
    op.__doc__ = doc
    register(name, inputs=('lhs', 'rhs'), aliases=aliases, differentiable=differentiable,
             infer_shape='same')(op)


def _mismatch(name, lhs, rhs):
    if lhs.dtype is not rhs.dtype:
        raise dtype_mismatch(name, lhs, rhs)
    twin = 'broadcast_' + name.replace('elemwise_', '').replace('_grad_', '').lstrip('_')
    raise MXNetError('%s: operands must have the same shape, got lhs %s and rhs %s; use %s to '
                     'broadcast' % (name, tuple(lhs.shape), tuple(rhs.shape), twin))


for _name, _kernel, _aliases, _doc in (
        ('elemwise_add', add, ('_add', '_plus', '_Plus'), 'Adds arguments element-wise.'),
        ('elemwise_sub', sub, ('_sub', '_minus', '_Minus'), 'Subtracts arguments element-wise.'),
        ('elemwise_mul', mul, ('_mul', '_Mul'), 'Multiplies arguments element-wise.'),
        ('elemwise_div', div, ('_div', '_Div'), 'Divides arguments element-wise.'),
        ('_mod', mod, ('_Mod',), 'Element-wise modulo of lhs by rhs (0 where rhs is 0).'),
        ('_power', power, ('_Power',), 'Element-wise lhs raised to the power rhs.'),
        ('_maximum', maximum, ('_Maximum',), 'Element-wise maximum of lhs and rhs.'),
        ('_minimum', minimum, ('_Minimum',), 'Element-wise minimum of lhs and rhs.'),
        ('_hypot', hypot, ('_Hypot',), 'Given the "legs" of a right triangle, return its '
                                       'hypotenuse.'),
        ('_equal', equal, ('_Equal',), 'Element-wise lhs == rhs, as 1/0 in the input dtype.'),
        ('_not_equal', not_equal, ('_Not_Equal',), 'Element-wise lhs != rhs, as 1/0.'),
        ('_greater', greater, ('_Greater',), 'Element-wise lhs > rhs, as 1/0.'),
        ('_greater_equal', greater_equal, ('_Greater_Equal',), 'Element-wise lhs >= rhs, as 1/0.'),
        ('_lesser', lesser, ('_Lesser',), 'Element-wise lhs < rhs, as 1/0.'),
        ('_lesser_equal', lesser_equal, ('_Lesser_Equal',), 'Element-wise lhs <= rhs, as 1/0.'),
        ('_logical_and', logical_and, ('_Logical_And',), 'Element-wise logical and, as 1/0.'),
        ('_logical_or', logical_or, ('_Logical_Or',), 'Element-wise logical or, as 1/0.'),
        ('_logical_xor', logical_xor, ('_Logical_Xor',), 'Element-wise logical xor, as 1/0.')):
    _same_shape(_name, _kernel, _aliases, _doc)
_same_shape('_grad_add', add, (), 'Adds arguments element-wise (gradient accumulation).',
            differentiable=False)


# ------------------------------------------------------------------------------ scalar ops
_SCALAR_PARAMS = {'scalar': (Float, 1.0), 'is_int': (Bool, True)}


def _operand(t, s, is_int):
    """(array, scalar) as MXNet computes them: the scalar cast to an integer array's dtype
    (as C casts, int_cast), or, with is_int=False, the integer array promoted to float64."""
    if t.is_floating_point():
        return t, s
    if t.dtype is torch.bool:
        t = t.to(torch.int64 if is_int else torch.float64)
        return t, (int_scalar(s, torch.int64) if is_int else s)
    if is_int:
        return t, int_scalar(s, t.dtype)
    return t.to(torch.float64), s


def _scalar_tensor(t, s):
    return torch.scalar_tensor(s, dtype=t.dtype)


def _plus_scalar(t, s):
    return torch.add(t, s)


def _minus_scalar(t, s):
    return torch.sub(t, s)


def _rminus_scalar(t, s):
    return torch.rsub(t, s)


def _mul_scalar(t, s):
    return torch.mul(t, s)


def _div_scalar(t, s):
    if t.is_floating_point():
        return torch.div(t, s)
    return torch.div(t, s, rounding_mode='trunc')


def _rdiv_scalar(t, s):
    if t.is_floating_point():
        return torch.div(_scalar_tensor(t, s), t)
    return torch.div(_scalar_tensor(t, s), t, rounding_mode='trunc')


def _rmod_scalar(t, s):
    zero = t == 0
    if t.is_floating_point():
        return torch.where(zero, 0, torch.remainder(_scalar_tensor(t, s), t))
    return torch.where(zero, 0, torch.remainder(s, torch.where(zero, 1, t)))


def _rpower_scalar(t, s):
    if t.is_floating_point():
        return torch.pow(s, t)
    return to_int(torch.pow(float(s), t.float()), t.dtype)


def _maximum_scalar(t, s):
    return torch.clamp_min(t, s)


def _minimum_scalar(t, s):
    return torch.clamp_max(t, s)


def _hypot_scalar(t, s):
    if t.is_floating_point():
        return torch.hypot(t, _scalar_tensor(t, s))
    return to_int(torch.hypot(t.float(), torch.scalar_tensor(float(s))), t.dtype)


def _cmp_scalar(fn):
    def kernel(t, s):
        return fn(t, s).to(t.dtype)
    return kernel


def _logical_and_scalar(t, s):
    if s:
        return torch.ne(t, 0).to(t.dtype)
    return torch.zeros_like(t)


def _logical_or_scalar(t, s):
    if s:
        return torch.ones_like(t)
    return torch.ne(t, 0).to(t.dtype)


def _logical_xor_scalar(t, s):
    return (torch.eq(t, 0) if s else torch.ne(t, 0)).to(t.dtype)


def _scalar_op(name, kernel, aliases, doc):
    def op(data, *, scalar, is_int):
        t, s = _operand(data, scalar, is_int)
        return kernel(t, s)
    op.__name__ = name
    op.__doc__ = doc
    register(name, params=_SCALAR_PARAMS, aliases=aliases, monitor_prefix='input')(op)


for _name, _kernel, _aliases, _doc in (
        ('_plus_scalar', _plus_scalar, ('_PlusScalar',), 'Adds a scalar to an array.'),
        ('_minus_scalar', _minus_scalar, ('_MinusScalar',), 'Subtracts a scalar from an array.'),
        ('_rminus_scalar', _rminus_scalar, ('_RMinusScalar',), 'Subtracts an array from a '
                                                               'scalar.'),
        ('_mul_scalar', _mul_scalar, ('_MulScalar',), 'Multiplies an array by a scalar.'),
        ('_div_scalar', _div_scalar, ('_DivScalar',), 'Divides an array by a scalar.'),
        ('_rdiv_scalar', _rdiv_scalar, ('_RDivScalar',), 'Divides a scalar by an array.'),
        ('_mod_scalar', mod, ('_ModScalar',), 'Element-wise array modulo a scalar.'),
        ('_rmod_scalar', _rmod_scalar, ('_RModScalar',), 'Element-wise scalar modulo an array.'),
        ('_power_scalar', power, ('_PowerScalar',), 'Raises an array to a scalar power.'),
        ('_rpower_scalar', _rpower_scalar, ('_RPowerScalar',), 'Raises a scalar to the powers '
                                                               'in an array.'),
        ('_maximum_scalar', _maximum_scalar, ('_MaximumScalar',), 'Element-wise maximum of an '
                                                                  'array and a scalar.'),
        ('_minimum_scalar', _minimum_scalar, ('_MinimumScalar',), 'Element-wise minimum of an '
                                                                  'array and a scalar.'),
        ('_hypot_scalar', _hypot_scalar, ('_HypotScalar',), 'Element-wise hypotenuse of an '
                                                            'array and a scalar.'),
        ('_equal_scalar', _cmp_scalar(torch.eq), ('_EqualScalar',), 'Element-wise array == '
                                                                    'scalar, as 1/0.'),
        ('_not_equal_scalar', _cmp_scalar(torch.ne), ('_NotEqualScalar',), 'Element-wise array '
                                                                           '!= scalar, as 1/0.'),
        ('_greater_scalar', _cmp_scalar(torch.gt), ('_GreaterScalar',), 'Element-wise array > '
                                                                        'scalar, as 1/0.'),
        ('_greater_equal_scalar', _cmp_scalar(torch.ge), ('_GreaterEqualScalar',),
         'Element-wise array >= scalar, as 1/0.'),
        ('_lesser_scalar', _cmp_scalar(torch.lt), ('_LesserScalar',), 'Element-wise array < '
                                                                      'scalar, as 1/0.'),
        ('_lesser_equal_scalar', _cmp_scalar(torch.le), ('_LesserEqualScalar',),
         'Element-wise array <= scalar, as 1/0.'),
        ('_logical_and_scalar', _logical_and_scalar, ('_LogicalAndScalar',),
         'Element-wise logical and of an array and a scalar, as 1/0.'),
        ('_logical_or_scalar', _logical_or_scalar, ('_LogicalOrScalar',),
         'Element-wise logical or of an array and a scalar, as 1/0.'),
        ('_logical_xor_scalar', _logical_xor_scalar, ('_LogicalXorScalar',),
         'Element-wise logical xor of an array and a scalar, as 1/0.')):
    _scalar_op(_name, _kernel, _aliases, _doc)
