"""Shape-manipulation operators: Reshape, Flatten, transpose, expand_dims, squeeze, SwapAxis,
reverse, tile, repeat, Concat, stack, SliceChannel, _split_v2, broadcast_to/axis/like,
reshape_like, shape_array, size_array, depth_to_space, space_to_depth, Pad, diag.

Every operator returns new data, as MXNet's operators do: writing into the result of
``nd.reshape(x, ...)`` or ``nd.split(x, ...)`` leaves ``x`` unchanged (the views that share data
are ``NDArray.reshape`` and the ``inplace=True`` forms of ``flatten``/``expand_dims``/``squeeze``).
Each makes exactly one copy.
"""
import math

import torch
import torch.nn.functional as F

from ..base import MXNetError, dtype_name
from .registry import register, Int, Bool, Float, Shape, Opt, Enum, REQUIRED, AtLeast
from .shape_rules import infer_reshape


def _fresh(t, shape=None):
    """``t`` (reshaped to ``shape``) in new contiguous memory: one copy, whatever ``t``'s
    strides, and never an alias of the input (``contiguous()`` may return ``t`` itself)."""
    # (torch parses a call's keyword and a shape given as one tuple at a cost near that of
    # copying a small array: clone() keeps a contiguous layout, contiguous() copies any other
    # (it returns the tensor itself only where it is contiguous), the shape goes unpacked)
    out = t.clone() if t.is_contiguous() else t.contiguous()
    if shape is None:
        return out
    return out.view(*shape) if shape else out.view(())  # (_view inline: a frame less)


def _view(t, shape):
    # (a 0-d shape given unpacked would be no argument)
    return t.view(*shape) if len(shape) else t.view(())


def _shared(t, shape=None):
    """``t`` (reshaped to ``shape``) sharing its memory where ``t`` is contiguous, as in
    ``_fresh`` otherwise: the ``result`` of the inplace_identity operators in a lowered graph."""
    if not t.is_contiguous():
        return _fresh(t, shape)
    return t if shape is None else _view(t, shape)


def _check_axis(axis, ndim, opname, argname='axis'):
    """A non-negative axis; MXNetError naming the operator and the argument when out of
    range."""
    if axis < -ndim or axis >= ndim:
        raise MXNetError('%s: %s=%d is out of bounds for an array of %d dimensions'
                         % (opname, argname, axis, ndim))
    return axis + ndim if axis < 0 else axis


def _nonneg_axes(axes, ndim, opname, argname='axis'):
    """MXNet rejects negative values in these tuple-of-axes parameters."""
    for a in axes:
        if a < 0 or a >= ndim:
            raise MXNetError('%s: %s=%s must hold axes in [0, %d) (negative values are not '
                             'accepted)' % (opname, argname, tuple(axes), ndim))
    return axes


# ------------------------------------------------------------------------------ reshape family
def _legacy_target_shape(src, target_shape, keep_highest):
    """Reshape's deprecated ``target_shape``: a single 0 is inferred; ``keep_highest`` keeps
    the first dimension of the input."""
    out = list(target_shape)
    start = 0
    if keep_highest:
        out[0] = src[0]
        start = 1
    zeros = [i for i in range(start, len(out)) if out[i] == 0]
    if len(zeros) == 1:
        out[zeros[0]] = 1
        known = math.prod(out)
        out[zeros[0]] = math.prod(src) // known if known else 0
    return tuple(out)


@register('Reshape', monitor_prefix='input', aliases=('reshape',), keeps_size=True,
          params={'shape': (Shape, ()), 'reverse': (Bool, False), 'target_shape': (Shape, ()),
                  'keep_highest': (Bool, False)}, inplace_identity=_shared)
def reshape(data, *, shape, reverse, target_shape, keep_highest, result=_fresh):
    """Reshapes the input array (special values in `shape`: 0 copy, -1 infer, -2 copy the
    rest, -3 merge two, -4 split one into the two that follow)."""
    if shape:
        return result(data, infer_reshape(data.shape, shape, reverse))
    if target_shape:
        new = _legacy_target_shape(tuple(data.shape), target_shape, keep_highest)
        try:
            return result(data, new)
        except RuntimeError:
            raise MXNetError('Reshape: cannot reshape array of shape %s into target_shape %s'
                             % (tuple(data.shape), tuple(target_shape))) from None
    raise MXNetError('Reshape: the target shape is missing; pass shape=(...)')


@register('Flatten', monitor_prefix='input', aliases=('flatten', '_npx_batch_flatten'),
          inplace_identity=_shared)
def flatten(data, result=_fresh):
    """Flattens the input array into a 2-D array by collapsing the higher dimensions."""
    if data.dim() == 0:
        return result(data, (1, 1))
    return result(data, (data.shape[0], math.prod(data.shape[1:])))


@register('expand_dims', monitor_prefix='input', aliases=('_npi_expand_dims',),
          params={'axis': (Int, REQUIRED)}, inplace_identity=_shared)
def expand_dims(data, *, axis, result=_fresh):
    """Inserts a new axis of size 1 into the array shape."""
    ndim = data.dim()
    if axis < -ndim - 1 or axis > ndim:
        raise MXNetError('expand_dims: axis must be in the range [%d, %d] (%d provided)'
                         % (-ndim - 1, ndim, axis))
    return result(data).unsqueeze(axis)


@register('squeeze', params={'axis': (Opt(Shape), None)}, inplace_identity=_shared)
def squeeze(data, *, axis, result=_fresh):
    """Remove single-dimensional entries from the shape of an array (an all-ones shape becomes
    (1,))."""
    shape = data.shape
    if axis is None:
        new = [d for d in shape if d != 1]
    else:
        ndim = len(shape)
        drop = set()
        for a in axis:
            r = _check_axis(a, ndim, 'squeeze')
            if shape[r] != 1:
                raise MXNetError('squeeze: cannot select an axis to squeeze out which has '
                                 'size=%d not equal to one (axis=%d)' % (shape[r], a))
            if r in drop:
                raise MXNetError('squeeze: duplicate value in axis=%s' % (tuple(axis),))
            drop.add(r)
        new = [d for i, d in enumerate(shape) if i not in drop]
    return result(data, new or (1,))


@register('reshape_like', aliases=('_npx_reshape_like',), inputs=('lhs', 'rhs'),
          params={'lhs_begin': (Opt(Int), None), 'lhs_end': (Opt(Int), None),
                  'rhs_begin': (Opt(Int), None), 'rhs_end': (Opt(Int), None)},
          inplace_identity=_shared)
def reshape_like(lhs, rhs, *, lhs_begin, lhs_end, rhs_begin, rhs_end, result=_fresh):
    """Reshape some or all dimensions of `lhs` to have the same shape as some or all
    dimensions of `rhs`."""
    ls, rs = tuple(lhs.shape), tuple(rhs.shape)
    lb, le = _like_range(len(ls), 'lhs', lhs_begin, lhs_end)
    rb, re = _like_range(len(rs), 'rhs', rhs_begin, rhs_end)
    new = ls[:lb] + rs[rb:re] + ls[le:]
    if lhs.numel() != math.prod(new):
        raise MXNetError('reshape_like: cannot reshape lhs with shape %s to new shape %s '
                         'because they have different size' % (ls, new))
    return result(lhs, new)


def _like_range(ndim, side, begin, end):
    b = 0 if begin is None else (begin + ndim if begin < 0 else begin)
    e = ndim if end is None else (end + ndim if end < 0 else end)
    if not 0 <= b < e <= ndim:
        raise MXNetError('reshape_like: invalid range %s_begin=%s, %s_end=%s for an array of '
                         '%d dimensions' % (side, begin, side, end, ndim))
    return b, e


@register('shape_array', aliases=('_npx_shape_array',), monitor_prefix='input', differentiable=False)
def shape_array(data):
    """Returns a 1D int64 array containing the shape of data."""
    return torch.tensor(tuple(data.shape), dtype=torch.int64, device=data.device)


@register('size_array', monitor_prefix='input', differentiable=False)
def size_array(data):
    """Returns a 1D int64 array containing the size of data."""
    return torch.tensor((data.numel(),), dtype=torch.int64, device=data.device)


# ------------------------------------------------------------------------------ axis moves
@register('transpose', monitor_prefix='input', params={'axes': (Shape, ())})
def transpose(data, *, axes):
    """Permutes the dimensions of an array (reverses them when `axes` is empty)."""
    ndim = data.dim()
    if not axes:
        return _fresh(data.permute(tuple(range(ndim - 1, -1, -1))))
    if len(axes) != ndim or sorted(axes) != list(range(ndim)):
        raise MXNetError('transpose: axes=%s must be a permutation of 0..%d for an array of %d '
                         'dimensions' % (tuple(axes), ndim - 1, ndim))
    return _fresh(data.permute(axes))


@register('SwapAxis', named_outputs=True, merges=False,
          aliases=('swapaxes', '_npi_swapaxes'), params={'dim1': (Int, 0), 'dim2': (Int, 0)})
def swapaxis(data, *, dim1, dim2):
    """Interchanges two axes of an array."""
    ndim = data.dim()
    a = _check_axis(dim1, ndim, 'SwapAxis', 'dim1')
    b = _check_axis(dim2, ndim, 'SwapAxis', 'dim2')
    if a == b:
        return _fresh(data)
    return _fresh(data.transpose(a, b))


@register('reverse', aliases=('flip',), params={'axis': (Shape, REQUIRED)})
def reverse(data, *, axis):
    """Reverses the order of elements along given axis while preserving array shape."""
    _nonneg_axes(axis, data.dim(), 'reverse')
    # an axis given twice is flipped twice, i.e. not at all (as in MXNet)
    dims = [a for a in set(axis) if axis.count(a) % 2]
    return torch.flip(data, dims) if dims else _fresh(data)


def _check_nonzero(opname, shape):
    if 0 in shape:
        raise MXNetError('%s: every dimension of the input must be non-zero, got shape %s'
                         % (opname, tuple(shape)))


@register('depth_to_space', params={'block_size': (Int, REQUIRED)})
def depth_to_space(data, *, block_size):
    """Rearranges (permutes) data from depth into blocks of spatial data (DCR order)."""
    b = block_size
    if data.dim() != 4:
        raise MXNetError('depth_to_space: expects a 4-D input (N, C, H, W), got shape %s'
                         % (tuple(data.shape),))
    n, c, h, w = data.shape
    _check_nonzero('depth_to_space', data.shape)
    if b <= 0 or c % (b * b):
        raise MXNetError('depth_to_space: the depth dimension %d must be a multiple of '
                         'block_size^2 (block_size=%d)' % (c, b))
    x = data.reshape(n, b, b, c // (b * b), h, w).permute(0, 3, 4, 1, 5, 2)
    return _fresh(x, (n, c // (b * b), h * b, w * b))


@register('space_to_depth', params={'block_size': (Int, REQUIRED)})
def space_to_depth(data, *, block_size):
    """Rearranges (permutes) blocks of spatial data into depth (inverse of depth_to_space)."""
    b = block_size
    if data.dim() != 4:
        raise MXNetError('space_to_depth: expects a 4-D input (N, C, H, W), got shape %s'
                         % (tuple(data.shape),))
    n, c, h, w = data.shape
    _check_nonzero('space_to_depth', data.shape)
    if b <= 0 or h % b or w % b:
        raise MXNetError('space_to_depth: the spatial dimensions %dx%d must be multiples of '
                         'block_size=%d' % (h, w, b))
    x = data.reshape(n, c, h // b, b, w // b, b).permute(0, 3, 5, 1, 2, 4)
    return _fresh(x, (n, c * b * b, h // b, w // b))


# ------------------------------------------------------------------------------ repetition
@register('tile', params={'reps': (Shape, REQUIRED)})
def tile(data, *, reps):
    """Repeats the whole array multiple times."""
    if not reps:
        return _fresh(data)
    if any(r <= 0 for r in reps):
        raise MXNetError('tile: reps=%s must hold positive numbers' % (tuple(reps),))
    return torch.tile(data, reps)


@register('repeat', aliases=('_np_repeat',), params={'repeats': (Int, REQUIRED), 'axis': (Opt(Int), None)})
def repeat(data, *, repeats, axis):
    """Repeats elements of an array (of the flattened array when `axis` is None)."""
    if repeats < 0:
        raise MXNetError('repeat: repeats=%d cannot be a negative number' % repeats)
    if axis is not None:
        axis = _check_axis(axis, data.dim(), 'repeat')
    if repeats == 0:
        return data.new_empty((0,))
    if axis is None:
        return torch.repeat_interleave(data.reshape(-1), repeats)
    return torch.repeat_interleave(data, repeats, dim=axis)


# ------------------------------------------------------------------------------ broadcasting
@register('broadcast_to', monitor_prefix='input', params={'shape': (Shape, ())})
def broadcast_to(data, *, shape):
    """Broadcasts the input array to a new shape (0 in `shape` keeps that dimension)."""
    ishape = data.shape
    if len(shape) != len(ishape):
        raise MXNetError('broadcast_to: operand of shape %s cannot be broadcasted to shape=%s '
                         '(the number of dimensions must match)' % (tuple(ishape), tuple(shape)))
    target = []
    for i, s in zip(ishape, shape):
        if s == 0:
            s = i
        elif i != s and i != 1:
            raise MXNetError('broadcast_to: array cannot be broadcasted from %s to shape=%s'
                             % (tuple(ishape), tuple(shape)))
        target.append(s)
    return _fresh(data.expand(target))


@register('broadcast_axis', monitor_prefix='input', aliases=('broadcast_axes',),
          params={'axis': (Shape, ()), 'size': (Shape, ())})
def broadcast_axis(data, *, axis, size):
    """Broadcasts the input array over particular axes (each of size 1)."""
    if len(axis) != len(size):
        raise MXNetError('broadcast_axis: axis=%s and size=%s must have the same length'
                         % (tuple(axis), tuple(size)))
    _nonneg_axes(axis, data.dim(), 'broadcast_axis')
    target = list(data.shape)
    for a, s in zip(axis, size):
        if target[a] != 1:
            raise MXNetError('broadcast_axis: broadcasting axis %d must have size 1, it has '
                             'size %d' % (a, target[a]))
        target[a] = s
    return _fresh(data.expand(target))


@register('broadcast_like', inputs=('lhs', 'rhs'),
          params={'lhs_axes': (Opt(Shape), None), 'rhs_axes': (Opt(Shape), None)})
def broadcast_like(lhs, rhs, *, lhs_axes, rhs_axes):
    """Broadcasts lhs to have the same shape as rhs (or only along `lhs_axes`, taking sizes
    from `rhs_axes`)."""
    ls, rs = tuple(lhs.shape), tuple(rhs.shape)
    if lhs_axes is None or rhs_axes is None:
        if len(ls) != len(rs):
            raise MXNetError('broadcast_like: operand of shape %s cannot be broadcasted to %s'
                             % (ls, rs))
        for a, b in zip(ls, rs):
            if a != b and a != 1:
                raise MXNetError('broadcast_like: array cannot be broadcasted from %s to %s'
                                 % (ls, rs))
        return _fresh(lhs.expand(rs))
    if len(lhs_axes) != len(rhs_axes):
        raise MXNetError('broadcast_like: lhs_axes=%s and rhs_axes=%s must have the same length'
                         % (tuple(lhs_axes), tuple(rhs_axes)))
    if not lhs_axes:
        raise MXNetError('broadcast_like: empty lhs_axes/rhs_axes are not allowed')
    target = list(ls)
    for la, ra in zip(lhs_axes, rhs_axes):
        f = _check_axis(la, len(ls), 'broadcast_like', 'lhs_axes')
        t = _check_axis(ra, len(rs), 'broadcast_like', 'rhs_axes')
        if ls[f] != 1:
            raise MXNetError('broadcast_like: input axis %d (lhs_axes) has size %d and cannot '
                             'be broadcasted to %d' % (la, ls[f], rs[t]))
        target[f] = rs[t]
    return _fresh(lhs.expand(target))


# ------------------------------------------------------------------------------ join and split
def _check_same_dtype(opname, tensors):
    d = tensors[0].dtype
    for t in tensors:
        if t.dtype is not d:
            i = [u.dtype for u in tensors].index(t.dtype)
            raise MXNetError('%s: non-uniform data type, expected %s, got %s for input %d; cast '
                             'the inputs with astype()' % (opname, dtype_name(d),
                                                           dtype_name(t.dtype), i))


def _join(opname, rule, join, tensors, axis=None, extra=0, argname='axis'):
    """``join(tensors, axis)`` (torch.cat, stack; ``axis`` an axis of arrays of the inputs'
    dimensions plus ``extra``, checked as MXNet does), or ``join(tensors)`` for no axis
    (hstack, ...): MXNetError naming the operator for no inputs, inputs of different types
    (which torch would promote), and shapes that break the ``rule`` (a message, formatted with
    the axis on failure). Torch checks the axis and the shapes: no cost when they fit; the
    types are compared once the join is made. In shape inference (meta tensors) an input of
    unknown (0) size along torch.cat's axis leaves the joined size unknown."""
    try:
        out = join(tensors) if axis is None else join(tensors, axis)
    except (RuntimeError, IndexError, ValueError):
        if not tensors:
            raise MXNetError('%s: needs at least one input array' % opname) from None
        _check_same_dtype(opname, tensors)
        if axis is not None:
            axis = _check_axis(axis, tensors[0].dim() + extra, opname, argname)
        raise MXNetError('%s: incompatible input shapes %s: %s'
                         % (opname, [tuple(t.shape) for t in tensors],
                            rule if axis is None else rule % axis)) from None
    d = out.dtype  # (each input's where they all have one; else another than some input's)
    for t in tensors:
        if t.dtype is not d:  # (torch promoted them)
            _check_same_dtype(opname, tensors)
    if out.is_meta and join is torch.cat:
        out = _unknown_joined_size(out, tensors, axis)
    return out


def _unknown_joined_size(out, tensors, dim):
    """Shape inference's result of torch.cat along ``dim`` (meta tensors): an input of unknown
    (0) size along it leaves the joined size unknown."""
    axis = dim if dim >= 0 else dim + out.dim()
    if any(t.shape[axis] == 0 for t in tensors):
        shape = list(out.shape)
        shape[axis] = 0
        out = out.new_empty(shape)
    return out


_CONCAT_RULE = 'all dimensions except the joined axis %d must match'
_STACK_RULE = 'arrays stacked along a new axis %d must all have the same shape'


@register('Concat', monitor_prefix='arg', named_outputs=True,
          inputs=('*data',), aliases=('concat',), key_var_num_args='num_args',
          params={'num_args': (Int, REQUIRED), 'dim': (Int, 1)}, concat_fill=1, kernel=torch.cat)
def concat(*data, num_args, dim):
    """Joins input arrays along a given axis."""
    return _join('Concat', _CONCAT_RULE, torch.cat, data, dim, 0, 'dim')


@register('_rnn_param_concat', monitor_prefix='arg', named_outputs=True,
          inputs=('*data',), key_var_num_args='num_args',
          params={'num_args': (Int, REQUIRED), 'dim': (Int, 1)}, concat_fill=2)
def rnn_param_concat(*data, num_args, dim):
    """Joins input arrays along a given axis (used to pack RNN parameters)."""
    return _join('_rnn_param_concat', _CONCAT_RULE, torch.cat, data, dim, 0, 'dim')


@register('stack', monitor_prefix='arg', inputs=('*data',), key_var_num_args='num_args',
          params={'axis': (Int, 0), 'num_args': (Int, REQUIRED)}, kernel=torch.stack)
def stack(*data, axis, num_args):
    """Join a sequence of arrays along a new axis."""
    return _join('stack', _STACK_RULE, torch.stack, data, axis, 1)


def _split_names(p):
    return ['output%d' % i for i in range(p['num_outputs'])]


@register('SliceChannel', named_outputs=True, merges=False,
          aliases=('split',), num_outputs=lambda p: p['num_outputs'],
          output_names=_split_names,
          params={'num_outputs': (AtLeast(Int, 1), REQUIRED), 'axis': (Int, 1),
                  'squeeze_axis': (Bool, False)})
def slice_channel(data, *, num_outputs, axis, squeeze_axis):
    """Splits an array along a particular axis into multiple equally sized sub-arrays."""
    ax = _check_axis(axis, data.dim(), 'SliceChannel')
    size = data.shape[ax]
    if num_outputs <= 0 or size % num_outputs:
        raise MXNetError('SliceChannel: cannot split axis %d of an array of shape %s into '
                         'num_outputs=%d evenly sized chunks' % (ax, tuple(data.shape),
                                                                 num_outputs))
    if squeeze_axis:
        if size != num_outputs:
            raise MXNetError('SliceChannel: squeeze_axis=True needs shape[axis] == num_outputs '
                             '(%d != %d)' % (size, num_outputs))
        return tuple(_fresh(p) for p in torch.unbind(data, ax))
    return tuple(_fresh(p) for p in torch.split(data, size // num_outputs, ax))


def _split_v2_count(p):
    return p['sections'] if p['sections'] > 0 else len(p['indices'])


@register('_split_v2', aliases=('_npi_split',), num_outputs=_split_v2_count,
          params={'indices': (Shape, REQUIRED), 'axis': (Int, 1), 'squeeze_axis': (Bool, False),
                  'sections': (Int, 0)})
def split_v2(data, *, indices, axis, squeeze_axis, sections):
    """Splits an array along a particular axis at given indices (or into `sections` nearly
    equal parts)."""
    return _split_parts('_split_v2', data, indices, axis, squeeze_axis, sections)


def _split_parts(opname, data, indices, axis, squeeze_axis, sections):
    """The parts of ``data`` along ``axis`` (new arrays, as MXNet's): ``sections`` parts, the
    first ``size % sections`` one longer, or the parts between ``indices`` (starting with 0,
    sorted, within the axis); all empty along an axis of size 0 (or of unknown size, 0, in
    shape inference)."""
    ax = _check_axis(axis, data.dim(), opname)
    size = data.shape[ax]
    if size == 0:
        sizes = [0] * (sections if sections > 0 else len(indices))
    elif sections > 0:
        small, extra = divmod(size, sections)
        sizes = [small + 1] * extra + [small] * (sections - extra)
    else:
        if not indices or indices[0] != 0:
            raise MXNetError('%s: indices=%s must start with 0' % (opname, tuple(indices)))
        bounds = list(indices) + [size]
        sizes = []
        for i in range(len(indices)):
            if not 0 <= bounds[i] <= bounds[i + 1] <= size:
                raise MXNetError('%s: indices=%s must be sorted and within the size %d of axis '
                                 '%d' % (opname, tuple(indices), size, ax))
            sizes.append(bounds[i + 1] - bounds[i])
    parts = torch.split(data, sizes, ax)
    if squeeze_axis:
        if any(s != 1 for s in sizes):
            raise MXNetError('%s: squeeze_axis=True needs every part to have size 1 along axis '
                             '%d, got sizes %s' % (opname, ax, sizes))
        return tuple(_fresh(p.squeeze(ax)) for p in parts)
    return tuple(_fresh(p) for p in parts)


# ------------------------------------------------------------------------------ pad and diag
_PAD_MODES = {'constant': 'constant', 'edge': 'replicate', 'reflect': 'reflect'}


@register('Pad', named_outputs=True, merges=False, aliases=('pad',),
          params={'mode': (Enum('constant', 'edge', 'reflect'), REQUIRED),
                  'pad_width': (Shape, REQUIRED), 'constant_value': (Float, 0.0)})
def pad(data, *, mode, pad_width, constant_value):
    """Pads an input array (4-D or 5-D, spatial axes only) with a constant or edge values of
    the array."""
    ndim = data.dim()
    if ndim not in (4, 5):
        raise MXNetError('Pad: only 4-D or 5-D input is supported, got shape %s'
                         % (tuple(data.shape),))
    if len(pad_width) != 2 * ndim:
        raise MXNetError('Pad: pad_width=%s must have 2 * ndim = %d values'
                         % (tuple(pad_width), 2 * ndim))
    if any(pad_width[:4]):
        raise MXNetError('Pad: padding on the first two axes must be zero, got pad_width=%s'
                         % (tuple(pad_width),))
    spatial = pad_width[4:]
    if mode == 'reflect':
        for i, d in enumerate(data.shape[2:]):
            if spatial[2 * i] >= d or spatial[2 * i + 1] >= d:
                raise MXNetError('Pad: reflection padding must be smaller than the input size '
                                 '(pad_width=%s, shape %s)' % (tuple(pad_width),
                                                              tuple(data.shape)))
    torch_pad = []
    for i in range(len(spatial) // 2 - 1, -1, -1):
        torch_pad += [spatial[2 * i], spatial[2 * i + 1]]
    if mode == 'constant':
        return F.pad(data, torch_pad, 'constant', constant_value)
    return F.pad(data, torch_pad, _PAD_MODES[mode])


@register('diag', params={'k': (Int, 0), 'axis1': (Int, 0), 'axis2': (Int, 1)})
def diag(data, *, k, axis1, axis2):
    """Extracts a diagonal or constructs a diagonal array (from a 1-D input)."""
    if data.dim() == 1:
        return torch.diag(data, k)
    ndim = data.dim()
    a1 = _check_axis(axis1, ndim, 'diag', 'axis1')
    a2 = _check_axis(axis2, ndim, 'diag', 'axis2')
    if a1 == a2:
        raise MXNetError('diag: axis1 and axis2 cannot refer to the same axis %d' % a1)
    h, w = data.shape[a1], data.shape[a2]
    if (k > 0 and k > w) or (k < 0 and -k > h):
        raise MXNetError('diag: diagonal k=%d does not exist for an array of shape %s'
                         % (k, tuple(data.shape)))
    return _fresh(torch.diagonal(data, k, a1, a2))
