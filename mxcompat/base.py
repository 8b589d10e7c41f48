"""Shared foundations: MXNetError, the one dtype table, and attribute-string parsing.

Every other module converts dtypes and parses operator attributes through this file, so that
there is exactly one mapping between numpy, torch and MXNet's type flags.
"""
import ast
import ctypes
import functools
import gc
import numbers
import os
import platform

import numpy as np
import torch

__all__ = ['MXNetError', 'NotSupportedForSparseNDArray', 'numeric_types', 'integer_types',
           'string_types', 'mx_real_t', 'dtype_np', 'dtype_torch', 'dtype_flag', 'dtype_from_flag']


class MXNetError(RuntimeError):
    """Error raised by mxcompat where MXNet raises ``mxnet.base.MXNetError``."""


# MXNet's handle type: callbacks that receive arrays (executor monitors, op hooks) are written
# ``NDArray(ctypes.cast(arr, NDArrayHandle))``; an mxcompat array's handle names the array itself
NDArrayHandle = ctypes.c_void_p


class MXNetAssertionError(MXNetError, AssertionError):
    """MXNetError where MXNet fails an assertion (e.g. a parameter file that does not match
    the model): code catching either exception keeps working."""


class MXNetValueError(MXNetError, ValueError):
    """MXNetError where MXNet raises ValueError (e.g. a parameter file with extra names)."""


def env_seconds(name, default):
    """Seconds from the environment variable ``name`` (``default`` when unset); MXNetError
    unless it is a positive number."""
    value = os.environ.get(name, '').strip()
    try:
        seconds = float(value) if value else default
    except ValueError:
        seconds = -1.0
    if not seconds > 0:
        raise MXNetError('%s must be a positive number of seconds, not %r' % (name, value))
    return seconds


def gc_paused(fn):
    """Decorator: ``fn`` runs with Python's cyclic garbage collector paused (as it was again
    afterwards). For passes over a whole graph, which create many long-lived objects: every
    automatic collection during them would walk all of those objects again, which takes most
    of the time of loading or binding a graph of 100,000 nodes."""
    @functools.wraps(fn)
    def paused(*args, **kwargs):
        if not gc.isenabled():
            return fn(*args, **kwargs)
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            gc.enable()
    return paused


class NotImplementedForSymbol(MXNetError):
    """Raised for NDArray-only features used on a Symbol."""
    def __init__(self, function, alias, *args):
        super(NotImplementedForSymbol, self).__init__()
        self.function = function.__name__
        self.alias = alias

    def __str__(self):
        msg = 'Function {}'.format(self.function)
        if self.alias:
            msg += ' (namely operator "{}")'.format(self.alias)
        return msg + ' is not implemented for Symbol and only available in NDArray.'


class NotSupportedForSparseNDArray(MXNetError):
    """Raised for operations that MXNet defines only for dense arrays."""


_Null = None  # MXNet's "argument not given" marker in generated signatures


class _RequiredType:
    """Marker for a required operator parameter that has no default."""
    __slots__ = ()

    def __repr__(self):
        return '<required>'


REQUIRED = _RequiredType()

numeric_types = (float, int, np.generic)
integer_types = (int, np.integer)
string_types = (str,)
mx_real_t = np.float32

# ---------------------------------------------------------------------------------------------
# The dtype table: MXNet type flag, numpy dtype, torch dtype, MXNet's name.
# bfloat16 has no numpy dtype; MXNet represents it as the structured dtype below.
# ---------------------------------------------------------------------------------------------
BFLOAT16_NP = np.dtype([('bfloat16', np.uint16)])

_DTYPES = [
    # flag, numpy,           torch,           name
    (0, np.dtype('float32'), torch.float32, 'float32'),
    (1, np.dtype('float64'), torch.float64, 'float64'),
    (2, np.dtype('float16'), torch.float16, 'float16'),
    (3, np.dtype('uint8'), torch.uint8, 'uint8'),
    (4, np.dtype('int32'), torch.int32, 'int32'),
    (5, np.dtype('int8'), torch.int8, 'int8'),
    (6, np.dtype('int64'), torch.int64, 'int64'),
    (7, np.dtype('bool'), torch.bool, 'bool'),
    (8, np.dtype('int16'), torch.int16, 'int16'),
    (9, np.dtype('uint16'), torch.uint16, 'uint16'),
    (10, np.dtype('uint32'), torch.uint32, 'uint32'),
    (11, np.dtype('uint64'), torch.uint64, 'uint64'),
    (12, BFLOAT16_NP, torch.bfloat16, 'bfloat16'),
]

_FLAG_TO_NP = {f: n for f, n, _, _ in _DTYPES}
# MXNet's dtype names, each its own canonical spelling (``dtype_name(n) == n``)
DTYPE_NAMES = frozenset(name for _, _, _, name in _DTYPES)
_NAME_TO_TORCH = {name: t for _, _, t, name in _DTYPES}
_FLAG_TO_TORCH = {f: t for f, _, t, _ in _DTYPES}
_NP_TO_FLAG = {n: f for f, n, _, _ in _DTYPES}
_TORCH_TO_FLAG = {t: f for f, _, t, _ in _DTYPES}
_TORCH_TO_NP = {t: n for _, n, t, _ in _DTYPES}
_NAME_TO_FLAG = {name: f for f, _, _, name in _DTYPES}
_TORCH_TO_NAME = {t: name for _, _, t, name in _DTYPES}
# numpy scalar types (np.float32, ...) hash differently from np.dtype objects: cache both
_NP_TYPE_CACHE = {}

# MXNet's public dtype maps, exposed as mx.nd._DTYPE_NP_TO_MX / _DTYPE_MX_TO_NP
DTYPE_NP_TO_MX = {None: -1}
DTYPE_NP_TO_MX.update({n.type if n is not BFLOAT16_NP else n: f for f, n, _, _ in _DTYPES})
DTYPE_MX_TO_NP = {-1: None}
DTYPE_MX_TO_NP.update({f: (n.type if n is not BFLOAT16_NP else n) for f, n, _, _ in _DTYPES})


def _flag_of(dtype):
    """MXNet type flag of any dtype spelling: numpy type or dtype, torch dtype, name, flag."""
    if isinstance(dtype, torch.dtype):
        flag = _TORCH_TO_FLAG.get(dtype)
    elif isinstance(dtype, str):
        flag = _NAME_TO_FLAG.get(dtype)
        if flag is None:
            try:
                flag = _NP_TO_FLAG.get(np.dtype(dtype))
            except TypeError:
                flag = None
    elif isinstance(dtype, int) and not isinstance(dtype, bool):
        flag = dtype if dtype in _FLAG_TO_NP else None
    elif not isinstance(dtype, (type, np.dtype, np.ndarray)) and hasattr(dtype, 'dtype'):
        # an NDArray given as a dtype (``x.astype(y)``): its type, as numpy before 2 took it
        return _flag_of(dtype.dtype)
    else:
        flag = _NP_TYPE_CACHE.get(dtype)
        if flag is None:
            try:
                flag = _NP_TO_FLAG.get(np.dtype(dtype))
            except TypeError:
                flag = None
            if flag is not None:
                _NP_TYPE_CACHE[dtype] = flag
    if flag is None:
        raise MXNetError("Unsupported dtype %r: use one of %s"
                         % (dtype, ', '.join(name for _, _, _, name in _DTYPES)))
    return flag


def dtype_flag(dtype):
    """MXNet's integer type flag for ``dtype``."""
    return _flag_of(dtype)


def dtype_from_flag(flag):
    """numpy dtype for MXNet's type flag ``flag``."""
    try:
        return _FLAG_TO_NP[flag]
    except KeyError:
        raise MXNetError('Unknown MXNet dtype flag %r' % (flag,)) from None


def dtype_torch(dtype):
    """torch dtype for any dtype spelling (None stays None)."""
    if type(dtype) is str and dtype in _NAME_TO_TORCH:  # the common spelling, tested first
        return _NAME_TO_TORCH[dtype]  # (isinstance of torch.dtype costs more than the look-up)
    if dtype is None:
        return None
    if isinstance(dtype, torch.dtype):
        return dtype
    return _FLAG_TO_TORCH[_flag_of(dtype)]


def dtype_np(dtype):
    """numpy scalar type (as MXNet's ``NDArray.dtype`` returns it) for any dtype spelling."""
    if dtype is None:
        return None
    n = _FLAG_TO_NP[_flag_of(dtype)]
    return n if n is BFLOAT16_NP else n.type


def dtype_name(dtype):
    """MXNet's name ('float32', ...) for any dtype spelling."""
    return _DTYPES[_flag_of(dtype)][3]


def torch_to_np_type(tdtype):
    """numpy scalar type for a torch dtype: the hot path of ``NDArray.dtype``."""
    n = _TORCH_TO_NP[tdtype]
    return n if n is BFLOAT16_NP else n.type


# ---------------------------------------------------------------------------------------------
# Attribute parsing. Operator parameters arrive as Python values from mx.nd calls and as strings
# from symbol JSON or users who pass strings; each parameter kind has one converter taking both.
# ---------------------------------------------------------------------------------------------
def _literal(s):
    s = s.strip()
    if s in ('None', ''):
        return None
    try:
        return ast.literal_eval(s)
    except (ValueError, SyntaxError):
        # MXNet accepts "[1,2]" and "(1,2)"; bare words such as "relu" are strings
        return s


def to_int(v):
    if type(v) is int:
        return v
    if isinstance(v, str):
        v = _literal(v)
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, numbers.Integral):
        return int(v)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    raise ValueError('expected an integer, got %r' % (v,))


def to_float(v):
    if type(v) is float:
        return v
    if type(v) is int:
        return float(v)
    if isinstance(v, str):
        s = v.strip().lower()
        if s in ('inf', '+inf', 'infinity'):
            return float('inf')
        if s in ('-inf', '-infinity'):
            return float('-inf')
        if s == 'nan':
            return float('nan')
        v = _literal(v)
    if isinstance(v, numbers.Real):
        return float(v)
    if getattr(v, 'ndim', None) == 0:  # a 0-d array (e.g. Trainer.step(y.sum()) in NumPy
        return float(v)                # mode), whose text MXNet parses as the number
    raise ValueError('expected a number, got %r' % (v,))


def to_bool(v):
    if v is True or v is False:
        return v
    if isinstance(v, str):
        s = v.strip().lower()
        if s in ('true', '1'):
            return True
        if s in ('false', '0'):
            return False
        raise ValueError('expected a boolean, got %r' % (v,))
    if isinstance(v, (numbers.Integral, np.bool_)):
        return bool(v)
    raise ValueError('expected a boolean, got %r' % (v,))


def to_str(v):
    if isinstance(v, str):
        return v
    raise ValueError('expected a string, got %r' % (v,))


def to_shape(v):
    """A tuple of ints: MXNet's TShape. Accepts int, sequences and strings like '(3, 3)'."""
    if type(v) is tuple:
        for i in v:  # (a loop, not all(...): no generator on the hot path)
            if type(i) is not int:
                return tuple(to_int(i) for i in v)
        return v
    if type(v) is int:  # (before the slow isinstance checks)
        return (v,)
    if isinstance(v, str):
        v = _literal(v)
    if v is None:
        return None
    if isinstance(v, numbers.Integral):
        return (int(v),)
    if isinstance(v, (list, tuple)):
        return tuple(to_int(i) for i in v)
    raise ValueError('expected a shape tuple, got %r' % (v,))


def to_float_tuple(v):
    if isinstance(v, str):
        v = _literal(v)
    if v is None:
        return None
    if isinstance(v, numbers.Real):
        return (float(v),)
    if isinstance(v, (list, tuple)):
        return tuple(to_float(i) for i in v)
    raise ValueError('expected a tuple of numbers, got %r' % (v,))


def to_dtype(v):
    """A dtype parameter: kept as MXNet's name ('float32', ...); None stays None."""
    if v is None:
        return None
    if isinstance(v, str) and v.strip() == 'None':
        return None
    return dtype_name(v)


def to_any(v):
    return v


def optional(conv):
    def conv_optional(v):
        if v is None or (isinstance(v, str) and v.strip() == 'None'):
            return None
        return conv(v)
    conv_optional.__name__ = conv.__name__ + '_or_none'
    return conv_optional


def attr_to_string(v):
    """Render a parameter value the way MXNet stores it in symbol JSON attributes."""
    if isinstance(v, bool):
        return 'True' if v else 'False'
    if isinstance(v, list):  # str(list), as MXNet writes a list it was given
        return '[' + ', '.join(attr_to_string(i) for i in v) + ']'
    if isinstance(v, tuple):
        return '(' + ', '.join(attr_to_string(i) for i in v) + (',)' if len(v) == 1 else ')')
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, type) or isinstance(v, np.dtype):
        return dtype_name(v)
    return str(v)


def py_str(x):
    return x.decode('utf-8') if isinstance(x, bytes) else x


def build_param_doc(arg_names, arg_types, arg_descs, remove_dup=True):
    """Build MXNet-style parameter documentation (used by docstrings of generated functions)."""
    param_keys = set()
    param_str = []
    for key, type_info, desc in zip(arg_names, arg_types, arg_descs):
        if key in param_keys and remove_dup:
            continue
        param_keys.add(key)
        ret = '%s : %s' % (key, type_info)
        if len(desc) != 0:
            ret += '\n    ' + desc
        param_str.append(ret)
    return ('Parameters\n----------\n%s\n' % ('\n'.join(param_str)))


def data_dir_default():
    """Default data directory: ~/.mxnet (%APPDATA%/mxnet on Windows)."""
    if platform.system() == 'Windows':
        return os.path.join(os.environ.get('APPDATA'), 'mxnet')
    return os.path.join(os.path.expanduser('~'), '.mxnet')


def data_dir():
    """Data directory in the filesystem for storage (models, datasets): $MXNET_HOME or the
    default."""
    return os.getenv('MXNET_HOME', data_dir_default())


def _as_list(obj):
    """A list from a list or tuple (returned as is), else ``[obj]``."""
    if isinstance(obj, (list, tuple)):
        return obj
    return [obj]
