"""Symbolic API of MXNet (``mx.sym``)."""
from . import _internal, contrib, linalg, op, random, sparse, image
from .symbol import Symbol, var, Variable, Group, load, load_json
from .op import *  # noqa: F401,F403
from .helpers import *  # noqa: F401,F403
from ..ops.custom import symbol_Custom as Custom
from ..ndarray import fluent as _fluent

# NDArray.slice_assign writes in place: MXNet has no Symbol form of it
_fluent.attach(Symbol, globals(), _internal, skip=('slice_assign', 'slice_assign_scalar'))

# the NumPy interface's symbols (F.np / F.npx of a hybridized NumPy-mode block)
from . import numpy, numpy_extension  # noqa: E402
np, npx = numpy, numpy_extension
