"""NumPy's dispatch protocols for ``mx.np.ndarray``: the NumPy functions (``__array_function__``)
and ufuncs (``__array_ufunc__``) that run as ``mx.np``'s own when given ``mx.np`` arrays, those
of MXNet 1.9.1's lists that mxcompat implements (any other NumPy function runs on copies, see
``mx.np.ndarray.__array_function__``)."""
import functools

import numpy as _np

from . import numpy as _mx_np
from .numpy import multiarray as _ma

__all__ = ['with_array_function_protocol', 'with_array_ufunc_protocol']

# MXNet 1.9.1's lists of the NumPy functions and ufuncs it dispatches to mx.np
_MXNET_ARRAY_FUNCTIONS = [
    'all', 'any', 'sometrue', 'argmin', 'argmax', 'around', 'round', 'round_', 'argsort', 'sort',
    'append', 'broadcast_arrays', 'broadcast_to', 'clip', 'concatenate', 'copy', 'cumsum',
    'diag', 'diagonal', 'diagflat', 'dot', 'expand_dims', 'fix', 'flip', 'flipud', 'fliplr',
    'inner', 'insert', 'max', 'amax', 'mean', 'min', 'amin', 'nonzero', 'ones_like',
    'atleast_1d', 'atleast_2d', 'atleast_3d', 'prod', 'product', 'ravel', 'repeat', 'reshape',
    'roll', 'split', 'array_split', 'hsplit', 'vsplit', 'dsplit', 'squeeze', 'stack', 'std',
    'sum', 'swapaxes', 'take', 'tensordot', 'tile', 'transpose', 'unique', 'unravel_index',
    'diag_indices_from', 'delete', 'var', 'vdot', 'vstack', 'column_stack', 'hstack', 'dstack',
    'zeros_like', 'linalg.norm', 'linalg.cholesky', 'linalg.inv', 'linalg.solve',
    'linalg.tensorinv', 'linalg.tensorsolve', 'linalg.pinv', 'linalg.eigvals', 'linalg.eig',
    'linalg.eigvalsh', 'linalg.eigh', 'shape', 'trace', 'tril', 'meshgrid', 'outer', 'einsum',
    'polyval', 'shares_memory', 'may_share_memory', 'quantile', 'percentile', 'diff',
    'ediff1d', 'resize', 'where', 'full_like', 'bincount', 'empty_like', 'nan_to_num', 'isnan',
    'isfinite', 'isposinf', 'isneginf', 'isinf', 'pad']
_MXNET_ARRAY_UFUNCS = [
    'abs', 'fabs', 'add', 'arctan2', 'copysign', 'degrees', 'hypot', 'lcm', 'subtract',
    'multiply', 'true_divide', 'negative', 'power', 'mod', 'matmul', 'absolute', 'rint', 'sign',
    'exp', 'log', 'log2', 'log10', 'expm1', 'sqrt', 'square', 'cbrt', 'reciprocal', 'invert',
    'bitwise_not', 'remainder', 'sin', 'cos', 'tan', 'sinh', 'cosh', 'tanh', 'arcsin',
    'arccos', 'arctan', 'arcsinh', 'arccosh', 'arctanh', 'maximum', 'minimum', 'ceil', 'trunc',
    'floor', 'bitwise_and', 'bitwise_xor', 'bitwise_or', 'logical_not', 'equal', 'not_equal',
    'less', 'less_equal', 'greater', 'greater_equal']


def _lookup(module, name):
    """``module.name`` for a possibly dotted name (``linalg.norm``), None where it is absent."""
    for part in name.split('.'):
        module = getattr(module, part, None)
    return module


def _own(name):
    """mx.np's own function ``name`` (None where mxcompat has none, or only NumPy's)."""
    fn, onp_fn = _lookup(_mx_np, name), _lookup(_np, name)
    return fn if fn is not None and onp_fn is not None and fn is not onp_fn else None


# the functions of MXNet's lists that mxcompat implements (the others run on NumPy copies)
_NUMPY_ARRAY_FUNCTION_LIST = [n for n in _MXNET_ARRAY_FUNCTIONS if _own(n) is not None]
_NUMPY_ARRAY_UFUNC_LIST = [n for n in _MXNET_ARRAY_UFUNCS if _own(n) is not None]
_ma._NUMPY_ARRAY_FUNCTION_DICT.update(
    (_lookup(_np, n), _own(n)) for n in _NUMPY_ARRAY_FUNCTION_LIST)
_ma._NUMPY_ARRAY_UFUNC_DICT.update((n, _own(n)) for n in _NUMPY_ARRAY_UFUNC_LIST)


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
