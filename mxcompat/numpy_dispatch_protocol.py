"""NumPy's dispatch protocols for ``mx.np.ndarray``: the NumPy functions (``__array_function__``)
and ufuncs (``__array_ufunc__``) that run as ``mx.np``'s own when given ``mx.np`` arrays (any
other NumPy function runs on copies, see ``mx.np.ndarray.__array_function__``)."""
import functools

import numpy as _np

from .numpy import multiarray as _ma

__all__ = ['with_array_function_protocol', 'with_array_ufunc_protocol']

_NUMPY_ARRAY_UFUNC_LIST = sorted(n for n in _ma.__all__
                                 if isinstance(getattr(_np, n, None), _np.ufunc))
_NUMPY_ARRAY_FUNCTION_LIST = sorted(n for n in _ma.__all__
                                    if n != 'ndarray' and callable(getattr(_np, n, None)) and
                                    not isinstance(getattr(_np, n), (_np.ufunc, type)))


def _protocol_runner(func, what):
    @functools.wraps(func)
    def run(*args, **kwargs):
        try:
            func(*args, **kwargs)
        except Exception as err:
            raise RuntimeError('Running function {} with NumPy array {} protocol failed with '
                               'exception {}'.format(func.__name__, what, str(err))) from err
    return run


def with_array_function_protocol(func):
    """A decorator for functions that expect NumPy's array function protocol (NumPy >= 1.17,
    which mxcompat requires): exceptions become a RuntimeError naming ``func``."""
    return _protocol_runner(func, 'function')


def with_array_ufunc_protocol(func):
    """A decorator for functions that expect NumPy's array ufunc protocol: exceptions become a
    RuntimeError naming ``func``."""
    return _protocol_runner(func, 'ufunc')
