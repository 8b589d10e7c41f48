"""``mx.nd.sparse``: sparse storage is not supported by mxcompat.

The module exists so that code importing it keeps working; creating or operating on sparse
arrays raises NotImplementedError naming the API.
"""
__all__ = ['csr_matrix', 'row_sparse_array', 'CSRNDArray', 'RowSparseNDArray', 'BaseSparseNDArray',
           'zeros', 'empty', 'array']


def _unsupported(name):
    def fn(*args, **kwargs):
        raise NotImplementedError('mx.nd.sparse.%s: sparse storage is not supported by mxcompat'
                                  % name)
    fn.__name__ = name
    return fn


class BaseSparseNDArray:
    """Sparse arrays are not supported by mxcompat."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError('mx.nd.sparse.%s: sparse storage is not supported by mxcompat'
                                  % type(self).__name__)


class CSRNDArray(BaseSparseNDArray):
    """Sparse arrays are not supported by mxcompat."""


class RowSparseNDArray(BaseSparseNDArray):
    """Sparse arrays are not supported by mxcompat."""


csr_matrix = _unsupported('csr_matrix')
row_sparse_array = _unsupported('row_sparse_array')
zeros = _unsupported('zeros')
empty = _unsupported('empty')
array = _unsupported('array')

# Operators MXNet registers under the _sparse_ prefix (sgd_update, adam_update, ...): they also
# accept dense arrays, as in MXNet.
from .. import ops as _ops  # noqa: F401,E402
from .register import populate as _populate  # noqa: E402
__all__ += [n for n in _populate(globals(), 'sparse') if n not in __all__]
