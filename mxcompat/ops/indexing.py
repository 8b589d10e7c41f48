"""Indexing operators: slicing, slice assignment, take/pick/gather/scatter, one-hot, ravel."""
import torch
import torch.nn.functional as F

from ..base import MXNetError, dtype_torch, to_int, _literal
from ..deferred_errors import any_true, raise_at_read
from .registry import register, REQUIRED, Int, Float, Bool, Shape, Opt, Enum, Kind, DType

_INT64 = torch.int64


# ------------------------------------------------------------------------------ helpers
def _to_opt_int_tuple(v):
    """MXNet's ``Tuple<optional<int>>``: ints and Nones, from a sequence, an int or a string."""
    if type(v) is tuple:  # a tuple of Python ints and Nones, as most calls pass: as it is
        for i in v:
            if type(i) is not int and i is not None:
                break
        else:
            return v
    if isinstance(v, str):
        v = _literal(v)
    if v is None:
        return ()
    if isinstance(v, (list, tuple)):
        return tuple(None if i is None or (isinstance(i, str) and i.strip() == 'None')
                     else to_int(i) for i in v)
    return (to_int(v),)


OptIntTuple = Kind('Shape(tuple)', _to_opt_int_tuple)


def dtype_choice(*names):
    """A dtype parameter restricted to MXNet's listed type names (numpy types accepted)."""
    conv = DType.convert

    def convert(v):
        name = conv(v)
        if name not in names:
            raise ValueError('expected one of %s, got %r' % (', '.join(repr(n) for n in names), v))
        return name
    return Kind('{%s}' % ', '.join(repr(n) for n in names), convert)


class _ZeroGrad(torch.autograd.Function):
    """Identity on ``out`` whose backward gives zero gradients to ``inputs``: MXNet's
    MakeZeroGradNodes for outputs (indices, masks) that are not differentiable."""

    @staticmethod
    def forward(ctx, out, *inputs):
        ctx.like = [(i.shape, i.dtype, i.device) if i.is_floating_point() else None
                    for i in inputs]
        return out.view_as(out)

    @staticmethod
    def backward(ctx, grad):
        return (None,) + tuple(None if m is None else torch.zeros(m[0], dtype=m[1], device=m[2])
                               for m in ctx.like)


def zero_grad_link(out, *inputs):
    """``out`` attached to the graph of ``inputs`` with zero gradient, when recording."""
    if torch.is_grad_enabled() and any(i.requires_grad for i in inputs):
        if not out.is_floating_point():
            return out
        return _ZeroGrad.apply(out, *inputs)
    return out


def zero_grad_outputs(fn):
    """``fn`` (a table entry's implementation) whose floating-point outputs reach its array
    inputs with zero gradient when recording: the implementation of an operator registered
    with ``zero_grad=True`` (MXNet's MakeZeroGradNodes: ``np.std``, ``np.linalg.eigh``, ...)."""
    def op(*arrays, **params):
        ins = [a for a in arrays if isinstance(a, torch.Tensor) and a.requires_grad]
        if not ins or not torch.is_grad_enabled():
            return fn(*arrays, **params)
        out = fn(*(a.detach() if isinstance(a, torch.Tensor) else a for a in arrays), **params)
        if isinstance(out, (tuple, list)):
            return tuple(zero_grad_link(o, *ins) for o in out)
        return zero_grad_link(out, *ins)
    op.__name__ = op.__qualname__ = fn.__name__
    op.__doc__ = fn.__doc__
    return op


def is_zero_grad(t):
    """Whether ``t`` is an output that :func:`zero_grad_link` attached: its gradient is not
    read (MXNet's backward pass does not take the operator's output gradient)."""
    return getattr(t.grad_fn, '_forward_cls', None) is _ZeroGrad


def _axis(axis, ndim, opname):
    if axis < -ndim or axis >= ndim:
        raise MXNetError('%s: axis=%d is out of range for an array of %d dimensions; use a value '
                         'in [%d, %d]' % (opname, axis, ndim, -ndim, ndim - 1))
    return axis + ndim if axis < 0 else axis


def _as_index(t):
    """Indices as int64, truncating floating point values toward zero as MXNet does."""
    return t if t.dtype is _INT64 else t.to(_INT64)


def spare_slot(idx, n):
    """``idx`` with every entry outside ``[0, n)`` replaced by ``n``: a spare slot past the end
    that a writer allocates and then drops, where MXNet would write outside its buffer."""
    return idx.masked_fill((idx < 0) | (idx >= n), n)


def slice_plan(shape, begin, end, step, opname):
    """Basic-index key and axes to flip for MXNet's slice(begin, end, step) of ``shape``.

    MXNet's slice follows Python's rules for each axis (None entries take the defaults and
    out-of-range bounds are clipped); negative steps are expressed as a positive-step key
    followed by a flip, since torch has no negative strides.
    """
    ndim = len(shape)
    if ndim == 0:
        raise MXNetError('%s: slice only works for arrays with ndim > 0' % opname)
    if len(begin) > ndim or len(end) > ndim:
        raise MXNetError('%s: begin %s / end %s have more entries than the array has '
                         'dimensions (%d)' % (opname, begin, end, ndim))
    if len(begin) != len(end):
        raise MXNetError('%s: begin %s and end %s must have the same length'
                         % (opname, begin, end))
    if step and len(step) != len(begin):
        raise MXNetError('%s: step %s and begin %s must have the same length'
                         % (opname, step, begin))
    key, flips = [], []
    for i in range(len(begin)):
        s = step[i] if step and step[i] is not None else 1
        if s == 0:
            raise MXNetError('%s: step[%d] cannot be 0' % (opname, i))
        start, stop, s = slice(begin[i], end[i], s).indices(shape[i])
        if s > 0:
            key.append(slice(start, stop, s))
            continue
        n = len(range(start, stop, s))
        if n == 0:
            key.append(slice(0, 0))
        else:
            key.append(slice(start + (n - 1) * s, start + 1, -s))
            flips.append(i)
    return tuple(key), flips


# ------------------------------------------------------------------------------ slicing
_SLICE_PARAMS = {'begin': (OptIntTuple, REQUIRED), 'end': (OptIntTuple, REQUIRED),
                 'step': (OptIntTuple, ())}


@register('slice', monitor_prefix='input', aliases=('crop', '_npx_slice'), params=_SLICE_PARAMS)
def slice_(data, *, begin, end, step):
    """Slices a region of the array: ``data[begin[0]:end[0]:step[0], ...]``.

    None entries take the defaults (whole axis); negative indices and steps are supported.
    """
    key, flips = slice_plan(data.shape, begin, end, step, 'slice')
    out = data[key]
    return out.flip(flips) if flips else out.clone()


@register('slice_axis', monitor_prefix='input',
          params={'axis': (Int, REQUIRED), 'begin': (Int, REQUIRED),
                                'end': (Opt(Int), REQUIRED)})
def slice_axis(data, *, axis, begin, end):
    """Slices along a given axis: ``data`` restricted to ``begin:end`` on ``axis``."""
    ax = _axis(axis, data.dim(), 'slice_axis')
    size = data.shape[ax]
    b = begin + size if begin < 0 else begin
    if size > 0:
        e = size if end is None else (end + size if end < 0 else end)
        if e > size:
            raise MXNetError('slice_axis: invalid end=%d for an axis of size %d' % (end, size))
        if b >= e:
            raise MXNetError('slice_axis: invalid begin=%d, end=%s: begin must come before end'
                             % (begin, end))
    else:
        b = e = 0
    if b < 0:
        raise MXNetError('slice_axis: invalid begin=%d for an axis of size %d' % (begin, size))
    return data.narrow(ax, b, e - b).clone()


@register('slice_like', inputs=('data', 'shape_like'), params={'axes': (Shape, ())})
def slice_like(data, shape_like, *, axes):
    """Slices ``data`` to the shape of ``shape_like`` (on all axes, or on ``axes``)."""
    dshape, fshape = data.shape, shape_like.shape
    if not axes:
        if len(dshape) != len(fshape):
            raise MXNetError('slice_like: by default all axes are sliced, but data has %d '
                             'dimensions and shape_like %d; pass axes='
                             % (len(dshape), len(fshape)))
        axes = range(len(dshape))
    key = [slice(None)] * len(dshape)
    for a in axes:
        ax = a + len(dshape) if a < 0 else a
        if ax < 0 or ax >= len(dshape) or ax >= len(fshape):
            raise MXNetError('slice_like: axis %d is out of range for data of shape %s and '
                             'shape_like of shape %s' % (a, tuple(dshape), tuple(fshape)))
        if fshape[ax] > dshape[ax]:
            raise MXNetError('slice_like: shape_like has size %d on axis %d, larger than data '
                             '(%d)' % (fshape[ax], ax, dshape[ax]))
        key[ax] = slice(0, fshape[ax])
    return data[tuple(key)].clone()


@register('_slice_assign', inputs=('lhs', 'rhs'), aliases=('_crop_assign',),
          params=_SLICE_PARAMS, differentiable=False)
def slice_assign(lhs, rhs, *, begin, end, step):
    """Returns ``lhs`` with the slice (begin, end, step) replaced by ``rhs``."""
    key, flips = slice_plan(lhs.shape, begin, end, step, '_slice_assign')
    target = lhs[key].shape
    if rhs.shape != target:
        raise MXNetError('_slice_assign: rhs has shape %s but the slice of lhs has shape %s'
                         % (tuple(rhs.shape), tuple(target)))
    if rhs.dtype is not lhs.dtype:
        raise MXNetError('_slice_assign: rhs has dtype %s but lhs has dtype %s; cast with '
                         'astype()' % (rhs.dtype, lhs.dtype))
    out = lhs.clone()
    out[key] = rhs.flip(flips) if flips else rhs
    return out


@register('_slice_assign_scalar', monitor_prefix='input', aliases=('_crop_assign_scalar',),
          params=dict({'scalar': (Float, 0.0)}, **_SLICE_PARAMS), differentiable=False)
def slice_assign_scalar(data, *, scalar, begin, end, step):
    """Returns ``data`` with the slice (begin, end, step) set to ``scalar``."""
    key, _ = slice_plan(data.shape, begin, end, step, '_slice_assign_scalar')
    out = data.clone()
    out[key] = scalar if data.is_floating_point() else int(scalar)
    return out


# ------------------------------------------------------------------------------ take / pick
@register('take', inputs=('a', 'indices'),
          params={'axis': (Int, 0), 'mode': (Enum('clip', 'raise', 'wrap'), 'clip')})
def take(a, indices, *, axis, mode):
    """Takes elements from ``a`` along ``axis`` at ``indices`` (clipped, wrapped or checked)."""
    ax = _axis(axis, a.dim(), 'take')
    n = a.shape[ax]
    idx = _as_index(indices)
    if mode == 'clip':
        idx = idx.clamp(0, n - 1) if idx is indices else idx.clamp_(0, n - 1)
    elif mode == 'wrap':
        idx = torch.remainder(idx, n)
    elif indices.numel() and any_true((indices < 0) | (indices > n - 1)):
        # MXNet checks in the kernel: the error is raised when the result is read
        return raise_at_read(MXNetError(
            "take operator contains indices out of bound: mode='raise' needs indices in "
            "[0, %d] for axis %d; use mode='clip' or 'wrap' to accept others" % (n - 1, axis)),
            take(a, indices, axis=axis, mode='clip'))
    if ax == 0:
        # embedding lookup: the fastest gather of rows, with a scatter-add backward
        if a.dim() == 2:
            return F.embedding(idx, a)
        return F.embedding(idx, a.reshape(n, -1)).reshape(indices.shape + a.shape[1:])
    out = torch.index_select(a, ax, idx.reshape(-1))
    return out.reshape(a.shape[:ax] + indices.shape + a.shape[ax + 1:])


@register('pick', inputs=('data', 'index'), aliases=('choose_element_0index', '_npx_pick'),
          params={'axis': (Opt(Int), -1), 'keepdims': (Bool, False),
                  'mode': (Enum('clip', 'wrap'), 'clip')})
def pick(data, index, *, axis, keepdims, mode):
    """Picks elements from ``data`` along ``axis`` at the positions given by ``index``."""
    if axis is None:
        raise MXNetError('pick: axis=None is not supported by pick yet. Must specify an axis.')
    shape = data.shape
    ndim = len(shape)
    ax = axis + ndim if axis < 0 else axis
    if not 0 <= ax < ndim:
        _axis(axis, ndim, 'pick')  # (its error)
    ishape = index.shape
    others = shape[:ax] + shape[ax + 1:]
    # index of data's shape less the axis, or with 1 there
    reduced = ishape == others
    if not reduced and ishape != shape[:ax] + (1,) + shape[ax + 1:]:
        raise MXNetError('pick: index has shape %s; expected %s or %s for data of shape %s and '
                         'axis=%d' % (tuple(ishape), tuple(shape[:ax] + (1,) + shape[ax + 1:]),
                                      tuple(others), tuple(shape), axis))
    n = shape[ax]
    idx = index if index.dtype is _INT64 else index.to(_INT64)  # (_as_index, inline)
    if mode == 'wrap':
        idx = torch.remainder(idx, n)
    elif not data.is_cpu or torch.compiler.is_compiling():
        # clipped first: a device's gather asserts on an index out of range, and a graph being
        # compiled or exported must clip whatever indices it is given later
        idx = idx.clamp(0, n - 1) if idx is index else idx.clamp_(0, n - 1)
    if reduced:
        idx = idx.unsqueeze(ax)
    try:  # (on the host torch checks the indices: no clipping where they are in range)
        out = torch.gather(data, ax, idx)
    except RuntimeError:  # an index out of range: MXNet's mode='clip' clips it
        out = torch.gather(data, ax, idx.clamp(0, n - 1))
    return out if keepdims or ndim == 1 else out.squeeze(ax)  # (1-D data gives MXNet (1,))


@register('batch_take', inputs=('a', 'indices'), differentiable=False,
          input_dtypes={'indices': 'int32'})
def batch_take(a, indices):
    """Takes ``a[i, indices[i]]`` for each row ``i`` (deprecated: use pick)."""
    if a.dim() < 2:
        raise MXNetError('batch_take: data array must have at least 2 dimensions, got shape %s'
                         % (tuple(a.shape),))
    if indices.dtype is not torch.int32:
        raise MXNetError('batch_take: indices must be int32, got %s; cast with astype(\'int32\')'
                         % (indices.dtype,))
    flat = a.reshape(a.shape[0], -1)
    m = flat.shape[1]
    if indices.numel() != a.numel() // a.shape[-1]:
        raise MXNetError("batch_take: index array's size %d must equal the data size excluding "
                         'its last dimension (%d)' % (indices.numel(), a.numel() // a.shape[-1]))
    j = indices.reshape(-1).to(_INT64).clamp(0, m - 1)
    rows = torch.arange(j.numel(), device=a.device) * m
    return flat.reshape(-1)[rows + j].reshape(indices.shape)


# ------------------------------------------------------------------------------ gather / scatter
def _nd_index(indices, shape, opname):
    if indices.dim() < 2:
        raise MXNetError('%s requires the index tensor to have at least 2 dimensions, got shape '
                         '%s' % (opname, tuple(indices.shape)))
    m = indices.shape[0]
    if m > len(shape):
        raise MXNetError('%s: number of indices (%d) exceeds data dimension (%d)'
                         % (opname, m, len(shape)))
    return _as_index(indices)


@register('gather_nd', aliases=('_npx_gather_nd',), inputs=('data', 'indices'))
def gather_nd(data, indices):
    """Gathers elements or slices of ``data`` at the (M, ...) multi-indices ``indices``.

    Negative indices count from the end of their axis; an index outside ``[-size, size)``
    raises IndexError, as in MXNet.
    """
    idx = _nd_index(indices, data.shape, 'gather_nd')
    m = idx.shape[0]
    if idx.numel():
        size = torch.tensor(data.shape[:m], dtype=_INT64,
                            device=idx.device).reshape((m,) + (1,) * (idx.dim() - 1))
        bad = (idx < -size) | (idx >= size)
        if any_true(bad):  # the one check that waits for the device
            axis = int(bad.reshape(m, -1).any(1).nonzero()[0])
            value = int(idx[axis][bad[axis]][-1])
            # MXNet checks in the kernel: the error is raised when the result is read
            return raise_at_read(IndexError('index %d is out of bounds for axis %d with size %d'
                                            % (value, axis, data.shape[axis])),
                                 data[tuple(torch.remainder(idx, size))])
    return data[tuple(idx)]


def _scatter_rows(indices, shape, opname):
    """Row offsets of the (M, ...) multi-indices into ``shape`` seen as (rows, k), and rows and
    k. The offsets are what MXNet's scatter kernels compute, the sum of stride * index with no
    check per axis; one outside ``[0, rows)`` points at the spare row ``rows`` (see
    spare_slot)."""
    idx = _nd_index(indices, shape, opname)
    m = idx.shape[0]
    rows = k = 1
    for d in shape[:m]:
        rows *= d
    for d in shape[m:]:
        k *= d
    off = (idx.reshape(m, -1) * _strides(shape[:m], idx.device).unsqueeze(1)).sum(0)
    return spare_slot(off, rows), rows, k


def _scatter_check(data, indices, shape, opname):
    m = indices.shape[0] if indices.dim() else 0
    want = tuple(indices.shape[1:]) + tuple(shape[m:])
    if tuple(data.shape) != want:
        raise MXNetError('%s: Invalid data, indices, and output shape combination: data %s, '
                         'indices %s, shape %s; data must have shape %s'
                         % (opname, tuple(data.shape), tuple(indices.shape), tuple(shape), want))


@register('scatter_nd', inputs=('data', 'indices'), params={'shape': (Shape, REQUIRED)})
def scatter_nd(data, indices, *, shape):
    """Scatters ``data`` into a new zero array of ``shape`` at the multi-indices ``indices``.

    As in MXNet, a multi-index is turned into a flat offset without checking each axis;
    offsets that fall outside the array are dropped.
    """
    off, rows, k = _scatter_rows(indices, shape, 'scatter_nd')
    _scatter_check(data, indices, shape, 'scatter_nd')
    out = data.new_zeros(rows + 1, k).index_put((off,), data.reshape(off.shape[0], k))
    return out[:rows].reshape(shape)


@register('_scatter_set_nd', inputs=('lhs', 'rhs', 'indices'),
          params={'shape': (Shape, REQUIRED)}, differentiable=False)
def scatter_set_nd(lhs, rhs, indices, *, shape):
    """Returns ``lhs`` with the elements at multi-indices ``indices`` set from ``rhs``
    (offsets outside ``lhs`` are dropped, as in scatter_nd)."""
    shape = tuple(lhs.shape)
    off, rows, k = _scatter_rows(indices, shape, '_scatter_set_nd')
    _scatter_check(rhs, indices, shape, '_scatter_set_nd')
    out = torch.cat((lhs.reshape(rows, k), lhs.new_zeros(1, k)))
    out.index_put_((off,), rhs.to(lhs.dtype).reshape(off.shape[0], k))
    return out[:rows].reshape(shape)


# ------------------------------------------------------------------------------ one-hot
_ONE_HOT_DTYPES = ('bfloat16', 'float16', 'float32', 'float64', 'int32', 'int64', 'int8',
                   'uint8')


def _one_hot(indices, depth, on_value, off_value, tdtype):
    hit = _as_index(indices).unsqueeze(-1) == torch.arange(depth, device=indices.device)
    if on_value == 1.0 and off_value == 0.0:
        return hit.to(tdtype)
    if not tdtype.is_floating_point:
        on_value, off_value = int(on_value), int(off_value)
    return torch.full(hit.shape, off_value, dtype=tdtype,
                      device=indices.device).masked_fill_(hit, on_value)


@register('one_hot', aliases=('_npx_one_hot',), inputs=('indices',),
          params={'depth': (Int, REQUIRED), 'on_value': (Float, 1.0),
                  'off_value': (Float, 0.0),
                  'dtype': (dtype_choice(*_ONE_HOT_DTYPES), 'float32')})
def one_hot(indices, *, depth, on_value, off_value, dtype):
    """Returns a one-hot array: ``on_value`` where the last axis equals ``indices``."""
    if depth < 0:
        raise MXNetError('one_hot: depth must be a non-negative integer, got %d' % depth)
    return _one_hot(indices, depth, on_value, off_value, dtype_torch(dtype))


@register('_onehot_encode', inputs=('lhs', 'rhs'), differentiable=False)
def onehot_encode(lhs, rhs):
    """One-hot encodes the 1-D ``lhs`` into the shape and dtype of ``rhs`` (deprecated)."""
    if lhs.dim() != 1 or rhs.dim() != 2 or lhs.shape[0] != rhs.shape[0]:
        raise MXNetError('_onehot_encode: needs 1-D indices and a 2-D array with as many rows, '
                         'got %s and %s' % (tuple(lhs.shape), tuple(rhs.shape)))
    if rhs.dtype is not torch.float32:
        raise MXNetError('_onehot_encode only supports float32 as output, got %s; use one_hot'
                         % (rhs.dtype,))
    return _one_hot(lhs, rhs.shape[1], 1.0, 0.0, rhs.dtype)


@register('fill_element_0index', inputs=('lhs', 'mhs', 'rhs'), differentiable=False)
def fill_element_0index(lhs, mhs, rhs):
    """Returns ``lhs`` with ``lhs[i, rhs[i]] = mhs[i]`` for each row ``i``."""
    if lhs.dim() != 2 or mhs.dim() != 1 or rhs.dim() != 1 \
            or not lhs.shape[0] == mhs.shape[0] == rhs.shape[0]:
        raise MXNetError('fill_element_0index: needs a 2-D lhs, and 1-D values (mhs) and '
                         'indices (rhs) with one entry per row, got %s, %s, %s'
                         % (tuple(lhs.shape), tuple(mhs.shape), tuple(rhs.shape)))
    # a column compare, as MXNet does: an index outside [0, columns) fills nothing
    hit = torch.arange(lhs.shape[1], device=lhs.device) == _as_index(rhs).unsqueeze(1)
    return torch.where(hit, mhs.to(lhs.dtype).unsqueeze(1), lhs)


# ------------------------------------------------------------------------------ ravel
def _strides(shape, device):
    acc, out = 1, []
    for d in reversed(shape):
        out.append(acc)
        acc *= d
    return torch.tensor(out[::-1], dtype=_INT64, device=device)


@register('_ravel_multi_index', aliases=('ravel_multi_index',),
          params={'shape': (Shape, None)})
def ravel_multi_index(data, *, shape):
    """Converts a (ndim, N) array of multi-indices into flat indices for ``shape``."""
    if not shape:
        raise MXNetError('ravel_multi_index: the shape parameter is empty; pass shape=')
    if data.dim() != 2 or data.shape[0] != len(shape):
        raise MXNetError('ravel_multi_index: input must be two-dimensional with %d rows (one '
                         'per dimension of shape=%s), got shape %s'
                         % (len(shape), shape, tuple(data.shape)))
    flat = (_as_index(data) * _strides(shape, data.device).unsqueeze(1)).sum(0)
    return flat.to(data.dtype)


@register('_unravel_index', aliases=('unravel_index',),
          params={'shape': (Shape, None)})
def unravel_index(data, *, shape):
    """Converts flat indices into a (ndim, N) array of multi-indices for ``shape``."""
    if not shape:
        raise MXNetError('unravel_index: the shape parameter is empty; pass shape=')
    idx = _as_index(data.reshape(-1))
    rows = []
    for d in reversed(shape[1:]):
        q = torch.div(idx, d, rounding_mode='trunc')
        rows.append(idx - q * d)
        idx = q
    rows.append(idx)
    return torch.stack(rows[::-1]).to(data.dtype)
