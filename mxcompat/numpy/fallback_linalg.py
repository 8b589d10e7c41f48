"""The ``mx.np.linalg`` functions that MXNet runs with official NumPy (MXNet 1.9.1's
``mxnet.numpy.fallback_linalg``), as in :mod:`mxcompat.numpy.fallback`."""
import numpy as onp

from .fallback import _numpy_functions

_MXNET_FALLBACK = ['cond', 'lstsq', 'matrix_power', 'matrix_rank', 'multi_dot', 'qr']

globals().update(_numpy_functions(_MXNET_FALLBACK, onp.linalg))
__all__ = [n for n in _MXNET_FALLBACK if n in globals()]
