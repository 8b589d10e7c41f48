"""The ``mx.nd.contrib`` namespace, generated from the operator table."""
from .. import ops as _ops  # noqa: F401
from .register import populate as _populate

__all__ = _populate(globals(), 'contrib')

# Python front ends of MXNet's contrib AdamW / LAMB multi-tensor updates
from ._contrib_optimizer import *  # noqa: F401,F403,E402
from ._contrib_optimizer import __all__ as _optimizer_all  # noqa: E402
__all__ += _optimizer_all
from .contrib_python import *  # noqa
