"""``mx.np.linalg``: NumPy's linear algebra over the operator table's ``_npi_*`` entries
(``mxcompat/ops/numpy_linalg.py``). As in MXNet, the names of ``fallback_linalg`` (``cond``,
``lstsq``, ``matrix_power``, ``matrix_rank``, ``multi_dot``, ``qr``, ...) are NumPy's own
functions on NumPy copies."""
import numbers

from ..ndarray.ndarray import NDArray
from ..util import set_module
from .multiarray import _npi, sum as _sum, abs as _abs, max as _max, min as _min
from . import fallback_linalg

__all__ = ['norm', 'svd', 'cholesky', 'inv', 'det', 'slogdet', 'solve', 'tensorinv',
           'tensorsolve', 'pinv', 'eigvals', 'eig', 'eigvalsh', 'eigh']
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
    ord : {non-zero int, 'inf', '-inf', 'fro', 'nuc'}, optional
        Order of the norm. None: the 2-norm of the flattened array without ``axis``, the 2-norm
        of vectors along one axis, the Frobenius norm of matrices along two.
    axis : {int, 2-tuple of ints, None}, optional
        The axis (vector norms) or pair of axes (matrix norms). Without it, an array of two or
        more dimensions gives the matrix norms over its last two axes (for an ``ord`` that is
        a number), and ``'inf'`` / ``'-inf'`` the largest / smallest absolute element, as in
        MXNet.
    keepdims : bool, optional
        Keep the reduced axes with size one.

    Returns
    -------
    n : ndarray
        Norm of the matrix or vector(s) (of the input's type, integers included, as in MXNet).
    """
    if axis is None and ord is None:
        return _npi.norm(x, ord=2, axis=None, keepdims=keepdims, flag=-2)
    if isinstance(axis, numbers.Integral):
        axis = (axis,)
    elif axis is not None and not isinstance(axis, tuple):
        raise TypeError("'axis' must be None, an integer or a tuple of integers.")
    if axis is not None and len(axis) == 2:
        if ord in ('inf', '-inf', 1, -1):
            # the largest (smallest) absolute row sum for inf, column sum for 1
            row, col = axis
            summed, other = (col, row) if ord in ('inf', '-inf') else (row, col)
            if not keepdims and other > summed:
                other -= 1
            sums = _sum(_abs(x), axis=summed, keepdims=keepdims)
            return (_max if ord in ('inf', 1) else _min)(sums, axis=other, keepdims=keepdims)
        if ord in (2, -2):
            return _npi.norm(x, ord=ord, axis=axis, keepdims=keepdims, flag=0)
    if ord == 'inf':
        return _max(_abs(x), axis=axis, keepdims=keepdims)
    if ord == '-inf':
        return _min(_abs(x), axis=axis, keepdims=keepdims)
    if ord is None or ord in ('fro', 'f'):
        return _npi.norm(x, ord=2, axis=axis, keepdims=keepdims, flag=1)
    if ord == 'nuc':
        return _npi.norm(x, ord=2, axis=axis, keepdims=keepdims, flag=2)
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
def pinv(a, rcond=1e-15, hermitian=False):
    """The (Moore-Penrose) pseudo-inverse of a (stack of) matrices.

    Parameters
    ----------
    a : (..., M, N) ndarray
        Matrix or stack of matrices to be pseudo-inverted.
    rcond : float or ndarray, optional
        Cutoff for small singular values: those up to ``rcond * largest_singular_value`` are
        set to zero; an ndarray broadcasts against the stack's leading axes.
    hermitian : bool, optional
        Not supported (NotImplementedError for True), as in MXNet.

    Returns
    -------
    B : (..., N, M) ndarray
    """
    if hermitian is True:
        raise NotImplementedError("hermitian is not supported yet...")
    if isinstance(rcond, NDArray):
        return _npi.pinv(a, rcond, hermitian)
    return _npi.pinv_scalar_rcond(a, rcond, hermitian)


@set_module('mxnet.numpy.linalg')
def tensorinv(a, ind=2):
    """The 'inverse' of an N-dimensional array for ``tensordot(a, x, ind)``: an array of shape
    ``a.shape[ind:] + a.shape[:ind]`` (``prod(a.shape[:ind]) == prod(a.shape[ind:])``)."""
    return _npi.tensorinv(a, ind)


@set_module('mxnet.numpy.linalg')
def tensorsolve(a, b, axes=None):
    """Solve ``tensordot(a, x, axes=x.ndim) = b`` for x; ``axes`` are axes of ``a`` moved to its
    end first. x has the trailing ``a.ndim - b.ndim`` dimensions of (the rearranged) ``a``."""
    return _npi.tensorsolve(a, b, axes)


@set_module('mxnet.numpy.linalg')
def eigvals(a):
    """Eigenvalues of (a stack of) general real square matrices; real eigenvalues only
    (MXNetError for complex ones), float64 for integer input, as in MXNet."""
    return _npi.eigvals(a)


@set_module('mxnet.numpy.linalg')
def eig(a):
    """Eigenvalues and right eigenvectors (the columns of ``v``) of (a stack of) general real
    square matrices; real eigenvalues only, float64 for integer input, as in MXNet."""
    w, v = _npi.eig(a)
    return (w, v)


@set_module('mxnet.numpy.linalg')
def eigvalsh(a, UPLO='L'):
    """Eigenvalues (ascending) of (a stack of) real symmetric matrices, from their lower
    (``UPLO='L'``) or upper triangle; float64 for integer input."""
    return _npi.eigvalsh(a, UPLO=UPLO)


@set_module('mxnet.numpy.linalg')
def eigh(a, UPLO='L'):
    """Eigenvalues (ascending) and eigenvectors (columns) of (a stack of) real symmetric
    matrices, from their lower (``UPLO='L'``) or upper triangle; float64 for integer input."""
    return tuple(_npi.eigh(a, UPLO=UPLO))
