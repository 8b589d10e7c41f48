"""Linear algebra operators (``_linalg_*``, in ``mx.nd.linalg`` and as ``mx.nd.linalg_*``).

Inputs are tensors of matrices: the trailing two axes hold the matrices, leading axes are batch
axes (``gemm``/``gemm2`` can take the row axis elsewhere with ``axis``). Only float32 and
float64 are supported, as in MXNet. Triangular operands use only their ``lower`` (or upper)
triangle, so their gradients are zero outside it, as MXNet's are; ``potrf``'s gradient is
symmetric, as torch's and MXNet's are. ``syevd`` has MXNet's own gradient, which stays finite
for (nearly) repeated eigenvalues.
"""
import torch

from ..base import MXNetError, dtype_name
from ..deferred_errors import any_true, raise_at_read
from .registry import register, Int, Float, Bool

_LA_DTYPES = (torch.float32, torch.float64)


def _check(opname, *tensors, min_ndim=2):
    for t in tensors:
        if t.dtype not in _LA_DTYPES:
            raise MXNetError('%s: This operation only supports 32-bit and 64-bit floating point, '
                             'got %s' % (opname, dtype_name(t.dtype)))
        if t.dim() < min_ndim:
            raise MXNetError('%s: input must be a tensor of matrices (at least %d dimensions), '
                             'got shape %s' % (opname, min_ndim, tuple(t.shape)))


def _check_square(opname, a):
    if a.shape[-1] != a.shape[-2]:
        raise MXNetError('%s: input must be a tensor of square matrices, got shape %s'
                         % (opname, tuple(a.shape)))


def _check_batch(opname, *tensors, keep=2):
    first = tensors[0]
    for t in tensors[1:]:
        if t.dim() != first.dim() or t.shape[:-keep] != first.shape[:-keep]:
            raise MXNetError('%s: inputs must have the same number of dimensions and the same '
                             'leading (batch) dimensions, got shapes %s'
                             % (opname, ', '.join(str(tuple(x.shape)) for x in tensors)))


def _triangle(a, lower):
    return torch.tril(a) if lower else torch.triu(a)


def _reduced_shape(a, nreduce):
    """MXNet's shape of a reduction of the trailing ``nreduce`` axes: never 0-d."""
    return tuple(a.shape[:-nreduce]) or (1,)


# ------------------------------------------------------------------------------ gemm
def _rows_to_end(t, axis):
    """Move the row axis ``axis`` of ``t`` to position -2 (a swap, as MXNet documents)."""
    nd = t.dim()
    ax = axis + nd if axis < 0 else axis
    if not 0 <= ax < nd - 1:
        raise MXNetError('Invalid row axis (%d) for a tensor of dimension %d' % (axis, nd))
    return ax, (t if ax == nd - 2 else t.transpose(ax, nd - 2))


def _matmul(opname, a, b, transpose_a, transpose_b, axis):
    _check(opname, a, b)
    ax, a2 = _rows_to_end(a, axis)
    _, b2 = _rows_to_end(b, axis)
    _check_batch(opname, a2, b2)
    if transpose_a:
        a2 = a2.transpose(-1, -2)
    if transpose_b:
        b2 = b2.transpose(-1, -2)
    if a2.shape[-1] != b2.shape[-2]:
        raise MXNetError('%s: Incompatible matrix dimensions for multiplication: %s and %s'
                         % (opname, tuple(a.shape), tuple(b.shape)))
    return ax, torch.matmul(a2, b2)


def _rows_back(t, ax):
    nd = t.dim()
    return t if ax == nd - 2 else t.transpose(ax, nd - 2)


_MAT_PARAMS = {'transpose_a': (Bool, False), 'transpose_b': (Bool, False),
               'alpha': (Float, 1.0), 'axis': (Int, -2)}


@register('_linalg_gemm', inputs=('A', 'B', 'C'), aliases=('linalg_gemm',),
          params={'transpose_a': (Bool, False), 'transpose_b': (Bool, False),
                  'alpha': (Float, 1.0), 'beta': (Float, 1.0), 'axis': (Int, -2)})
def linalg_gemm(A, B, C, *, transpose_a, transpose_b, alpha, beta, axis):
    """Performs general matrix multiplication and accumulation:
    out = alpha * op(A) * op(B) + beta * C, batched over the leading axes."""
    ax, prod = _matmul('_linalg_gemm', A, B, transpose_a, transpose_b, axis)
    _check('_linalg_gemm', C)
    out = _rows_back(prod, ax)
    if C.shape != out.shape:
        raise MXNetError('_linalg_gemm: C has shape %s, expected %s'
                         % (tuple(C.shape), tuple(out.shape)))
    return alpha * out + beta * C


@register('_linalg_gemm2', inputs=('A', 'B'), aliases=('linalg_gemm2',), params=_MAT_PARAMS)
def linalg_gemm2(A, B, *, transpose_a, transpose_b, alpha, axis):
    """Performs general matrix multiplication: out = alpha * op(A) * op(B), batched over the
    leading axes."""
    ax, prod = _matmul('_linalg_gemm2', A, B, transpose_a, transpose_b, axis)
    out = _rows_back(prod, ax)
    return out if alpha == 1.0 else alpha * out


# ------------------------------------------------------------------------------ Cholesky
@register('_linalg_potrf', inputs=('A',), aliases=('linalg_potrf',),
          params={'lower': (Bool, True)})
def linalg_potrf(A, *, lower):
    """Performs Cholesky factorization of a symmetric positive-definite matrix:
    A = L * L^T (lower) or A = U^T * U (upper); only that triangle of A is used."""
    _check('_linalg_potrf', A)
    _check_square('_linalg_potrf', A)
    out, info = torch.linalg.cholesky_ex(A, upper=not lower)
    if out.device.type != 'meta' and any_true(info != 0):
        # MXNet's LAPACK call fails in the kernel: the error is raised when out is read
        return raise_at_read(MXNetError(
            '_linalg_potrf: Cholesky factorization failed: the input matrix is either not '
            'symmetric or not positive definite (the leading minor of order %d is not '
            'positive definite)' % int(info.max())), out)
    return out


@register('_linalg_potri', inputs=('A',), aliases=('linalg_potri',),
          params={'lower': (Bool, True)})
def linalg_potri(A, *, lower):
    """Computes the inverse of a symmetric positive-definite matrix from its Cholesky factor A:
    out = (A * A^T)^-1 (lower) or (A^T * A)^-1 (upper)."""
    _check('_linalg_potri', A)
    _check_square('_linalg_potri', A)
    return torch.cholesky_inverse(_triangle(A, lower), upper=not lower)


# ------------------------------------------------------------------------------ triangular
_TRIANG_PARAMS = {'transpose': (Bool, False), 'rightside': (Bool, False),
                  'lower': (Bool, True), 'alpha': (Float, 1.0)}


def _triangular_operands(opname, A, B, rightside):
    _check(opname, A, B)
    _check_square(opname, A)
    _check_batch(opname, A, B)
    n = A.shape[-1]
    if (B.shape[-1] if rightside else B.shape[-2]) != n:
        raise MXNetError('%s: Incompatible matrix dimensions for multiplication: %s and %s'
                         % (opname, tuple(A.shape), tuple(B.shape)))


@register('_linalg_trmm', inputs=('A', 'B'), aliases=('linalg_trmm',), params=_TRIANG_PARAMS)
def linalg_trmm(A, B, *, transpose, rightside, lower, alpha):
    """Performs multiplication with a triangular matrix A:
    out = alpha * op(A) * B, or alpha * B * op(A) with rightside."""
    _triangular_operands('_linalg_trmm', A, B, rightside)
    t = _triangle(A, lower)
    if transpose:
        t = t.mT
    out = torch.matmul(B, t) if rightside else torch.matmul(t, B)
    return out if alpha == 1.0 else alpha * out


@register('_linalg_trsm', inputs=('A', 'B'), aliases=('linalg_trsm',), params=_TRIANG_PARAMS)
def linalg_trsm(A, B, *, transpose, rightside, lower, alpha):
    """Solves a system with a triangular matrix A:
    out = alpha * op(A)^-1 * B, or alpha * B * op(A)^-1 with rightside."""
    _triangular_operands('_linalg_trsm', A, B, rightside)
    t = _triangle(A, lower)
    upper = not lower
    if transpose:
        t, upper = t.mT, lower
    rhs = B if alpha == 1.0 else alpha * B
    return torch.linalg.solve_triangular(t, rhs, upper=upper, left=not rightside)


@register('_linalg_sumlogdiag', inputs=('A',), aliases=('linalg_sumlogdiag',))
def linalg_sumlogdiag(A):
    """Computes the sum of the logarithms of the diagonal elements of square matrices."""
    _check('_linalg_sumlogdiag', A)
    _check_square('_linalg_sumlogdiag', A)
    out = torch.log(torch.diagonal(A, dim1=-2, dim2=-1)).sum(-1)
    return out.reshape(_reduced_shape(A, 2))


@register('_linalg_syrk', inputs=('A',), aliases=('linalg_syrk',),
          params={'transpose': (Bool, False), 'alpha': (Float, 1.0)})
def linalg_syrk(A, *, transpose, alpha):
    """Multiplication of a matrix with its transpose:
    out = alpha * A * A^T, or alpha * A^T * A with transpose."""
    _check('_linalg_syrk', A)
    out = torch.matmul(A.mT, A) if transpose else torch.matmul(A, A.mT)
    return out if alpha == 1.0 else alpha * out


# ------------------------------------------------------------------------------ diagonals
@register('_linalg_extractdiag', inputs=('A',), aliases=('linalg_extractdiag',),
          params={'offset': (Int, 0)})
def linalg_extractdiag(A, *, offset):
    """Extracts the diagonal at ``offset`` (negative: below the main diagonal) of square
    matrices."""
    _check('_linalg_extractdiag', A)
    _check_square('_linalg_extractdiag', A)
    if abs(offset) >= A.shape[-1]:
        raise MXNetError('_linalg_extractdiag: Illegal offset %d for diag extraction of matrix '
                         'with dimension %d' % (offset, A.shape[-1]))
    return torch.diagonal(A, offset=offset, dim1=-2, dim2=-1).contiguous()


@register('_linalg_makediag', inputs=('A',), aliases=('linalg_makediag',),
          params={'offset': (Int, 0)})
def linalg_makediag(A, *, offset):
    """Constructs square matrices with the input vectors as diagonal at ``offset``."""
    _check('_linalg_makediag', A, min_ndim=1)
    return torch.diag_embed(A, offset=offset, dim1=-2, dim2=-1)


def _trian_indices(n, offset, lower, device):
    """Row-major indices of the packed triangle (MXNet's order: the upper triangle is packed
    as the lower triangle of the transpose)."""
    k = abs(offset)
    idx = torch.tril_indices(n, n, -k, device=device)
    use_upper = offset > 0 or (offset == 0 and not lower)
    return (idx[1], idx[0]) if use_upper else (idx[0], idx[1])


@register('_linalg_extracttrian', inputs=('A',), aliases=('linalg_extracttrian',),
          params={'offset': (Int, 0), 'lower': (Bool, True)})
def linalg_extracttrian(A, *, offset, lower):
    """Extracts a triangle of square matrices into a packed vector (lower triangle row by row;
    an upper triangle column by column)."""
    _check('_linalg_extracttrian', A)
    _check_square('_linalg_extracttrian', A)
    n = A.shape[-1]
    if abs(offset) >= n:
        raise MXNetError('_linalg_extracttrian: Illegal offset %d for trian extraction of matrix '
                         'with dimension %d' % (offset, n))
    rows, cols = _trian_indices(n, offset, lower, A.device)
    return A[..., rows, cols]


@register('_linalg_maketrian', inputs=('A',), aliases=('linalg_maketrian',),
          params={'offset': (Int, 0), 'lower': (Bool, True)})
def linalg_maketrian(A, *, offset, lower):
    """Constructs triangular matrices from packed triangles (the inverse of extracttrian)."""
    _check('_linalg_maketrian', A, min_ndim=1)
    size = A.shape[-1]
    m = int(((8 * size + 1) ** 0.5 - 1) / 2 + 0.5)
    if m * (m + 1) // 2 != size:
        raise MXNetError('_linalg_maketrian: Input tensor of maketrian has an invalid dimension '
                         'for the last axis (%d is not a triangular number)' % size)
    n = m + abs(offset)
    rows, cols = _trian_indices(n, offset, lower, A.device)
    batch = tuple(A.shape[:-1])
    out = A.new_zeros(batch + (n * n,)).index_add(-1, rows * n + cols, A)
    return out.reshape(batch + (n, n))


# ------------------------------------------------------------------------------ factorizations
@register('_linalg_gelqf', inputs=('A',), aliases=('linalg_gelqf',), num_outputs=2)
def linalg_gelqf(A):
    """LQ factorization of general matrices with at most as many rows as columns:
    A = L * Q with Q having orthonormal rows and L lower triangular."""
    _check('_linalg_gelqf', A)
    if A.shape[-2] > A.shape[-1]:
        raise MXNetError('_linalg_gelqf: Input A shape wrong: Last dimension must be >= than '
                         'second to last, got %s' % (tuple(A.shape),))
    q, r = torch.linalg.qr(A.mT, mode='reduced')
    return q.mT.contiguous(), r.mT.contiguous()


_SYEVD_EPS = {torch.float32: 1e-30, torch.float64: 1e-100}


class _Syevd(torch.autograd.Function):
    """Symmetric eigendecomposition A = U^T diag(L) U (eigenvectors in the rows of U, each
    signed so that its largest-magnitude entry is positive) with MXNet's gradient."""

    @staticmethod
    def forward(ctx, a):
        lam, v = torch.linalg.eigh(a, UPLO='L')
        u = v.mT
        pivot = torch.gather(u, -1, u.abs().argmax(-1, keepdim=True))
        u = torch.where(pivot < 0, -u, u).contiguous()
        ctx.save_for_backward(u, lam)
        return u, lam

    @staticmethod
    def backward(ctx, du, dlam):
        u, lam = ctx.saved_tensors
        y = torch.zeros_like(u) if du is None else du @ u.mT
        gap = (lam.unsqueeze(-1) - lam.unsqueeze(-2)).clamp(min=_SYEVD_EPS[u.dtype]) * 2
        y = torch.tril((y - y.mT) / gap, -1)
        y = y + y.mT
        if dlam is not None:
            y = y + torch.diag_embed(dlam)
        return u.mT @ y @ u


@register('_linalg_syevd', inputs=('A',), num_outputs=2)
def linalg_syevd(A):
    """Eigendecomposition of symmetric matrices (only the lower triangle is used):
    A = U^T * diag(L) * U, eigenvalues L in ascending order."""
    _check('_linalg_syevd', A)
    _check_square('_linalg_syevd', A)
    return _Syevd.apply(A)


@register('_linalg_inverse', inputs=('A',), aliases=('linalg_inverse',))
def linalg_inverse(A):
    """Computes the inverse of square matrices."""
    _check('_linalg_inverse', A)
    _check_square('_linalg_inverse', A)
    return torch.linalg.inv(A)


@register('_linalg_det', inputs=('A',), aliases=('linalg_det',))
def linalg_det(A):
    """Computes the determinant of square matrices."""
    _check('_linalg_det', A)
    _check_square('_linalg_det', A)
    return torch.linalg.det(A).reshape(_reduced_shape(A, 2))


@register('_linalg_slogdet', inputs=('A',), aliases=('linalg_slogdet',), num_outputs=2)
def linalg_slogdet(A):
    """Computes the sign and the natural logarithm of the absolute value of the determinant
    of square matrices."""
    _check('_linalg_slogdet', A)
    _check_square('_linalg_slogdet', A)
    sign, logabsdet = torch.linalg.slogdet(A)
    shape = _reduced_shape(A, 2)
    return sign.reshape(shape), logabsdet.reshape(shape)
