"""NDArray API of MXNet (``mx.nd``)."""
from . import _internal, contrib, linalg, op, random, sparse, image, utils
from .ndarray import (NDArray, array, empty, zeros, ones, full, from_numpy, from_torch,
                      from_dlpack, to_dlpack_for_read, to_dlpack_for_write, waitall, concatenate,
                      moveaxis, onehot_encode)
from .ndarray import _GRAD_REQ_MAP
from .op import *  # noqa: F401,F403
from .arith import *  # noqa: F401,F403
from . import arith as _arith, ndarray as _ndarray
_ndarray._op, _ndarray._internal = op, _internal  # (for NDArray's methods)
# MXNet defines these in mxnet.ndarray.ndarray, where libraries import them from
# (GluonTS: ``from mxnet.ndarray.ndarray import maximum``)
for _name in _arith.__all__:
    setattr(_ndarray, _name, getattr(_arith, _name))
del _name
from .creation import arange, linspace, eye, split_v2
from .ndarray import histogram
from ..ops.custom import Custom
from .cached_op import CachedOp
from .utils import save, load, load_frombuffer
from ..base import DTYPE_NP_TO_MX as _DTYPE_NP_TO_MX, DTYPE_MX_TO_NP as _DTYPE_MX_TO_NP
from . import fluent as _fluent

_fluent.attach(NDArray, globals(), _internal)

# MXNet's generated-module names and its mx.np interfaces, under mx.nd as MXNet has them
gen_op, gen__internal, gen_contrib, gen_linalg, gen_image, gen_sparse = \
    op, _internal, contrib, linalg, image, sparse
from .. import numpy, numpy_extension  # noqa: E402
np, npx = numpy, numpy_extension
_ndarray._np_ndarray = numpy.ndarray
from . import unsupported as _unsupported  # noqa: E402
_unsupported.install({'nd': __import__(__name__, fromlist=['_']), 'nd.contrib': contrib})
