"""Dense ``mx.nd.contrib`` operators that are not detection layers: index_copy, index_array,
boolean_mask, allclose, the straight-through estimators, gradientmultiplier, quadratic,
div_sqrt_dim, the interleaved attention matmuls, fft/ifft, count_sketch, hawkesll,
BatchNormWithReLU and the quantization operators (SyncBatchNorm lives in nn_norm.py).

The quantization operators follow MXNet's CPU build (oneDNN): scales use 127.5 / 255.5 as the
quantized range of int8 / uint8 data, products are rounded half to even and saturated.
"""
import math

import numpy as np
import torch
import torch.nn.functional as F

from ..base import MXNetError
from . import param_shapes
from .elemwise_unary import _input_grad
from .indexing import spare_slot, zero_grad_link
from .nn_pooling import pooling
from .registry import register, get, REQUIRED, Int, Float, Bool, Shape, Any, Opt, Enum

_F32 = torch.float32
_INT8_RANGE = 127.5
_UINT8_RANGE = 255.5


def _bad_inputs(opname, n):
    raise MXNetError('Check failed: num_inputs == infered_num_inputs (0 vs. %d) : Operator %s '
                     'expects %d inputs, but got 0 instead.' % (n, opname, n))


# ---------------------------------------------------------------------------------------------
# Indexing
# ---------------------------------------------------------------------------------------------

@register('_contrib_index_copy', inputs=('old_tensor', 'index_vector', 'new_tensor'))
def index_copy(old_tensor, index_vector, new_tensor):
    """Copies the elements of a `new_tensor` into the `old_tensor`.

    This operator copies the elements by selecting the indices in the order given in `index`.
    The output will be a new tensor containing the rest elements of old tensor and the copied
    elements of new tensor. For example, if ``index[i] == j``, then the ``i`` th row of
    `new_tensor` is copied to the ``j`` th row of output."""
    if index_vector.dim() != 1:
        raise MXNetError('_contrib_index_copy: index_vector must be 1-D, got shape %s'
                         % (tuple(index_vector.shape),))
    if old_tensor.dim() != new_tensor.dim() or old_tensor.shape[1:] != new_tensor.shape[1:] \
            or old_tensor.shape[0] < new_tensor.shape[0]:
        raise MXNetError('_contrib_index_copy: new_tensor %s does not fit old_tensor %s (same '
                         'trailing dimensions and no more rows are required)'
                         % (tuple(new_tensor.shape), tuple(old_tensor.shape)))
    if index_vector.shape[0] != new_tensor.shape[0]:
        raise MXNetError('_contrib_index_copy: index_vector has %d entries but new_tensor has %d '
                         'rows' % (index_vector.shape[0], new_tensor.shape[0]))
    # an index outside [0, rows) writes to a spare row that is dropped
    rows = old_tensor.shape[0]
    spare = old_tensor.new_zeros((1,) + tuple(old_tensor.shape[1:]))
    return torch.cat((old_tensor, spare)).index_copy(
        0, spare_slot(index_vector.long(), rows), new_tensor.to(old_tensor.dtype))[:rows]


@register('_contrib_backward_index_copy', inputs=())
def backward_index_copy():
    """Backward of index_copy (internal); MXNet gives its front end no inputs."""
    _bad_inputs('_contrib_backward_index_copy', 4)


@register('_contrib_index_array', named_outputs=True,
          params={'axes': (Opt(Shape), None)}, differentiable=False)
def index_array(data, *, axes):
    """Returns an array of indexes of the input array.

    For an input array with shape :math:`(d_1, d_2, ..., d_n)`, `index_array` returns a
    :math:`(d_1, d_2, ..., d_n, n)` array `idx`, where
    :math:`idx[i_1, i_2, ..., i_n, :] = [i_1, i_2, ..., i_n]`. Given `axes`, only those
    coordinates are returned, in that order (negative axes count from the end)."""
    ndim = data.dim()
    if axes is None:
        axes = tuple(range(ndim))
    for a in axes:
        if not -ndim <= a < ndim:
            raise MXNetError('_contrib_index_array: axis %d is out of range for an array of %d '
                             'dimensions' % (a, ndim))
    grids = torch.meshgrid(*[torch.arange(n, device=data.device) for n in data.shape],
                           indexing='ij') if ndim else ()
    if not axes:
        return torch.zeros(tuple(data.shape) + (0,), dtype=torch.int64, device=data.device)
    return torch.stack([grids[a % ndim] for a in axes], dim=-1)


@register('_contrib_boolean_mask', inputs=('data', 'index'), params={'axis': (Int, 0)})
def boolean_mask(data, index, *, axis):
    """Given an n-d NDArray data, and a 1-d NDArray index, the operator produces an
    un-predeterminable shaped n-d NDArray out, which stands for the rows in x where the
    corresonding element in index is non-zero.

    Only ``axis=0`` is supported, as in MXNet."""
    if axis != 0:
        raise MXNetError('_contrib_boolean_mask: Check failed: axis == 0 (%d vs. 0) : Not '
                         'supported yet' % axis)
    if index.dim() != 1 or index.shape[0] != data.shape[0]:
        raise MXNetError('_contrib_boolean_mask: index must be 1-D with %d entries (one per row '
                         'of data), got shape %s' % (data.shape[0], tuple(index.shape)))
    return data[index != 0]


@register('_contrib_allclose', inputs=('a', 'b'),
          params={'rtol': (Float, 1e-5), 'atol': (Float, 1e-8), 'equal_nan': (Bool, True)},
          differentiable=False)
def allclose(a, b, *, rtol, atol, equal_nan):
    """This operators implements the numpy.allclose(a, b, rtol=1e-05, atol=1e-08,
    equal_nan=False): 1 (uint8, 0-d) when ``|a - b| <= atol + rtol * |b|`` everywhere."""
    if a.shape != b.shape:
        raise MXNetError('Operator _contrib_allclose inferring shapes failed: a has shape %s and '
                         'b has shape %s (they must be equal)' % (tuple(a.shape), tuple(b.shape)))
    a64, b64 = a.double(), b.double()
    close = (a64 == b64) | ((a64 - b64).abs() <= atol + rtol * b64.abs())
    nan_a, nan_b = a64.isnan(), b64.isnan()
    close = torch.where(nan_a | nan_b, (nan_a == nan_b) & equal_nan, close)
    return close.all().to(torch.uint8)


# ---------------------------------------------------------------------------------------------
# Element-wise
# ---------------------------------------------------------------------------------------------

class _StraightThrough(torch.autograd.Function):
    """``fn(x)`` forward, identity backward."""

    @staticmethod
    def forward(ctx, x, fn):
        return fn(x)

    @staticmethod
    def backward(ctx, g):
        return g, None


def _round_half_away(t):
    return torch.sign(t) * torch.floor(t.abs() + 0.5)


@register('_contrib_round_ste', monitor_prefix='input')
def round_ste(data):
    """Straight-through-estimator of `round()`: rounds half away from zero in the forward pass
    and passes the gradient through unchanged."""
    if not data.is_floating_point():
        return data.clone()
    return _StraightThrough.apply(data, _round_half_away)


@register('_contrib_sign_ste', monitor_prefix='input')
def sign_ste(data):
    """Straight-through-estimator of `sign()`: the sign in the forward pass, the unchanged
    gradient in the backward pass."""
    if not data.is_floating_point():
        return torch.sign(data)
    return _StraightThrough.apply(data, torch.sign)


class _GradMultiplier(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scalar):
        ctx.scalar = scalar
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        return g * ctx.scalar, None


_SCALAR_PARAMS = {'scalar': (Float, 1.0), 'is_int': (Bool, True)}


@register('_contrib_gradientmultiplier', monitor_prefix='input', params=_SCALAR_PARAMS)
def gradientmultiplier(data, *, scalar, is_int):
    """This operator implements the gradient multiplier function. In forward pass it acts as an
    identity transform. During backpropagation it multiplies the gradient from the subsequent
    level by a scalar factor lambda and passes it to the preceding layer."""
    if data.requires_grad and torch.is_grad_enabled():
        return _GradMultiplier.apply(data, scalar)
    return data.clone()


@register('_contrib_backward_gradientmultiplier', monitor_prefix='input', params=_SCALAR_PARAMS)
def backward_gradientmultiplier(data, *, scalar, is_int):
    """Backward of gradientmultiplier: ``data * scalar`` (the scalar cast to an integer
    array's dtype)."""
    if not data.is_floating_point():
        scalar = int(scalar)
    return data * scalar


@register('_contrib_quadratic', params={'a': (Float, 0.0), 'b': (Float, 0.0), 'c': (Float, 0.0)})
def quadratic(data, *, a, b, c):
    """This operators implements the quadratic function.

    .. math::
        f(x) = ax^2+bx+c

    where :math:`x` is an input tensor and all operations in the function are element-wise.

    As MXNet computes it: ``x * (a * x + b) + c`` with float32 coefficients, in float32 for
    integer data (the result truncated to the data's type)."""
    a, b, c = (float(np.float32(v)) for v in (a, b, c))
    x = data if data.is_floating_point() else data.float()
    out = x * (a * x + b) + c
    return out if out.dtype == data.dtype else out.to(data.dtype)


@register('_contrib_backward_quadratic', inputs=(),
          params={'a': (Float, 0.0), 'b': (Float, 0.0), 'c': (Float, 0.0)})
def backward_quadratic(*, a, b, c):
    """Backward of quadratic (internal); MXNet gives its front end no inputs."""
    _bad_inputs('_contrib_backward_quadratic', 2)


@register('_contrib_div_sqrt_dim', monitor_prefix='input')
def div_sqrt_dim(data):
    """Rescale the input by the square root of the channel dimension.

       out = data / sqrt(data.shape[-1])
    """
    if data.dim() < 1:
        raise MXNetError('_contrib_div_sqrt_dim: data must have at least one dimension')
    return data / torch.tensor(math.sqrt(data.shape[-1]), dtype=data.dtype)


# ---------------------------------------------------------------------------------------------
# Interleaved attention matmuls (projections laid out as (seq, batch, heads * k * head_dim))
# ---------------------------------------------------------------------------------------------

def _check_f32(opname, *ts):
    for t in ts:
        if t.dtype != _F32 and t.device.type == 'cpu':  # MXNet's CUDA kernels take float16
            raise MXNetError('%s: Only FP32 is supported on CPU at the moment, got %s'
                             % (opname, str(t.dtype)[6:]))


def _check_3d(opname, name, t):
    if t.dim() != 3:
        raise MXNetError('%s: input %s should be 3D in seq_length-batch-proj_dim, currently is: '
                         '%dD' % (opname, name, t.dim()))


def _heads(t, heads, parts):
    """(seq, batch, heads*parts*d) -> (parts, batch*heads, seq, d)."""
    s, b, e = t.shape
    d = e // (heads * parts)
    return t.reshape(s, b * heads, parts, d).permute(2, 1, 0, 3)


def _merge_heads(t, batch):
    """(batch*heads, seq, d) -> (seq, batch, heads*d)."""
    bh, s, d = t.shape
    return t.permute(1, 0, 2).reshape(s, batch, (bh // batch) * d)


_HEADS = {'heads': (Int, REQUIRED)}


@register('_contrib_interleaved_matmul_selfatt_qk', named_outputs=True,
          inputs=('queries_keys_values',),
          params=_HEADS)
def interleaved_matmul_selfatt_qk(queries_keys_values, *, heads):
    """Compute the matrix multiplication between the projections of queries and keys in
    multihead attention use as self attention, scaled by ``1/sqrt(head_dim)``. The input holds
    the projections interleaved per head as (seq_length, batch, heads * 3 * head_dim); the
    output has shape (batch * heads, seq_length, seq_length)."""
    op = '_contrib_interleaved_matmul_selfatt_qk'
    _check_3d(op, 'queries_keys_values', queries_keys_values)
    _check_f32(op, queries_keys_values)
    qkv = _heads(queries_keys_values, heads, 3)
    scale = 1.0 / math.sqrt(qkv.shape[3])
    return torch.matmul(qkv[0] * scale, qkv[1].transpose(1, 2))


@register('_contrib_interleaved_matmul_selfatt_valatt', named_outputs=True,
          inputs=('queries_keys_values', 'attention'), params=_HEADS)
def interleaved_matmul_selfatt_valatt(queries_keys_values, attention, *, heads):
    """Compute the matrix multiplication between the projections of values and the attention
    weights in multihead attention use as self attention; the result has shape
    (seq_length, batch, heads * head_dim)."""
    op = '_contrib_interleaved_matmul_selfatt_valatt'
    _check_3d(op, 'queries_keys_values', queries_keys_values)
    _check_3d(op, 'attention', attention)
    _check_f32(op, queries_keys_values, attention)
    s, b, e = queries_keys_values.shape
    if e % 3 or attention.shape != (b * heads, s, s):
        raise MXNetError('%s: attention must have shape (%d, %d, %d), got %s'
                         % (op, b * heads, s, s, tuple(attention.shape)))
    v = _heads(queries_keys_values, heads, 3)[2]
    return _merge_heads(torch.matmul(attention, v), b)


@register('_contrib_interleaved_matmul_encdec_qk', named_outputs=True,
          inputs=('queries', 'keys_values'),
          params=_HEADS)
def interleaved_matmul_encdec_qk(queries, keys_values, *, heads):
    """Compute the matrix multiplication between the projections of queries and keys in
    multihead attention use as encoder-decoder, scaled by ``1/sqrt(head_dim)``; the result has
    shape (batch * heads, query_length, key_length)."""
    op = '_contrib_interleaved_matmul_encdec_qk'
    _check_3d(op, 'queries', queries)
    _check_3d(op, 'keys_values', keys_values)
    _check_f32(op, queries, keys_values)
    if queries.shape[2] * 2 != keys_values.shape[2] or queries.shape[1] != keys_values.shape[1]:
        raise MXNetError('%s: keys_values.shape[2] should be equal to queries.shape[2] * 2 and '
                         'their batch sizes equal, currently are %s and %s'
                         % (op, tuple(keys_values.shape), tuple(queries.shape)))
    q = _heads(queries, heads, 1)[0]
    k = _heads(keys_values, heads, 2)[0]
    return torch.matmul(q * (1.0 / math.sqrt(q.shape[2])), k.transpose(1, 2))


@register('_contrib_interleaved_matmul_encdec_valatt', named_outputs=True,
          inputs=('keys_values', 'attention'),
          params=_HEADS)
def interleaved_matmul_encdec_valatt(keys_values, attention, *, heads):
    """Compute the matrix multiplication between the projections of values and the attention
    weights in multihead attention use as encoder-decoder; the result has shape
    (query_length, batch, heads * head_dim)."""
    op = '_contrib_interleaved_matmul_encdec_valatt'
    _check_3d(op, 'keys_values', keys_values)
    _check_3d(op, 'attention', attention)
    _check_f32(op, keys_values, attention)
    s, b, e = keys_values.shape
    if attention.shape[0] != b * heads or attention.shape[2] != s:
        raise MXNetError('%s: attention must have shape (%d, query_length, %d), got %s'
                         % (op, b * heads, s, tuple(attention.shape)))
    v = _heads(keys_values, heads, 2)[1]
    return _merge_heads(torch.matmul(attention, v), b)


# ---------------------------------------------------------------------------------------------
# GPU-only operators of MXNet: fft, ifft, count_sketch
# ---------------------------------------------------------------------------------------------

def _gpu_only(opname, t):
    if t.device.type == 'cpu':  # (shape inference runs on 'meta' tensors: not refused there)
        raise MXNetError('%s is only available for GPU.' % opname)


def _fft_shape_check(opname, data):
    if data.dim() not in (2, 4):
        raise MXNetError('%s: data must be 2D (N, d) or 4D (N1, N2, N3, d), got shape %s'
                         % (opname, tuple(data.shape)))


@register('_contrib_fft', named_outputs=True, merges=False, params={'compute_size': (Int, 128)})
def fft(data, *, compute_size):
    """Apply 1D FFT to input (GPU only, as in MXNet).

    Accepts real data of shape (N, d) or (N1, N2, N3, d); the output has shape (N, 2*d) or
    (N1, N2, N3, 2*d) in the format [real0, imag0, real1, imag1, ...]."""
    _fft_shape_check('fft', data)
    _gpu_only('fft', data)
    out = torch.fft.fft(data.float() if data.dtype == torch.float16 else data, dim=-1)
    return torch.view_as_real(out).reshape(*data.shape[:-1], 2 * data.shape[-1]).to(data.dtype)


@register('_contrib_ifft', named_outputs=True, merges=False, params={'compute_size': (Int, 128)})
def ifft(data, *, compute_size):
    """Apply 1D ifft to input (GPU only, as in MXNet).

    The input holds complex numbers as [real0, imag0, real1, imag1, ...] along its last axis
    (of size 2*d); the output is the real part of the unnormalized inverse transform, with
    last axis d."""
    _fft_shape_check('ifft', data)
    _gpu_only('ifft', data)
    if data.shape[-1] % 2:
        raise MXNetError('ifft: the last axis must hold (real, imag) pairs, got size %d'
                         % data.shape[-1])
    x = data.float() if data.dtype == torch.float16 else data
    z = torch.view_as_complex(x.reshape(*x.shape[:-1], -1, 2).contiguous())
    n = z.shape[-1]
    return (torch.fft.ifft(z, dim=-1).real * n).to(data.dtype)


@register('_contrib_count_sketch', named_outputs=True, merges=False, inputs=('data', 'h', 's'),
          params={'out_dim': (Int, REQUIRED), 'processing_batch_size': (Int, 32)})
def count_sketch(data, h, s, *, out_dim, processing_batch_size):
    """Apply CountSketch to input: map a d-dimension data to k-dimension data (GPU only, as in
    MXNet): ``out[n, h[i]] += data[n, i] * s[i]``."""
    if data.dim() not in (2, 4):
        raise MXNetError('count_sketch: Data should be 2D or 4D!')
    d = data.shape[-1]
    if h.shape[-1] != d or s.shape[-1] != d:
        raise MXNetError('count_sketch: h and s must have %d entries in their last axis (the '
                         'length of data\'s last axis), got %s and %s'
                         % (d, tuple(h.shape), tuple(s.shape)))
    _gpu_only('CountSketch', data)
    flat = data.reshape(-1, d)
    # a hash outside [0, out_dim) adds to a spare column that is dropped
    col = spare_slot(h.detach().reshape(-1).long(), out_dim)
    out = torch.zeros(flat.shape[0], out_dim + 1, dtype=data.dtype, device=data.device)
    out = out.index_add(1, col, flat * s.detach().reshape(-1))[:, :out_dim]
    return out.reshape(*data.shape[:-1], out_dim)


# ---------------------------------------------------------------------------------------------
# Hawkes process log likelihood
# ---------------------------------------------------------------------------------------------

def _in_float32(fn):
    return lambda x: fn(x.float()).to(x.dtype)


# MXNet's kernels call expf / logf: float32 for float64 data too; the gradients in the data's
# type (exp's float32 value, 1 / x)
_expf = _in_float32(torch.exp)
_exp_f32 = _input_grad('_ExpF32', _expf, lambda g, x: g * _expf(x), 'exp in float32 (expf).')
_log_f32 = _input_grad('_LogF32', _in_float32(torch.log), lambda g, x: g / x,
                       'log in float32 (logf).')


@register('_contrib_hawkesll', named_outputs=True,
          inputs=('lda', 'alpha', 'beta', 'state', 'lags', 'marks', 'valid_length', 'max_time'),
          num_outputs=2, output_names=('output', 'out_state'))
def hawkesll(lda, alpha, beta, state, lags, marks, valid_length, max_time):
    """Computes the log likelihood of a univariate Hawkes process.

    ``lda`` (N, K) holds the background intensities, ``alpha`` (K,) the branching ratios and
    ``beta`` (K,) the decay rates; ``lags`` and ``marks`` (N, T) are left-aligned ragged
    interarrival times and process ids with ``valid_length`` (N,) valid points each, observed on
    (0, ``max_time``]. ``state`` (N, K) is the memory at time 0. Returns the log likelihood (N,)
    and the memory at ``max_time`` (N, K). Gradients reach ``lda``, ``alpha`` and ``beta`` only,
    from the log likelihood, as in MXNet."""
    op = '_contrib_hawkesll'
    if lda.dim() != 2 or alpha.dim() != 1 or beta.dim() != 1 or state.dim() != 2 \
            or lags.dim() != 2 or marks.dim() != 2 or valid_length.dim() != 1 \
            or max_time.dim() != 1:
        raise MXNetError('%s: expected lda (N, K), alpha (K,), beta (K,), state (N, K), lags '
                         '(N, T), marks (N, T), valid_length (N,), max_time (N,)' % op)
    n, t_len = lags.shape
    k = lda.shape[1]
    if lda.shape[0] != n or alpha.shape[0] != k or beta.shape[0] != k \
            or state.shape != (n, k) or marks.shape != (n, t_len) \
            or valid_length.shape[0] != n or max_time.shape[0] != n:
        raise MXNetError('%s: inconsistent shapes: lda %s, alpha %s, beta %s, state %s, lags %s, '
                         'marks %s, valid_length %s, max_time %s'
                         % (op, tuple(lda.shape), tuple(alpha.shape), tuple(beta.shape),
                            tuple(state.shape), tuple(lags.shape), tuple(marks.shape),
                            tuple(valid_length.shape), tuple(max_time.shape)))
    dt = lda.dtype
    # MXNet's kernels call expf / logf: float32 for float64 data too (float16 rounds alike)
    exp, log = (_exp_f32, _log_f32) if dt == torch.float64 else (torch.exp, torch.log)
    lags, max_time, valid_length = lags.detach(), max_time.detach(), valid_length.detach()
    phi = state.detach().clone()
    marks = marks.long()
    last = torch.zeros(n, k, dtype=dt, device=lda.device)
    t = torch.zeros(n, dtype=dt, device=lda.device)
    ll = torch.zeros(n, dtype=dt, device=lda.device)
    rows = torch.arange(n, device=lda.device)
    for j in range(t_len):
        valid = j < valid_length
        ci = marks[:, j].clamp(0, k - 1)
        t = torch.where(valid, t + lags[:, j], t)
        d = t - last[rows, ci]
        b = beta[ci]
        ed = exp(-b * d)
        s = phi[rows, ci]
        mu = lda[rows, ci]
        intensity = mu + alpha[ci] * b * s * ed
        comp = mu * d + alpha[ci] * s * (1 - ed)
        ll = ll + torch.where(valid, log(intensity) - comp, torch.zeros_like(ll))
        onehot = F.one_hot(ci, k).to(dt) * valid.to(dt).unsqueeze(1)
        phi = phi + onehot * ((1 + s * ed) - s).unsqueeze(1)
        last = last + onehot * (t - last[rows, ci]).unsqueeze(1)
    d = max_time.unsqueeze(1) - last
    ed = exp(-beta * d)
    ll = ll - (lda * d + alpha * phi * (1 - ed)).sum(1)
    return ll, zero_grad_link((ed * phi).detach(), lda, alpha, beta, state)


@register('_contrib_backward_hawkesll', inputs=())
def backward_hawkesll():
    """Backward of hawkesll (internal); MXNet gives its front end no inputs."""
    _bad_inputs('_contrib_backward_hawkesll', 10)


# ---------------------------------------------------------------------------------------------
# Batch normalization variants
# ---------------------------------------------------------------------------------------------

_BN_PARAMS = {'eps': (Float, 1e-3), 'momentum': (Float, 0.9), 'fix_gamma': (Bool, True),
              'use_global_stats': (Bool, False), 'output_mean_var': (Bool, False),
              'axis': (Int, 1), 'cudnn_off': (Bool, False),
              'min_calib_range': (Opt(Float), None), 'max_calib_range': (Opt(Float), None)}


def _mean_var_outputs(p):
    return 3 if p['output_mean_var'] else 1


@register('_contrib_BatchNormWithReLU', named_outputs=True,
          input_init={'moving_mean': '["zero", {}]', 'moving_var': '["one", {}]'},
          inputs=('data', 'gamma', 'beta', 'moving_mean', 'moving_var'),
          aux=('moving_mean', 'moving_var'), params=_BN_PARAMS,
          infer_shape=param_shapes.channel_params,
          num_outputs=_mean_var_outputs, output_names=('output', 'mean', 'var'))
def batch_norm_with_relu(data, gamma, beta, moving_mean, moving_var, **params):
    """Batch normalization with ReLU fusion: ``relu(BatchNorm(data, ...))`` with BatchNorm's
    parameters, statistics and outputs."""
    res = get('BatchNorm').fn(data, gamma, beta, moving_mean, moving_var, **params)
    if isinstance(res, tuple):
        return (torch.relu(res[0]),) + tuple(res[1:])
    return torch.relu(res)


# ---------------------------------------------------------------------------------------------
# Quantization
# ---------------------------------------------------------------------------------------------

_QLIMITS = {torch.int8: (-128, 127), torch.uint8: (0, 255), torch.int32: (-2 ** 31, 2 ** 31 - 1)}
_QTYPES = {'int8': torch.int8, 'uint8': torch.uint8}


def _scalar_f32(t):
    return t.detach().reshape(-1)[0].float()


def _maxabs(a, b):
    return torch.maximum(a.abs(), b.abs())


def _saturate_round(x, dtype):
    """Round half to even and saturate to ``dtype``'s range (oneDNN's reorder)."""
    lo, hi = _QLIMITS[dtype]
    return torch.round(x).clamp(lo, hi).to(dtype)


def _range_outputs(lo, hi, device):
    return (lo.reshape(1).to(device=device, dtype=_F32), hi.reshape(1).to(device=device,
                                                                         dtype=_F32))


def _check_range_inputs(opname, min_range, max_range):
    for name, t in (('min_range', min_range), ('max_range', max_range)):
        if t is None or t.numel() != 1:
            raise MXNetError('%s: %s must be an array of one element, got %s'
                             % (opname, name, None if t is None else tuple(t.shape)))


@register('_contrib_quantize', inputs=('data', 'min_range', 'max_range'),
          params={'out_type': (Enum('int8', 'uint8'), 'uint8')},
          num_outputs=3, differentiable=False)
def quantize(data, min_range, max_range, *, out_type):
    """Quantize a input tensor from float to `out_type`, with user-specified `min_range` and
    `max_range`. Values are scaled by ``quantized_range / max(|min_range|, |max_range|)``
    (255 for uint8, 127 for int8), rounded and saturated. For int8 the output range is
    symmetric (-r, r)."""
    op = '_contrib_quantize'
    _check_range_inputs(op, min_range, max_range)
    if data.dtype != _F32:
        raise MXNetError('%s: data must be float32, got %s' % (op, str(data.dtype)[6:]))
    lo, hi = _scalar_f32(min_range), _scalar_f32(max_range)
    real = _maxabs(lo, hi)
    dtype = _QTYPES[out_type]
    qrange = 255.0 if dtype is torch.uint8 else 127.0
    scale = torch.tensor(qrange, dtype=_F32, device=real.device) / real
    q = _saturate_round(data.detach() * scale.to(data.device), dtype)
    if dtype is torch.int8:
        lo, hi = -real, real
    return (q,) + _range_outputs(lo, hi, data.device)


def _calib_out_type(out_type, min_calib_range):
    if out_type == 'auto':
        return 'uint8' if min_calib_range is not None and min_calib_range >= 0 else 'int8'
    return out_type


_CALIB = {'min_calib_range': (Opt(Float), None), 'max_calib_range': (Opt(Float), None)}


@register('_contrib_quantize_v2', merges=False,
          params=dict({'out_type': (Enum('auto', 'int8', 'uint8'), 'int8')}, **_CALIB),
          num_outputs=3, differentiable=False)
def quantize_v2(data, *, out_type, min_calib_range, max_calib_range):
    """Quantize a input tensor from float to `out_type`, with user-specified `min_calib_range`
    and `max_calib_range` or the input range if not provided. ``out_type='auto'`` picks uint8
    when `min_calib_range` is non-negative. The scale is
    ``quantized_range / max(|min|, |max|)`` with 127.5 for int8 and 255.5 for uint8; int8 and
    uint8 inputs pass through with their default ranges."""
    op = '_contrib_quantize_v2'
    dtype = _QTYPES[_calib_out_type(out_type, min_calib_range)]
    dev = data.device
    calibrated = min_calib_range is not None and max_calib_range is not None
    if data.dtype in (torch.int8, torch.uint8):
        if calibrated:
            lo, hi = min_calib_range, max_calib_range
        else:
            lo, hi = (0.0, _UINT8_RANGE) if data.dtype is torch.uint8 else \
                (-_INT8_RANGE, _INT8_RANGE)
        return (data.clone(),) + _range_outputs(torch.tensor(lo), torch.tensor(hi), dev)
    if data.dtype != _F32:
        raise MXNetError('%s: data must be float32, int8 or uint8, got %s'
                         % (op, str(data.dtype)[6:]))
    x = data.detach()
    if calibrated:
        lo = torch.tensor(min_calib_range, dtype=_F32, device=dev)
        hi = torch.tensor(max_calib_range, dtype=_F32, device=dev)
    else:
        lo, hi = x.min(), x.max()
    real = _maxabs(lo, hi)
    qrange = _UINT8_RANGE if dtype is torch.uint8 else _INT8_RANGE
    q = _saturate_round(x * (torch.tensor(qrange, dtype=_F32, device=dev) / real), dtype)
    if dtype is torch.int8:
        lo, hi = -real, real
    return (q,) + _range_outputs(lo, hi, dev)


@register('_contrib_quantize_asym', merges=False, params=_CALIB, num_outputs=3,
          output_names=('output', 'scale', 'shift'), differentiable=False)
def quantize_asym(data, *, min_calib_range, max_calib_range):
    """Quantize a input tensor from float to uint8_t asymmetrically:
    ``out = (data * scale + shift)`` with ``scale = 255 / (max - min)`` and
    ``shift = 255 - max * scale``, the range taken from `min_calib_range`/`max_calib_range` or
    from the data. int8 data is shifted by 128; uint8 data passes through."""
    dev = data.device
    if data.dtype is torch.uint8:
        scale, shift = torch.tensor(1.0), torch.tensor(0.0)
        return (data.clone(),) + _range_outputs(scale, shift, dev)
    if data.dtype is torch.int8:
        scale, shift = torch.tensor(1.0), torch.tensor(128.0)
        return ((data.to(torch.int16) + 128).to(torch.uint8),) + \
            _range_outputs(scale, shift, dev)
    if data.dtype != _F32:
        raise MXNetError('_contrib_quantize_asym: Asymmetric quantization only supports int8, '
                         'uint8 and float inputs, got %s' % str(data.dtype)[6:])
    x = data.detach()
    if min_calib_range is not None and max_calib_range is not None:
        lo = torch.tensor(min_calib_range, dtype=_F32, device=dev)
        hi = torch.tensor(max_calib_range, dtype=_F32, device=dev)
    else:
        lo, hi = x.min(), x.max()
    scale = torch.tensor(255.0, dtype=_F32, device=dev) / (hi - lo)
    shift = torch.tensor(255.0, dtype=_F32, device=dev) - hi * scale
    q = torch.trunc((x * scale + shift).double() + 0.5).clamp(0, 255).to(torch.uint8)
    return (q,) + _range_outputs(scale, shift, dev)


@register('_contrib_dequantize', merges=False, inputs=('data', 'min_range', 'max_range'),
          params={'out_type': (Enum('float32'), 'float32')}, differentiable=False)
def dequantize(data, min_range, max_range, *, out_type):
    """Dequantize the input tensor into a float tensor: ``data * max(|min|, |max|) / R`` with
    R = 127.5 for int8 and 255.5 for uint8 data."""
    op = '_contrib_dequantize'
    _check_range_inputs(op, min_range, max_range)
    if data.dtype not in (torch.int8, torch.uint8):
        raise MXNetError('%s: data must be int8 or uint8, got %s' % (op, str(data.dtype)[6:]))
    real = _maxabs(_scalar_f32(min_range), _scalar_f32(max_range))
    qrange = _UINT8_RANGE if data.dtype is torch.uint8 else _INT8_RANGE
    scale = real / torch.tensor(qrange, dtype=_F32, device=real.device)
    return data.to(_F32) * scale.to(data.device)


@register('_contrib_requantize', inputs=('data', 'min_range', 'max_range'),
          params=dict({'out_type': (Enum('auto', 'int8', 'uint8'), 'int8')}, **_CALIB),
          num_outputs=3, differentiable=False)
def requantize(data, min_range, max_range, *, out_type, min_calib_range, max_calib_range):
    """Given data that is quantized in int32 and the corresponding thresholds, requantize the
    data into int8 (or uint8) using min and max thresholds either calculated at runtime or from
    calibration."""
    op = '_contrib_requantize'
    _check_range_inputs(op, min_range, max_range)
    if data.dtype != torch.int32:
        raise MXNetError('%s: data must be int32, got %s' % (op, str(data.dtype)[6:]))
    dev = data.device
    in_real = _maxabs(_scalar_f32(min_range), _scalar_f32(max_range)).to(dev)
    src_range = torch.tensor(2 ** 31 - 1, dtype=_F32, device=dev)
    if min_calib_range is not None and max_calib_range is not None:
        real = torch.tensor(max(abs(min_calib_range), abs(max_calib_range)), dtype=_F32,
                            device=dev)
    else:
        data_range = data.abs().max().float() if data.numel() else torch.tensor(0., device=dev)
        real = data_range * in_real / src_range
    dtype = _QTYPES[_calib_out_type(out_type, min_calib_range)]
    qrange = torch.tensor(255.0 if dtype is torch.uint8 else 127.0, dtype=_F32, device=dev)
    scale = (in_real / src_range) * (qrange / real)
    q = _saturate_round(data.to(_F32) * scale, dtype)
    lo = torch.zeros((), device=dev) if dtype is torch.uint8 else -real
    return (q,) + _range_outputs(lo, real, dev)


def _smooth(p, eps=np.float32(0.0001)):
    zeros = p == 0
    n_zeros = int(zeros.sum())
    n_nonzeros = p.size - n_zeros
    if not n_nonzeros:
        return None
    eps1 = np.float32(eps * np.float32(n_zeros) / np.float32(n_nonzeros))
    if eps1 >= 1.0:
        return None
    return (p + np.where(zeros, eps, -eps1).astype(np.float32)).astype(np.float32)


def _entropy(p, q):
    p = p / np.float32(p.sum(dtype=np.float32))
    q = q / np.float32(q.sum(dtype=np.float32))
    if not ((p > 0) & (q > 0)).all():
        raise MXNetError('_contrib_calibrate_entropy: Check failed: p[i] > 0 && q[i] > 0')
    return np.float32((p * np.log(p / q)).sum(dtype=np.float32))


@register('_contrib_calibrate_entropy', inputs=('hist', 'hist_edges'),
          params={'num_quantized_bins': (Int, 255)}, num_outputs=2,
          output_names=('output', 'divergence'), differentiable=False)
def calibrate_entropy(hist, hist_edges, *, num_quantized_bins):
    """Provide calibrated min/max for input histogram: the threshold (one of `hist_edges`)
    whose quantization into `num_quantized_bins` bins has the smallest KL divergence, and that
    divergence.

    .. Note::
        This operator only supports forward propagation. DO NOT use it in training."""
    op = '_contrib_calibrate_entropy'
    if hist.dtype != _F32:
        raise MXNetError('%s: hist must be float32, got %s' % (op, str(hist.dtype)[6:]))
    h = hist.detach().reshape(-1).cpu().numpy()
    edges = hist_edges.detach().reshape(-1).cpu().numpy().astype(np.float32)
    num_bins = h.size
    if num_bins + 1 != edges.size:
        raise MXNetError('%s: hist_edges must have %d entries (one more than hist), got %d'
                         % (op, num_bins + 1, edges.size))
    zero_bin = num_bins // 2
    half = num_quantized_bins // 2
    best, best_div = 0, np.float32(np.finfo(np.float32).max)
    thresholds = []
    for i in range(half, zero_bin + 1):
        start, stop = zero_bin - i, zero_bin + i + 1
        thresholds.append(edges[stop])
        p = h[start:stop].astype(np.float32).copy()
        # the first bin also takes the lower tail, the last bin the upper tail
        p[0] = h[:start + 1].sum(dtype=np.float32)
        p[-1] = p[-1] + h[stop:].sum(dtype=np.float32)
        sliced = np.trunc(h[start:stop]).astype(np.int64)
        sliced[0] = 0
        merged = sliced.size // num_quantized_bins
        q = np.zeros(sliced.size, dtype=np.float32)
        for j in range(num_quantized_bins):
            lo = j * merged
            hi = sliced.size if j == num_quantized_bins - 1 else (j + 1) * merged
            total = sliced[lo:hi].sum()
            norm = int((sliced[lo:hi] != 0).sum())
            if norm:
                q[lo:hi] = np.where(p[lo:hi] != 0, np.float32(total) / np.float32(norm), 0)
        p, q = _smooth(p), _smooth(q)
        div = np.float32(np.inf) if q is None else _entropy(p, q)
        if div < best_div:
            best, best_div = len(thresholds) - 1, div
    dev = hist.device
    return (torch.tensor([thresholds[best]], dtype=_F32, device=dev),
            torch.tensor([best_div], dtype=_F32, device=dev))


# ---------------------------------------------------------------------------------------------
# Quantized layers: graph-pass targets of MXNet's quantization flow
# ---------------------------------------------------------------------------------------------

@register('_contrib_quantized_flatten', inputs=('data', 'min_data', 'max_data'), num_outputs=3,
          output_names=('output', 'min_output', 'max_output'), differentiable=False)
def quantized_flatten(data, min_data, max_data):
    """Flatten a quantized array to 2-D; the range passes through."""
    return data.reshape(data.shape[0], -1) if data.dim() else data.reshape(1, 1), \
        min_data.clone(), max_data.clone()


@register('_contrib_quantized_pooling', inputs=('data', 'min_data', 'max_data'), num_outputs=3,
          output_names=('output', 'min_output', 'max_output'), differentiable=False,
          params=get('Pooling').params)
def quantized_pooling(data, min_data, max_data, **params):
    """Pooling operator for input and output data type of int8 (or uint8): max pooling keeps
    the values, average pooling rounds half to even (oneDNN); the range passes through."""
    if data.dtype not in (torch.int8, torch.uint8):
        raise MXNetError('_contrib_quantized_pooling: data must be int8 or uint8, got %s'
                         % str(data.dtype)[6:])
    if params['pool_type'] not in ('max', 'avg'):
        raise MXNetError("_contrib_quantized_pooling: pool_type must be 'max' or 'avg', got %r"
                         % params['pool_type'])
    out = pooling(data.float(), **params)
    return _saturate_round(out, data.dtype), min_data.clone(), max_data.clone()


def _not_implemented(name, inputs, params, variadic=False):
    def fn(*args, **kwargs):
        raise NotImplementedError('mx.nd.contrib.%s (MXNet operator _contrib_%s) is not supported '
                                  'by mxcompat: quantized layers are produced by MXNet\'s '
                                  'oneDNN quantization graph pass' % (name, name))
    fn.__doc__ = 'Quantized %s (not supported by mxcompat).' % name
    register('_contrib_' + name, inputs=inputs, params={p: (Any, None) for p in params},
             key_var_num_args='num_args' if variadic else None, differentiable=False)(fn)


_CONV = ('kernel', 'stride', 'dilate', 'pad', 'num_filter', 'num_group', 'workspace', 'no_bias',
         'cudnn_tune', 'cudnn_off', 'layout')
_QUANT_RANGES = ('min_data', 'max_data')
for _name, _inputs, _params in (
        ('quantized_act', ('data',) + _QUANT_RANGES, ('act_type',)),
        ('quantized_batch_norm',
         ('data', 'gamma', 'beta', 'moving_mean', 'moving_var') + _QUANT_RANGES,
         tuple(_BN_PARAMS)),
        ('quantized_conv', ('data', 'weight', 'bias', 'min_data', 'max_data', 'min_weight',
                            'max_weight', 'min_bias', 'max_bias'), _CONV),
        ('quantized_elemwise_add', ('lhs', 'rhs', 'lhs_min', 'lhs_max', 'rhs_min', 'rhs_max'),
         ('min_calib_range', 'max_calib_range')),
        ('quantized_elemwise_mul', ('lhs', 'rhs', 'lhs_min', 'lhs_max', 'rhs_min', 'rhs_max'),
         ('min_calib_range', 'max_calib_range', 'enable_float_output')),
        ('quantized_embedding', ('data', 'weight', 'min_weight', 'max_weight'),
         ('input_dim', 'output_dim', 'dtype', 'sparse_grad')),
        ('quantized_fully_connected', ('data', 'weight', 'bias', 'min_data', 'max_data',
                                       'min_weight', 'max_weight', 'min_bias', 'max_bias'),
         ('num_hidden', 'no_bias', 'flatten')),
        ('quantized_rnn', ('data', 'parameters', 'state', 'state_cell', 'data_scale',
                           'data_shift'),
         ('state_size', 'num_layers', 'bidirectional', 'mode', 'p', 'state_outputs',
          'projection_size', 'lstm_state_clip_min', 'lstm_state_clip_max',
          'lstm_state_clip_nan', 'use_sequence_length'))):
    _not_implemented(_name, _inputs, _params)
_not_implemented('quantized_concat', ('*data',), ('num_args', 'dim', 'min_calib_range',
                                                   'max_calib_range'), variadic=True)
