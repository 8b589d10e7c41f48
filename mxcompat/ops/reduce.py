"""Reduction operators: sum, mean, prod, max, min, nansum, nanprod, norm, argmax, argmin,
argmax_channel, moments.

MXNet's reductions differ from torch's in ways these implementations keep: reducing every axis
gives shape ``(1,)`` (never a 0-d array); ``exclude`` reduces the axes *not* listed; integer
inputs reduce in their own dtype (``mean`` divides with truncation); ``argmax``/``argmin``
return indices in the input's dtype; the gradient of ``max``/``min`` goes in full to every
maximal element; the gradient of ``prod`` is ``out / x`` (NaN where x is 0), and that of the L2
``norm`` is ``x / norm`` (NaN where the norm is 0).
"""
import math

import torch

from ..base import MXNetError, dtype_torch
from .int_cast import cast_recorded
from .registry import register, Int, Bool, Shape, Opt, Enum, DType

_INT = frozenset([torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.uint16,
                  torch.uint32, torch.uint64, torch.bool])

_REDUCE_PARAMS = {'axis': (Opt(Shape), None), 'keepdims': (Bool, False),
                  'exclude': (Bool, False)}

# (ndim, axis, exclude) -> reduced dims; None means every axis
_DIMS_CACHE = {}


def _reduced_dims(ndim, axis, exclude, opname):
    """The dims an MXNet reduction with (axis, exclude) reduces, as a sorted tuple, or None when
    it reduces every axis (axis None or empty)."""
    key = (ndim, axis, exclude)
    dims = _DIMS_CACHE.get(key, False)
    if dims is not False:
        return dims
    if not axis:
        dims = None
    else:
        axes = sorted(a + ndim if a < 0 else a for a in axis)
        for a, b in zip(axes, axes[1:]):
            if a == b:
                raise MXNetError('%s: axis=%s has duplicates; pass each axis once'
                                 % (opname, tuple(axis)))
        if axes[0] < 0 or axes[-1] >= ndim:
            raise MXNetError('%s: axis=%s is out of range for an array of %d dimensions'
                             % (opname, tuple(axis), ndim))
        dims = tuple(i for i in range(ndim) if i not in axes) if exclude else tuple(axes)
    if len(_DIMS_CACHE) > 4096:
        _DIMS_CACHE.clear()
    _DIMS_CACHE[key] = dims
    return dims


def _finish(res, x, dims, keepdims):
    """Give a reduction over ``dims`` MXNet's output shape."""
    if dims is None:
        return res.reshape((1,) * x.dim() if keepdims else (1,))
    if not keepdims and res.dim() == 0:
        return res.reshape(1)
    return res


def _reduce(opname, fn, x, axis, keepdims, exclude, **kw):
    dims = _reduced_dims(x.dim(), axis, exclude, opname)
    if dims is None:
        res = fn(x, **kw)  # a full reduction is torch's fastest path; [None] makes it (1,)
        return res.reshape((1,) * x.dim()) if keepdims and x.dim() > 1 else res[None]
    if not dims:
        return x.clone()
    return _finish(fn(x, dim=dims, keepdim=keepdims, **kw), x, dims, keepdims)


@register('sum', monitor_prefix='input', params=_REDUCE_PARAMS, aliases=('sum_axis',))
def sum_(data, axis, keepdims, exclude):
    """Computes the sum of array elements over given axes."""
    if not axis and not keepdims and data.dtype not in _INT:
        # a full reduction straight to MXNet's shape (1,) in one torch call
        try:
            res = data.sum_to_size(1)
        except RuntimeError:  # 0-d input
            return data.reshape(1).clone()
        return res if res is not data else data.clone()
    return _reduce('sum', torch.sum, data, axis, keepdims, exclude,
                   dtype=data.dtype if data.dtype in _INT else None)


def _int_mean(x, dim=None, keepdim=False):
    if dim is None:
        return torch.div(torch.sum(x, dtype=x.dtype), x.numel(), rounding_mode='trunc')
    n = 1
    for d in dim:
        n *= x.shape[d]
    return torch.div(torch.sum(x, dim=dim, keepdim=keepdim, dtype=x.dtype), n,
                     rounding_mode='trunc')


@register('mean', monitor_prefix='input', params=_REDUCE_PARAMS)
def mean(data, *, axis, keepdims, exclude):
    """Computes the mean of array elements over given axes."""
    fn = _int_mean if data.dtype in _INT else torch.mean
    return _reduce('mean', fn, data, axis, keepdims, exclude)


class _Prod(torch.autograd.Function):
    """Product whose gradient is MXNet's ``out / x`` (NaN at zeros, as in MXNet)."""

    @staticmethod
    def forward(ctx, x, dims, keepdim):
        out = _plain_prod(x, dims, True)
        ctx.save_for_backward(x, out)
        return out if keepdim else _drop(out, dims)

    @staticmethod
    def backward(ctx, g):
        x, out = ctx.saved_tensors
        if g.dim() != out.dim():
            g = g.reshape(out.shape)
        return g * out / x, None, None


def _drop(t, dims):
    return t.squeeze(dims) if dims is not None else t.reshape(())


def _plain_prod(x, dims, keepdim):
    dtype = x.dtype if x.dtype in _INT else None
    if dims is None:
        out = torch.prod(x, dtype=dtype)
        return out.reshape((1,) * x.dim()) if keepdim else out
    if len(dims) == 1:
        return torch.prod(x, dims[0], keepdim=keepdim, dtype=dtype)
    rest = [d for d in range(x.dim()) if d not in dims]
    moved = x.permute(rest + list(dims)).reshape([x.shape[d] for d in rest] + [-1])
    out = torch.prod(moved, -1, dtype=dtype)
    if keepdim:
        out = out.reshape([1 if d in dims else x.shape[d] for d in range(x.dim())])
    return out


def _prod(x, dim=None, keepdim=False):
    if x.requires_grad:
        return _Prod.apply(x, dim, keepdim)
    return _plain_prod(x, dim, keepdim)


@register('prod', monitor_prefix='input', params=_REDUCE_PARAMS)
def prod(data, *, axis, keepdims, exclude):
    """Computes the product of array elements over given axes."""
    return _reduce('prod', _prod, data, axis, keepdims, exclude)


@register('nansum', monitor_prefix='input', params=_REDUCE_PARAMS)
def nansum(data, *, axis, keepdims, exclude):
    """Computes the sum of array elements over given axes treating Not a Numbers (NaN) as
    zero."""
    if data.dtype in _INT:
        return _reduce('nansum', torch.sum, data, axis, keepdims, exclude, dtype=data.dtype)
    return _reduce('nansum', torch.nansum, data, axis, keepdims, exclude)


@register('nanprod', monitor_prefix='input', params=_REDUCE_PARAMS)
def nanprod(data, *, axis, keepdims, exclude):
    """Computes the product of array elements over given axes treating Not a Numbers (NaN) as
    one."""
    if data.dtype not in _INT:
        data = torch.where(torch.isnan(data), torch.ones((), dtype=data.dtype,
                                                          device=data.device), data)
    return _reduce('nanprod', _prod, data, axis, keepdims, exclude)


class _MaxMin(torch.autograd.Function):
    """max/min whose gradient goes in full to every element equal to the result (MXNet's)."""

    @staticmethod
    def forward(ctx, x, fn, dims, keepdim):
        out = fn(x) if dims is None else fn(x, dim=dims, keepdim=True)
        if dims is None:
            out = out.reshape((1,) * x.dim())
        ctx.save_for_backward(x, out)
        if keepdim:
            return out
        return out.reshape(()) if dims is None else out.squeeze(dims)

    @staticmethod
    def backward(ctx, g):
        x, out = ctx.saved_tensors
        if g.dim() != out.dim():
            g = g.reshape(out.shape)
        return g * (x == out).to(g.dtype), None, None, None


def _minmax(opname, fn, x, axis, keepdims, exclude):
    if x.numel() == 0:
        raise MXNetError("%s: reduction input's size should be > 0, got shape %s"
                         % (opname, tuple(x.shape)))
    if x.requires_grad:
        dims = _reduced_dims(x.dim(), axis, exclude, opname)
        if dims is not None and not dims:
            return x.clone()
        return _finish(_MaxMin.apply(x, fn, dims, keepdims), x, dims, keepdims)
    return _reduce(opname, fn, x, axis, keepdims, exclude)


@register('max', monitor_prefix='input', params=_REDUCE_PARAMS, aliases=('max_axis',))
def max_(data, *, axis, keepdims, exclude):
    """Computes the max of array elements over given axes."""
    return _minmax('max', torch.amax, data, axis, keepdims, exclude)


@register('min', monitor_prefix='input', params=_REDUCE_PARAMS, aliases=('min_axis',))
def min_(data, *, axis, keepdims, exclude):
    """Computes the min of array elements over given axes."""
    return _minmax('min', torch.amin, data, axis, keepdims, exclude)


@register('_square_sum', monitor_prefix='input', params=_REDUCE_PARAMS)
def square_sum(data, *, axis, keepdims, exclude):
    """Computes the square sum of array elements over given axes (MXNet defines it for
    row_sparse arrays only; mxcompat computes it on dense ones)."""
    return _reduce('_square_sum', torch.sum, data * data, axis, keepdims, exclude)


class _L2Norm(torch.autograd.Function):
    """L2 norm whose gradient is MXNet's ``x / norm`` (NaN where the norm is 0)."""

    @staticmethod
    def forward(ctx, x, dims, keepdim):
        out = torch.linalg.vector_norm(x, 2, dim=dims, keepdim=True)
        ctx.save_for_backward(x, out)
        if keepdim:
            return out
        return out.reshape(()) if dims is None else out.squeeze(dims)

    @staticmethod
    def backward(ctx, g):
        x, out = ctx.saved_tensors
        if g.dim() != out.dim():
            g = g.reshape(out.shape)
        return g * x / out, None, None


def _int_l2norm(x, dims, keepdim):
    """MXNet's L2 norm of an integer array: the scaled sum of squares (as BLAS nrm2) computed
    in the integer type, element by element in order, so its truncations match MXNet's."""
    nd = x.dim()
    red = list(range(nd)) if dims is None else list(dims)
    rest = [d for d in range(nd) if d not in red]
    m = x.permute(rest + red).reshape([x.shape[d] for d in rest] + [-1])
    ssq = torch.zeros(m.shape[:-1], dtype=x.dtype, device=x.device)
    scale = torch.zeros_like(ssq)
    one = torch.ones((), dtype=x.dtype, device=x.device)
    for k in range(m.shape[-1]):
        a = m[..., k].abs()
        nz = a != 0
        grow = nz & (scale < a)
        r_old = torch.div(scale, torch.where(nz, a, one), rounding_mode='trunc')
        r_new = torch.div(a, torch.where(scale == 0, one, scale), rounding_mode='trunc')
        ssq = torch.where(grow, 1 + ssq * r_old * r_old,
                          torch.where(nz, ssq + r_new * r_new, ssq))
        scale = torch.where(grow, a, scale)
    out = (scale.float() * torch.sqrt(ssq.float())).to(x.dtype)
    if keepdim:
        return out.reshape([1 if d in red else x.shape[d] for d in range(nd)])
    return out


_NORM_DTYPES = ('float16', 'float32', 'float64', 'int64', 'int32', 'int8')


@register('norm', monitor_prefix='input', params={'ord': (Int, 2), 'axis': (Opt(Shape), None),
                          'out_dtype': (Enum(None, *_NORM_DTYPES), None),
                          'keepdims': (Bool, False)})
def norm(data, *, ord, axis, out_dtype, keepdims):
    """Computes the norm on an NDArray (ord=1: sum of absolute values, ord=2: square root of the
    sum of squares) over given axes."""
    if ord not in (1, 2):
        raise MXNetError('norm: ord=%d is not supported; use ord=1 or ord=2' % ord)
    dims = _reduced_dims(data.dim(), axis, False, 'norm')
    odt = dtype_torch(out_dtype) if out_dtype is not None else data.dtype
    x = data
    if x.dtype in _INT:
        if ord == 1:
            res = torch.sum(torch.abs(x), dim=dims, keepdim=keepdims, dtype=x.dtype)
        else:
            res = _int_l2norm(x, dims, keepdims)
        res = _finish(res, data, dims, keepdims)
        return res if res.dtype is odt else res.to(odt)
    if odt.is_floating_point and odt.itemsize > x.dtype.itemsize:
        x = x.to(odt)
    if ord == 1:
        res = torch.sum(torch.abs(x), dim=dims, keepdim=keepdims)
    elif x.requires_grad:
        res = _L2Norm.apply(x, dims, keepdims)
    else:
        res = torch.linalg.vector_norm(x, 2, dim=dims, keepdim=keepdims)
    res = _finish(res, data, dims, keepdims)
    return res if res.dtype is odt else res.to(odt)


def _arg(opname, fn, x, axis, keepdims):
    if axis is None:
        res = fn(x)
        return res.to(x.dtype).reshape((1,) * x.dim() if keepdims else (1,))
    ndim = x.dim()
    if axis < -ndim or axis >= ndim:
        raise MXNetError('%s: axis %d exceeds the input dimension of %d'
                         % (opname, axis, ndim))
    res = fn(x, axis, keepdim=keepdims).to(x.dtype)
    return res if res.dim() else res.reshape(1)


@register('argmax', monitor_prefix='input',
          params={'axis': (Opt(Int), None), 'keepdims': (Bool, False)},
          differentiable=False)
def argmax(data, *, axis, keepdims):
    """Returns indices of the maximum values along an axis (in the input's dtype; the first
    occurrence of ties)."""
    return _arg('argmax', torch.argmax, data, axis, keepdims)


@register('argmin', monitor_prefix='input',
          params={'axis': (Opt(Int), None), 'keepdims': (Bool, False)},
          differentiable=False)
def argmin(data, *, axis, keepdims):
    """Returns indices of the minimum values along an axis (in the input's dtype; the first
    occurrence of ties)."""
    return _arg('argmin', torch.argmin, data, axis, keepdims)


@register('argmax_channel', monitor_prefix='input', differentiable=False)
def argmax_channel(data):
    """Returns argmax indices of each channel (axis 1) from the input array."""
    return _arg('argmax_channel', torch.argmax, data, 1, False)


@register('moments', params={'axes': (Opt(Shape), None), 'keepdims': (Bool, False)},
          num_outputs=2)
def moments(data, *, axes, keepdims):
    """Calculate the mean and variance of `data` along `axes`."""
    if not axes:
        raise MXNetError('moments: empty axes is not supported; for global moments pass every '
                         'axis in axes')
    dims = _reduced_dims(data.dim(), axes, False, 'moments')
    if data.is_floating_point():
        var, mu = torch.var_mean(data, dim=dims, correction=0, keepdim=keepdims)
    else:  # MXNet's in integers: each mean a sum divided by the count, truncated
        wide = data.to(torch.int64)
        count = max(math.prod(data.shape[d] for d in dims), 1)
        mean = torch.div(wide.sum(dims, keepdim=True), count, rounding_mode='trunc')
        var = torch.div(((wide - mean) ** 2).sum(dims, keepdim=keepdims), count,
                        rounding_mode='trunc').to(data.dtype)
        mu = (mean if keepdims else mean.squeeze(dims)).to(data.dtype)
    return _finish(mu, data, dims, keepdims), _finish(var, data, dims, keepdims)


@register('_np_cumsum', inputs=('a',), aliases=('cumsum',),
          params={'axis': (Opt(Int), None), 'dtype': (DType, None)})
def cumsum(a, *, axis, dtype):
    """Return the cumulative sum of the elements along a given axis (the flattened array when
    axis is None). float16 sums are rounded to float16 at each step, as MXNet (and NumPy)
    accumulate them."""
    x = a.reshape(-1) if axis is None else a
    if axis is not None and not -x.dim() <= axis < max(x.dim(), 1):
        raise MXNetError('cumsum: axis %d is out of range for an array of %d dimensions'
                         % (axis, x.dim()))
    dim = 0 if axis is None else axis
    if dtype is not None:
        td = dtype_torch(dtype)
    else:  # the input's type (torch would widen integers to int64), int64 for bool
        td = torch.int64 if x.dtype is torch.bool else x.dtype
    if td is torch.float16 and x.dim() and x.shape[dim] > 1:
        parts = list(x.to(torch.float16).unbind(dim))
        for i in range(1, len(parts)):
            parts[i] = parts[i - 1] + parts[i]
        return torch.stack(parts, dim)
    if x.requires_grad and not td.is_floating_point and x.is_floating_point():
        # an integer sum of a recorded array: of its values truncated (as torch.cumsum's
        # dtype casts them), the gradient passing through as MXNet's does
        t = x.to(torch.float64)
        return cast_recorded(torch.cumsum(t - (t - torch.trunc(t)).detach(), dim=dim), td)
    return torch.cumsum(x, dim=dim, dtype=td)
