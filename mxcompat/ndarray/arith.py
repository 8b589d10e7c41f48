"""``mx.nd.add``, ``mx.nd.maximum``, ``mx.nd.equal``, ...: arithmetic and comparison functions
that take an NDArray or a scalar on either side.

Two arrays go to the ``broadcast_*`` operator, an array and a scalar to the ``_*_scalar``
operator (``_r*_scalar`` when the scalar is on the left), and two scalars are computed in Python,
as MXNet's own functions of these names do.
"""
import operator

from ..base import numeric_types
from . import _internal, op
from .ndarray import NDArray

__all__ = ['add', 'subtract', 'multiply', 'divide', 'true_divide', 'modulo', 'power', 'maximum',
           'minimum', 'equal', 'not_equal', 'greater', 'greater_equal', 'lesser',
           'lesser_equal', 'logical_and', 'logical_or', 'logical_xor']


def _ufunc_helper(lhs, rhs, fn_array, fn_scalar, lfn_scalar, rfn_scalar=None):
    """Dispatch on operand kinds: both scalars -> fn_scalar; array and scalar -> lfn_scalar
    (rfn_scalar when the scalar is on the left; None means the function is commutative);
    two arrays -> fn_array."""
    if isinstance(lhs, numeric_types):
        if isinstance(rhs, numeric_types):
            return fn_scalar(lhs, rhs)
        return (rfn_scalar or lfn_scalar)(rhs, scalar=float(lhs))
    if isinstance(rhs, numeric_types):
        return lfn_scalar(lhs, scalar=float(rhs))
    if isinstance(rhs, NDArray):
        return fn_array(lhs, rhs)
    raise TypeError('type %s not supported' % str(type(rhs)))


def add(lhs, rhs):
    """Returns element-wise sum of the input arrays with broadcasting.

    Equivalent to ``lhs + rhs``, ``mx.nd.broadcast_add(lhs, rhs)`` and
    ``mx.nd.broadcast_plus(lhs, rhs)``.

    Parameters
    ----------
    lhs : scalar or mxnet.ndarray.array
        First array to be added.
    rhs : scalar or mxnet.ndarray.array
        Second array to be added.
        If ``lhs.shape != rhs.shape``, they must be broadcastable to a common shape.

    Returns
    -------
    NDArray
        The element-wise sum of the input arrays.
    """
    return _ufunc_helper(lhs, rhs, op.broadcast_add, operator.add, _internal._plus_scalar)


def subtract(lhs, rhs):
    """Returns element-wise difference of the input arrays with broadcasting.

    Equivalent to ``lhs - rhs``, ``mx.nd.broadcast_sub(lhs, rhs)`` and
    ``mx.nd.broadcast_minus(lhs, rhs)``.

    Parameters
    ----------
    lhs : scalar or mxnet.ndarray.array
        First array to be subtracted.
    rhs : scalar or mxnet.ndarray.array
        Second array to be subtracted.
        If ``lhs.shape != rhs.shape``, they must be broadcastable to a common shape.

    Returns
    -------
    NDArray
        The element-wise difference of the input arrays.
    """
    return _ufunc_helper(lhs, rhs, op.broadcast_sub, operator.sub, _internal._minus_scalar,
                         _internal._rminus_scalar)


def multiply(lhs, rhs):
    """Returns element-wise product of the input arrays with broadcasting.

    Equivalent to ``lhs * rhs`` and ``mx.nd.broadcast_mul(lhs, rhs)``.

    Parameters
    ----------
    lhs : scalar or mxnet.ndarray.array
        First array to be multiplied.
    rhs : scalar or mxnet.ndarray.array
        Second array to be multiplied.
        If ``lhs.shape != rhs.shape``, they must be broadcastable to a common shape.

    Returns
    -------
    NDArray
        The element-wise multiplication of the input arrays.
    """
    return _ufunc_helper(lhs, rhs, op.broadcast_mul, operator.mul, _internal._mul_scalar)


def divide(lhs, rhs):
    """Returns element-wise division of the input arrays with broadcasting.

    Equivalent to ``lhs / rhs`` and ``mx.nd.broadcast_div(lhs, rhs)``.

    Parameters
    ----------
    lhs : scalar or mxnet.ndarray.array
        First array in division.
    rhs : scalar or mxnet.ndarray.array
        Second array in division.
        The arrays to be divided. If ``lhs.shape != rhs.shape``, they must be
        broadcastable to a common shape.

    Returns
    -------
    NDArray
        The element-wise division of the input arrays.
    """
    return _ufunc_helper(lhs, rhs, op.broadcast_div, operator.truediv, _internal._div_scalar,
                         _internal._rdiv_scalar)


def true_divide(lhs, rhs):
    """This function is similar to :meth:`divide`."""
    return divide(lhs, rhs)


def modulo(lhs, rhs):
    """Returns element-wise modulo of the input arrays with broadcasting.

    Equivalent to ``lhs % rhs`` and ``mx.nd.broadcast_mod(lhs, rhs)``.

    Parameters
    ----------
    lhs : scalar or mxnet.ndarray.array
        First array in modulo.
    rhs : scalar or mxnet.ndarray.array
        Second array in modulo.
        The arrays to be taken modulo. If ``lhs.shape != rhs.shape``, they must be
        broadcastable to a common shape.

    Returns
    -------
    NDArray
        The element-wise modulo of the input arrays.
    """
    return _ufunc_helper(lhs, rhs, op.broadcast_mod, operator.mod, _internal._mod_scalar,
                         _internal._rmod_scalar)


def power(base, exp):
    """Returns result of first array elements raised to powers from second array, element-wise
    with broadcasting.

    Equivalent to ``base ** exp`` and ``mx.nd.broadcast_power(lhs, rhs)``.

    Parameters
    ----------
    base : scalar or NDArray
         The base array
    exp : scalar or NDArray
         The exponent array. If ``base.shape != exp.shape``, they must be
        broadcastable to a common shape.

    Returns
    --------
    NDArray
        The bases in x raised to the exponents in y.
    """
    return _ufunc_helper(base, exp, op.broadcast_power, operator.pow, _internal._power_scalar,
                         _internal._rpower_scalar)


def maximum(lhs, rhs):
    """Returns element-wise maximum of the input arrays with broadcasting.

    Equivalent to ``mx.nd.broadcast_maximum(lhs, rhs)``.

    Parameters
    ----------
    lhs : scalar or mxnet.ndarray.array
        First array to be compared.
    rhs : scalar or mxnet.ndarray.array
         Second array to be compared. If ``lhs.shape != rhs.shape``, they must be
        broadcastable to a common shape.

    Returns
    -------
    NDArray
        The element-wise maximum of the input arrays.
    """
    return _ufunc_helper(lhs, rhs, op.broadcast_maximum, lambda x, y: x if x > y else y,
                         _internal._maximum_scalar)


def minimum(lhs, rhs):
    """Returns element-wise minimum of the input arrays with broadcasting.

    Equivalent to ``mx.nd.broadcast_minimum(lhs, rhs)``.

    Parameters
    ----------
    lhs : scalar or mxnet.ndarray.array
        First array to be compared.
    rhs : scalar or mxnet.ndarray.array
         Second array to be compared. If ``lhs.shape != rhs.shape``, they must be
        broadcastable to a common shape.

    Returns
    -------
    NDArray
        The element-wise minimum of the input arrays.
    """
    return _ufunc_helper(lhs, rhs, op.broadcast_minimum, lambda x, y: x if x < y else y,
                         _internal._minimum_scalar)


def _comparison_doc(symbol, what):
    return """Returns the result of element-wise **%s** (%s) comparison operation with
    broadcasting.

    For each element in input arrays, return 1(true) if lhs elements are %s rhs,
    otherwise return 0(false).

    Parameters
    ----------
    lhs : scalar or mxnet.ndarray.array
        First array to be compared.
    rhs : scalar or mxnet.ndarray.array
         Second array to be compared. If ``lhs.shape != rhs.shape``, they must be
        broadcastable to a common shape.

    Returns
    -------
    NDArray
        Output array of boolean values.
    """ % (what, symbol, what)


def equal(lhs, rhs):
    return _ufunc_helper(lhs, rhs, op.broadcast_equal, lambda x, y: 1 if x == y else 0,
                         _internal._equal_scalar)


def not_equal(lhs, rhs):
    return _ufunc_helper(lhs, rhs, op.broadcast_not_equal, lambda x, y: 1 if x != y else 0,
                         _internal._not_equal_scalar)


def greater(lhs, rhs):
    return _ufunc_helper(lhs, rhs, op.broadcast_greater, lambda x, y: 1 if x > y else 0,
                         _internal._greater_scalar, _internal._lesser_scalar)


def greater_equal(lhs, rhs):
    return _ufunc_helper(lhs, rhs, op.broadcast_greater_equal, lambda x, y: 1 if x >= y else 0,
                         _internal._greater_equal_scalar, _internal._lesser_equal_scalar)


def lesser(lhs, rhs):
    return _ufunc_helper(lhs, rhs, op.broadcast_lesser, lambda x, y: 1 if x < y else 0,
                         _internal._lesser_scalar, _internal._greater_scalar)


def lesser_equal(lhs, rhs):
    return _ufunc_helper(lhs, rhs, op.broadcast_lesser_equal, lambda x, y: 1 if x <= y else 0,
                         _internal._lesser_equal_scalar, _internal._greater_equal_scalar)


equal.__doc__ = _comparison_doc('==', 'equal to')
not_equal.__doc__ = _comparison_doc('!=', 'not equal to')
greater.__doc__ = _comparison_doc('>', 'greater than')
greater_equal.__doc__ = _comparison_doc('>=', 'greater than or equal to')
lesser.__doc__ = _comparison_doc('<', 'lesser than')
lesser_equal.__doc__ = _comparison_doc('<=', 'lesser than or equal to')


def _logical_doc(what):
    return """Returns the result of element-wise **logical %s** comparison operation with
    broadcasting.

    For each element in input arrays, return 1(true) if lhs %s rhs are true,
    otherwise return 0(false).

    Parameters
    ----------
    lhs : scalar or mxnet.ndarray.array
        First input of the function.
    rhs : scalar or mxnet.ndarray.array
         Second input of the function. If ``lhs.shape != rhs.shape``, they must be
        broadcastable to a common shape.

    Returns
    -------
    NDArray
        Output array of boolean values.
    """ % (what, what)


def logical_and(lhs, rhs):
    return _ufunc_helper(lhs, rhs, op.broadcast_logical_and, lambda x, y: 1 if x and y else 0,
                         _internal._logical_and_scalar)


def logical_or(lhs, rhs):
    return _ufunc_helper(lhs, rhs, op.broadcast_logical_or, lambda x, y: 1 if x or y else 0,
                         _internal._logical_or_scalar)


def logical_xor(lhs, rhs):
    return _ufunc_helper(lhs, rhs, op.broadcast_logical_xor,
                         lambda x, y: 1 if bool(x) ^ bool(y) else 0,
                         _internal._logical_xor_scalar)


logical_and.__doc__ = _logical_doc('and')
logical_or.__doc__ = _logical_doc('or')
logical_xor.__doc__ = _logical_doc('xor')
