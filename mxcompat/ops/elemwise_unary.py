"""Element-wise unary operators (``abs``, ``exp``, ``sigmoid``, ``clip``, ``Cast``, ...) and the
small element-wise helpers MXNet registers next to them (``where``, ``add_n``, ``BlockGrad``,
``make_loss``/``MakeLoss``, ``amp_cast``, ``all_finite``, ...).

Math functions of integer arrays are computed in float64 and truncated back to the array's
dtype, as MXNet does (``sqrt`` of int32 [2, 5] is [1, 2]). Rounding functions have zero
gradient; ``round`` rounds halves away from zero and ``rint`` rounds halves down, as MXNet does.
"""
import math

import numpy
import torch

from ..base import MXNetError, dtype_torch, torch_to_np_type
from .int_cast import cast_recorded, int_scalar, to_int
from .registry import register, REQUIRED, Int, Float, Bool, DType, Enum

_set_grad_enabled = torch._C._set_grad_enabled  # (no context-manager object)

_AMP_FLOATS = frozenset([torch.float32, torch.float16, torch.bfloat16])


def _dtype_name(t):
    return torch_to_np_type(t.dtype).__name__


# ------------------------------------------------------------------------------ math
# the NumPy extension's names of unary operators it shares (npx.erf, ...)
_NPX_ALIASES = {'erf': ('_npx_erf',), 'erfinv': ('_npx_erfinv',), 'gamma': ('_npx_gamma',),
                'gammaln': ('_npx_gammaln',)}
# npx.relu and npx.sigmoid are operators of their own in MXNet (_npx_relu in symbol JSON),
# computed as the legacy ones are
_NPX_OWN = frozenset(['relu', 'sigmoid'])
# the operators computed by a torch function for input that needs no gradient (relu's own
# gradient differs at NaN): {name: that function}
_CONSTANT_KERNELS = {'relu': torch.relu}


def _unary(name, fn, doc, int_native=False):
    """Register ``fn`` as a unary operator. Unless ``int_native``, integer arrays are computed
    in float64 and cast back."""
    aliases = _NPX_ALIASES.get(name, ())
    if not int_native:
        def op(data):
            if data.is_floating_point():
                return fn(data)
            return fn(data.to(torch.float64)).to(data.dtype)
        op.__name__ = name
        op.__doc__ = doc
    # int_native: the torch function itself, no Python frame between mx.nd and torch
    constant = _CONSTANT_KERNELS.get(name)
    for opname in (name, '_npx_' + name) if name in _NPX_OWN else (name,):
        register(opname, infer_shape='same', doc=doc, monitor_prefix='input',
                 aliases=aliases if opname == name else (),
                 kernel=constant or (None if int_native else fn),
                 kernel_if='no_grad' if constant else 'float')(fn if int_native else op)


def _round(x):
    # C round(): halves away from zero (torch.round rounds halves to even)
    t = torch.trunc(x)
    return torch.where(torch.abs(x - t) >= 0.5, t + torch.sign(x), t)


def _rint(x):
    # MXNet's rint: the nearer of floor and ceil, floor on ties
    f = torch.floor(x)
    c = torch.ceil(x)
    return torch.where(x - f <= c - x, f, c)


def _cube_root(x):
    # torch has no cbrt: pow(|x|, 1/3) in float64 (with x's sign, -0's too), from which
    # float32 / float16 results round correctly; float64's own, off by up to ~100 ulps, takes
    # a Newton step to within a few ulps of MXNet's libm cbrt. Where the root is 0, infinite
    # or NaN the step is NaN: it becomes -0, which changes no root (nor a zero's sign).
    x64 = x.to(torch.float64)
    y = torch.abs(x64).pow_(1.0 / 3).copysign_(x64)
    if x.dtype is not torch.float64:
        return y.to(x.dtype)
    return y.add_((x / (y * y)).sub_(y).div_(3).nan_to_num_(-0.0))


class _Cbrt(torch.autograd.Function):
    """cbrt whose gradient is MXNet's ``_backward_cbrt``: ``g / (3 y^2)`` of the output ``y``
    (infinite at 0, where differentiating the power gives NaN)."""

    @staticmethod
    def forward(ctx, x):
        y = _cube_root(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * torch.reciprocal(3 * (y * y))  # (MXNet's order of operations)


def _cbrt(x):
    if x.requires_grad and torch.is_grad_enabled():
        return _Cbrt.apply(x)
    return _cube_root(x)


def _cbrt_any(x):
    if x.is_floating_point():
        return _cbrt(x)
    return _cube_root(x.to(torch.float64)).to(x.dtype)  # (exact on cubes: 64 gives 4)


def _gamma(x):
    # torch has no gamma: exp(lgamma) with the sign of gamma on the negative axis, in float64
    x64 = x.to(torch.float64)
    negative_odd = (x64 < 0) & (torch.remainder(torch.floor(x64), 2) == 1)
    y = torch.where(negative_odd, -1.0, 1.0) * torch.exp(torch.lgamma(x64))
    y = torch.where(x64 == 0, torch.copysign(torch.full_like(x64, math.inf), x64), y)
    y = torch.where((x64 < 0) & (x64 == torch.floor(x64)), math.nan, y)
    return y.to(x.dtype)


def _gamma_any(x):
    if x.is_floating_point():
        return _gamma(x)
    # gamma of a positive integer is an integer: round away exp(lgamma)'s last-bit error
    return torch.round(_gamma(x.to(torch.float64))).to(x.dtype)


def _erfinv_any(x):
    if x.is_floating_point():
        return torch.erfinv(x)
    # MXNet turns the NaN of integers outside [-1, 1] into 0
    y = torch.erfinv(x.to(torch.float64))
    return torch.where(torch.isnan(y), 0.0, y).to(x.dtype)


def _relu(x):
    if x.requires_grad and torch.is_grad_enabled():
        # MXNet's gradient is NaN where x is NaN (torch's relu passes g there). Recorded
        # natively, as relu(x * k) with k = clip(x, 1, 1) (1, NaN where x is NaN): relu's
        # backward reads its output as it is then (an executor's output changed in place, as in
        # MXNet), and the product's carries the NaN; a Python autograd.Function would cost more
        # than the kernels. (Where x <= 0 an infinite g gives 0, not MXNet's g * 0 = NaN.)
        # On the host, where reading a value costs no device wait, x without a NaN (its maximum
        # is a number) takes torch's relu alone: the same gradient, a kernel and a node less.
        if not x.is_cpu or _has_nan(x):
            return torch.relu(x * x.detach().clamp(1, 1))
    return torch.relu(x)


def _has_nan(x):
    """Whether host tensor ``x`` may hold a NaN: its maximum is NaN (torch's max propagates
    NaN, and reduces faster than a sum), or it is being compiled or exported (where a value
    read would be a graph break, or be taken for every later input)."""
    if torch.compiler.is_compiling():
        return True
    _set_grad_enabled(False)  # (relu calls it in grad mode: the maximum alone, no node)
    try:
        m = x.max().item()
    except RuntimeError:  # (an empty tensor has no maximum, and no NaN)
        return False
    finally:
        _set_grad_enabled(True)
    return m != m


def _input_grad(name, fn, grad, doc):
    """The function ``fn`` of one tensor ``x`` whose gradient is ``grad(g, x)``: MXNet's
    formula where torch's differs (an autograd.Function, ``name``, where autograd records)."""

    def forward(ctx, x):
        ctx.save_for_backward(x)
        return fn(x)

    def backward(ctx, g):
        x, = ctx.saved_tensors
        return grad(g, x)

    function = type(name, (torch.autograd.Function,), {
        'forward': staticmethod(forward), 'backward': staticmethod(backward), '__doc__': doc})

    def apply(x):
        if x.requires_grad and torch.is_grad_enabled():
            return function.apply(x)
        return fn(x)
    return apply


class _ArcsinhBackward(torch.autograd.Function):
    """``g / sqrt(x^2 + 1)``. Its gradient with respect to x is MXNet's: ``+ g x /
    (x^2 + 1)^(3/2)``, the opposite sign of the true second derivative (MXNet's FGradient of
    _backward_arcsinh), so that second-order gradients of arcsinh give MXNet's numbers."""

    @staticmethod
    def forward(ctx, g, x):
        grad_x = torch.rsqrt(x * x + 1)
        ctx.save_for_backward(g, x, grad_x)
        return g * grad_x

    @staticmethod
    def backward(ctx, ograd):
        g, x, grad_x = ctx.saved_tensors
        return ograd * grad_x, ograd * g * grad_x * grad_x * grad_x * x


_arcsinh = _input_grad(
    '_Arcsinh', torch.asinh, _ArcsinhBackward.apply,
    "arcsinh whose gradient differentiates as MXNet 1.9.1's ``_backward_arcsinh`` does.")
_expm1 = _input_grad(
    '_Expm1', torch.expm1, lambda g, x: g * torch.exp(x),
    "expm1 whose gradient is MXNet's, ``g exp(x)`` (torch's ``g (expm1(x) + 1)`` loses the "
    "digits of small exp(x): 1e-5 of it at x = -7 in float32).")
_rcbrt = _input_grad(
    '_Rcbrt', lambda x: torch.reciprocal(_cube_root(x)),
    lambda g, x: g * -torch.reciprocal(3 * _cbrt(x) * x),
    "1 / cbrt(x) whose gradient is MXNet's ``_backward_rcbrt``: ``-g / (3 cbrt(x) x)``.")


_softsign = _input_grad(
    '_Softsign', lambda x: x / (1 + torch.abs(x)),
    lambda g, x: g * torch.reciprocal(torch.square(1 + torch.abs(x))),
    "softsign whose gradient is MXNet's, ``g / (1 + |x|)^2`` (0 at an infinite x, where "
    "the quotient's is NaN).")


# MXNet's factors are float32's (180.0f / PI), for float64 arrays too
_DEGREES_PER_RADIAN = float(numpy.float32(180) / numpy.float32(math.pi))
_RADIANS_PER_DEGREE = float(numpy.float32(math.pi) / numpy.float32(180))


def _degrees(x):
    return x * _DEGREES_PER_RADIAN


def _radians(x):
    return x * _RADIANS_PER_DEGREE


def _logical_not(x):
    return torch.eq(x, 0).to(x.dtype)


for _name, _fn, _doc in (
        ('abs', torch.abs, 'Returns element-wise absolute value of the input.'),
        ('sign', torch.sign, 'Returns element-wise sign of the input.'),
        ('round', _round, 'Returns element-wise rounded value to the nearest integer of the '
                          'input (halves away from zero).'),
        ('rint', _rint, 'Returns element-wise rounded value to the nearest integer of the input '
                        '(halves toward negative infinity).'),
        ('ceil', torch.ceil, 'Returns element-wise ceiling of the input.'),
        ('floor', torch.floor, 'Returns element-wise floor of the input.'),
        ('trunc', torch.trunc, 'Return the element-wise truncated value of the input.'),
        ('fix', torch.trunc, 'Returns element-wise rounded value to the nearest integer towards '
                             'zero of the input.'),
        ('square', torch.square, 'Returns element-wise squared value of the input.'),
        ('negative', torch.neg, 'Numerical negative of the argument, element-wise.'),
        ('relu', _relu, 'Computes rectified linear activation: max(x, 0).'),
        ('cbrt', _cbrt_any, 'Returns element-wise cube-root value of the input.'),
        ('erfinv', _erfinv_any, 'Returns element-wise inverse gauss error function of the '
                                'input.'),
        ('gamma', _gamma_any, 'Returns the gamma function (extension of the factorial function '
                              'to the reals), computed element-wise on the input array.'),
        ('logical_not', _logical_not, 'Returns the result of logical NOT (!) function.')):
    _unary(_name, _fn, _doc, int_native=True)  # integer arrays handled by _fn itself

for _name, _fn, _doc in (
        ('sqrt', torch.sqrt, 'Returns element-wise square-root value of the input.'),
        ('rsqrt', torch.rsqrt, 'Returns element-wise inverse square-root value of the input.'),
        ('rcbrt', _rcbrt,
         'Returns element-wise inverse cube-root value of the input.'),
        ('exp', torch.exp, 'Returns element-wise exponential value of the input.'),
        ('log', torch.log, 'Returns element-wise Natural logarithmic value of the input.'),
        ('log10', torch.log10, 'Returns element-wise Base-10 logarithmic value of the input.'),
        ('log2', torch.log2, 'Returns element-wise Base-2 logarithmic value of the input.'),
        ('log1p', torch.log1p, 'Returns element-wise ``log(1 + x)`` value of the input.'),
        ('expm1', _expm1, 'Returns ``exp(x) - 1`` computed element-wise on the input.'),
        ('sin', torch.sin, 'Computes the element-wise sine of the input array.'),
        ('cos', torch.cos, 'Computes the element-wise cosine of the input array.'),
        ('tan', torch.tan, 'Computes the element-wise tangent of the input array.'),
        ('arcsin', torch.asin, 'Returns element-wise inverse sine of the input array.'),
        ('arccos', torch.acos, 'Returns element-wise inverse cosine of the input array.'),
        ('arctan', torch.atan, 'Returns element-wise inverse tangent of the input array.'),
        ('sinh', torch.sinh, 'Returns the hyperbolic sine of the input array, computed '
                             'element-wise.'),
        ('cosh', torch.cosh, 'Returns the hyperbolic cosine  of the input array, computed '
                             'element-wise.'),
        ('tanh', torch.tanh, 'Returns the hyperbolic tangent of the input array, computed '
                             'element-wise.'),
        ('arcsinh', _arcsinh, 'Returns the element-wise inverse hyperbolic sine of the input '
                                 'array.'),
        ('arccosh', torch.acosh, 'Returns the element-wise inverse hyperbolic cosine of the '
                                 'input array.'),
        ('arctanh', torch.atanh, 'Returns the element-wise inverse hyperbolic tangent of the '
                                 'input array.'),
        ('degrees', _degrees, 'Converts each element of the input array from radians to '
                              'degrees.'),
        ('radians', _radians, 'Converts each element of the input array from degrees to '
                              'radians.'),
        ('reciprocal', torch.reciprocal, 'Returns the reciprocal of the argument, element-wise.'),
        ('sigmoid', torch.sigmoid, 'Computes sigmoid of x element-wise: 1 / (1 + exp(-x)).'),
        ('softsign', _softsign, 'Computes softsign of x element-wise: x / (1 + abs(x)).'),
        ('erf', torch.erf, 'Returns element-wise gauss error function of the input.'),
        ('gammaln', torch.lgamma, 'Returns element-wise log of the absolute value of the gamma '
                                  'function of the input.')):
    _unary(_name, _fn, _doc)


@register('hard_sigmoid', monitor_prefix='input',
          params={'alpha': (Float, 0.2), 'beta': (Float, 0.5)})
def hard_sigmoid(data, *, alpha, beta):
    """Computes hard sigmoid of x element-wise: max(0, min(1, alpha * x + beta))."""
    if not data.is_floating_point():
        raise MXNetError('hard_sigmoid: this operation only supports floating point types, not '
                         '%s; cast data with astype(\'float32\')' % _dtype_name(data))
    v = data * alpha + beta
    # the gradient is alpha strictly inside (0, 1) and 0 on the flat parts and their edges
    return torch.where((v > 0) & (v < 1), v, v.detach().clamp(0, 1))


@register('smooth_l1', aliases=('_npx_smooth_l1',), monitor_prefix='input', params={'scalar': (Float, 1.0)})
def smooth_l1(data, *, scalar):
    """Calculate Smooth L1 Loss(lhs, scalar): (sigma*x)^2/2 if |x| < 1/sigma^2, else
    |x| - 0.5/sigma^2."""
    bsq = scalar * scalar
    ibsq = 1.0 / bsq
    if not data.is_floating_point():  # MXNet's in floating point, cast back (int_cast)
        return to_int(smooth_l1(data.to(torch.float64), scalar=scalar), data.dtype)
    a = torch.abs(data)
    # (the square of x where it is taken, else of 0: the branch not taken must not
    # differentiate to NaN where x is infinite; MXNet's gradient there is +-1)
    beyond = a > ibsq
    q = torch.where(beyond, 0.0, data)
    return torch.where(beyond, a - 0.5 * ibsq, (0.5 * bsq) * q * q)


@register('clip', monitor_prefix='input',
          params={'a_min': (Float, REQUIRED), 'a_max': (Float, REQUIRED)})
def clip(data, a_min, a_max):
    """Clips (limits) the values in an array to [a_min, a_max]; the gradient is 0 outside.
    As MXNet, ``x > a_max`` is tested first: with ``a_min > a_max`` an element above
    ``a_max`` becomes ``a_max`` and any other ``a_min`` (torch's clamp gives ``a_max``
    everywhere); an integer array keeps its type (:func:`clip_integers`)."""
    if data.is_floating_point() or data.dtype is torch.bool:
        if a_min is not None and a_max is not None:
            if a_min <= a_max or data.dtype is torch.bool:
                return torch.clamp(data, a_min, a_max)
            return torch.where(data > a_max, a_max, torch.where(data < a_min, a_min, data))
        if a_min is not None or a_max is not None:  # (mx.np's clip leaves a side open)
            return torch.clamp(data, a_min, a_max)
    elif a_min is not None or a_max is not None:
        return clip_integers(data, a_min, a_max)
    raise MXNetError('clip: one of a_min and a_max must be given')


def clip_integers(data, a_min, a_max):
    """MXNet's clip of an integer array, which keeps its type: an element below ``a_min``
    (compared as a number) becomes ``a_min`` cast to the type (int_cast), one above
    ``a_max`` ``a_max`` cast so (the test MXNet makes first); None leaves that side open."""
    out = data
    if a_min is not None:
        out = torch.where(data < a_min, int_scalar(a_min, data.dtype), out)
    if a_max is not None:
        out = torch.where(data > a_max, int_scalar(a_max, data.dtype), out)
    return out


# ------------------------------------------------------------------------------ identities
class _ZeroGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return torch.zeros_like(g)


class _ScaledGrad(torch.autograd.Function):
    """Identity whose gradient ignores the head gradient: ``scale`` everywhere, divided by the
    batch size or by the number of elements above ``thresh`` (MakeLoss's normalizations)."""

    @staticmethod
    def forward(ctx, x, scale, normalization, thresh):
        if normalization == 'batch':
            # MXNet views the array as 2-D (all axes but the last, last) and takes its rows
            scale = scale / max(1, math.prod(x.shape[:-1]))
        elif normalization == 'valid':
            ctx.save_for_backward(x)
        ctx.scale = scale
        ctx.normalization = normalization
        ctx.thresh = thresh
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        if ctx.normalization == 'valid':
            x, = ctx.saved_tensors
            valid = torch.clamp_min(torch.gt(x, ctx.thresh).sum().to(g.dtype), 1)
            return torch.full_like(g, ctx.scale) / valid, None, None, None
        return torch.full_like(g, ctx.scale), None, None, None


def _needs_graph(t):
    return t.requires_grad and torch.is_grad_enabled()


@register('_copy', monitor_prefix='input', aliases=('identity',))
def copy(data):
    """Returns a copy of the input."""
    return data.clone()


@register('BlockGrad', monitor_prefix='input', aliases=('stop_gradient',))
def block_grad(data):
    """Stops gradient computation: the output is a copy of the input whose gradient is zero."""
    if _needs_graph(data):
        return _ZeroGrad.apply(data)
    return data.clone()


@register('make_loss', monitor_prefix='input', output_names=('loss',))
def make_loss(data):
    """Make your own loss function in network construction: the gradient of the input is 1."""
    if _needs_graph(data):
        return _ScaledGrad.apply(data, 1.0, 'null', 0.0)
    return data.clone()


@register('MakeLoss', named_outputs=True, merges=False,
          params={'grad_scale': (Float, 1.0), 'valid_thresh': (Float, 0.0),
                              'normalization': (Enum('null', 'batch', 'valid'), 'null')})
def make_loss_legacy(data, *, grad_scale, valid_thresh, normalization):
    """Make your own loss function in network construction: the gradient of the input is
    grad_scale, divided by the batch size ('batch') or by the number of elements greater than
    valid_thresh ('valid')."""
    if _needs_graph(data):
        return _ScaledGrad.apply(data, grad_scale, normalization, valid_thresh)
    return data.clone()


@register('_identity_with_attr_like_rhs', inputs=('lhs', 'rhs'))
def identity_with_attr_like_rhs(lhs, rhs):
    """Returns a copy of lhs, which must have the shape and dtype of rhs."""
    if lhs.shape != rhs.shape or lhs.dtype is not rhs.dtype:
        raise MXNetError('_identity_with_attr_like_rhs: lhs %s %s must have the shape and dtype '
                         'of rhs %s %s' % (tuple(lhs.shape), _dtype_name(lhs),
                                           tuple(rhs.shape), _dtype_name(rhs)))
    return lhs.clone()


class _ConstantLike(torch.autograd.Function):
    """A constant array that stays in the recorded graph with a zero gradient, as in MXNet
    (torch would give the result no history, and backward from it would fail)."""

    @staticmethod
    def forward(ctx, x, value):
        return torch.full_like(x, value)

    @staticmethod
    def backward(ctx, g):
        return torch.zeros_like(g), None


@register('zeros_like', monitor_prefix='input')
def zeros_like(data):
    """Return an array of zeros with the same shape, type and storage type as the input."""
    if _needs_graph(data):
        return _ConstantLike.apply(data, 0)
    return torch.zeros_like(data)


@register('ones_like', monitor_prefix='input')
def ones_like(data):
    """Return an array of ones with the same shape and type as the input."""
    if _needs_graph(data):
        return _ConstantLike.apply(data, 1)
    return torch.ones_like(data)


# ------------------------------------------------------------------------------ casts
@register('Cast', monitor_prefix='input',
          aliases=('cast', '_npx_cast'), params={'dtype': (DType, REQUIRED)}, infer_shape='same',
          dtype_output=True)
def cast(data, *, dtype):
    """Casts all elements of the input to a new type."""
    return cast_recorded(data, dtype_torch(dtype), copy=True)


@register('amp_cast', monitor_prefix='input',
          params={'dtype': (DType, REQUIRED)}, infer_shape='same', dtype_output=True)
def amp_cast(data, *, dtype):
    """Cast function between low precision float/FP32 used by AMP: arrays of other dtypes are
    returned unchanged."""
    if data.dtype in _AMP_FLOATS:
        return data.to(dtype_torch(dtype), copy=True)
    return data.clone()


@register('amp_multicast', inputs=('*data',), key_var_num_args='num_outputs',
          params={'num_outputs': (Int, REQUIRED), 'cast_narrow': (Bool, False)},
          num_outputs=lambda p: p['num_outputs'],
          input_rule=lambda p: ['data_%d' % i for i in range(p['num_outputs'])])
def amp_multicast(*data, num_outputs, cast_narrow):
    """Cast function used by AMP, that casts its inputs to the common widest type (float32 or
    the first input's type; the narrowest with cast_narrow). Non-AMP dtypes are unchanged."""
    if len(data) != num_outputs:
        raise MXNetError('amp_multicast: num_outputs=%d but %d arrays were given'
                         % (num_outputs, len(data)))
    if cast_narrow:
        target = torch.float32
        for t in data:
            if t.dtype is torch.float16 or t.dtype is torch.bfloat16:
                target = t.dtype
    else:
        target = data[0].dtype
        if any(t.dtype is torch.float32 for t in data):
            target = torch.float32
    return tuple(t.to(target, copy=True) if t.dtype in _AMP_FLOATS else t.clone() for t in data)


# ------------------------------------------------------------------------------ n-ary
@register('add_n', aliases=('ElementWiseSum',), inputs=('*args',), key_var_num_args='num_args',
          infer_shape='same', same_type=True,
          params={'num_args': (Int, REQUIRED)},
          input_rule=lambda p: ['arg%d' % i for i in range(p['num_args'])])
def add_n(*args, num_args):
    """Adds all input arguments element-wise (all of one shape and dtype)."""
    if not args:
        raise MXNetError('add_n: at least one input array is required')
    first = args[0]
    for t in args[1:]:
        if t.shape != first.shape or t.dtype is not first.dtype:
            raise MXNetError('add_n: all inputs must have one shape and dtype, got %s %s and '
                             '%s %s' % (tuple(first.shape), _dtype_name(first),
                                        tuple(t.shape), _dtype_name(t)))
    if len(args) == 1:
        return first.clone()
    out = torch.add(first, args[1])
    for t in args[2:]:
        out = out.add_(t)
    return out


@register('where', inputs=('condition', 'x', 'y'))
def where(condition, x, y):
    """Return the elements, either from x or y, depending on the condition (non-zero: x).
    condition has the shape of x, or is 1-D with one entry per row of x."""
    if x.shape != y.shape or x.dtype is not y.dtype:
        raise MXNetError('where: x %s %s and y %s %s must have one shape and dtype'
                         % (tuple(x.shape), _dtype_name(x), tuple(y.shape), _dtype_name(y)))
    c = condition != 0
    if condition.shape != x.shape:
        if condition.dim() != 1 or x.dim() == 0 or condition.shape[0] != x.shape[0]:
            raise MXNetError('where: condition of shape %s must have the shape of x %s or be '
                             '1-D of size %s' % (tuple(condition.shape), tuple(x.shape),
                                                 x.shape[0] if x.dim() else 0))
        c = c.reshape((-1,) + (1,) * (x.dim() - 1))
    return torch.where(c, x, y)


# ------------------------------------------------------------------------------ AMP checks
@register('all_finite', params={'init_output': (Bool, True)}, differentiable=False)
def all_finite(data, *, init_output):
    """Check if all the float numbers in the array are finite (used for AMP): [1.] or [0.]."""
    return torch.isfinite(data).all().reshape(1).to(torch.float32)


@register('multi_all_finite', inputs=('*data',), key_var_num_args='num_arrays',
          params={'num_arrays': (Int, 1), 'init_output': (Bool, True)}, differentiable=False,
          input_rule=lambda p: ['array_%d' % i for i in range(p['num_arrays'])])
def multi_all_finite(*data, num_arrays, init_output):
    """Check if all the float numbers in all the arrays are finite (used for AMP)."""
    ok = torch.stack([torch.isfinite(t).all() for t in data]).all()
    return ok.reshape(1).to(torch.float32)
