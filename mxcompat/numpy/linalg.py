"""``mx.np.linalg``: NumPy's linear algebra over the operator table's ``_npi_*`` entries."""
import numbers

from ..util import set_module
from .multiarray import _npi, sum as _sum, abs as _abs, max as _max, min as _min
from . import fallback_linalg

__all__ = ['norm', 'svd', 'cholesky', 'inv', 'det', 'slogdet', 'solve', 'eigvalsh', 'eigh']
# MXNet's fallback names that mx.np.linalg does not implement itself: NumPy's own functions
_FALLBACK = [n for n in fallback_linalg.__all__ if n not in __all__]
globals().update((n, getattr(fallback_linalg, n)) for n in _FALLBACK)
__all__ += _FALLBACK


@set_module('mxnet.numpy.linalg')
def norm(x, ord=None, axis=None, keepdims=False):  # pylint: disable=redefined-builtin
    """Matrix or vector norm.

    Parameters
    ----------
    x : ndarray
        Input array.
    ord : {non-zero int, inf, -inf, 'fro', 'nuc'}, optional
        Order of the norm (None: the 2-norm of vectors, the Frobenius norm of matrices).
    axis : {int, 2-tuple of ints, None}, optional
        The axis (vector norms) or pair of axes (matrix norms); None: the whole array.
    keepdims : bool, optional
        Keep the reduced axes with size one.
    """
    if isinstance(axis, numbers.Integral):
        axis = (axis,)
    if ord is None or ord == 'fro':
        return _npi.norm(x, ord=2, axis=axis, keepdims=keepdims, flag=1)
    if ord == 'nuc':
        return _npi.norm(x, ord=2, axis=axis, keepdims=keepdims, flag=2)
    if axis is not None and len(axis) == 2 or axis is None and x.ndim == 2:
        row, col = axis if axis is not None else (0, 1)
        if ord in (2, -2):
            return _npi.norm(x, ord=ord, axis=(row, col), keepdims=keepdims, flag=0)
        if ord in (1, -1, float('inf'), float('-inf')):
            summed, other = (row, col) if ord in (1, -1) else (col, row)
            if not keepdims and other > summed:
                other -= 1
            s = _sum(_abs(x), axis=summed, keepdims=keepdims)
            return (_max if ord > 0 else _min)(s, axis=other, keepdims=keepdims)
        raise ValueError('Invalid norm order for matrices: %r' % (ord,))
    if ord in (float('inf'), float('-inf')):
        return (_max if ord > 0 else _min)(_abs(x), axis=axis, keepdims=keepdims)
    return _npi.norm(x, ord=ord, axis=axis, keepdims=keepdims, flag=-1)


@set_module('mxnet.numpy.linalg')
def svd(a):
    """Singular value decomposition: ``(ut, l, v)`` with ``a = ut @ diag(l) @ v``."""
    return tuple(_npi.svd(a))


@set_module('mxnet.numpy.linalg')
def cholesky(a):
    """Cholesky decomposition: the lower-triangular L with ``a = L @ L.T``."""
    return _npi.cholesky(a, lower=True)


@set_module('mxnet.numpy.linalg')
def inv(a):
    """The (multiplicative) inverse of a matrix."""
    return _npi.inv(a)


@set_module('mxnet.numpy.linalg')
def det(a):
    """The determinant of an array."""
    return _npi.det(a)


@set_module('mxnet.numpy.linalg')
def slogdet(a):
    """The sign and (natural) logarithm of the determinant of an array."""
    return tuple(_npi.slogdet(a))


@set_module('mxnet.numpy.linalg')
def solve(a, b):
    """Solve a linear matrix equation ``a @ x = b``."""
    return _npi.solve(a, b)


@set_module('mxnet.numpy.linalg')
def eigvalsh(a, UPLO='L'):
    """Eigenvalues of a real symmetric matrix."""
    return _npi.eigvalsh(a, UPLO=UPLO)


@set_module('mxnet.numpy.linalg')
def eigh(a, UPLO='L'):
    """Eigenvalues and eigenvectors of a real symmetric matrix."""
    return tuple(_npi.eigh(a, UPLO=UPLO))
