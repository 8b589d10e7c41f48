"""Activations, softmax family and Dropout.

Gradients follow MXNet where its backward differs from the mathematical derivative: SELU's
backward is ``lambda * (alpha + out)`` for negative inputs, and SoftmaxActivation's backward
works along axis 1 even in 'instance' mode (whose forward works along the last axis).
"""
import torch
import torch.nn.functional as F

from ..autograd import is_training
from ..base import MXNetError, dtype_torch
from . import param_shapes
from .elemwise_unary import _softsign
from .registry import register, REQUIRED, Float, Bool, Shape, Opt, Enum, Int

_SELU_LAMBDA = 1.0507009873554804934193349852946
_SELU_ALPHA = 1.6732632423543772848170429916717

_ACT = {'relu': torch.relu, 'sigmoid': torch.sigmoid, 'tanh': torch.tanh,
        'softrelu': F.softplus, 'softsign': _softsign}


@register('Activation', aliases=('_npx_activation',), monitor_prefix='input', named_outputs=True,
          params={'act_type': (Enum('relu', 'sigmoid', 'tanh', 'softrelu', 'softsign'),
                               REQUIRED)})
def activation(data, act_type):
    """Applies an activation function element-wise to the input.

    The following activation functions are supported:

    - `relu`: Rectified Linear Unit, :math:`y = max(x, 0)`
    - `sigmoid`: :math:`y = \\frac{1}{1 + exp(-x)}`
    - `tanh`: Hyperbolic tangent, :math:`y = \\frac{exp(x) - exp(-x)}{exp(x) + exp(-x)}`
    - `softrelu`: Soft ReLU, or SoftPlus, :math:`y = log(1 + exp(x))`
    - `softsign`: :math:`y = \\frac{x}{1 + abs(x)}`
    """
    return _ACT[act_type](data)


class _SeluMX(torch.autograd.Function):
    """SELU with MXNet's backward, computed from the output."""

    @staticmethod
    def forward(ctx, x):
        out = F.selu(x)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return grad * torch.where(out > 0, _SELU_LAMBDA, _SELU_LAMBDA * (_SELU_ALPHA + out))


def _prelu_gamma_shape(op, gamma, data):
    """MXNet aligns gamma's axes with the data's first two axes, from the right."""
    shape = [1] * data.dim()
    s = gamma.dim() - 1
    for i in range(data.dim() - 1, -1, -1):
        if s >= 0 and i <= 1 and (data.shape[i] == gamma.shape[s] or gamma.shape[s] == 1):
            shape[i] = gamma.shape[s]
            s -= 1
    if s != -1:
        raise MXNetError('%s: cannot broadcast gamma of shape %s to data of shape %s; gamma '
                         'needs one value per channel (axis 1) or a single value'
                         % (op, tuple(gamma.shape), tuple(data.shape)))
    return shape


def _leaky_outputs(p):
    return 2 if p['act_type'] == 'rrelu' else 1


@register('LeakyReLU', aliases=('_npx_leaky_relu',), named_outputs=True,
          input_init={'gamma': '["Constant", {"value": 0.25}]'},
          inputs=('data', 'gamma'), infer_shape=param_shapes.prelu,
          params={'act_type': (Enum('rrelu', 'leaky', 'prelu', 'elu', 'selu', 'gelu'), 'leaky'),
                  'slope': (Float, 0.25), 'lower_bound': (Float, 0.125),
                  'upper_bound': (Float, 0.334)},
          input_rule=lambda p: ['data', 'gamma'] if p['act_type'] == 'prelu' else ['data'],
          num_outputs=_leaky_outputs,
          output_names=lambda p: ['output', 'mask'] if p['act_type'] == 'rrelu' else ['output'])
def leaky_relu(data, gamma=None, *, act_type, slope, lower_bound, upper_bound):
    """Applies Leaky rectified linear unit activation element-wise to the input.

    - *elu*: Exponential Linear Unit. `y = x > 0 ? x : slope * (exp(x)-1)`
    - *selu*: Scaled Exponential Linear Unit. `y = lambda * (x > 0 ? x : alpha * (exp(x) - 1))`
    - *leaky*: Leaky ReLU. `y = x > 0 ? x : slope * x`
    - *prelu*: Parametric ReLU. This is same as *leaky* except that `slope` (the input
      ``gamma``) is learnt during training.
    - *rrelu*: Randomized ReLU. same as *leaky* but the `slope` is uniformly and randomly
      chosen from *[lower_bound, upper_bound)* for training, while fixed to be
      *(lower_bound+upper_bound)/2* for inference. Returns the output and the slopes (mask).
    - *gelu*: Gaussian Error Linear Unit, `y = 0.5 * x * (1 + erf(x / sqrt(2)))`.
    """
    if act_type == 'leaky':
        return F.leaky_relu(data, slope)
    if act_type == 'prelu':
        if gamma is None:
            raise MXNetError("LeakyReLU: act_type='prelu' needs the input gamma")
        if data.dim() >= 2 and gamma.dim() == 1 and gamma.shape[0] in (1, data.shape[1]):
            return F.prelu(data, gamma)
        shape = _prelu_gamma_shape('LeakyReLU', gamma, data)
        return torch.where(data > 0, data, data * gamma.reshape(shape))
    if act_type == 'elu':
        return F.elu(data, slope)
    if act_type == 'selu':
        if data.requires_grad and torch.is_grad_enabled():
            return _SeluMX.apply(data)
        return F.selu(data)
    if act_type == 'gelu':
        return F.gelu(data)
    # rrelu
    if is_training():
        mask = torch.empty_like(data).uniform_(lower_bound, upper_bound)
        return torch.where(data > 0, data, data * mask), mask
    mean_slope = (lower_bound + upper_bound) / 2.0
    return F.leaky_relu(data, mean_slope), torch.zeros_like(data)


def _softmax_common(op, fn, data, length, axis, temperature, dtype, use_length, negate=False):
    if not data.is_floating_point():
        raise MXNetError('%s: this operation only supports floating point types, not %s; cast '
                         'the data with astype(\'float32\')' % (op, str(data.dtype)[6:]))
    x = data
    if temperature is not None and temperature != 1.0:
        x = x / (-temperature if negate else temperature)
    elif negate:
        x = -x
    mask = None
    if use_length:
        _check_axis(op, data, axis)
        mask = _length_mask(op, x, length, axis)
        # the lowest finite value rather than -inf: a row of length 0 is then zeros with zero
        # gradient (MXNet's), not NaN
        x = x.masked_fill(mask, torch.finfo(x.dtype).min)
    out_dt = None if dtype is None else dtype_torch(dtype)
    try:  # (torch checks the axis: no cost where it is valid)
        if out_dt is None or out_dt == data.dtype:
            out = fn(x, axis)
        elif out_dt.itemsize > data.dtype.itemsize:
            out = fn(x, axis, dtype=out_dt)
        else:
            out = fn(x, axis).to(out_dt)
    except IndexError:
        _check_axis(op, data, axis)
        raise
    return out if mask is None else out.masked_fill(mask, 0)


def _check_axis(op, data, axis):
    if not -data.dim() <= axis < data.dim():
        raise MXNetError('%s: axis %d is out of range for data of shape %s'
                         % (op, axis, tuple(data.shape))) from None


def _length_mask(op, x, length, axis):
    """True at the positions of ``x`` at and beyond ``length`` along ``axis``."""
    if length is None:
        raise MXNetError('%s: use_length=True needs the input length' % op)
    # (symbols infer shapes on 'meta' tensors, before length's dtype is known)
    if length.is_floating_point() and length.device.type != 'meta':
        raise MXNetError('%s: length must have an integer type, not %s'
                         % (op, str(length.dtype)[6:]))
    axis %= x.dim()
    n = x.shape[axis]
    expected = x.shape[:axis] + x.shape[axis + 1:]
    if length.shape != expected:
        raise MXNetError('%s: shape of length is %s but %s expected (data shape without axis '
                         '%d)' % (op, tuple(length.shape), tuple(expected), axis))
    pos = torch.arange(n, device=x.device).reshape((n,) + (1,) * (x.dim() - axis - 1))
    return pos >= length.unsqueeze(axis)


_SOFTMAX_PARAMS = {'axis': (Int, -1), 'temperature': (Opt(Float), None),
                   'dtype': (Enum(None, 'float16', 'float32', 'float64'), None),
                   'use_length': (Opt(Bool), False)}


@register('softmax', aliases=('_npx_softmax',), named_outputs=True,
          inputs=('data', 'length'), infer_shape=param_shapes.softmax_length,
          params=_SOFTMAX_PARAMS,
          input_rule=lambda p: ['data', 'length'] if p['use_length'] else ['data'])
def softmax(data, length, axis, temperature, dtype, use_length):
    """Applies the softmax function.

    The resulting array contains elements in the range (0,1) and the elements along the given
    axis sum up to 1: ``softmax(z)_j = exp(z_j / t) / sum_k exp(z_k / t)`` with temperature
    ``t``. With ``use_length`` the positions at and beyond ``length`` along ``axis`` are
    masked out (their output is 0).
    """
    if temperature is None and dtype is None and not use_length:
        try:  # the common call, in one torch call (which refuses integer data)
            return torch.softmax(data, axis)
        except (IndexError, RuntimeError):
            pass  # MXNet's error below
    return _softmax_common('softmax', torch.softmax, data, length, axis, temperature, dtype,
                           use_length)


def _no_length(op, use_length):
    if use_length:
        raise MXNetError('%s: use_length=True needs a length input, which MXNet 1.9.1 only '
                         'provides for softmax' % op)


@register('log_softmax', aliases=('_npx_log_softmax',), params=_SOFTMAX_PARAMS)
def log_softmax(data, axis, temperature, dtype, use_length):
    """Computes the log softmax of the input: ``log(softmax(data / temperature))``."""
    if temperature is None and dtype is None and not use_length:
        try:  # the common call, in one torch call (which refuses integer data)
            return torch.log_softmax(data, axis)
        except (IndexError, RuntimeError):
            pass  # MXNet's error below
    _no_length('log_softmax', use_length)
    return _softmax_common('log_softmax', torch.log_softmax, data, None, axis, temperature, dtype,
                           False)


@register('softmin', monitor_prefix='input', named_outputs=True, params=_SOFTMAX_PARAMS)
def softmin(data, *, axis, temperature, dtype, use_length):
    """Applies the softmin function: ``softmin(z)_j = exp(-z_j / t) / sum_k exp(-z_k / t)``."""
    _no_length('softmin', use_length)
    return _softmax_common('softmin', torch.softmax, data, None, axis, temperature, dtype, False,
                           negate=True)


class _InstanceSoftmaxMX(torch.autograd.Function):
    """SoftmaxActivation(mode='instance') on 3+-D data: softmax over the last axis, with
    MXNet's backward, which applies the softmax gradient along axis 1 in both modes."""

    @staticmethod
    def forward(ctx, x):
        out = F.softmax(x, -1)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return out * (grad - (grad * out).sum(1, keepdim=True))


@register('SoftmaxActivation', monitor_prefix='input', named_outputs=True,
          params={'mode': (Enum('instance', 'channel'), 'instance')})
def softmax_activation(data, *, mode):
    """Applies softmax activation to input. This is intended for internal layers.

    ``mode='instance'`` computes the softmax over the last axis (MXNet flattens the leading
    axes into instances); ``mode='channel'`` over axis 1 at each position.
    """
    if mode == 'channel':
        if data.dim() < 3:
            raise MXNetError('SoftmaxActivation: input needs at least 3 dimensions when '
                             'mode=channel, got shape %s' % (tuple(data.shape),))
        return F.softmax(data, 1)
    if data.dim() > 2 and data.requires_grad and torch.is_grad_enabled():
        return _InstanceSoftmaxMX.apply(data)
    return F.softmax(data, -1)


@register('Dropout', aliases=('_npx_dropout',), named_outputs=True, merges=False, num_outputs=2, num_visible_outputs=1,
          params={'p': (Float, 0.5), 'mode': (Enum('training', 'always'), 'training'),
                  'axes': (Shape, ()), 'cudnn_off': (Opt(Bool), False)})
def dropout(data, *, p, mode, axes, cudnn_off):
    """Applies dropout operation to input array.

    During training, each element of the input is set to zero with probability p and the
    others are scaled by ``1/(1-p)``; ``axes`` share one mask along the given axes. In predict
    mode (and ``mode='training'``) the input is returned unchanged (the result shares its
    memory).
    """
    if p == 0 or (mode == 'training' and not is_training()):
        return data
    if not 0 <= p <= 1:
        raise MXNetError('Dropout: p must be in [0, 1], got %g' % p)
    if p == 1:
        # MXNet scales the all-zero mask by 1/(1-p): every output is NaN
        return data * float('nan')
    if not axes:
        return F.dropout(data, p, True)
    shape = list(data.shape)
    for a in axes:
        if not -data.dim() <= a < data.dim():
            raise MXNetError('Dropout: axis %d in axes is out of range for data of shape %s'
                             % (a, tuple(data.shape)))
        shape[a] = 1
    keep = 1.0 - p
    mask = torch.empty(shape, dtype=data.dtype, device=data.device).bernoulli_(keep)
    return data * mask.div_(keep)
