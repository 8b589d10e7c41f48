"""``mx.sym.np``: NumPy-semantics symbols, the ``F.np`` of a hybridized NumPy-mode block.

There is one implementation of each ``mx.np`` function: this module runs ``mx.np``'s own
functions with ``_npi`` naming the symbol front end of the same operator-table entries (and
``ndarray`` naming :class:`_Symbol`), so ``F.np.add(a, b)`` builds the ``_npi_add`` node that
``mx.np.add`` runs imperatively. Functions that read array data (``array``, ``empty``,
``empty_like``) exist only in ``mx.np``.
"""
import builtins  # this module's mx.np functions (all, sum, max, ...) shadow the builtins
import numbers
import types

from ...numpy import multiarray as _ma
from ...ops import registry
from ..register import make_function
from ..symbol import Symbol
from ...util import _check_ufunc_kwargs

__all__ = []


class _Symbol(Symbol):
    """A symbol with NumPy semantics (MXNet's ``mxnet.symbol.numpy._Symbol``): its operators
    broadcast and promote types as ``mx.np.ndarray``'s do."""
    __slots__ = ()

    def __getitem__(self, key):
        """An output by position for a grouped symbol; basic indexing (integers, slices) of a
        single output, as MXNet's graph: ``slice``, then ``_npx_reshape`` dropping the axes of
        integer indices (codes -3, -2, -4)."""
        if len(self._outputs) != 1 or isinstance(key, str):
            return Symbol.__getitem__(self, key)
        if isinstance(key, numbers.Integral):
            key = int(key)
            return _npi._npx_reshape(_npi._npx_slice(self, begin=[key], end=[key + 1]),
                                     newshape=(-3, -4))
        if isinstance(key, slice):
            if key.step == 0:
                raise ValueError('slice step cannot be zero')
            return _npi._npx_slice(self, begin=[None] if key.start is None else key.start,
                                   end=[None] if key.stop is None else key.stop, step=key.step)
        if not isinstance(key, tuple):
            raise NotImplementedError('mx.sym.np: indexing a symbol with %r is not supported '
                                      '(integers, slices and tuples of them are)' % (key,))
        if not key:  # x[()]: the symbol itself
            return self
        begin, end, step, newshape = [], [], [], ()
        for k in key:
            if isinstance(k, slice):
                if k.step == 0:
                    raise ValueError('slice step cannot be zero')
                begin.append(k.start)
                end.append(k.stop)
                step.append(k.step)
                newshape += (-2,)
            elif isinstance(k, numbers.Integral):  # a negative one runs backwards, as in MXNet
                k = int(k)
                begin.append(k)
                end.append(k + 1 if k >= 0 else k - 1)
                step.append(1 if k >= 0 else -1)
                newshape += (-3,)
            else:
                raise NotImplementedError('mx.sym.np: indexing a symbol with %r is not '
                                          'supported (integers, slices and tuples of them are)'
                                          % (key,))
        return _npi._npx_reshape(_npi._npx_slice(self, begin=begin, end=end, step=step),
                                 newshape=newshape + (-4,))


def _np_symbols(fn):
    def creator(*args, **kwargs):
        out = fn(*args, **kwargs)
        return _Symbol(out._outputs) if type(out) is Symbol else out
    creator.__name__ = creator.__qualname__ = fn.__name__
    creator.__doc__ = fn.__doc__
    return creator


def _make_npi():
    spaces = {}
    for name, op in registry.all_ops().items():
        for prefix in ('_npi_', '_np_', '_npx_'):
            if name.startswith(prefix):
                public = name if prefix == '_npx_' else name[len(prefix):]
                # a node is named after the function without the prefix (tanh0, relu0), as
                # MXNet's generated np / npx functions are
                spaces[public] = staticmethod(_np_symbols(make_function(op, name[len(prefix):])))
                break
    return type('_npi', (), spaces)


_npi = _make_npi()
_internal = _npi  # MXNet's mx.sym.np._internal: the _npi_* operators
_SPACE = dict(vars(_ma))
_SPACE.update(_npi=_npi, ndarray=_Symbol, NDArray=Symbol)
# (broadcast_arrays and meshgrid need the shapes of their arrays, as in MXNet)
_DATA_ONLY = frozenset(['ndarray', 'array', 'empty', 'empty_like', 'shape', 'broadcast_arrays',
                        'meshgrid'])


def _rebind(f, space=None, module='mxnet.symbol.numpy'):
    """``f`` run in the namespace ``space`` (this module's by default): the same code over the
    symbol front end."""
    g = types.FunctionType(f.__code__, _SPACE if space is None else space, f.__name__,
                           f.__defaults__, f.__closure__)
    g.__kwdefaults__ = f.__kwdefaults__
    g.__doc__ = f.__doc__
    g.__module__ = module
    return g


def _symbol_function(opname):
    """The symbol front-end function of the table entry ``opname``, with NumPy symbols."""
    return _np_symbols(make_function(registry.get(opname), opname))


def _rebind_module(module, names, overrides, target):
    """Put ``module``'s functions ``names``, rebound to its namespace with ``overrides``,
    into the namespace ``target``; the module's other functions (its helpers) are rebound
    alike, so that the rebound functions call each other's symbol versions."""
    space = dict(vars(module))
    space.update(overrides)
    own = vars(module)
    for name, value in own.items():
        if isinstance(value, types.FunctionType) and value.__globals__ is own and \
                name not in overrides:
            space[name] = _rebind(value, space, 'mxnet.symbol.numpy.' +
                                  module.__name__.rsplit('.', 1)[1])
    for name in names:
        target[name] = space[name]
    return space


for _name, _value in vars(_ma).items():
    if isinstance(_value, types.FunctionType) and _value.__module__ in (
            _ma.__name__, 'mxnet.numpy'):
        _SPACE[_name] = _rebind(_value)


# mx.np's ufuncs are generated functions (make_function's UFunc); the symbol ones are the same
# around the symbol functions
def _unary(name):
    """The symbol ufunc ``name`` of one array (a Python number gives NumPy's result)."""
    fn, on_number = getattr(_npi, name), _ma._numpy_ufunc(name)

    def ufunc(x, out=None, **kwargs):
        if kwargs:
            _check_ufunc_kwargs(name, kwargs)
        if isinstance(x, numbers.Number):
            return on_number(x)
        return fn(x, out=out)
    ufunc.__doc__ = fn.__doc__
    return ufunc


def _binary(name, rname=None):
    """The symbol ufunc ``name`` of two arrays (a number operand takes the scalar operator)."""
    fn, scalar = getattr(_npi, name), getattr(_npi, name + '_scalar')
    rscalar = getattr(_npi, rname) if rname else None

    def ufunc(x1, x2, out=None, **kwargs):
        if kwargs:
            _check_ufunc_kwargs(name, kwargs)
        return _SPACE['_ufunc'](x1, x2, fn, scalar, rscalar, out=out)
    ufunc.__doc__ = fn.__doc__
    return ufunc


def _function(name, check_kwargs):
    """The symbol function ``name`` of two arrays (``dot``, ``matmul``)."""
    fn = getattr(_npi, name)

    def function(a, b, out=None, **kwargs):
        if kwargs:
            check_kwargs(name, kwargs)
        return fn(a, b, out=out)
    function.__doc__ = fn.__doc__
    return function


def _sequence(name, arg):  # pylint: disable=unused-argument
    """The symbol function ``name`` of a sequence of arrays (``concatenate``, ``stack``)."""
    fn = getattr(_npi, name)

    def function(seq, axis=0, out=None):
        return fn(*seq, axis=axis, out=out)
    function.__doc__ = fn.__doc__
    return function


_np_ufunc = _SPACE['_ufunc']


def _ufunc(lhs, rhs, fn, scalar_fn, rscalar_fn=None, out=None):
    """mx.np's ``_ufunc`` over symbols, with MXNet's symbol rule for a number on the left:
    MXNet tests the symbol, not the number, for ``is_int``, so that scalar is never an integer
    (``1 - x`` of an int32 symbol computes in float64, as in MXNet's hybridized blocks)."""
    if isinstance(lhs, numbers.Number) and isinstance(rhs, Symbol):
        return (rscalar_fn or scalar_fn)(rhs, scalar=float(lhs), is_int=False, out=out)
    return _np_ufunc(lhs, rhs, fn, scalar_fn, rscalar_fn, out=out)


# arguments MXNet's symbol front end passes although the NumPy signature lacks them: they are
# written into the graph's attributes
_FIXED = {'argmax': ('keepdims=False',), 'argmin': ('keepdims=False',)}


def _signature(name, entry, signature, doc):
    """The symbol function ``name`` with a NumPy signature over the entry ``entry`` (what
    make_function's ``signature`` makes for mx.np): its arguments passed on by name."""
    op = _ma._entry(entry)
    params, passed = [], []
    for item in signature:
        public, _, entry_name = item.partition('=')
        entry_name = entry_name or public
        if entry_name in op.inputs:
            params.append(public)
            passed.append(public)
        else:
            default = None if entry_name == 'out' else op.params[entry_name][1]
            params.append(public if default is registry.REQUIRED else '%s=%r' % (public, default))
            passed.append('%s=%s' % (entry_name, public))
    passed.extend(_FIXED.get(entry, ()))
    space = {'_fn': getattr(_npi, entry)}
    exec('def %s(%s):\n    return _fn(%s)\n' % (name, ', '.join(params), ', '.join(passed)),  # pylint: disable=exec-used
         space)
    function = space[name]
    function.__doc__ = doc
    return function


_SPACE.update(_unary=_unary, _binary=_binary, _function=_function, _sequence=_sequence,
              _ufunc=_ufunc, _signature=_signature)
_SPACE['_define_ufuncs'](_SPACE)
for _name in _ma.__all__:
    if _name not in _DATA_ONLY:
        globals()[_name] = _SPACE[_name]
        __all__.append(_name)

# the methods and operators of mx.np.ndarray that build graphs, rebound the same way
_METHODS = ('__add__', '__radd__', '__sub__', '__rsub__', '__mul__', '__rmul__',
            '__truediv__', '__rtruediv__', '__mod__', '__rmod__', '__pow__', '__rpow__',
            '__matmul__', '__neg__', '__abs__', '__invert__', '__and__', '__or__', '__xor__',
            '__eq__', '__ne__', '__gt__', '__ge__', '__lt__', '__le__', 'reshape', 'transpose',
            'flatten', 'squeeze', 'swapaxes', 'broadcast_to', 'dot', 'clip', 'round',
            'repeat', 'tile', 'take', 'argsort', 'sort', 'diagonal', 'trace')
for _name in _METHODS:  # (sum, T, ...: made with the functions, _define_ufuncs)
    setattr(_Symbol, _name, _rebind(_ma._SYMBOL_OPERATORS.get(_name) or
                                    _ma.ndarray.__dict__[_name]))


def _reflected(entry, scalar, rscalar):
    """The reflected operator (``other - self``, ...) of a symbol: ``_ufunc``'s rule for a
    number on the left (MXNet's ``__radd__`` alone keeps the symbol on the left)."""
    fn, sfn = getattr(_npi, entry), getattr(_npi, scalar)
    rfn = getattr(_npi, rscalar) if rscalar else None

    def method(self, other):
        return _ufunc(other, self, fn, sfn, rfn)
    return method


for _name, _entry, _scalar, _rscalar, _is_reflected in _ma._OPERATORS:
    if _is_reflected and _name != '__radd__':
        setattr(_Symbol, _name, _reflected(_entry, _scalar, _rscalar))
_Symbol.T = property(lambda self: _npi.transpose(self, axes=None),  # (axes=None, as MXNet's)
                     doc=_ma.ndarray.T.__doc__)

from . import linalg, random  # noqa: E402,F401  (they rebind mx.np.linalg / mx.np.random)
