"""General utility functions (``mx.util``), among them the switches of MXNet's NumPy
semantics: NumPy shape semantics (``set_np_shape``, ``np_shape``: zero-dimensional and
zero-size arrays, -1 for an unknown dimension) and NumPy array semantics (``np_array``: Gluon
takes and returns ``mx.np.ndarray``), both turned on by ``npx.set_np()``. Both are flags of the
calling thread, as MXNet keeps them.
"""
import functools
import inspect
import os
import threading

import torch

from .base import MXNetError

__all__ = ['get_gpu_count', 'get_gpu_memory', 'set_np_shape', 'is_np_shape', 'np_shape',
           'use_np_shape', 'set_module', 'np_array', 'is_np_array', 'use_np_array', 'use_np',
           'np_ufunc_legal_option', 'wrap_np_unary_func', 'wrap_np_binary_func', 'set_np',
           'reset_np', 'get_cuda_compute_capability', 'getenv', 'setenv', 'makedirs']

_NP_UFUNC_DEFAULTS = {'where': True, 'casting': 'same_kind', 'order': 'K', 'dtype': None,
                      'subok': True}


_NP_STATE = threading.local()  # is_np_shape / is_np_array flags of the thread


def get_gpu_count():
    """Number of GPUs (CUDA devices) torch can use."""
    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def get_gpu_memory(gpu_dev_id):
    """(free, total) bytes of memory of GPU ``gpu_dev_id``."""
    if get_gpu_count() == 0:
        raise MXNetError('get_gpu_memory: no CUDA device is available to torch')
    if not 0 <= gpu_dev_id < get_gpu_count():
        raise MXNetError('get_gpu_memory: invalid gpu_dev_id %d (%d GPUs present)'
                         % (gpu_dev_id, get_gpu_count()))
    free, total = torch.cuda.mem_get_info(gpu_dev_id)
    return free, total


# ------------------------------------------------------------------------- NumPy shape
def set_np_shape(active):
    """Turns on/off NumPy shape semantics, in which zero-dimensional and zero-size arrays are
    valid and -1 marks an unknown dimension.

    Parameters
    ----------
    active : bool
        Indicates whether to turn on/off NumPy shape semantics.

    Returns
    -------
        A bool value indicating the previous state of NumPy shape semantics.

    Raises
    ------
    ValueError
        When turning NumPy shape semantics off while NumPy array semantics is on
        (``npx.reset_np()`` turns off both).
    """
    if not active and is_np_array():
        raise ValueError('Deactivating NumPy shape semantics while NumPy array semantics is still'
                         ' active is not allowed. Please consider calling `npx.reset_np()` to'
                         ' deactivate both of them.')
    prev = is_np_shape()
    _NP_STATE.shape = bool(active)
    return prev


def is_np_shape():
    """Checks whether the NumPy shape semantics is currently turned on."""
    return getattr(_NP_STATE, 'shape', False)


class _NumpyShapeScope:
    """Scope for managing NumPy shape semantics. Use ``np_shape(active)`` instead."""
    def __init__(self, is_np_shape):  # pylint: disable=redefined-outer-name
        self._enter_is_np_shape = is_np_shape
        self._prev_is_np_shape = None

    def __enter__(self):
        if self._enter_is_np_shape is not None:
            self._prev_is_np_shape = set_np_shape(self._enter_is_np_shape)

    def __exit__(self, ptype, value, trace):
        if self._enter_is_np_shape is not None and \
                self._prev_is_np_shape != self._enter_is_np_shape:
            set_np_shape(self._prev_is_np_shape)


def np_shape(active=True):
    """Returns an activated/deactivated NumPy shape scope to be used in 'with' statement.

    Parameters
    ----------
    active : bool
        Indicates whether to turn on/off NumPy shape semantics.
    """
    return _NumpyShapeScope(active)


def _scoped(func, scope, decorator):
    """Wrap a callable, or every method and property of a class (as MXNet does; those a Gluon
    block inherits from ``torch.nn.Module`` are left alone), to run inside ``scope()``."""
    if inspect.isclass(func):
        foreign = set(dir(torch.nn.Module))
        for name, method in inspect.getmembers(
                func, lambda f: inspect.isfunction(f) or inspect.ismethod(f) or
                isinstance(f, property)):
            if name in foreign and not any(name in vars(k) for k in func.__mro__
                                           if not issubclass(torch.nn.Module, k)):
                continue
            if isinstance(method, property):
                setattr(func, name, property(_scoped(method.__get__, scope, decorator),
                                             method.__set__, method.__delattr__,
                                             method.__doc__))
            else:
                setattr(func, name, _scoped(method, scope, decorator))
        return func
    if callable(func):
        @functools.wraps(func)
        def _wrapped(*args, **kwargs):
            with scope():
                return func(*args, **kwargs)
        return _wrapped
    raise TypeError('%s can only decorate classes and callable objects, while received a %s'
                    % (decorator, type(func)))


def use_np_shape(func):
    """A decorator running a function (or a class's ``__init__``) in NumPy shape
    semantics."""
    return _scoped(func, lambda: np_shape(True), 'use_np_shape')


def _sanity_check_params(func_name, unsupported_params, param_dict):
    for param_name in unsupported_params:
        if param_name in param_dict:
            raise NotImplementedError('function {} does not support parameter {}'
                                      .format(func_name, param_name))


def set_module(module):
    """Decorator for overriding __module__ on a function or class."""
    def decorator(func):
        if module is not None:
            func.__module__ = module
        return func
    return decorator


# ------------------------------------------------------------------------- NumPy array
class _NumpyArrayScope:
    """Scope for managing NumPy array creation. Use ``np_array(active)`` instead."""

    def __init__(self, is_np_array):  # pylint: disable=redefined-outer-name
        self._prev = None
        self._is_np_array = is_np_array

    def __enter__(self):
        self._prev = is_np_array()
        _NP_STATE.array = bool(self._is_np_array)
        return self

    def __exit__(self, ptype, value, trace):
        _NP_STATE.array = self._prev


def np_array(active=True):
    """Returns an activated/deactivated NumPy-array scope to be used in 'with' statement: in
    an active one, Gluon blocks and parameters give ``mx.np.ndarray``."""
    return _NumpyArrayScope(active)


def is_np_array():
    """Checks whether the NumPy-array semantics is currently turned on."""
    return getattr(_NP_STATE, 'array', False)


def use_np_array(func):
    """A decorator running a function (or a class's ``__init__``) in NumPy array
    semantics."""
    return _scoped(func, lambda: np_array(True), 'use_np_array')


def use_np(func):
    """A decorator running a function (or a class's ``__init__``) in NumPy shape and array
    semantics."""
    return use_np_shape(use_np_array(func))


def set_np(shape=True, array=True):
    """Setting NumPy shape and array semantics at the same time. It is required to keep NumPy
    shape semantics active while activating NumPy array semantics.

    Parameters
    ----------
    shape : bool
        A boolean value indicating whether the NumPy-shape semantics should be turned on or
        off.
    array : bool
        A boolean value indicating whether the NumPy-array semantics should be turned on or
        off.
    """
    if not shape and array:
        raise ValueError('NumPy Shape semantics is required in using NumPy array semantics.')
    _NP_STATE.array = bool(array)
    set_np_shape(shape)


def reset_np():
    """Deactivate NumPy shape and array semantics at the same time."""
    set_np(shape=False, array=False)


def np_ufunc_legal_option(key, value):
    """Whether ``key=value`` is a legal option of a NumPy ufunc."""
    if key == 'where':
        return True
    if key == 'casting':
        return value in ('no', 'equiv', 'safe', 'same_kind', 'unsafe')
    if key == 'order':
        return isinstance(value, str)
    if key == 'dtype':
        import numpy as np
        return value in (np.int8, np.uint8, np.int32, np.int64, np.float16, np.float32,
                         np.float64, 'int8', 'uint8', 'int32', 'int64', 'float16', 'float32',
                         'float64')
    if key == 'subok':
        return isinstance(value, bool)
    return False


def _check_ufunc_kwargs(name, kwargs):
    for key, value in kwargs.items():
        if key not in _NP_UFUNC_DEFAULTS:
            raise TypeError("{} is an invalid keyword to function '{}'".format(key, name))
        if value != _NP_UFUNC_DEFAULTS[key]:
            if np_ufunc_legal_option(key, value):
                raise NotImplementedError('{}={} is not implemented yet for operator {}'
                                          .format(key, value, name))
            raise TypeError('{}={} not understood for operator {}'.format(key, value, name))


def wrap_np_unary_func(func):
    """Wrap a NumPy-compatible unary ufunc with NumPy's keyword-argument checks."""
    @functools.wraps(func)
    def _wrap_np_unary_func(x, out=None, **kwargs):
        _check_ufunc_kwargs(func.__name__, kwargs)
        return func(x, out=out)
    return _wrap_np_unary_func


def wrap_np_binary_func(func):
    """Wrap a NumPy-compatible binary ufunc with NumPy's keyword-argument checks."""
    @functools.wraps(func)
    def _wrap_np_binary_func(x1, x2, out=None, **kwargs):
        _check_ufunc_kwargs(func.__name__, kwargs)
        return func(x1, x2, out=out)
    return _wrap_np_binary_func


# ------------------------------------------------------------------------- devices, env
def get_cuda_compute_capability(ctx):
    """Returns the cuda compute capability of the input `ctx` (e.g. 70 for sm_70).

    Parameters
    ----------
    ctx : Context
        GPU context whose corresponding cuda compute capability is to be retrieved.
    """
    if ctx.device_type != 'gpu':
        raise ValueError('Expecting a gpu context to get cuda compute capability, '
                         'while received ctx {}'.format(str(ctx)))
    if not torch.cuda.is_available():
        raise RuntimeError('get_cuda_compute_capability: no CUDA device is available to torch')
    major, minor = torch.cuda.get_device_capability(ctx.device_id)
    return major * 10 + minor


def getenv(name):
    """Get the setting of an environment variable (None if not set).

    Parameters
    ----------
    name : string type
        The environment variable name
    """
    return os.environ.get(name)


def setenv(name, value):
    """Set an environment variable (unset it when ``value`` is None).

    Parameters
    ----------
    name : string type
        The environment variable name
    value : string type
        The desired value to set the environment value to
    """
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


def makedirs(d):
    """Create directories recursively if they don't exist."""
    os.makedirs(os.path.expanduser(d), exist_ok=True)
