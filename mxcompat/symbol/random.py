"""The ``mx.sym.random`` operators, generated from the operator table."""
from .. import ops as _ops  # noqa: F401
from .register import populate as _populate

__all__ = _populate(globals(), 'random')
