"""The ``mx.sym.contrib`` operators, generated from the operator table."""
from .. import ops as _ops  # noqa: F401
from .register import populate as _populate

__all__ = _populate(globals(), 'contrib')
from .contrib_python import *  # noqa: F401,F403
