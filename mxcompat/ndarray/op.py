"""Operators of the top-level ``mx.nd`` namespace, generated from the operator table."""
from .. import ops as _ops  # noqa: F401  (registers the table)
from .register import populate as _populate

__all__ = _populate(globals(), 'op')
