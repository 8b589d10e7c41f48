"""Optimizer-states files: the pickle ``Updater.get_states`` writes and ``set_states`` reads.

Writing produces the pickle MXNet 1.9.1 writes: NDArrays as ``mxnet.ndarray.ndarray.NDArray``
with MXNet's raw-bytes ``handle``, optimizers and schedulers under their ``mxnet.*`` names, so
real MXNet loads it.

Reading never runs the pickle's own instructions. The file is interpreted by Python's pickle
machine with every constructing opcode (REDUCE, NEWOBJ, OBJ, INST, BUILD) replaced:

* a global resolves only to a fixed list of constructors, each of which checks its arguments:
  ``NDArray`` (filled only from MXNet's raw ``handle`` bytes, read by the bounds-checked
  NDArray-file reader, or from a real numeric numpy array), numeric numpy scalars, dtypes and
  arrays (whose byte count must match their shape), ``bytearray`` / ``set`` / ``frozenset`` /
  ``complex`` of already-built values, and the optimizer and learning-rate scheduler classes;
* an optimizer or scheduler is created empty and receives only the attributes a freshly
  constructed instance of its class has (no dunder names), each of a compatible kind, and all
  of them; a custom class whose constructor needs arguments it cannot be given from the file
  accepts any plain (non-dunder) attribute names;
* the result may hold only plain values (numbers, strings, bytes, None, lists, tuples, dicts,
  sets), NDArrays, numpy numbers/arrays and those objects, at most :data:`MAX_DEPTH` deep.

Nothing is allocated beyond what the file's bytes hold (the memo is a dict, not an array sized
by the file). Any violation raises :class:`~mxcompat.base.MXNetError` naming the file and what
is wrong.
"""
import _compat_pickle
import inspect
import io
import numbers
import pickle
import warnings

import numpy
import torch

from ..base import MXNetError
from ..ndarray import NDArray
from ..ndarray.ndarray import wrap
from ..ndarray.serialization import save_raw_bytes, load_raw_bytes
from .. import lr_scheduler as _lr_scheduler
from .optimizer import Optimizer

__all__ = ['dumps', 'loads', 'MAX_DEPTH']

_PROTOCOL = 4  # what MXNet's Python 3 writes; readable by every Python 3 MXNet runs on

MAX_DEPTH = 32
"""How deeply values may nest in a states file (MXNet's own nest 5 deep)."""


# --------------------------------------------------------------------------------- writing
def _mxnet_name(obj):
    """(module, name) under which real MXNet knows the mxcompat class ``obj``, or None."""
    if not isinstance(obj, type):
        return None
    module = getattr(obj, '__module__', '')
    if obj is NDArray:
        return 'mxnet.ndarray.ndarray', 'NDArray'
    if module == 'mxcompat.optimizer.contrib':
        return 'mxnet.optimizer.contrib', obj.__name__
    if module.startswith('mxcompat.optimizer.'):
        return 'mxnet.optimizer.optimizer', obj.__name__
    if module == 'mxcompat.lr_scheduler':
        return 'mxnet.lr_scheduler', obj.__name__
    return None


class _StatePickler(pickle._Pickler):  # the Python pickler: it lets save_global be renamed
    """Pickles as MXNet does: NDArray -> NDArray(None) + {'handle': raw bytes}, mxcompat
    classes under MXNet's module names."""

    def reducer_override(self, obj):  # pylint: disable=method-hidden
        if isinstance(obj, NDArray):
            return NDArray, (None,), {'handle': bytearray(save_raw_bytes(obj))}
        return NotImplemented

    def save_global(self, obj, name=None):
        target = _mxnet_name(obj)
        if target is None:
            super().save_global(obj, name)
            return
        module, qualname = target
        self.save(module)
        self.save(qualname)
        self.write(pickle.STACK_GLOBAL)
        self.memoize(obj)


def dumps(obj):
    """Pickle ``obj`` (states, optionally with their optimizer) in MXNet's form."""
    buf = io.BytesIO()
    _StatePickler(buf, protocol=_PROTOCOL).dump(obj)
    return buf.getvalue()


# --------------------------------------------------------------------------------- reading
class _Bad(Exception):
    """Raised while reading; turned into MXNetError naming the source."""


def _subclasses(base):
    """``base`` and all its subclasses, recursively."""
    out, todo = [], [base]
    while todo:
        klass = todo.pop()
        out.append(klass)
        todo.extend(klass.__subclasses__())
    return out


def _find_subclass(base, module, name, aliases):
    """The subclass of ``base`` that a pickle names ``module.name``: mxcompat's own class for
    MXNet's module names in ``aliases``, else one defined at exactly ``module.name``."""
    for klass in _subclasses(base):
        if klass.__qualname__ != name:
            continue
        own = getattr(klass, '__module__', '')
        if own == module or (module in aliases and own.startswith(aliases[module])):
            return klass
    return None


_OPT_ALIASES = {'mxnet.optimizer.optimizer': 'mxcompat.optimizer.',
                'mxnet.optimizer.contrib': 'mxcompat.optimizer.',
                'mxnet.optimizer': 'mxcompat.optimizer.'}
_SCHED_ALIASES = {'mxnet.lr_scheduler': 'mxcompat.lr_scheduler'}

# numeric dtypes only: no objects (pointers), no structured or void types
_NUMERIC_KINDS = frozenset('biufc')


def _numeric_dtype(dt, what):
    if not isinstance(dt, numpy.dtype) or dt.kind not in _NUMERIC_KINDS or dt.fields \
            or dt.subdtype is not None:
        raise _Bad('%s has dtype %r; only numeric dtypes are allowed' % (what, dt))
    return dt


def _is_bytes(x):
    return type(x) is bytes or type(x) is bytearray


class _Ctor(object):
    """A global a states file may name: a function checking its arguments; ``empty`` when
    what it makes must then receive its state through BUILD."""
    __slots__ = ('name', 'fn', 'empty')

    def __init__(self, name, fn, empty):
        self.name = name
        self.fn = fn
        self.empty = empty


def _new_ndarray(*args):
    if args not in ((), (None,)):
        raise _Bad('NDArray(...) takes no arguments in a states file')
    return wrap(torch.empty(0))


def _bytearray(*args):
    if len(args) == 1 and _is_bytes(args[0]):
        return bytearray(args[0])
    if len(args) == 2 and type(args[0]) is str and args[1] in ('latin-1', 'latin1'):
        return bytearray(args[0], 'latin-1')  # protocols 0-2
    if not args:
        return bytearray()
    raise _Bad('bytearray(...) takes bytes in a states file, not %s'
               % ', '.join(type(a).__name__ for a in args))


def _collection(kind):
    def make(*args):
        if not args:
            return kind()
        if len(args) == 1 and type(args[0]) in (list, tuple):
            return kind(args[0])
        raise _Bad('%s(...) takes a list in a states file' % kind.__name__)
    return make


def _complex(*args):
    if len(args) <= 2 and all(isinstance(a, numbers.Real) for a in args):
        return complex(*args)
    raise _Bad('complex(...) takes numbers in a states file')


def _encode(text, encoding='latin1'):
    if type(text) is str and encoding in ('latin1', 'latin-1'):
        return text.encode('latin-1')  # how protocol 2 writes bytes
    raise _Bad('_codecs.encode(...) takes a latin-1 str in a states file')


def _reconstructor(cls, base, state):
    if base is not object or state is not None or not isinstance(cls, type) or \
            not issubclass(cls, (Optimizer, _lr_scheduler.LRScheduler)):
        raise _Bad('copyreg._reconstructor may only create optimizers and schedulers')
    return object.__new__(cls)


_DTYPE_NAMES = frozenset(['b1', 'i1', 'i2', 'i4', 'i8', 'u1', 'u2', 'u4', 'u8', 'f2', 'f4',
                          'f8', 'c8', 'c16', 'bool', 'float16', 'float32', 'float64', 'int8',
                          'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64'])


def _dtype(spec, align=False, copy=True):  # pylint: disable=unused-argument
    if type(spec) is not str or spec not in _DTYPE_NAMES:
        raise _Bad('numpy dtype %r is not allowed in a states file' % (spec,))
    return numpy.dtype(spec)


def _np_scalar(dt, data=None):
    _numeric_dtype(dt, 'numpy scalar')
    if not _is_bytes(data) or len(data) != dt.itemsize:
        raise _Bad('numpy scalar of %s needs %d bytes' % (dt, dt.itemsize))
    return numpy.frombuffer(bytes(data), dtype=dt)[0]


def _np_reconstruct(cls, shape, typecode):
    if cls is not numpy.ndarray or shape != (0,) or typecode not in (b'b', 'b'):
        raise _Bad('numpy arrays are pickled as _reconstruct(ndarray, (0,), b"b")')
    return numpy.ndarray((0,), numpy.uint8)


def _shape(shape, what):
    if type(shape) is not tuple or len(shape) > 32 or \
            any(type(d) is not int or d < 0 for d in shape):
        raise _Bad('%s has an invalid shape %r' % (what, shape))
    count = 1
    for d in shape:
        count *= d
    return count


def _np_frombuffer(buf, dt, shape, order='C'):
    _numeric_dtype(dt, 'numpy array')
    if not _is_bytes(buf) or order not in ('C', 'F') or \
            _shape(shape, 'numpy array') * dt.itemsize != len(buf):
        raise _Bad('numpy array of shape %r and dtype %s does not match its %s bytes'
                   % (shape, dt, len(buf) if _is_bytes(buf) else '(missing)'))
    return numpy.frombuffer(bytes(buf), dtype=dt).reshape(shape, order=order).copy()


def _rebuild_ndarray(a, device_type='cpu', device_id=0):
    """mxcompat's own NDArray pickle: ``_rebuild(numpy array[, device type, device id])``.
    The array is rebuilt in host memory: the updater places states with their weights."""
    if type(a) is not numpy.ndarray:
        raise _Bad('NDArray data must be a numpy array, not %s' % type(a).__name__)
    if device_type not in ('cpu', 'gpu') or type(device_id) is not int or \
            not 0 <= device_id < 1 << 16:
        raise _Bad('NDArray context must be a device type and id, not %r, %r'
                   % (device_type, device_id))
    _numeric_dtype(a.dtype, 'NDArray data')
    return wrap(torch.from_numpy(numpy.array(a, copy=True)))


_MULTIARRAY = ('numpy.core.multiarray', 'numpy._core.multiarray')
_NUMERIC = ('numpy.core.numeric', 'numpy._core.numeric')
_GLOBALS = {('builtins', 'bytearray'): _bytearray,
            ('builtins', 'set'): _collection(set),
            ('builtins', 'frozenset'): _collection(frozenset),
            ('builtins', 'complex'): _complex,
            ('_codecs', 'encode'): _encode,
            ('copyreg', '_reconstructor'): _reconstructor,
            ('numpy', 'dtype'): _dtype,
            ('mxnet.ndarray.ndarray', 'NDArray'): _new_ndarray,
            ('mxcompat.ndarray.ndarray', 'NDArray'): _new_ndarray,
            ('mxcompat.ndarray.ndarray', '_rebuild'): _rebuild_ndarray}
for _m in _MULTIARRAY:
    _GLOBALS[(_m, 'scalar')] = _np_scalar
    _GLOBALS[(_m, '_reconstruct')] = _np_reconstruct
for _m in _NUMERIC:
    _GLOBALS[(_m, '_frombuffer')] = _np_frombuffer
_EMPTY = (_new_ndarray, _np_reconstruct, _reconstructor)
_GLOBALS = {key: _Ctor('%s.%s' % key, fn, fn in _EMPTY) for key, fn in _GLOBALS.items()}
_GLOBALS[('numpy', 'ndarray')] = numpy.ndarray  # the argument of _reconstruct
_GLOBALS[('builtins', 'object')] = object  # the argument of copyreg._reconstructor


_REFERENCES = {}


def _reference(cls, state):
    """A freshly constructed ``cls``, whose attributes are the ones a file may set; None for a
    custom class whose constructor needs arguments the file's state cannot supply."""
    if cls in _REFERENCES:
        return _REFERENCES[cls]
    kwargs = {}
    for param in list(inspect.signature(cls.__init__).parameters.values())[1:]:
        if param.default is param.empty and param.kind in (param.POSITIONAL_OR_KEYWORD,
                                                          param.KEYWORD_ONLY):
            if param.name not in state:
                return None
            kwargs[param.name] = state[param.name]
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        ref = cls(**kwargs)
    if not kwargs:
        _REFERENCES[cls] = ref
    return ref


def _compatible(ref, value):
    """Whether ``value`` may stand where a fresh instance holds ``ref``."""
    if ref is None or value is None:
        return not isinstance(value, Optimizer)
    if isinstance(ref, numbers.Real):
        return isinstance(value, numbers.Real)
    for kinds in ((list, tuple), (dict,), (set, frozenset), (str,), (_lr_scheduler.LRScheduler,)):
        if isinstance(ref, kinds):
            return isinstance(value, kinds)
    return type(value) is type(ref)


_SET_ON_LOAD = frozenset(['param_dict'])  # Optimizer.__setstate__ sets it; files omit it

_LEAVES = (type(None), bool, int, float, complex, str, bytes, bytearray, NDArray, numpy.bool_,
           numpy.number)
_CONTAINERS = (list, tuple, set, frozenset)


class _StateUnpickler(pickle._Unpickler):  # the Python machine: its opcodes can be replaced
    """Reads a states pickle through checked constructors only (see the module docstring)."""

    dispatch = dict(pickle._Unpickler.dispatch)

    def __init__(self, data):
        super().__init__(io.BytesIO(data))
        self._unbuilt = {}   # id -> object created empty and not yet given its state
        self._classes = set()

    def find_class(self, module, name):
        if self.proto < 3:  # Python 2 names, as pickle's own find_class maps them
            module, name = _compat_pickle.NAME_MAPPING.get((module, name), (module, name))
            module = _compat_pickle.IMPORT_MAPPING.get(module, module)
        ctor = _GLOBALS.get((module, name))
        if ctor is not None:
            return ctor
        klass = _find_subclass(Optimizer, module, name, _OPT_ALIASES) or \
            _find_subclass(_lr_scheduler.LRScheduler, module, name, _SCHED_ALIASES)
        if klass is not None:
            self._classes.add(klass)
            return klass
        raise _Bad('refusing to load global %s.%s: such files may only hold NDArrays, '
                   'optimizers, learning-rate schedulers and plain Python values. Register a '
                   'custom optimizer (mx.optimizer.register) or define the custom scheduler '
                   'before loading.' % (module, name))

    def _call(self, func, args):
        if type(func) is _Ctor:
            if type(args) is not tuple:
                raise _Bad('arguments of %s are not a tuple' % func.name)
            obj = func.fn(*args)
            if not func.empty:
                return obj
        elif isinstance(func, type) and func in self._classes and args == ():
            obj = object.__new__(func)
        else:
            raise _Bad('cannot call a %s in a states file' % type(func).__name__)
        self._unbuilt[id(obj)] = obj  # its state comes with BUILD
        return obj

    def load_reduce(self):
        args = self.stack.pop()
        self.stack[-1] = self._call(self.stack[-1], args)
    dispatch[pickle.REDUCE[0]] = load_reduce

    def load_newobj(self):
        args = self.stack.pop()
        self.stack[-1] = self._call(self.stack[-1], args)
    dispatch[pickle.NEWOBJ[0]] = load_newobj

    def load_newobj_ex(self):
        kwargs = self.stack.pop()
        args = self.stack.pop()
        if kwargs:
            raise _Bad('keyword arguments are not allowed in a states file')
        self.stack[-1] = self._call(self.stack[-1], args)
    dispatch[pickle.NEWOBJ_EX[0]] = load_newobj_ex

    def _instantiate(self, klass, args):  # OBJ and INST (protocols 0 and 1)
        self.append(self._call(klass, tuple(args)))

    def load_build(self):
        state = self.stack.pop()
        inst = self.stack[-1]
        if self._unbuilt.pop(id(inst), None) is not inst:
            if isinstance(inst, numpy.dtype):
                _build_dtype(inst, state)
                return
            raise _Bad('cannot set the state of a %s' % type(inst).__name__)
        if type(inst) is NDArray:
            inst._t = _ndarray_tensor(state)
        elif type(inst) is numpy.ndarray:
            _build_numpy(inst, state)
        else:
            _build_object(inst, state)
    dispatch[pickle.BUILD[0]] = load_build

    def load_persid(self):
        raise _Bad('persistent ids are not allowed in a states file')
    dispatch[pickle.PERSID[0]] = load_persid
    dispatch[pickle.BINPERSID[0]] = load_persid

    def load_value(self):
        value = self.load()
        if self._unbuilt:
            obj = next(iter(self._unbuilt.values()))
            raise _Bad('a %s was created without its state' % type(obj).__name__)
        _check_tree(value)
        return value


def _build_dtype(dt, state):
    """numpy's dtype state, checked to describe the simple numeric dtype ``dt`` already is."""
    if type(state) is not tuple or len(state) != 8 or state[0] != 3 or \
            state[1] not in ('<', '|', '=') or state[2:5] != (None, None, None):
        raise _Bad('invalid numpy dtype state %r' % (state,))


def _build_numpy(arr, state):
    if type(state) is not tuple or len(state) != 5:
        raise _Bad('invalid numpy array state')
    _, shape, dt, fortran, raw = state
    _numeric_dtype(dt, 'numpy array')
    if not _is_bytes(raw) or type(fortran) is not bool or \
            _shape(shape, 'numpy array') * dt.itemsize != len(raw):
        raise _Bad('numpy array of shape %r and dtype %s does not match its data'
                   % (shape, dt))
    arr.__setstate__(state)


def _ndarray_tensor(state):
    """The tensor of an NDArray's pickled state: MXNet's {'handle': raw bytes} or
    mxcompat's {'array': numpy array, 'ctx': str}."""
    if type(state) is dict and state.keys() == {'handle'} and _is_bytes(state['handle']):
        try:
            return load_raw_bytes(state['handle'])
        except MXNetError as err:
            raise _Bad('NDArray handle: %s' % err) from None
    if type(state) is dict and state.keys() == {'array', 'ctx'}:
        return _rebuild_ndarray(state['array'])._t
    raise _Bad('an NDArray state must be {"handle": bytes}')


def _build_object(obj, state):
    """Give an optimizer or scheduler the attributes in ``state`` after checking them against
    those of a fresh instance of its class."""
    cls = type(obj)
    if type(state) is tuple and len(state) == 2 and state[1] is None:
        state = state[0]
    if type(state) is not dict:
        raise _Bad('the state of %s must be a dict' % cls.__name__)
    for key in state:
        if type(key) is not str or not key.isidentifier() or key.startswith('__'):
            raise _Bad('%s attribute name %r is not allowed' % (cls.__name__, key))
    ref = _reference(cls, state)
    if ref is not None:
        allowed = vars(ref)
        unknown = sorted(k for k in state if k not in allowed)
        missing = sorted(k for k in allowed if k not in state and k not in _SET_ON_LOAD)
        if unknown or missing:
            raise _Bad('%s has %s' % (cls.__name__, ' and '.join(
                part for part in ('unknown attributes %s' % unknown if unknown else '',
                                  'no attributes %s' % missing if missing else '') if part)))
        for key, value in state.items():
            if not _compatible(allowed[key], value):
                raise _Bad('%s attribute %r is a %s, not like %r' % (
                    cls.__name__, key, type(value).__name__, allowed[key]))
    setstate = getattr(cls, '__setstate__', None)
    if setstate is not None:
        setstate(obj, dict(state))
    else:
        obj.__dict__.update(state)


def _check_tree(value):
    """Raise _Bad unless ``value`` is built only of allowed types, at most MAX_DEPTH deep."""
    seen = set()
    todo = [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if depth > MAX_DEPTH:
            raise _Bad('values nest deeper than %d levels' % MAX_DEPTH)
        if isinstance(item, _LEAVES):
            continue
        if id(item) in seen:
            continue
        seen.add(id(item))
        if type(item) is numpy.ndarray:
            _numeric_dtype(item.dtype, 'numpy array')
        elif type(item) in _CONTAINERS:
            todo.extend((x, depth + 1) for x in item)
        elif type(item) is dict:
            todo.extend((x, depth + 1) for kv in item.items() for x in kv)
        elif isinstance(item, (Optimizer, _lr_scheduler.LRScheduler)):
            todo.extend((x, depth + 1) for x in vars(item).values())
        else:
            raise _Bad('a %s is not allowed in a states file' % type(item).__name__)


def loads(data, source='buffer'):
    """Unpickle optimizer states written by MXNet or mxcompat (see the module docstring).

    Parameters
    ----------
    data : bytes
        The content of a states file.
    source : str
        The file name (or a description of the buffer) for error messages.

    Returns
    -------
    The states (a dict), or a (states, optimizer) tuple.
    """
    if not _is_bytes(data):
        raise MXNetError('optimizer states must be bytes, not %s' % type(data).__name__)
    try:
        states = _StateUnpickler(bytes(data)).load_value()
    except Exception as err:  # pylint: disable=broad-except
        # every callable reachable from the file is one of the checked constructors above, so
        # any exception here describes the file's content
        raise MXNetError('%s: invalid optimizer states file: %s%s' % (
            source, '' if isinstance(err, _Bad) else type(err).__name__ + ': ', err)) from None
    if isinstance(states, tuple) and len(states) == 2 and isinstance(states[1], Optimizer):
        opt_states = states[0]
    else:
        opt_states = states
    if type(opt_states) is not dict:
        raise MXNetError('%s: invalid optimizer states file: it holds a %s, not a dict of '
                         'states (or states and an optimizer)'
                         % (source, type(opt_states).__name__))
    if any(type(k) not in (int, str) for k in opt_states):
        raise MXNetError('%s: invalid optimizer states file: its keys must be int indices '
                         'or str names' % source)
    return states
