"""Array-creation operators: _zeros, _zeros_without_dtype, _ones, _full, _arange, _linspace,
_eye, and _contrib_arange_like. Except arange_like they take no inputs; ``ctx`` (a Context or a
string such as 'gpu(0)') places the result.
"""
import math

import torch

from ..base import MXNetError, dtype_torch
from ..context import Context, current_context, torch_device
from .registry import register, Int, Float, Bool, Shape, DType, Any, Opt, REQUIRED

_INT = frozenset([torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.uint16,
                  torch.uint32, torch.uint64])


def _device(ctx):
    if type(ctx) is Context:  # (its device once made: no frame of the property)
        return ctx._torch_device or ctx.torch_device
    if ctx is None or ctx == '':
        return current_context().torch_device
    return torch_device(ctx)


def _shape(opname, shape):
    if not shape:
        raise MXNetError('%s: shape is required (got %r); pass shape=(d0, d1, ...)'
                         % (opname, shape))
    if any(d < 0 for d in shape):
        raise MXNetError('%s: shape=%s must not hold negative sizes' % (opname, tuple(shape)))
    return shape


def _fill_value(value, dtype):
    """``value`` converted as C++ converts a double to ``dtype`` (truncation, then wrap-around
    for integers)."""
    if dtype in _INT:
        if math.isnan(value) or math.isinf(value):
            return 0
        return torch.tensor(int(value), dtype=torch.int64).to(dtype).item()
    if dtype is torch.bool:
        return bool(value)
    return value


_INIT_PARAMS = {'shape': (Shape, ()), 'ctx': (Any, None), 'dtype': (DType, 'float32')}


@register('_zeros', inputs=(), params=_INIT_PARAMS, differentiable=False)
def zeros(*, shape, ctx, dtype):
    """fill target with zeros"""
    return torch.zeros(_shape('_zeros', shape), dtype=dtype_torch(dtype), device=_device(ctx))


@register('_zeros_without_dtype', inputs=(), differentiable=False,
          params={'shape': (Shape, ()), 'ctx': (Any, None), 'dtype': (Int, -1)})
def zeros_without_dtype(*, shape, ctx, dtype):
    """fill target with zeros without default dtype (float32 when dtype is -1)"""
    td = torch.float32 if dtype == -1 else dtype_torch(dtype)
    return torch.zeros(_shape('_zeros_without_dtype', shape), dtype=td, device=_device(ctx))


@register('_ones', inputs=(), params=_INIT_PARAMS, differentiable=False)
def ones(*, shape, ctx, dtype):
    """fill target with ones"""
    return torch.ones(_shape('_ones', shape), dtype=dtype_torch(dtype), device=_device(ctx))


@register('_full', inputs=(), differentiable=False,
          params={'shape': (Shape, ()), 'ctx': (Any, None), 'dtype': (DType, 'float32'),
                  'value': (Float, REQUIRED)})
def full(*, shape, ctx, dtype, value):
    """fill target with a scalar value"""
    td = dtype_torch(dtype)
    return torch.full(_shape('_full', shape), _fill_value(value, td), dtype=td,
                      device=_device(ctx))


@register('_arange', inputs=(), differentiable=False,
          params={'start': (Float, REQUIRED), 'stop': (Opt(Float), None), 'step': (Float, 1.0),
                  'repeat': (Int, 1), 'infer_range': (Bool, False), 'ctx': (Any, None),
                  'dtype': (DType, 'float32')})
def arange(*, start, stop, step, repeat, infer_range, ctx, dtype):
    """Return evenly spaced values within a given interval. Similar to Numpy"""
    if stop is None:
        if infer_range:
            raise MXNetError('_arange: infer_range=True needs the output size from a symbol '
                             'graph; pass stop to create an array')
        start, stop = 0.0, start
    if step == 0:
        raise MXNetError('_arange: step=0 is not supported')
    if repeat <= 0:
        raise MXNetError('_arange: repeat=%d must be > 0' % repeat)
    if (step > 0 and not start < stop) or (step < 0 and not start > stop):
        raise MXNetError('_arange: invalid range (start, stop, step) = (%g, %g, %g)'
                         % (start, stop, step))
    n = int(math.ceil((stop - start) / step)) * repeat
    return _range(n, start, step, repeat, dtype_torch(dtype), _device(ctx))


# the types whose ranges torch.arange gives exactly, with the bound up to which every integer
# is exact in them
EXACT_RANGE = {torch.float32: 2 ** 24, torch.float64: 2 ** 53, torch.int32: 2 ** 31 - 1,
                torch.int64: 2 ** 53}


def exact_range(n, start, step, td, dev):
    """The ``n`` values ``start + i * step`` in ``td`` as torch.arange makes them in one call,
    where ``start`` and ``step`` (floats) are integers and every value is exact in ``td``
    (so that any way of computing them gives the same); else None."""
    bound = EXACT_RANGE.get(td)
    if bound is None or not (start.is_integer() and step.is_integer()) or \
            abs(start) + n * abs(step) > bound:
        return None
    if start == 0 and step == 1:
        return torch.arange(n, dtype=td, device=dev)
    return torch.arange(int(start), int(start + n * step), int(step), dtype=td, device=dev)


def _range(n, start, step, repeat, td, dev):
    """``start + (i // repeat) * step`` for i < n, computed in ``td`` as MXNet does (integer
    types take start and step truncated)."""
    if repeat == 1:
        out = exact_range(n, start, step, td, dev)
        if out is not None:
            return out
    k = torch.arange(n, dtype=torch.int64, device=dev)
    if repeat > 1:
        k = torch.div(k, repeat, rounding_mode='floor')
    if td in _INT:
        return (k * int(step) + int(start)).to(td)
    return k.to(td) * _fill_value(step, td) + _fill_value(start, td)


@register('_contrib_arange_like', aliases=('_npx_arange_like',), monitor_prefix='input', differentiable=False,
          params={'start': (Float, 0.0), 'step': (Float, 1.0), 'repeat': (Int, 1),
                  'ctx': (Any, None), 'axis': (Opt(Int), None)})
def arange_like(data, *, start, step, repeat, ctx, axis):
    """Return an array with evenly spaced values, shaped as `data` (or as its `axis`)."""
    if repeat <= 0:
        raise MXNetError('_contrib_arange_like: repeat=%d must be > 0' % repeat)
    if axis is None:
        shape = tuple(data.shape)
    else:
        ndim = data.dim()
        if axis < -ndim or axis >= ndim:
            raise MXNetError('_contrib_arange_like: axis=%d is out of range for an array of %d '
                             'dimensions' % (axis, ndim))
        shape = (data.shape[axis],)
    n = math.prod(shape)
    return _range(n, start, step, repeat, data.dtype, data.device).reshape(shape)


@register('_linspace', aliases=('_npi_linspace',), inputs=(), differentiable=False,
          params={'start': (Float, REQUIRED), 'stop': (Float, REQUIRED), 'num': (Int, REQUIRED),
                  'endpoint': (Bool, True), 'ctx': (Any, None), 'dtype': (DType, 'float32')})
def linspace(*, start, stop, num, endpoint, ctx, dtype):
    """Return evenly spaced numbers over a specified interval. Similar to Numpy

    Sample ``i`` is ``start + i * step`` computed in float64 and cast to ``dtype`` (truncated
    for integers), the last one included: it need not equal ``stop`` exactly."""
    if num < 0:
        raise MXNetError('_linspace: num=%d must be non-negative (Number of sequence)' % num)
    steps = num - 1 if endpoint else num
    step = (stop - start) / steps if steps > 0 else 0.0
    out = torch.arange(num, dtype=torch.float64, device=_device(ctx)) * step + start
    return out.to(dtype_torch(dtype))


@register('_eye', inputs=(), differentiable=False,
          params={'N': (Int, REQUIRED), 'M': (Int, 0), 'k': (Int, 0), 'ctx': (Any, None),
                  'dtype': (DType, 'float32')})
def eye(*, N, M, k, ctx, dtype):
    """Return a 2-D array with ones on the diagonal and zeros elsewhere."""
    cols = M if M > 0 else N
    if N < 0:
        raise MXNetError('_eye: N=%d must be non-negative' % N)
    out = torch.zeros((N, cols), dtype=dtype_torch(dtype), device=_device(ctx))
    out.diagonal(k).fill_(1)
    return out
