"""The NumPy interface's linear algebra operators (``_npi_det``, ``_npi_inv``, ``_npi_solve``,
``_npi_eig``, ``_npi_eigh``, ``_npi_pinv``, ``_npi_tensorinv``, ``_npi_norm``, ...), with MXNet
1.9.1's names, inputs and parameters.

Inputs are (stacks of) matrices in the trailing two axes. The eigen-decompositions take integer
matrices too and give float64 results for them, as MXNet does (float16 is refused); ``eig`` and
``eigvals`` give real results and refuse matrices with complex eigenvalues, as MXNet's do.
Gradients are torch's of the same functions.
"""
import torch

from ..base import MXNetError, dtype_name
from .registry import register, Int, Float, Bool, Str, Shape, Opt

_FLOATS = (torch.float32, torch.float64)


# ------------------------------------------------------------------------ solvers
for _name, _fn, _doc in (
        ('det', torch.linalg.det, 'Determinant of a (stack of) square matrices.'),
        ('inv', torch.linalg.inv, 'Inverse of a (stack of) square matrices.')):
    register('_npi_' + _name, inputs=('A',), doc=_doc)(_fn)


@register('_npi_slogdet', inputs=('A',), num_outputs=2)
def np_slogdet(A):
    """Sign and natural logarithm of the determinant."""
    return tuple(torch.linalg.slogdet(A))


@register('_npi_solve', inputs=('A', 'B'))
def np_solve(A, B):
    """Solve the linear system A x = B."""
    return torch.linalg.solve(A, B)


@register('_npi_cholesky', inputs=('A',), params={'lower': (Bool, True)})
def np_cholesky(A, lower):
    """Cholesky factor of a symmetric positive-definite matrix."""
    return torch.linalg.cholesky(A, upper=not lower)


@register('_npi_svd', inputs=('A',), num_outputs=3)
def np_svd(A):
    """Singular value decomposition ``A = ut @ diag(l) @ v`` (MXNet's order: ut, l, v)."""
    u, s, vh = torch.linalg.svd(A, full_matrices=False)
    return u, s, vh


def _float_only(opname, a):
    if a.dtype not in _FLOATS:
        raise MXNetError('%s: This operation only supports 32-bit and 64-bit floating point, '
                         'got %s' % (opname, dtype_name(a.dtype)))


@register('_npi_pinv', inputs=('A', 'rcond'), params={'hermitian': (Bool, False)},
          zero_grad=True)
def np_pinv(A, rcond, hermitian):
    """Moore-Penrose pseudo-inverse; singular values up to ``rcond`` times the largest are
    taken as zero (``rcond`` broadcasts against the batch axes of ``A``)."""
    _float_only('_npi_pinv', A)
    return torch.linalg.pinv(A, rtol=rcond.to(A.dtype), hermitian=hermitian)


@register('_npi_pinv_scalar_rcond', inputs=('A',),
          params={'rcond': (Float, 1e-15), 'hermitian': (Bool, False)}, zero_grad=True)
def np_pinv_scalar_rcond(A, rcond, hermitian):
    """Moore-Penrose pseudo-inverse with one cutoff ``rcond`` for every matrix."""
    _float_only('_npi_pinv_scalar_rcond', A)
    return torch.linalg.pinv(A, rtol=rcond, hermitian=hermitian)


@register('_npi_tensorinv', inputs=('a',), params={'ind': (Int, 2)})
def np_tensorinv(a, ind):
    """The inverse of an N-dimensional array for ``tensordot(a, x, ind)``: of shape
    ``a.shape[ind:] + a.shape[:ind]``."""
    if ind <= 0:
        raise MXNetError('_npi_tensorinv: Invalid ind argument %d: it must be positive' % ind)
    _float_only('_npi_tensorinv', a)
    shape = tuple(a.shape)
    rows = 1
    for d in shape[ind:]:
        rows *= d
    inv = torch.linalg.inv(a.reshape(rows, -1))
    return inv.reshape(shape[ind:] + shape[:ind])


@register('_npi_tensorsolve', inputs=('a', 'b'), params={'a_axes': (Opt(Shape), ())})
def np_tensorsolve(a, b, a_axes):
    """Solve ``tensordot(a, x, axes=x.ndim) = b`` for x; the axes ``a_axes`` of ``a`` are
    moved to its end first."""
    _float_only('_npi_tensorsolve', a)
    if a_axes:
        order = [k for k in range(a.dim()) if k not in a_axes] + list(a_axes)
        a = a.permute(order)
    xshape = tuple(a.shape)[-(a.dim() - b.dim()):] if a.dim() != b.dim() else tuple(a.shape)
    n = 1
    for d in xshape:
        n *= d
    if n * n != a.numel():
        raise MXNetError('_npi_tensorsolve: a is not square: the product of x\'s dimensions %s '
                         'squared must be a.size %d' % (xshape, a.numel()))
    return torch.linalg.solve(a.reshape(-1, n), b.reshape(-1)).reshape(xshape)


# ------------------------------------------------------------------------ eigenvalues
def _eig_input(opname, a):
    """``a`` in the type the eigen-decompositions compute in: float64 for integers."""
    if a.dim() < 2 or a.shape[-1] != a.shape[-2]:
        raise MXNetError("%s: Input A's last two dimension must be equal, got shape %s"
                         % (opname, tuple(a.shape)))
    if a.dtype in _FLOATS:
        return a
    if a.is_floating_point() or a.dtype is torch.bool:
        raise MXNetError('%s: array type %s is unsupported in linalg'
                         % (opname, dtype_name(a.dtype)))
    return a.to(torch.float64)


def _real(opname, w):
    """The real part of complex eigenvalues (or vectors); MXNetError for complex
    eigenvalues."""
    if w.device.type != 'meta' and w.numel() and bool((w.imag.abs() > 1e-15).any()):
        raise MXNetError('%s: Complex eigvals is unsupported in linalg temporary.' % opname)
    return w.real


@register('_npi_eigvals', inputs=('A',), zero_grad=True)
def np_eigvals(A):
    """Eigenvalues of a general real matrix (real eigenvalues only)."""
    return _real('_npi_eigvals', torch.linalg.eigvals(_eig_input('_npi_eigvals', A)))


@register('_npi_eig', inputs=('A',), num_outputs=2, zero_grad=True)
def np_eig(A):
    """Eigenvalues and right eigenvectors (columns) of a general real matrix (real eigenvalues
    only)."""
    w, v = torch.linalg.eig(_eig_input('_npi_eig', A))
    return _real('_npi_eig', w), v.real


@register('_npi_eigvalsh', inputs=('A',), params={'UPLO': (Str, 'L')}, zero_grad=True)
def np_eigvalsh(A, UPLO):
    """Eigenvalues of a symmetric matrix (of its ``UPLO`` triangle), ascending."""
    return torch.linalg.eigvalsh(_eig_input('_npi_eigvalsh', A), UPLO=UPLO)


@register('_npi_eigh', inputs=('A',), params={'UPLO': (Str, 'L')}, num_outputs=2,
          zero_grad=True)
def np_eigh(A, UPLO):
    """Eigenvalues (ascending) and eigenvectors of a symmetric matrix (of its ``UPLO``
    triangle)."""
    return tuple(torch.linalg.eigh(_eig_input('_npi_eigh', A), UPLO=UPLO))


# ------------------------------------------------------------------------ norm
def _invalid_order():
    return MXNetError('_npi_norm: Invalid norm order for inputs.')


def _matrix_norm(x, ord, axis, keepdims, flag):  # pylint: disable=redefined-builtin
    if flag == 1:
        return torch.sqrt(torch.sum(x * x, dim=axis, keepdim=keepdims))
    if flag == 2:
        return torch.linalg.matrix_norm(x, ord='nuc', dim=axis, keepdim=keepdims)
    if ord == 0 or abs(ord) > 2:
        raise _invalid_order()
    if abs(ord) == 2:
        return torch.linalg.matrix_norm(x, ord=int(ord), dim=axis, keepdim=keepdims)
    # the largest (smallest) absolute column sum for |ord| 1, row sum otherwise
    summed, other = axis if abs(ord) == 1 else axis[::-1]
    sums = torch.sum(torch.abs(x), dim=summed, keepdim=True)
    out = (torch.amax if ord > 0 else torch.amin)(sums, dim=other, keepdim=True)
    return out if keepdims else out.squeeze(max(axis)).squeeze(min(axis))


@register('_npi_norm', params={'ord': (Float, 2.0), 'axis': (Opt(Shape), None),
                               'keepdims': (Bool, False), 'flag': (Int, -1)})
def np_norm(data, ord, axis, keepdims, flag):  # pylint: disable=redefined-builtin
    """Matrix or vector norm. ``flag``: -2 the 2-norm of the flattened array, -1 a vector
    ``ord``-norm (a matrix norm over the last two axes of an array of two or more dimensions
    without ``axis``), 0 a matrix ``ord``-norm, 1 the Frobenius norm, 2 the nuclear norm (as
    MXNet's front end sets it). Integer input gives an integer result, as in MXNet."""
    x = data if data.is_floating_point() else data.to(torch.float32)
    nd = data.dim()
    if flag == -2 and axis is None:
        out = torch.linalg.vector_norm(x.reshape(-1), 2)
        out = out.reshape((1,) * nd) if keepdims else out
        return out if out.dtype is data.dtype else out.to(data.dtype)
    if axis is None:
        if nd == 0 and flag != 0:
            raise _invalid_order()
        axis = (nd - 2, nd - 1) if nd >= 2 else (nd - 1,)
    axis = tuple(a % nd for a in axis) if nd else ()
    if len(axis) > 2:
        raise MXNetError('_npi_norm: Improper number of dimensions to norm.')
    if len(axis) == 2:
        if x.numel() == 0:  # zeros, in the graph
            out = torch.sum(x, dim=axis, keepdim=keepdims)
        else:
            out = _matrix_norm(x, ord, axis, keepdims, flag)
    else:
        if flag == 2:
            raise _invalid_order()
        if nd == 0:
            out = torch.abs(x) if ord != 0 else (x != 0).to(x.dtype)
        elif flag == 1:
            out = torch.linalg.vector_norm(x, 2, dim=axis, keepdim=keepdims)
        else:
            out = torch.linalg.vector_norm(x, ord, dim=axis, keepdim=keepdims)
    return out if out.dtype is data.dtype else out.to(data.dtype)
