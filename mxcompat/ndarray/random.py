"""Random distribution generator NDArray API of MXNet (``mx.nd.random``)."""
from .. import ops as _ops  # noqa: F401
from .register import populate as _populate

__all__ = _populate(globals(), 'random')
