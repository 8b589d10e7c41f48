"""Shape arithmetic shared by operators, NDArray methods and symbol shape inference."""
from ..base import MXNetError

__all__ = ['infer_reshape', 'ReshapeSizeError', 'normalize_axis', 'normalize_axes']


def infer_reshape(src, target, reverse=False, opname='Reshape'):
    """The output shape of MXNet's Reshape of ``src`` to ``target`` with special values.

    0 copies a dimension, -1 infers one, -2 copies all remaining dimensions, -3 merges two
    consecutive dimensions, -4 splits one dimension into the two values that follow it.
    With ``reverse`` both shapes are read from right to left (as MXNet does, the values
    following a -4 are then read in reversed order too).
    """
    src = tuple(src)
    target = tuple(target)
    key = (src, target, reverse)
    try:
        out = _RESHAPE_CACHE.get(key)
    except TypeError:  # symbolic sizes (torch.export with a dynamic batch) do not hash
        return _infer_reshape(src, target, reverse, opname)
    if out is None:
        out = _infer_reshape(src, target, reverse, opname)
        if len(_RESHAPE_CACHE) > 4096:
            _RESHAPE_CACHE.clear()
        _RESHAPE_CACHE[key] = out
    return out


# (source shape, target, reverse) -> output shape: models reshape the same shapes every batch
_RESHAPE_CACHE = {}


def _infer_reshape(src, target, reverse, opname):
    dims = src[::-1] if reverse else src
    spec = target[::-1] if reverse else target
    out = []
    si = 0
    infer_at = -1
    i = 0
    n = len(spec)
    nd = len(dims)
    while i < n:
        v = spec[i]
        if v > 0:
            out.append(v)
            si += 1
        elif v == 0:
            if si >= nd:
                raise _err(opname, src, target, 'shape has more dimensions to copy (0) than '
                           'the input has')
            out.append(dims[si])
            si += 1
        elif v == -1:
            if infer_at >= 0:
                raise _err(opname, src, target, 'one and only one dim can be inferred (-1)')
            # MXNet records the position in the target, not in the output: where -2, -3 or
            # -4 come first this makes the size check below fail, as MXNet's does
            infer_at = i
            out.append(1)
            si += 1
        elif v == -2:
            out.extend(dims[si:])
            si = nd
        elif v == -3:
            if si + 1 >= nd:
                raise _err(opname, src, target, '-3 needs two input dimensions to merge')
            out.append(dims[si] * dims[si + 1])
            si += 2
        elif v == -4:
            if i + 2 >= n or si >= nd:
                raise _err(opname, src, target, '-4 must be followed by two dimensions')
            d0 = dims[si]
            si += 1
            d1, d2 = spec[i + 1], spec[i + 2]
            i += 2
            if d1 == -1 and d2 == -1:
                raise _err(opname, src, target, 'split dims cannot both be -1')
            if d1 == -1:
                d1 = d0 // d2 if d2 else 0
            elif d2 == -1:
                d2 = d0 // d1 if d1 else 0
            if d1 * d2 != d0:
                raise _err(opname, src, target, 'split dims %d, %d do not divide original '
                           'dim %d' % (d1, d2, d0))
            out += [d1, d2]
        else:
            raise _err(opname, src, target, 'invalid value %d: shape values must be positive '
                       'or one of 0, -1, -2, -3, -4' % v)
        i += 1
    total = 1
    for d in src:
        total *= d
    if 0 <= infer_at < len(out):
        known = 1
        for d in out:
            known *= d
        if known == 0:
            raise _err(opname, src, target, 'cannot infer -1 with a zero-size dimension')
        out[infer_at] = total // known
    prod = 1
    for d in out:
        prod *= d
    if prod != total:
        raise ReshapeSizeError('%s: cannot reshape array of size %d into shape %s (shape %s '
                               'holds %d elements)' % (opname, total, tuple(target),
                                                       tuple(out[::-1] if reverse else out),
                                                       prod))
    return tuple(out[::-1]) if reverse else tuple(out)


class ReshapeSizeError(MXNetError, ValueError):
    """A reshape target whose size differs from the array's (NDArray.reshape raises ValueError
    there in MXNet, the operators MXNetError: this is both)."""


def _err(opname, src, target, why):
    return MXNetError('%s: cannot reshape array of shape %s into shape %s: %s'
                      % (opname, tuple(src), tuple(target), why))


def normalize_axis(axis, ndim, opname='operator'):
    """A non-negative axis index; MXNetError naming the operator when out of range."""
    if axis < -ndim or axis >= max(ndim, 1):
        raise MXNetError('%s: axis %d is out of bounds for array of dimension %d'
                         % (opname, axis, ndim))
    return axis + ndim if axis < 0 else axis


def normalize_axes(axis, ndim, opname='operator'):
    """A tuple of non-negative axes from None (all), an int or a sequence."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, int):
        return (normalize_axis(axis, ndim, opname),)
    return tuple(normalize_axis(a, ndim, opname) for a in axis)
