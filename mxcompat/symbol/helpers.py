"""``mx.sym`` functions that MXNet writes in Python over the operators (creation helpers and
the scalar-or-symbol dispatch of pow/maximum/minimum/hypot)."""
from numbers import Number

import numpy as np

from ..base import integer_types
from . import _internal
from .symbol import Symbol

__all__ = ['pow', 'power', 'maximum', 'minimum', 'hypot', 'eye', 'zeros', 'ones', 'full',
           'arange', 'linspace', 'histogram', 'split_v2']


def _dispatch(left, right, sym_op, scalar_op, rscalar_op, numbers):
    if isinstance(left, Symbol) and isinstance(right, Symbol):
        return sym_op(left, right)
    if isinstance(left, Symbol) and isinstance(right, Number):
        return scalar_op(left, scalar=right)
    if isinstance(left, Number) and isinstance(right, Symbol):
        return rscalar_op(right, scalar=left)
    if isinstance(left, Number) and isinstance(right, Number):
        return numbers(left, right)
    raise TypeError('types (%s, %s) not supported' % (str(type(left)), str(type(right))))


def pow(base, exp):
    """Returns element-wise result of base element raised to powers from exp element.

    Both inputs can be Symbol or scalar number. Broadcasting is not supported.
    """
    return _dispatch(base, exp, _internal._Power, _internal._PowerScalar,
                     _internal._RPowerScalar, lambda a, b: a ** b)


def power(base, exp):
    """Returns element-wise result of base element raised to powers from exp element."""
    return pow(base, exp)


def maximum(left, right):
    """Returns element-wise maximum of the input elements (Symbol or scalar)."""
    return _dispatch(left, right, _internal._Maximum, _internal._MaximumScalar,
                     _internal._MaximumScalar, lambda a, b: a if a > b else b)


def minimum(left, right):
    """Returns element-wise minimum of the input elements (Symbol or scalar)."""
    return _dispatch(left, right, _internal._Minimum, _internal._MinimumScalar,
                     _internal._MinimumScalar, lambda a, b: a if a < b else b)


def hypot(left, right):
    """Given the "legs" of a right triangle, returns its hypotenuse."""
    return _dispatch(left, right, _internal._Hypot, _internal._HypotScalar,
                     _internal._HypotScalar, np.hypot)


def eye(N, M=0, k=0, dtype=None, **kwargs):
    """Returns a new symbol of 2-D shpae, filled with ones on the diagonal and zeros elsewhere.

    Parameters
    ----------
    N: int
        Number of rows in the output.
    M: int, optional
        Number of columns in the output. If 0, defaults to N.
    k: int, optional
        Index of the diagonal: 0 (the default) refers to the main diagonal,
        a positive value refers to an upper diagonal,
        and a negative value to a lower diagonal.
    dtype : str or numpy.dtype, optional
        The value type of the inner value, default to ``np.float32``.
    """
    return _internal._eye(N=N, M=M, k=k, dtype=np.float32 if dtype is None else dtype,
                          **kwargs)


def zeros(shape, dtype=None, **kwargs):
    """Returns a new symbol of given shape and type, filled with zeros."""
    return _internal._zeros(shape=shape, dtype=np.float32 if dtype is None else dtype, **kwargs)


def ones(shape, dtype=None, **kwargs):
    """Returns a new symbol of given shape and type, filled with ones."""
    return _internal._ones(shape=shape, dtype=np.float32 if dtype is None else dtype, **kwargs)


def full(shape, val, dtype=None, **kwargs):
    """Returns a new array of given shape and type, filled with the given value `val`."""
    return _internal._full(shape=shape, dtype=np.float32 if dtype is None else dtype,
                           value=float(val), **kwargs)


def arange(start, stop=None, step=1.0, repeat=1, infer_range=False, name=None, dtype=None):
    """Returns evenly spaced values within a given interval.

    Values are generated within the half-open interval [`start`, `stop`). In other
    words, the interval includes `start` but excludes `stop`.
    """
    return _internal._arange(start=start, stop=stop, step=step, repeat=repeat,
                             infer_range=infer_range, name=name,
                             dtype=np.float32 if dtype is None else dtype)


def linspace(start, stop, num, endpoint=True, name=None, dtype=None):
    """Return evenly spaced numbers within a specified interval."""
    return _internal._linspace(start=start, stop=stop, num=num, endpoint=endpoint, name=name,
                               dtype=np.float32 if dtype is None else dtype)


def histogram(a, bins=10, range=None, **kwargs):
    """Compute the histogram of the input data (``range`` is required for integer bins)."""
    if isinstance(bins, Symbol):
        return _internal._histogram(data=a, bins=bins, **kwargs)
    if isinstance(bins, integer_types):
        if range is None:
            raise ValueError('null range is not supported in symbol mode')
        return _internal._histogram(data=a, bin_cnt=bins, range=range, **kwargs)
    raise ValueError('bins argument should be either an integer or an NDArray')


def split_v2(ary, indices_or_sections, axis=0, squeeze_axis=False):
    """Split an array into multiple sub-arrays (equal sections, or at the given indices)."""
    indices, sections = [], 0
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
    elif isinstance(indices_or_sections, tuple):
        indices = [0] + list(indices_or_sections)
    else:
        raise ValueError('indices_or_sections must either int or tuple of ints')
    return _internal._split_v2(ary, indices=indices, axis=axis, squeeze_axis=squeeze_axis,
                               sections=sections)
