"""Engine properties management (``mx.engine``).

MXNet's engine bundles small operators into bulks. PyTorch runs operators eagerly, so the bulk
size is only remembered: the calls keep MXNet's signatures and return values.
"""
import threading

from .base import MXNetError

__all__ = ['set_bulk_size', 'bulk']

_lock = threading.Lock()
_bulk_size = [0]


def set_bulk_size(size):
    """Set size limit on bulk execution.

    Bulk execution bundles many operators to run together.
    This can improve performance when running a lot of small
    operators sequentially.

    Parameters
    ----------
    size : int
        Maximum number of operators that can be bundled in a bulk.

    Returns
    -------
    int
        Previous bulk size.
    """
    size = int(size)
    if size < 0:
        raise MXNetError('set_bulk_size: size must be >= 0, got %d' % size)
    with _lock:
        prev = _bulk_size[0]
        _bulk_size[0] = size
    return prev


class _BulkScope:
    """Scope object for bulk execution."""
    def __init__(self, size):
        self._size = size
        self._old_size = None

    def __enter__(self):
        self._old_size = set_bulk_size(self._size)
        return self

    def __exit__(self, ptype, value, trace):
        set_bulk_size(self._old_size)


def bulk(size):
    """Bulk execution bundles many operators to run together.
    This can improve performance when running a lot of small
    operators sequentially.

    Returns a scope for managing bulk size::

        with mx.engine.bulk(10):
            x = mx.nd.zeros((1,))
            for i in range(100):
                x += 1
    """
    return _BulkScope(size)
