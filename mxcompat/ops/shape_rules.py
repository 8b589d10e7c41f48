"""Shape arithmetic shared by operators, NDArray methods and symbol shape inference."""
from ..base import MXNetError

__all__ = ['infer_reshape', 'normalize_axis', 'normalize_axes']


def infer_reshape(src, target, reverse=False):
    """The output shape of MXNet's Reshape of ``src`` to ``target`` with special values.

    0 copies a dimension, -1 infers one, -2 copies all remaining dimensions, -3 merges two
    consecutive dimensions, -4 splits one dimension into the two values that follow it.
    With ``reverse`` the special values are matched from right to left.
    """
    src = tuple(src)
    target = tuple(target)
    if reverse:
        src_r = src[::-1]
        tgt = list(target[::-1])
        # -4 takes the two values after it; reversing swaps them to before it
        i = 0
        fixed = []
        while i < len(tgt):
            if i + 2 < len(tgt) and tgt[i + 2] == -4:
                fixed += [-4, tgt[i + 1], tgt[i]]
                i += 3
            else:
                fixed.append(tgt[i])
                i += 1
        return tuple(_infer(src_r, tuple(fixed), target, src)[::-1])
    return _infer(src, target, target, src)


def _infer(src, target, shown_target, shown_src):
    out = []
    si = 0
    infer_at = -1
    i = 0
    n = len(target)
    while i < n:
        v = target[i]
        if v > 0:
            out.append(v)
            si += 1
        elif v == 0:
            if si >= len(src):
                raise _err(shown_src, shown_target)
            out.append(src[si])
            si += 1
        elif v == -1:
            if infer_at >= 0:
                raise MXNetError('Reshape: one and only one dim can be inferred, target shape %s'
                                 % (shown_target,))
            infer_at = len(out)
            out.append(1)
            si += 1
        elif v == -2:
            out.extend(src[si:])
            si = len(src)
        elif v == -3:
            if si + 1 >= len(src):
                raise _err(shown_src, shown_target)
            out.append(src[si] * src[si + 1])
            si += 2
        elif v == -4:
            if i + 2 >= n or si >= len(src):
                raise MXNetError('Reshape: -4 must be followed by two dimensions, target shape %s'
                                 % (shown_target,))
            d = src[si]
            a, b = target[i + 1], target[i + 2]
            if a == -1 and b == -1:
                raise MXNetError('Reshape: split dims cannot both be -1, target shape %s'
                                 % (shown_target,))
            if a == -1:
                a = d // b
            elif b == -1:
                b = d // a
            if a * b != d:
                raise MXNetError('Reshape: split dims %d, %d do not match original dim %d'
                                 % (a, b, d))
            out += [a, b]
            si += 1
            i += 2
        else:
            raise MXNetError('Reshape: invalid value %d in target shape %s' % (v, shown_target))
        i += 1
    total = 1
    for d in src:
        total *= d
    if infer_at >= 0:
        known = 1
        for j, d in enumerate(out):
            if j != infer_at:
                known *= d
        if known == 0 or total % known:
            raise _err(shown_src, shown_target)
        out[infer_at] = total // known
    prod = 1
    for d in out:
        prod *= d
    if prod != total:
        raise _err(shown_src, shown_target)
    return tuple(out)


def _err(src, target):
    return MXNetError('Reshape: cannot reshape array of shape %s into shape %s: target shape '
                      'size is different to source' % (tuple(src), tuple(target)))


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
