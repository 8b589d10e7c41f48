"""``mx.nd.sparse``: arrays with MXNet's sparse storage types, ``csr`` and ``row_sparse``.

mxcompat keeps the values of a sparse array densely, in the one ``torch.Tensor`` every NDArray
wraps; ``CSRNDArray`` and ``RowSparseNDArray`` carry MXNet's storage type (``stype``) and give
its sparse views (``data``, ``indices``, ``indptr``) computed from the stored values. Code that
builds sparse arrays, binds symbols whose variables are sparse or feeds CSR data through
``NDArrayIter`` runs with MXNet's values. Differences from MXNet:

- the stored structure is the non-zero values: an explicitly stored zero (``csr_matrix`` built
  from data with zeros in it) is not kept, so ``data`` and ``indices`` leave it out;
- operators compute on the dense values and return dense (``'default'``) arrays, where MXNet's
  sparse kernels return ``csr`` or ``row_sparse`` for some of them (``csr * 2``); writing into a
  sparse array (``out=``, ``x[:] = y``, ``copyto``) keeps its storage type;
- gradients are dense, so optimizers apply dense updates (MXNet's ``lazy_update`` of
  ``row_sparse`` gradients, which leaves rows without gradient untouched, is not reproduced).
"""
import numpy as np
import torch

from ..base import MXNetError, dtype_torch
from .ndarray import (NDArray, _device_and_ctx, _tensor_from_source, zeros as _dense_zeros,
                      _STORAGE_TYPE_ID_TO_STR)

__all__ = ['csr_matrix', 'row_sparse_array', 'CSRNDArray', 'RowSparseNDArray', 'BaseSparseNDArray',
           'zeros', 'empty', 'array']


class BaseSparseNDArray(NDArray):
    """The base class of an NDArray stored in a sparse storage format.

    See CSRNDArray and RowSparseNDArray for more details.
    """
    __slots__ = ()
    _STYPE = None

    @property
    def stype(self):
        """Storage-type of the array: ``'csr'`` or ``'row_sparse'``."""
        return self._STYPE

    def __repr__(self):
        """Returns a string representation of the sparse array (without its values)."""
        return '\n<%s %s @%s>' % (type(self).__name__, 'x'.join(str(x) for x in self.shape),
                                  self.context)

    __str__ = __repr__

    def _same_stype(self, t):
        out = type(self).__new__(type(self))
        out._t = t
        out._ctx = self._ctx
        return out

    def copy(self):
        """Makes a copy of this array, keeping its storage type and context."""
        return self._same_stype(self._t.detach().clone())

    def astype(self, dtype, copy=True):
        """Returns a copy of the array after casting to a specified type, keeping its storage
        type.

        Parameters
        ----------
        dtype : numpy.dtype or str
            The type of the returned array.
        copy : bool
            Default `True`. If `False` and the dtype requested is the array's, the array itself
            is returned.
        """
        td = dtype_torch(dtype)
        if not copy and td is self._t.dtype:
            return self
        return self._same_stype(self._t.detach().to(td, copy=True))

    def copyto(self, other):
        """Copies the value of this array to another array or to a context (keeping the
        storage type).

        Parameters
        ----------
        other : NDArray or Context
            The destination array or context.
        """
        out = NDArray.copyto(self, other)
        if isinstance(other, NDArray):
            return out
        res = self._same_stype(out._t)
        res._ctx = out._ctx
        return res

    def tostype(self, stype):
        """Returns a copy of the array with the chosen storage type.

        Parameters
        ----------
        stype : str
            ``'default'`` or the array's own storage type.
        """
        if stype == 'default':
            return self._like(self._t.detach().clone())
        if stype == self._STYPE:
            return self.copy()
        raise ValueError('cast_storage from %s to %s is not supported' % (self._STYPE, stype))


class CSRNDArray(BaseSparseNDArray):
    """A sparse representation of a 2D NDArray in the Compressed Sparse Row format.

    ``data`` holds the non-zero values in row-major order, ``indices`` their column indices and
    ``indptr`` the offsets in ``data`` where each row starts (both int64), as MXNet's. mxcompat
    stores the values densely and derives these from them.
    """
    __slots__ = ()
    _STYPE = 'csr'

    def _nonzero(self):
        t = self._t.detach()
        return t, torch.nonzero(t)  # (row, column) pairs in row-major order

    @property
    def indices(self):
        """The column indices of the stored values (int64)."""
        return self._like(self._nonzero()[1][:, 1].contiguous())

    @property
    def indptr(self):
        """Where each row's values start in ``data`` (int64, ``shape[0] + 1`` entries)."""
        t, nz = self._nonzero()
        counts = torch.bincount(nz[:, 0], minlength=t.shape[0])
        return self._like(torch.cat([counts.new_zeros(1), torch.cumsum(counts, 0)]))

    @property
    def data(self):
        """The stored (non-zero) values, row by row."""
        t, nz = self._nonzero()
        return self._like(t[nz[:, 0], nz[:, 1]])

    def asscipy(self):
        """A ``scipy.sparse.csr_matrix`` with the array's values (needs scipy)."""
        try:
            import scipy.sparse as spsp
        except ImportError:
            raise ImportError('scipy could not be imported. Please make sure that the scipy '
                              'is installed.') from None
        return spsp.csr_matrix((self.data.asnumpy(), self.indices.asnumpy(),
                                self.indptr.asnumpy()), shape=self.shape, dtype=self.dtype)


class RowSparseNDArray(BaseSparseNDArray):
    """A sparse representation of a set of NDArray row slices at given indices.

    ``indices`` (int64) lists the stored rows, ``data`` holds them. mxcompat stores the values
    densely; the stored rows are those with a non-zero value.
    """
    __slots__ = ()
    _STYPE = 'row_sparse'

    def _rows(self):
        t = self._t.detach()
        return torch.nonzero(t.reshape(t.shape[0], -1).ne(0).any(1)).reshape(-1)

    @property
    def indices(self):
        """The indices of the stored rows (int64)."""
        return self._like(self._rows())

    @property
    def data(self):
        """The stored rows."""
        return self._like(self._t.detach()[self._rows()])


_CLASSES = {'csr': CSRNDArray, 'row_sparse': RowSparseNDArray}


def _wrap(stype, t, ctx):
    if stype not in _CLASSES:
        raise MXNetError("unknown storage type '%s'; expected 'default', 'csr' or 'row_sparse'"
                         % stype)
    if stype == 'csr' and t.dim() != 2:
        raise MXNetError('a csr array must be 2-D, got shape %s' % (tuple(t.shape),))
    if t.dim() == 0:
        raise MXNetError('a row_sparse array needs at least one dimension')
    out = _CLASSES[stype].__new__(_CLASSES[stype])
    out._t = t
    out._ctx = ctx if ctx.device_typeid != 2 and (ctx.device_id, ctx.device_typeid) != (0, 1) \
        else None
    return out


def _var_storage_types(attr_dict, stype_dict=None):
    """{variable name: storage type} of the variables of a symbol's ``attr_dict()`` declared
    with ``stype`` (``sym.var(stype=)``), updated with ``stype_dict``."""
    stypes = {name: _STORAGE_TYPE_ID_TO_STR[int(attrs['__storage_type__'])]
              for name, attrs in attr_dict.items() if '__storage_type__' in attrs}
    stypes.update(stype_dict or {})
    return stypes


def _as_dense(stype, source, ctx, dtype):
    """The tensor of ``source`` (NDArray, numpy array or nested sequence) on ``ctx``."""
    dev, ctx = _device_and_ctx(ctx)
    if isinstance(source, NDArray):
        t = source._t.detach().to(device=dev, dtype=source._t.dtype if dtype is None
                                  else dtype_torch(dtype), copy=True)
    else:
        if dtype is None:
            dtype = source.dtype if isinstance(source, np.ndarray) else np.float32
        t = _tensor_from_source(source, dtype).to(dev)
    return _wrap(stype, t, ctx)


def zeros(stype, shape, ctx=None, dtype=None, **kwargs):
    """Returns a new array of the given storage type and shape, filled with zeros.

    Parameters
    ----------
    stype : str
        ``'csr'``, ``'row_sparse'`` or ``'default'``.
    shape : int or tuple of int
        The shape of the array.
    ctx : Context, optional
        Device context (default is the current default context).
    dtype : str or numpy.dtype, optional
        The value type (default ``float32``).
    """
    if stype in (None, 'default'):
        return _dense_zeros(shape, ctx, dtype, **kwargs)
    dense = _dense_zeros(shape, ctx, np.float32 if dtype is None else dtype)
    return _wrap(stype, dense._t, dense.context)


def empty(stype, shape, ctx=None, dtype=None):
    """Returns a new array of the given storage type and shape: an empty sparse array holds
    no values, so this is :func:`zeros` (whose parameters it takes)."""
    return zeros(stype, shape, ctx, dtype)


def _shape_of(arg):
    """``arg`` as a shape when it is a tuple of ints (an empty array's shape), else None."""
    if isinstance(arg, tuple) and arg and all(isinstance(n, (int, np.integer)) for n in arg):
        return tuple(int(n) for n in arg)
    return None


def _numpy(a):
    return np.asarray(a.asnumpy() if isinstance(a, NDArray) else a)


def _scipy_dense(arg):
    """The dense numpy values of a scipy.sparse matrix, or None for anything else."""
    if hasattr(arg, 'tocsr') and hasattr(arg, 'nnz'):
        return np.asarray(arg.toarray())
    return None


def csr_matrix(arg1, shape=None, ctx=None, dtype=None):
    """Creates a `CSRNDArray`, a 2D array with compressed sparse row (CSR) format.

    Parameters
    ----------
    arg1 : tuple or NDArray or numpy.ndarray or scipy.sparse matrix
        ``(data, indices, indptr)``; ``(data, (row, col))`` (COO); ``(M, N)`` for an empty
        array; a dense array; another CSRNDArray or a scipy.sparse matrix.
    shape : tuple of int, optional
        The shape (required with ``(data, indices, indptr)`` where it cannot be inferred).
    ctx : Context, optional
        Device context (default is the current default context).
    dtype : str or numpy.dtype, optional
        The value type (default: the source's, else ``float32``).
    """
    empty_shape = _shape_of(arg1)
    if empty_shape is not None:
        if len(empty_shape) != 2:
            raise MXNetError('csr_matrix: an empty csr array needs a 2-D shape, got %s'
                             % (empty_shape,))
        return zeros('csr', empty_shape, ctx, dtype)
    if isinstance(arg1, tuple) and len(arg1) == 3:
        data, indices, indptr = (_numpy(a) for a in arg1)
        if not isinstance(arg1[0], (NDArray, np.ndarray)):
            data = data.astype(np.float32)
        indptr = indptr.astype(np.int64)
        if shape is None:
            shape = (len(indptr) - 1, int(indices.max()) + 1 if indices.size else 0)
        if len(indptr) != shape[0] + 1 or indptr[0] != 0 or indptr[-1] != len(data) or \
                len(indices) != len(data) or np.any(np.diff(indptr) < 0):
            raise MXNetError('csr_matrix: indptr must have shape[0] + 1 = %d non-decreasing '
                             'entries from 0 to len(data) = %d, and indices one per value'
                             % (shape[0] + 1, len(data)))
        rows = np.repeat(np.arange(shape[0]), np.diff(indptr))
        return csr_matrix((data, (rows, indices)), shape, ctx, dtype)
    if isinstance(arg1, tuple) and len(arg1) == 2 and isinstance(arg1[1], tuple):
        data, (row, col) = arg1
        data = _numpy(data)
        row, col = (_numpy(a).astype(np.int64) for a in (row, col))
        if shape is None:
            shape = (int(row.max()) + 1, int(col.max()) + 1)
        if row.size and (row.min() < 0 or col.min() < 0 or row.max() >= shape[0]
                         or col.max() >= shape[1]):
            raise MXNetError('csr_matrix: an index is outside the shape %s' % (tuple(shape),))
        dense = np.zeros(shape, dtype=data.dtype if dtype is None else np.dtype(dtype))
        np.add.at(dense, (row, col), data)
        return _as_dense('csr', dense, ctx, dtype)
    dense = _scipy_dense(arg1)
    return _as_dense('csr', arg1 if dense is None else dense, ctx, dtype)


def row_sparse_array(arg1, shape=None, ctx=None, dtype=None):
    """Creates a `RowSparseNDArray`, a multidimensional row sparse array.

    Parameters
    ----------
    arg1 : tuple or NDArray or numpy.ndarray
        ``(data, indices)``: the rows ``data[i]`` stored at row ``indices[i]``; ``(D0, D1, ...)``
        for an empty array; a dense array or another RowSparseNDArray.
    shape : tuple of int, optional
        The shape (required with ``(data, indices)`` where it cannot be inferred).
    ctx : Context, optional
        Device context (default is the current default context).
    dtype : str or numpy.dtype, optional
        The value type (default: the source's, else ``float32``).
    """
    empty_shape = _shape_of(arg1)
    if empty_shape is not None:
        return zeros('row_sparse', empty_shape, ctx, dtype)
    if isinstance(arg1, tuple) and len(arg1) == 2:
        data, indices = (_numpy(a) for a in arg1)
        if not isinstance(arg1[0], (NDArray, np.ndarray)):
            data = data.astype(np.float32)
        indices = indices.astype(np.int64).reshape(-1)
        if shape is None:
            shape = (int(indices.max()) + 1 if indices.size else 0,) + data.shape[1:]
        if len(indices) != len(data) or tuple(data.shape[1:]) != tuple(shape[1:]) or \
                (indices.size and (indices.min() < 0 or indices.max() >= shape[0])):
            raise MXNetError('row_sparse_array: data must hold one row of shape %s per index, '
                             'and indices lie in [0, %d)' % (tuple(shape[1:]), shape[0]))
        dense = np.zeros(shape, dtype=data.dtype if dtype is None else np.dtype(dtype))
        dense[indices] = data
        return _as_dense('row_sparse', dense, ctx, dtype)
    return _as_dense('row_sparse', arg1, ctx, dtype)


def array(source_array, ctx=None, dtype=None):
    """Creates a sparse array from a sparse array or a scipy.sparse matrix (a CSRNDArray).

    Parameters
    ----------
    source_array : RowSparseNDArray, CSRNDArray or scipy.sparse matrix
        The source.
    ctx : Context, optional
        Device context (default is the current default context).
    dtype : str or numpy.dtype, optional
        The value type (default: the source's).
    """
    if isinstance(source_array, BaseSparseNDArray):
        return _as_dense(source_array.stype, source_array, ctx, dtype)
    dense = _scipy_dense(source_array)
    if dense is None:
        raise ValueError('Unexpected source_array type: %s; use mx.nd.array for dense data'
                         % type(source_array).__name__)
    return _as_dense('csr', dense, ctx, dtype)


# Operators MXNet registers under the _sparse_ prefix (sgd_update, adam_update, ...): they also
# accept dense arrays, as in MXNet.
from .. import ops as _ops  # noqa: F401,E402
from .register import populate as _populate  # noqa: E402
__all__ += [n for n in _populate(globals(), 'sparse') if n not in __all__]
