"""``mx.np.ndarray`` and the ``mx.np`` functions: thin layers over the operator table.

The functions call the ``_npi`` namespace, generated from the table's ``_npi_*`` / ``_np_*``
entries (``mxcompat/ops/numpy_ops.py``) by the generator that makes ``mx.nd``, with results of
class :class:`ndarray`; a function takes MXNet 1.9.1's signature and picks the entry (an array
operand or a scalar one) as MXNet's own ``mx.np`` does.
"""
import numbers
import operator

import numpy as _np
from numpy.lib import NumpyVersion
import torch

from ..base import dtype_torch, dtype_np, torch_to_np_type
from ..context import Context, current_context, operator_error
from ..autograd import _state as _recording_state
from ..autograd_history import ACTIVE as _ACTIVE, note as _note
from ..ndarray.ndarray import NDArray, _new, _setitem, _convert_key, _bounded_key, \
    _flip_negative_steps, _device_and_ctx, _on_ctx, _plain_key, _write_inplace
from ..ndarray.register import make_function, UFunc
from ..ops import registry
from ..ops.numpy_ops import _COMPARISONS
from ..util import set_module, _check_ufunc_kwargs

__all__ = ['ndarray', 'array', 'empty', 'zeros', 'ones', 'full', 'empty_like', 'zeros_like',
           'ones_like', 'full_like', 'arange', 'eye', 'identity', 'linspace', 'shape',
           'add', 'subtract', 'multiply', 'divide', 'true_divide', 'mod', 'remainder', 'power',
           'maximum', 'minimum', 'arctan2', 'hypot', 'copysign', 'lcm', 'bitwise_and',
           'bitwise_or', 'bitwise_xor', 'ldexp', 'equal', 'not_equal', 'greater',
           'greater_equal', 'less', 'less_equal',
           'sqrt', 'cbrt', 'exp', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sin', 'cos', 'tan',
           'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'arcsinh', 'arccosh',
           'arctanh', 'degrees', 'radians', 'rad2deg', 'deg2rad', 'abs', 'absolute', 'fabs',
           'negative', 'sign', 'rint', 'fix', 'ceil', 'floor', 'trunc', 'square', 'reciprocal',
           'logical_not', 'bitwise_not', 'invert', 'isnan', 'isinf', 'isfinite', 'isposinf',
           'isneginf', 'around', 'round', 'round_', 'clip',
           'sum', 'prod', 'max', 'min', 'amax', 'amin', 'mean', 'std', 'var', 'argmax',
           'argmin', 'all', 'any', 'sometrue', 'product', 'cumsum',
           'reshape', 'ravel', 'transpose', 'squeeze', 'expand_dims', 'concatenate', 'stack',
           'swapaxes', 'flip', 'broadcast_to', 'where', 'nonzero', 'tril', 'copy', 'dot', 'matmul',
           'tensordot', 'einsum', 'shares_memory', 'may_share_memory',
           'split', 'array_split', 'hsplit', 'vsplit', 'dsplit', 'hstack', 'vstack',
           'row_stack', 'dstack', 'column_stack', 'atleast_1d', 'atleast_2d', 'atleast_3d',
           'diagonal', 'diag', 'trace', 'repeat', 'roll', 'tile', 'rot90', 'moveaxis', 'sort',
           'argsort', 'take', 'diff', 'logspace', 'indices', 'flipud', 'fliplr', 'inner',
           'outer', 'append', 'vdot', 'broadcast_arrays', 'meshgrid', 'diagflat',
           'diag_indices_from', 'nan_to_num', 'unravel_index', 'hanning', 'hamming', 'blackman',
           'bincount', 'polyval', 'ediff1d', 'average', 'percentile', 'quantile', 'resize',
           'pad', 'unique', 'histogram', 'delete', 'insert']

# {NumPy function: mx.np function} and {ufunc name: mx.np function} of the NumPy functions that
# run as mx.np's own on mx.np arrays; filled by ``mxcompat.numpy_dispatch_protocol``
_NUMPY_ARRAY_FUNCTION_DICT = {}
_NUMPY_ARRAY_UFUNC_DICT = {}


def _np_function(opname):
    """The front-end function of the table entry ``opname`` with ``ndarray`` results."""
    return make_function(registry.get(opname), opname, ndarray, 'mxcompat.numpy')


def _make_npi():
    """{name without the _npi_/_np_ prefix: function} over the table's NumPy entries, and
    the ``_npx_`` ones under their full names."""
    spaces = {}
    for name, op in registry.all_ops().items():
        for prefix in ('_npi_', '_np_', '_npx_'):
            if name.startswith(prefix):
                public = name if prefix == '_npx_' else name[len(prefix):]
                spaces[public] = make_function(op, public, ndarray, 'mxcompat.numpy')
                break
    return type('_npi', (), {k: staticmethod(v) for k, v in spaces.items()})


def _int_scalar(x):
    return isinstance(x, (numbers.Integral, _np.bool_))


def _ufunc(lhs, rhs, fn, scalar_fn, rscalar_fn=None, out=None):
    """``fn(lhs, rhs)`` for two arrays, the scalar entry where one operand is a number."""
    if isinstance(rhs, NDArray):
        if isinstance(lhs, NDArray):
            return fn(lhs, rhs, out=out)
        if isinstance(lhs, numbers.Number):
            return (rscalar_fn or scalar_fn)(rhs, scalar=float(lhs), is_int=_int_scalar(lhs),
                                             out=out)
    elif isinstance(rhs, numbers.Number):
        if isinstance(lhs, NDArray):
            return scalar_fn(lhs, scalar=float(rhs), is_int=_int_scalar(rhs), out=out)
        if isinstance(lhs, numbers.Number):
            return fn(array(lhs, dtype=None), array(rhs, dtype=None), out=out)
    raise TypeError('mx.np: operands of type %s and %s are not supported; use mx.np.ndarray '
                    'or Python scalars' % (type(lhs).__name__, type(rhs).__name__))


# the index array types torch takes as they are (other ones are cast to int64 first)
_HOST_INDEX_TYPES = frozenset([torch.int64, torch.bool])


def _inplace_operator(fn, op):
    """``self op= other``: torch's in-place operator ``fn`` where ``other`` is an array of this
    array's shape and dtype, outside record() (NumPy's result and MXNet's, without the temporary
    result and its assignment that the general case costs), else ``self op other`` assigned."""
    def inplace(self, other):
        if type(other) is ndarray:
            t, o = self._t, other._t
            if o.dtype is t.dtype and o.shape == t.shape and not _recording_state.recording:
                return _write_inplace(self, o, fn)
        return self._inplace(op(self, other))
    inplace.__name__ = '__i%s__' % op.__name__
    inplace.__qualname__ = 'ndarray.' + inplace.__name__
    return inplace


# NumPy >= 2.2 writes the shape of a summarized array into its repr (``shape=(2000,)``); MXNet's
# repr is that of the NumPy it was made for, without it (NumPy's legacy='2.1' printing)
_SHAPE_IN_REPR = NumpyVersion(_np.__version__) >= '2.2.0'


@set_module('mxnet.numpy')
class ndarray(NDArray):
    """An array object representing a multidimensional, homogeneous array of fixed-size items,
    with NumPy semantics (MXNet's ``mxnet.numpy.ndarray``, a subclass of ``NDArray``).

    It wraps one ``torch.Tensor`` as ``NDArray`` does; ``as_nd_ndarray()`` and
    ``NDArray.as_np_ndarray()`` share it without a copy.
    """
    __slots__ = ()

    def _like(self, t):
        out = _new(ndarray)
        out._t = t
        out._ctx = self._ctx
        return out

    # ---------------------------------------------------------------- conversion
    def as_nd_ndarray(self):
        """An ``NDArray`` (legacy semantics) sharing this array's data (no copy) and its
        recorded history (MXNet's two arrays are one)."""
        out = _new(NDArray)
        out._t = self._t
        out._ctx = self._ctx
        try:
            out._h = self._h
        except AttributeError:  # (nothing recorded it)
            pass
        return out

    def as_np_ndarray(self):
        """This array itself (it already has NumPy semantics)."""
        return self

    def copyto(self, other):
        """Copy the array to ``other``: an array of the same shape (returned), or a Context
        (a new ``ndarray`` there)."""
        if isinstance(other, Context):
            return _wrap_on(self._t.detach().to(other.torch_device, copy=True), other)
        return NDArray.copyto(self, other)

    def as_in_ctx(self, ctx):
        """Returns an array on the target device with the same value as this array: ``self``
        where ``ctx`` is its context already, else a copy.

        Parameters
        ----------
        ctx : Context
            The target context.
        """
        if self.context == ctx:
            return self
        return self.copyto(ctx)

    def item(self, *args):
        """Copy an element of an array to a standard Python scalar and return it."""
        if not args:
            try:  # no host copy of the array first (torch checks the size: no cost for 1)
                return self._t.item()
            except RuntimeError:  # (NumPy's error for another size, below)
                pass
        return self.asnumpy().item(*args)

    def tolist(self):
        """Return the array as an ``a.ndim``-levels deep nested list of Python scalars."""
        return self.asnumpy().tolist()

    def asscalar(self):
        """Deprecated in NumPy mode: use ``item()``."""
        raise AttributeError('mxnet.numpy.ndarray object has no attribute asscalar; use item()')

    @property
    def dtype(self):
        """Data-type of the array's elements (a ``numpy.dtype``)."""
        return _np.dtype(torch_to_np_type(self._t.dtype))

    def copy(self, order='C'):  # pylint: disable=arguments-differ
        """A copy of the array."""
        if order != 'C':
            raise NotImplementedError('ndarray.copy(order=%r): only order="C" is supported'
                                      % (order,))
        return self._like(self._t.clone())

    @property
    def grad(self):
        """The gradient buffer attached to this array (None if none is attached)."""
        g = self._t.grad
        if g is None:
            return None
        out = _new(ndarray)  # (self._like inline: one frame less)
        out._t = g
        out._ctx = self._ctx
        return out

    def __repr__(self):
        if _SHAPE_IN_REPR and not _np.get_printoptions()['legacy']:
            with _np.printoptions(legacy='2.1'):
                text = repr(self.asnumpy())
        else:
            text = repr(self.asnumpy())
        dtype = self.dtype
        if 'dtype=' in text:
            if dtype == _np.float32:
                text = text[:text.rindex(',')] + ')'
        elif dtype not in (_np.float32, _np.bool_):
            text = text[:-1] + ', dtype={})'.format(_np.dtype(dtype))
        ctx = self.context
        if ctx.device_type == 'cpu':
            return text
        return text[:-1] + ', ctx={})'.format(ctx)

    def __str__(self):
        text = str(self.asnumpy())
        ctx = self.context
        if ctx.device_type == 'cpu' or self.ndim == 0:
            return text
        return '%s @%s' % (text, ctx)

    def __format__(self, fmt):
        if self.ndim == 0:
            return self.item().__format__(fmt)
        if not fmt:
            return str(self)
        raise TypeError('Cannot format mxnet.numpy.ndarray with format_spec')

    def __float__(self):
        if self._t.numel() != 1:
            raise TypeError('only size-1 arrays can be converted to Python scalars')
        return float(self._t.item())

    def __int__(self):
        if self._t.numel() != 1:
            raise TypeError('only size-1 arrays can be converted to Python scalars')
        return int(self._t.item())

    def __index__(self):
        if self._t.dim() or self._t.is_floating_point():
            raise TypeError('only integer scalar arrays can be converted to a scalar index')
        return int(self._t.item())

    def __reduce__(self):
        return (_rebuild_np, (self.asnumpy(),))

    # ---------------------------------------------------------------- arithmetic
    # (+, -, *, /, %, **, &, |, ^, <, <=, >, >=: generated below the class, _OPERATORS)
    def __matmul__(self, other):
        return _npi.matmul(self, other)

    def _inplace(self, result):
        _setitem(self, Ellipsis, result, True)
        return self

    __iadd__ = _inplace_operator(torch.Tensor.add_, operator.add)
    __isub__ = _inplace_operator(torch.Tensor.sub_, operator.sub)
    __imul__ = _inplace_operator(torch.Tensor.mul_, operator.mul)

    def __itruediv__(self, other):
        return self._inplace(self / other)

    def __imod__(self, other):
        return self._inplace(self % other)

    def __eq__(self, other):
        if other is None:
            return False
        return _ufunc(self, other, _npi.equal, _npi.equal_scalar)

    def __ne__(self, other):
        if other is None:
            return True
        return _ufunc(self, other, _npi.not_equal, _npi.not_equal_scalar)

    __hash__ = None

    # ---------------------------------------------------------------- indexing
    def __getitem__(self, key):
        """NumPy indexing: basic (a view where the result is contiguous in memory, a copy
        elsewhere, as MXNet), advanced (integer and boolean arrays)."""
        t = self._t
        tk = type(key)
        if tk is slice or tk is int or tk is tuple and _plain_key(key):
            try:  # torch's own basic indexing, which checks the integers (no cost where they
                r = t[key]  # fit)
            except (IndexError, ValueError) as err:  # (ValueError: beyond int64, a step < 1)
                if tk is int:  # NumPy's message
                    raise IndexError('index %d is out of bounds for axis 0 with size %d'
                                     % (key, t.shape[0] if t.dim() else 0)) from None
                if tk is tuple:
                    raise
                r = _index(t, key)  # a slice torch does not take: the general case
        elif tk is ndarray and key._t.dtype in _HOST_INDEX_TYPES and t.is_cpu and \
                key._t.is_cpu:
            try:  # one index array on the host: torch checks its bounds
                r = t[key._t]
            except IndexError:
                _bounded_key(key._t, t.shape, False)  # MXNet's message where it applies
                raise
        else:
            r = _index(t, key)
        out = _new(ndarray)  # (self._like inline: one frame less)
        out._t = r if r.is_contiguous() else r.contiguous()
        out._ctx = self._ctx
        return out

    def __setitem__(self, key, value):
        """NumPy assignment ``x[key] = value`` (``value`` broadcast and cast to x's dtype)."""
        _setitem(self, key, value, True)

    # ---------------------------------------------------------------- methods
    def reshape(self, *args, order='C'):
        """Returns an array containing the same data with a new shape (NumPy's -1 only)."""
        # (``a.reshape(2, 8)`` or ``a.reshape((2, 8))``; ``a.reshape(-1)``: an int, which the
        # front end makes a shape inline)
        if len(args) == 1:
            shape = args[0]
            if type(shape) is int or type(shape) is tuple or isinstance(shape, (tuple, list, int)):
                return reshape(self, shape, order)
        return reshape(self, args, order)

    def reshape_view(self, *shape, **kwargs):
        """A **view** of this array with a new shape, as ``NDArray.reshape`` makes it
        (MXNet's special codes 0, -1, -2, -3 and -4, and ``reverse``)."""
        return NDArray.reshape(self, *shape, **kwargs).as_np_ndarray()

    def transpose(self, *axes):
        """The array with axes permuted (reversed without arguments or with None)."""
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))) \
                or not axes:
            axes = axes[0] if axes else None
        if axes is not None and len(set(axes)) != len(axes):
            raise ValueError("axes don't match array: %s repeats an axis" % (tuple(axes),))
        return _npi.transpose(self, axes=axes)

    def flatten(self, order='C'):
        """A copy of the array collapsed into one dimension."""
        return _npi.reshape(self, newshape=(-1,), order=order)

    def repeat(self, repeats, axis=None):  # pylint: disable=arguments-differ
        """Repeat elements of the array."""
        return repeat(self, repeats, axis)

    def tile(self, reps):  # pylint: disable=arguments-differ
        """The array repeated ``reps`` times."""
        return tile(self, reps)

    def nonzero(self):
        """The indices of the non-zero elements (``np.nonzero``)."""
        return nonzero(self)

    def take(self, indices, axis=None, mode='raise'):  # pylint: disable=arguments-differ
        """Elements of the array along an axis."""
        return take(self, indices, axis, mode)

    def argsort(self, axis=-1, kind=None, order=None):  # pylint: disable=arguments-differ
        """The indices that would sort the array."""
        return argsort(self, axis, kind, order)

    def sort(self, axis=-1, kind=None, order=None):  # pylint: disable=arguments-differ
        """A sorted copy of the array."""
        return sort(self, axis, kind, order)

    def diagonal(self, offset=0, axis1=0, axis2=1):  # pylint: disable=arguments-differ
        """The specified diagonals."""
        return diagonal(self, offset, axis1, axis2)

    def trace(self, offset=0, axis1=0, axis2=1, out=None):
        """The sum along the diagonals."""
        return trace(self, offset, axis1, axis2, out)

    def squeeze(self, axis=None):
        """Remove single-dimensional entries from the shape."""
        return squeeze(self, axis)

    def swapaxes(self, axis1, axis2):
        """Interchange two axes."""
        return _npi.swapaxes(self, dim1=axis1, dim2=axis2)

    def broadcast_to(self, shape):
        """Broadcast the array to ``shape``."""
        return _npi.broadcast_to(self, shape=shape)

    def dot(self, b, out=None):
        """Dot product with ``b``."""
        return _npi.dot(self, b, out=out)

    def clip(self, min=None, max=None, out=None):  # pylint: disable=redefined-builtin
        """Limit the values to [min, max]."""
        return clip(self, min, max, out=out)

    def round(self, decimals=0, out=None):
        """Round to the given number of decimals."""
        return around(self, decimals, out=out)

    def attach_grad(self, grad_req='write'):  # pylint: disable=arguments-differ
        """Attach a gradient buffer to this array, so that ``backward`` computes the gradient
        with respect to it.

        Parameters
        ----------
        grad_req : {'write', 'add', 'null'}
            How the gradient is accumulated.
        """
        NDArray.attach_grad(self, grad_req)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """NumPy ufuncs on mx.np arrays: mx.np's function for the ufuncs MXNet dispatches
        (``numpy_dispatch_protocol``), else NumPy's on copies (not inside
        ``autograd.record()``)."""
        if 'out' in kwargs:
            out = kwargs['out']
            if len(out) != 1:
                raise ValueError('The `out` parameter must have exactly one ndarray')
            kwargs['out'] = out[0]
        if method != '__call__':
            return NotImplemented
        fn = _NUMPY_ARRAY_UFUNC_DICT.get(ufunc.__name__)
        if fn is not None:
            return fn(*inputs, **kwargs)
        return _fallback(ufunc, ufunc.__name__, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        """NumPy functions on mx.np arrays, as ``__array_ufunc__``."""
        fn = _NUMPY_ARRAY_FUNCTION_DICT.get(func)
        if fn is not None:
            if not builtins_all(issubclass(t, ndarray) for t in types):
                return NotImplemented
            return fn(*args, **kwargs)
        return _fallback(func, func.__name__, args, kwargs)


# ndarray's binary operators: (method, entry, scalar entry, reflected scalar entry or None,
# whether the array is the right operand). Each is generated with the two common cases inline
# (another ndarray, a Python float or int): they call the table's entry itself, so that
# ``a + b`` is one frame over torch's call (or over the entry's, for a number), and go
# through ``_ufunc`` for anything else.
_OPERATORS = tuple(
    (method, entry, entry + '_scalar', rscalar, reflected)
    for op, entry, rscalar in (
        ('add', 'add', None), ('sub', 'subtract', 'rsubtract_scalar'), ('mul', 'multiply', None),
        ('truediv', 'true_divide', 'rtrue_divide_scalar'), ('mod', 'mod', 'rmod_scalar'),
        ('pow', 'power', 'rpower_scalar'))
    for method, reflected in (('__%s__' % op, False), ('__r%s__' % op, True))) + tuple(
    ('__%s__' % op, entry, entry + '_scalar', None, False)
    for op, entry in (('and', 'bitwise_and'), ('or', 'bitwise_or'), ('xor', 'bitwise_xor'),
                      ('gt', 'greater'), ('ge', 'greater_equal'), ('lt', 'less'),
                      ('le', 'less_equal')))

# an operator over the front-end functions of ``_npi``: what mx.sym.np's symbols run (with
# its own ``_npi``)
_OPERATOR_SOURCE = (
    'def {m}(self, other):\n'
    '    t = type(other)\n'
    '    if t is ndarray:\n'
    '        return _npi.{e}({pair})\n'
    '    if t is float:\n'
    '        return _npi.{s}(self, scalar=other, is_int=False)\n'
    '    if t is int:\n'
    '        return _npi.{s}(self, scalar=float(other), is_int=True)\n'
    '    return _ufunc({pair}, _npi.{e}, _npi.{scalar}, {r})\n')
# ndarray's: the entries' implementations called as the generated functions call them (the
# namespaces join the entries' ``callers``, which OpDef.rebind and the profiler rebind), the
# result built inline; anything else by the operator above
_INLINE_OPERATOR_SOURCE = (
    'def {m}(self, other):\n'
    '    t = type(other)\n'
    '    if t is ndarray:\n'
    '        _a0 = {first}._t\n'
    '        _a1 = {second}._t\n'
    '        try:\n'
    '            _r = _fn(_a0, _a1)\n'
    '        except RuntimeError as _e:\n'
    '            raise _operator_error({opname!r}, (_a0, _a1), _e) from None\n'
    '        _o = _new(ndarray)\n'
    '        _o._t = _r\n'
    '        _o._ctx = {first}._ctx\n'
    '        if _ACTIVE[0]: _note((_o,), _op, (), ({pair}))\n'
    '        return _o\n'
    '    if t is float or t is int:\n'
    '        _r = _scalar[\'_fn\'](self._t, other if t is float else float(other), t is int)\n'
    '        _o = _new(ndarray)\n'
    '        _o._t = _r\n'
    '        _o._ctx = self._ctx\n'
    '        if _ACTIVE[0]: _note((_o,), _scalar_op, ((\'scalar\', float(other), None),), '
    '(self,))\n'
    '        return _o\n'
    '    return _generic(self, other)\n')


def _operator_source(source, method, entry, scalar, rscalar, reflected):
    return source.format(
        m=method, e=entry, scalar=scalar, s=rscalar if reflected and rscalar else scalar,
        pair='other, self' if reflected else 'self, other',
        r='_npi.' + rscalar if rscalar else 'None',
        first='other' if reflected else 'self', second='self' if reflected else 'other',
        opname='_npi_' + entry)


def _define_operators(cls):
    """Put the generated binary operators (``_OPERATORS``) on the array class ``cls``; returns
    {method: the operator over ``_npi``} (for mx.sym.np)."""
    generic = {}
    for method, entry, scalar, rscalar, reflected in _OPERATORS:
        args = (method, entry, scalar, rscalar, reflected)
        space = {}
        exec(compile(_operator_source(_OPERATOR_SOURCE, *args),  # pylint: disable=exec-used
                     '<mx.np.ndarray.%s>' % method, 'exec'), globals(), space)
        generic[method] = space[method]
        op = registry.get('_npi_' + entry)
        scalar_op = registry.get('_npi_' + (rscalar if reflected and rscalar else scalar))
        g = {'ndarray': ndarray, '_new': _new, '_fn': op.fn, '_scalar': {'_fn': scalar_op.fn},
             '_operator_error': operator_error, '_generic': space[method],
             '_op': op, '_scalar_op': scalar_op, '_ACTIVE': _ACTIVE, '_note': _note}
        op.callers.append(g)
        scalar_op.callers.append(g['_scalar'])
        exec(compile(_operator_source(_INLINE_OPERATOR_SOURCE, *args),  # pylint: disable=exec-used
                     '<mx.np.ndarray.%s>' % method, 'exec'), g)
        setattr(cls, method, g[method])
    return generic


_SYMBOL_OPERATORS = _define_operators(ndarray)


def _index(t, key):
    """``t[key]`` for any NumPy index ``key`` (``ndarray.__getitem__``'s general case):
    negative steps and index arrays converted as torch needs, out-of-range indices reported
    as MXNet does."""
    key = _convert_key(key, t, True)
    flips, key = _flip_negative_steps(key, t.dim(), t.shape)
    src = t.flip(flips) if flips else t
    if not t.is_cpu:
        return src[_bounded_key(key, t.shape, False)]
    try:  # torch checks index arrays on the CPU: no device wait before
        return src[key]
    except IndexError:
        _bounded_key(key, t.shape, False)  # MXNet's message where it applies
        raise


builtins_all, builtins_sum = all, sum  # the NumPy functions below shadow the builtins
_Array = ndarray  # the array class (mx.sym.np runs these functions with ndarray = its _Symbol)
_npi = _make_npi()


def _fallback(func, name, args, kwargs):
    from ..autograd import is_recording
    if is_recording():
        raise ValueError('Falling back to NumPy operator %s with autograd active is not '
                         'supported. Please consider moving the operator to the outside of the '
                         'autograd scope.' % name)
    ctx = [None]

    def conv(x):
        if isinstance(x, NDArray):
            ctx[0] = ctx[0] or x.context
            return x.asnumpy()
        if isinstance(x, (list, tuple)):
            return type(x)(conv(i) for i in x)
        return x
    out = func(*conv(args), **{k: conv(v) for k, v in kwargs.items()})
    return _as_mx(out, ctx[0])


def _as_mx(out, ctx):
    if isinstance(out, _np.ndarray):
        return array(out, dtype=out.dtype, ctx=ctx)
    if isinstance(out, (list, tuple)):
        items = [_as_mx(o, ctx) for o in out]
        return type(out)(*items) if hasattr(out, '_fields') else type(out)(items)
    return out


def _rebuild_np(a):
    return array(a, dtype=a.dtype)


# ------------------------------------------------------------------------ creation
def _wrap_on(t, ctx):
    out = _on_ctx(t, ctx)
    res = _new(ndarray)
    res._t = out._t
    res._ctx = out._ctx
    return res


@set_module('mxnet.numpy')
def array(object, dtype=None, ctx=None):  # pylint: disable=redefined-builtin
    """Create an array.

    Parameters
    ----------
    object : array_like or `numpy.ndarray` or `mxnet.numpy.ndarray`
        An array, any object exposing the array interface, or any (nested) sequence.
    dtype : data-type, optional
        The desired data-type for the array. Default is `float32` (the dtype of ``object``
        when it is an array).
    ctx : device context, optional
        Device context on which the memory is allocated. Default is
        `mxnet.context.current_context()`.

    Returns
    -------
    out : ndarray
        An array object satisfying the specified requirements.
    """
    dev, ctx = _device_and_ctx(ctx)
    if isinstance(object, ndarray):
        t = object._t.detach()
        dtype = object.dtype if dtype is None else dtype
        return _wrap_on(t.to(dev, dtype_torch(dtype), copy=True), ctx)
    if isinstance(object, NDArray):
        raise ValueError("If you're trying to create a mxnet.numpy.ndarray from mx.nd.NDArray, "
                         'please use the zero-copy as_np_ndarray function.')
    if dtype is None:
        dtype = object.dtype if hasattr(object, 'dtype') else _np.float32
    try:
        a = _np.array(object, dtype=dtype_np(dtype))
    except Exception as err:  # NumPy's own message, as MXNet reports it
        raise TypeError('{}'.format(str(err))) from None
    return _wrap_on(torch.from_numpy(a).to(dev), ctx)


def _dtype_name(dtype):
    return 'float32' if dtype is None else dtype


@set_module('mxnet.numpy')
def empty(shape, dtype=_np.float32, order='C', ctx=None):
    """Return a new array of given shape and type, without initializing entries."""
    if order != 'C':
        raise NotImplementedError('empty(order=%r): only order="C" is supported' % order)
    dev, ctx = _device_and_ctx(ctx)
    shape = (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
    return _wrap_on(torch.empty(shape, dtype=dtype_torch(_dtype_name(dtype)), device=dev), ctx)


@set_module('mxnet.numpy')
def zeros(shape, dtype=None, order='C', ctx=None):
    """Return a new array of given shape and type, filled with zeros (float32 by default)."""
    if order != 'C':
        raise NotImplementedError('zeros(order=%r): only order="C" is supported' % order)
    return _npi.zeros(shape=shape, ctx=ctx or current_context(), dtype=_dtype_name(dtype))


@set_module('mxnet.numpy')
def ones(shape, dtype=None, order='C', ctx=None):
    """Return a new array of given shape and type, filled with ones (float32 by default)."""
    if order != 'C':
        raise NotImplementedError('ones(order=%r): only order="C" is supported' % order)
    return _npi.ones(shape=shape, ctx=ctx or current_context(), dtype=_dtype_name(dtype))


@set_module('mxnet.numpy')
def full(shape, fill_value, dtype=None, order='C', ctx=None, out=None):
    """Return a new array of given shape and type, filled with ``fill_value``."""
    if order != 'C':
        raise NotImplementedError('full(order=%r): only order="C" is supported' % order)
    if isinstance(fill_value, NDArray):
        dtype = fill_value.dtype if dtype is None else dtype
        return broadcast_to(fill_value.astype(dtype), shape)
    if dtype is None:
        dtype = _np.bool_ if isinstance(fill_value, bool) else _np.float32
    return _npi.full(shape=shape, value=float(fill_value), ctx=ctx or current_context(),
                     dtype=dtype, out=out)


@set_module('mxnet.numpy')
def empty_like(prototype, dtype=None, order='C', subok=False, shape=None):  # pylint: disable=unused-argument
    """A new uninitialized array with the shape and type of ``prototype``."""
    return empty(prototype.shape if shape is None else shape,
                 prototype.dtype if dtype is None else dtype, ctx=prototype.context)


@set_module('mxnet.numpy')
def zeros_like(a, dtype=None, order='C', ctx=None, out=None):  # pylint: disable=unused-argument
    """An array of zeros with the shape and type of ``a``."""
    return full_like(a, 0, dtype=dtype, ctx=ctx, out=out)


@set_module('mxnet.numpy')
def ones_like(a, dtype=None, order='C', ctx=None, out=None):  # pylint: disable=unused-argument
    """An array of ones with the shape and type of ``a``."""
    return full_like(a, 1, dtype=dtype, ctx=ctx, out=out)


@set_module('mxnet.numpy')
def full_like(a, fill_value, dtype=None, order='C', ctx=None, out=None):  # pylint: disable=unused-argument
    """An array filled with ``fill_value`` with the shape and type of ``a`` (on ``a``'s
    device; ``ctx``, the current context by default, is recorded as MXNet records it)."""
    if isinstance(fill_value, bool):
        fill_value = int(fill_value)
    return _npi.full_like(a, fill_value=fill_value, ctx=ctx or current_context(), dtype=dtype,
                          out=out)


@set_module('mxnet.numpy')
def arange(start, stop=None, step=1, dtype=None, ctx=None):
    """Return evenly spaced values within a given interval (float32 by default)."""
    if step == 0:  # (MXNet's front end: before the operator's own check)
        raise ZeroDivisionError('step cannot be 0')
    # (by keyword: a symbol's attributes are the arguments given, as MXNet writes them)
    return _npi.arange(start=start, stop=stop, step=1 if step is None else step,
                       ctx=ctx or current_context(),
                       dtype='float32' if dtype is None else dtype)  # (_dtype_name, inline)


@set_module('mxnet.numpy')
def eye(N, M=None, k=0, dtype=_np.float32, **kwargs):
    """A 2-D array with ones on the diagonal and zeros elsewhere."""
    ctx = kwargs.pop('ctx', None) or current_context()
    return _npi.eye(N=N, M=M, k=k, ctx=ctx, dtype=_dtype_name(dtype))


@set_module('mxnet.numpy')
def identity(n, dtype=None, ctx=None):
    """The identity array (a square array with ones on the main diagonal)."""
    return _npi.identity(shape=(n, n), ctx=ctx or current_context(), dtype=_dtype_name(dtype))


@set_module('mxnet.numpy')
def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, ctx=None):
    """Return evenly spaced numbers over a specified interval.

    Sample ``i`` is ``start + i * step`` in float64, cast to ``dtype`` (truncated for
    integers). As MXNet's, the step that ``retstep`` returns is ``(stop - start) / (num - 1)``
    whatever ``endpoint`` is (so ``num=1`` raises ZeroDivisionError)."""
    if axis != 0:
        raise NotImplementedError('linspace(axis=%d): only axis=0 is supported' % axis)
    out = _npi.linspace(start=start, stop=stop, num=num, endpoint=endpoint,
                        ctx=ctx or current_context(), dtype=_dtype_name(dtype))
    if retstep:
        return out, (stop - start) / (num - 1)
    return out


@set_module('mxnet.numpy')
def shape(a):
    """Return the shape of an array."""
    return _np.shape(a) if not isinstance(a, NDArray) else a.shape


# ------------------------------------------------------------------------ element-wise
def _entry(name):
    """The table entry of the mx.np function ``name`` (``_npi_<name>`` or ``_np_<name>``)."""
    ops = registry.all_ops()
    return ops.get('_npi_' + name) or ops['_np_' + name]


def _binary(name, rname=None):
    """The ufunc ``name`` of two arrays: the generated function of its entry (no frame between
    it and the entry), with NumPy's keyword checks; a number operand takes the scalar
    entries (an array and a float or an int that of ``name``, inline)."""
    fn = getattr(_npi, name)
    scalar = getattr(_npi, name + '_scalar')
    rscalar = getattr(_npi, rname) if rname else None

    def on_other(x1, x2, out):
        return _ufunc(x1, x2, fn, scalar, rscalar, out=out)
    # (the comparisons take no keyword argument but ``out`` in MXNet: Python's TypeError)
    check = _no_kwargs if name in _COMPARISONS else _check_ufunc_kwargs
    return make_function(_entry(name), name, ndarray, 'mxnet.numpy',
                         UFunc(on_other, check, None, ('x1', 'x2'), _entry(name + '_scalar')))


_BOOL_RESULT = frozenset(['isnan', 'isinf', 'isfinite', 'isposinf', 'isneginf'])


def _unary(name):
    """The ufunc ``name`` of one array: the generated function of its entry, with NumPy's
    keyword checks; a Python number gives NumPy's result."""
    on_number = _numpy_ufunc(name)

    def on_other(x, out):  # pylint: disable=unused-argument
        return on_number(x) if isinstance(x, numbers.Number) else NotImplemented
    return make_function(_entry(name), name, ndarray, 'mxnet.numpy', UFunc(
        on_other, _check_ufunc_kwargs, _check_bool_out if name in _BOOL_RESULT else None,
        ('x',)))


def _numpy_ufunc(name):
    """NumPy's ufunc of the name, which gives the result for a Python number."""
    return getattr(_np, {'abs': 'absolute'}.get(name, name))


def _check_bool_out(name, out):
    if getattr(out, 'dtype', _np.bool_) != _np.bool_:
        raise TypeError('%s: out= must be a bool array, got %s' % (name, out.dtype))


def _check_kwargs(name, kwargs):
    if kwargs:
        _check_ufunc_kwargs(name, kwargs)


_REVERSED = {'subtract', 'true_divide', 'mod', 'power', 'arctan2', 'copysign', 'ldexp'}
_BINARY_UFUNCS = ('add', 'subtract', 'multiply', 'true_divide', 'mod', 'power', 'maximum',
                  'minimum', 'arctan2', 'hypot', 'copysign', 'lcm', 'bitwise_and', 'bitwise_or',
                  'bitwise_xor', 'ldexp', 'equal', 'not_equal', 'greater', 'greater_equal',
                  'less', 'less_equal')
_UNARY_UFUNCS = ('sqrt', 'cbrt', 'exp', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sin', 'cos',
                 'tan', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'arcsinh',
                 'arccosh', 'arctanh', 'degrees', 'radians', 'abs', 'absolute', 'negative',
                 'sign', 'rint', 'fix', 'ceil', 'floor', 'trunc', 'square', 'reciprocal',
                 'logical_not', 'bitwise_not', 'isnan', 'isinf', 'isfinite', 'isposinf',
                 'isneginf')
_UFUNC_ALIASES = {'divide': 'true_divide', 'remainder': 'mod', 'rad2deg': 'degrees',
                  'deg2rad': 'radians', 'invert': 'bitwise_not', 'fabs': 'abs'}


def _function(name, check_kwargs):
    """The function ``name`` of two arrays (``dot``, ``matmul``): the generated function of its
    entry, which has no parameters, with ``check_kwargs(name, kwargs)`` for keyword
    arguments."""
    return make_function(_entry(name), name, ndarray, 'mxnet.numpy',
                         UFunc(_not_arrays, check_kwargs, None, ('a', 'b')))


def _not_arrays(a, b, out):  # pylint: disable=unused-argument
    return NotImplemented  # (MXNet's error for an input that is no array)


def _no_kwargs(name, kwargs):
    raise TypeError("%s() got an unexpected keyword argument '%s'" % (name, next(iter(kwargs))))


def _sequence(name, arg):
    """The function ``name`` of a sequence of arrays, ``arg`` (``concatenate(seq, axis=0)``):
    the generated function of its variadic entry, taking the sequence as one argument."""
    return make_function(_entry(name), name, ndarray, 'mxnet.numpy', sequence=arg)


def _signature(name, entry, signature, doc):
    """The function ``name`` with a NumPy signature (make_function's ``signature``): the
    generated function of the entry ``entry``, without a frame of its own."""
    return make_function(_entry(entry), name, ndarray, 'mxnet.numpy', signature=signature,
                         doc=doc)


_REDUCE = ('a', 'axis', 'dtype', 'out', 'keepdims')
_EXTREME = ('a', 'axis', 'out', 'keepdims')
_DEVIATION = ('a', 'axis', 'dtype', 'out', 'ddof', 'keepdims')
_ARG = ('a=data', 'axis', 'out')
_LOGICAL = ('a=data', 'axis', 'out', 'keepdims')
# the functions and ndarray methods with NumPy signatures over one entry each:
# (name, entry, signature of the function, of the method or None, docstring)
_SIGNATURES = (
    ('sum', 'sum', _REDUCE + ('initial',), _REDUCE, 'Sum of array elements over a given axis.'),
    ('prod', 'prod', _REDUCE + ('initial',), _REDUCE,
     'Product of array elements over a given axis.'),
    ('max', 'max', _EXTREME, _EXTREME, 'The maximum of an array or maximum along an axis.'),
    ('min', 'min', _EXTREME, _EXTREME, 'The minimum of an array or minimum along an axis.'),
    ('mean', 'mean', _REDUCE, _REDUCE,
     'Arithmetic mean along the specified axis (float32 for integer input).'),
    ('std', 'std', _DEVIATION, _DEVIATION, 'Standard deviation along the specified axis.'),
    ('var', 'var', _DEVIATION, _DEVIATION, 'Variance along the specified axis.'),
    ('argmax', 'argmax', _ARG, _ARG, 'Indices of the maximum values along an axis (int64).'),
    ('argmin', 'argmin', _ARG, _ARG, 'Indices of the minimum values along an axis (int64).'),
    ('all', 'all', _LOGICAL, _LOGICAL,
     'Whether all array elements along a given axis evaluate to True.'),
    ('any', 'any', _LOGICAL, _LOGICAL,
     'Whether any array element along a given axis evaluates to True.'),
    ('cumsum', 'cumsum', ('a', 'axis', 'dtype', 'out'), ('a', 'axis', 'dtype', 'out'),
     'Cumulative sum of the elements along a given axis (flattened for ``axis=None``).'),
    ('transpose', 'transpose', ('a', 'axes'), None, 'Permute the dimensions of an array.'),
    ('reshape', 'reshape', ('a', 'newshape', 'order'), None,
     'Gives a new shape to an array without changing its data.'),
    ('expand_dims', 'expand_dims', ('a=data', 'axis'), ('a=data', 'axis'),
     'Expand the shape of an array with an axis of size one at ``axis``.'),
)
_SIGNATURE_ALIASES = {'amax': 'max', 'amin': 'min', 'product': 'prod'}


def _self(signature):
    """A method's signature: the array, the first argument, named ``self``."""
    return ('self=' + signature[0].rpartition('=')[2],) + signature[1:]


def _define_ufuncs(space):
    """Put the element-wise functions and those bound straight to their entries (``dot``,
    ``concatenate``, ``sum``, ...), made over ``_npi``, into the namespace ``space``, and
    the methods bound straight to their entries (``sum``, ``T``, ...) on its array class."""
    array = space['ndarray']
    for name, entry, signature, method, doc in _SIGNATURES:
        space[name] = _signature(name, entry, signature, doc)
        if method is not None:
            setattr(array, name, _signature(name, entry, _self(method), doc))
    for alias, name in _SIGNATURE_ALIASES.items():
        space[alias] = space[name]
    # unary operators: the generated functions themselves, no frame between them and the entry
    for method, entry in (('__neg__', 'negative'), ('__abs__', 'abs'),
                          ('__invert__', 'bitwise_not')):
        setattr(array, method, getattr(_npi, entry))
    # the generated function itself as the getter: no frame between the attribute and the entry
    array.T = property(_signature('transpose', 'transpose', ('self=a',), None),
                       doc='The array with its axes reversed (``transpose()``).')
    for name, f in (('dot', _function('dot', _no_kwargs)),
                    ('matmul', _function('matmul', _check_ufunc_kwargs)),
                    ('concatenate', _sequence('concatenate', 'seq')),
                    ('stack', _sequence('stack', 'arrays'))):
        f.__name__ = f.__qualname__ = name
        f.__module__ = 'mxnet.numpy'
        space[name] = f
    for name in _BINARY_UFUNCS + _UNARY_UFUNCS:
        f = _binary(name, 'r%s_scalar' % name if name in _REVERSED else None) \
            if name in _BINARY_UFUNCS else _unary(name)
        f.__name__ = f.__qualname__ = name
        f.__module__ = 'mxnet.numpy'
        space[name] = f
    for alias, name in _UFUNC_ALIASES.items():
        space[alias] = space[name]


_define_ufuncs(globals())


@set_module('mxnet.numpy')
def around(x, decimals=0, out=None, **kwargs):
    """Evenly round to the given number of decimals."""
    _check_kwargs('around', kwargs)
    if isinstance(x, numbers.Number):
        return _np.around(x, decimals)
    return _npi.around(x, decimals=decimals, out=out)


round = round_ = around  # pylint: disable=redefined-builtin


@set_module('mxnet.numpy')
def clip(a, a_min, a_max, out=None):
    """Clip (limit) the values in an array to [a_min, a_max]."""
    if a_min is None and a_max is None:
        raise ValueError('array_clip: must set either max or min')
    if isinstance(a, numbers.Number):
        return _np.clip(a, a_min, a_max)
    return _npi.clip(a, a_min=a_min, a_max=a_max, out=out)


# ------------------------------------------------------------------------ reductions
def _axis(axis):
    return (axis,) if type(axis) is int or isinstance(axis, numbers.Integral) else axis


@set_module('mxnet.numpy')
def sometrue(a, axis=None, keepdims=False, out=None):
    """Whether any array element along a given axis evaluates to True (``any``)."""
    return any(a, axis=axis, out=out, keepdims=keepdims)


# ------------------------------------------------------------------------ shapes
@set_module('mxnet.numpy')
def ravel(x, order='C'):
    """A contiguous flattened array (MXNet's ``_npx_reshape`` to -1)."""
    if order != 'C':
        raise NotImplementedError("ravel(order='%s'): only order='C' is supported" % order)
    return _npi._npx_reshape(x, newshape=-1)


@set_module('mxnet.numpy')
def squeeze(x, axis=None):
    """Remove single-dimensional entries from the shape of an array."""
    return _npi.squeeze(x, axis=_axis(axis))


@set_module('mxnet.numpy')
def swapaxes(a, axis1, axis2):
    """Interchange two axes of an array."""
    return _npi.swapaxes(a, dim1=axis1, dim2=axis2)


@set_module('mxnet.numpy')
def flip(m, axis=None, out=None):
    """Reverse the order of elements along the given axes (every axis for None)."""
    return _npi.flip(m, axis=_axis(axis), out=out)


@set_module('mxnet.numpy')
def broadcast_to(array, shape):  # pylint: disable=redefined-outer-name
    """Broadcast an array (or a scalar) to a new shape; -2 in ``shape`` keeps the size of the
    array's axis aligned with it from the right."""
    if isinstance(array, numbers.Number):
        return full(shape, array)
    return _npi.broadcast_to(array, shape=shape)


@set_module('mxnet.numpy')
def nonzero(a):
    """The indices of the non-zero elements: a tuple of int64 arrays, one per dimension."""
    out = _npi.nonzero(a).transpose()
    return tuple(out[i] for i in range(len(out)))


@set_module('mxnet.numpy')
def where(condition, x=None, y=None):
    """Elements of ``x`` where ``condition`` holds, of ``y`` elsewhere."""
    if x is None and y is None:
        return nonzero(condition)
    if isinstance(x, numbers.Number):
        if isinstance(y, numbers.Number):
            return _npi.where_scalar2(condition, x=float(x), y=float(y))
        return _npi.where_lscalar(condition, y, scalar=float(x))
    if isinstance(y, numbers.Number):
        return _npi.where_rscalar(condition, x, scalar=float(y))
    return _npi.where(condition, x, y)


@set_module('mxnet.numpy')
def tril(m, k=0):
    """Lower triangle of an array."""
    return _npi.tril(m, k=k)


@set_module('mxnet.numpy')
def copy(a):
    """An array copy of the given object."""
    return _npi.copy(a)


# ------------------------------------------------------------------------ products
@set_module('mxnet.numpy')
def tensordot(a, b, axes=2):
    """Tensor dot product along the specified axes."""
    if isinstance(axes, numbers.Integral):
        return _npi.tensordot_int_axes(a, b, axes=axes)
    a_axes, b_axes = axes
    return _npi.tensordot(a, b, a_axes_summed=_axis(a_axes), b_axes_summed=_axis(b_axes))


@set_module('mxnet.numpy')
def einsum(*operands, **kwargs):
    """Einstein summation convention on the operands."""
    subscripts, arrays = operands[0], operands[1:]
    out = kwargs.pop('out', None)
    optimize = kwargs.pop('optimize', False)
    if kwargs:
        raise TypeError('einsum() got unexpected keyword arguments %s' % list(kwargs))
    return _npi.einsum(*arrays, subscripts=subscripts, optimize=int(bool(optimize)), out=out)


# ------------------------------------------------------------------------ memory
def _byte_range(t):
    if t.numel() == 0:
        return None
    size = t.element_size()
    start = t.data_ptr()
    extent = builtins_sum((n - 1) * st for n, st in zip(t.shape, t.stride()) if st > 0)
    low = builtins_sum((n - 1) * st for n, st in zip(t.shape, t.stride()) if st < 0)
    return start + low * size, start + (extent + 1) * size


@set_module('mxnet.numpy')
def shares_memory(a, b, max_work=None):  # pylint: disable=unused-argument
    """Whether two arrays share memory (their memory ranges overlap)."""
    ra, rb = _byte_range(a._t), _byte_range(b._t)
    return ra is not None and rb is not None and ra[0] < rb[1] and rb[0] < ra[1]


may_share_memory = shares_memory


# ------------------------------------------------------------------------ manipulation
def _split_outputs(outs):
    """The list of a multi-output function's results (a grouped symbol's outputs)."""
    if isinstance(outs, (list, tuple)):
        return list(outs)
    entries = getattr(outs, '_outputs', None)  # only symbols have graph entries
    if entries is not None and len(entries) > 1:
        return [ndarray([e]) for e in entries]
    return [outs]


def _split_args(indices_or_sections, ary=None, axis=0):
    """The split entry's arguments; given ``ary``, checks as MXNet's ``split`` does that ``n``
    sections divide its ``axis`` equally (an array's; a symbol's shape is not known yet)."""
    if isinstance(indices_or_sections, numbers.Integral):
        if isinstance(ary, _Array) and ary.shape[axis] % indices_or_sections:
            raise ValueError('array split does not result in an equal division')
        return {'indices': [], 'sections': int(indices_or_sections)}
    if not isinstance(indices_or_sections, (tuple, list, set)):
        raise ValueError('indices_or_sections must be either int, or tuple / list / set of ints')
    return {'indices': [0] + list(indices_or_sections), 'sections': 0}  # (lists, as MXNet's)


@set_module('mxnet.numpy')
def split(ary, indices_or_sections, axis=0):
    """Split an array into equal sub-arrays (an int) or at the given indices (a list)."""
    return _split_outputs(_npi.split(ary, axis=axis, squeeze_axis=False,
                                     **_split_args(indices_or_sections, ary, axis)))


@set_module('mxnet.numpy')
def array_split(ary, indices_or_sections, axis=0):
    """Split an array into sub-arrays; ``n`` sections need not divide the axis equally."""
    return _split_outputs(_npi.split(ary, axis=axis, squeeze_axis=False,
                                     **_split_args(indices_or_sections)))


@set_module('mxnet.numpy')
def hsplit(ary, indices_or_sections):
    """Split an array into sub-arrays horizontally (column-wise); ``n`` sections need not
    divide the columns equally (the first ones get one more, as in ``array_split``)."""
    if isinstance(ary, _Array) and ary.ndim < 1:
        raise ValueError('hsplit only works on arrays of 1 or more dimensions')
    return _split_outputs(_npi.hsplit(ary, axis=1, squeeze_axis=False,
                                      **_split_args(indices_or_sections)))


@set_module('mxnet.numpy')
def vsplit(ary, indices_or_sections):
    """Split an array into sub-arrays vertically (row-wise)."""
    if isinstance(ary, _Array) and ary.ndim < 2:
        raise ValueError('vsplit only works on arrays of 2 or more dimensions')
    return split(ary, indices_or_sections, axis=0)


@set_module('mxnet.numpy')
def dsplit(ary, indices_or_sections):
    """Split an array into sub-arrays along the 3rd axis (depth)."""
    if isinstance(ary, _Array) and ary.ndim < 3:
        raise ValueError('dsplit only works on arrays of 3 or more dimensions')
    out = _npi.dsplit(ary, axis=2, squeeze_axis=False, **_split_args(indices_or_sections, ary, 2))
    if len(getattr(out, '_outputs', ())) == 1:
        return out  # a symbol of one part stays whole (MXNet lists only split's and hsplit's)
    return _split_outputs(out)


@set_module('mxnet.numpy')
def hstack(arrays):
    """Stack arrays in sequence horizontally (column wise)."""
    return _npi.hstack(*arrays)


@set_module('mxnet.numpy')
def vstack(arrays, out=None):
    """Stack arrays in sequence vertically (row wise)."""
    return _npi.vstack(*arrays, out=out)


row_stack = vstack


@set_module('mxnet.numpy')
def dstack(arrays):
    """Stack arrays in sequence depth wise (along the third axis)."""
    return _npi.dstack(*arrays)


@set_module('mxnet.numpy')
def column_stack(tup):
    """Stack 1-D arrays as columns into a 2-D array."""
    return _npi.column_stack(*tup)


def _atleast(fn, arys):
    out = _split_outputs(fn(*arys))
    return out[0] if len(out) == 1 else out


@set_module('mxnet.numpy')
def atleast_1d(*arys):
    """Arrays with at least one dimension."""
    return _atleast(_npi.atleast_1d, arys)


@set_module('mxnet.numpy')
def atleast_2d(*arys):
    """Arrays with at least two dimensions."""
    return _atleast(_npi.atleast_2d, arys)


@set_module('mxnet.numpy')
def atleast_3d(*arys):
    """Arrays with at least three dimensions."""
    return _atleast(_npi.atleast_3d, arys)


@set_module('mxnet.numpy')
def diagonal(a, offset=0, axis1=0, axis2=1):
    """The specified diagonals."""
    return _npi.diagonal(a, offset=offset, axis1=axis1, axis2=axis2)


@set_module('mxnet.numpy')
def diag(v, k=0):
    """Extract a diagonal or construct a diagonal array."""
    return _npi.diag(v, k=k)


@set_module('mxnet.numpy')
def trace(a, offset=0, axis1=0, axis2=1, out=None):
    """The sum along diagonals of the array."""
    return _npi.trace(a, offset=offset, axis1=axis1, axis2=axis2, out=out)


@set_module('mxnet.numpy')
def repeat(a, repeats, axis=None):
    """Repeat elements of an array."""
    return _npi.repeat(a, repeats=repeats, axis=axis)


@set_module('mxnet.numpy')
def roll(a, shift, axis=None):
    """Roll array elements along a given axis."""
    return _npi.roll(a, shift=_axis(shift), axis=_axis(axis))


@set_module('mxnet.numpy')
def tile(A, reps):
    """Construct an array by repeating A the number of times given by reps."""
    return _npi.tile(A, reps=_axis(reps))


@set_module('mxnet.numpy')
def rot90(m, k=1, axes=(0, 1)):
    """Rotate an array by 90 degrees in the plane specified by axes."""
    return _npi.rot90(m, k=k, axes=axes)


@set_module('mxnet.numpy')
def moveaxis(a, source, destination):
    """Move axes of an array to new positions."""
    return _npi.moveaxis(a, source=_axis(source), destination=_axis(destination))


@set_module('mxnet.numpy')
def sort(a, axis=-1, kind=None, order=None):  # pylint: disable=unused-argument
    """A sorted copy of an array."""
    return _npi.sort(a, axis=axis, is_ascend=True)


@set_module('mxnet.numpy')
def argsort(a, axis=-1, kind=None, order=None):  # pylint: disable=unused-argument
    """The indices that would sort an array (int64)."""
    return _npi.argsort(a, axis=axis, is_ascend=True, dtype='int64')


@set_module('mxnet.numpy')
def take(a, indices, axis=None, mode='raise', out=None):
    """Take elements from an array along an axis."""
    return _npi.take(a, indices, axis=axis, mode=mode, out=out)


@set_module('mxnet.numpy')
def diff(a, n=1, axis=-1, prepend=None, append=None):  # pylint: disable=redefined-outer-name
    """The n-th discrete difference along the given axis."""
    if prepend is not None or append is not None:
        raise NotImplementedError('diff(prepend=, append=) is not supported by mxcompat yet')
    return _npi.diff(a, n=n, axis=axis)


@set_module('mxnet.numpy')
def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, ctx=None):
    """Numbers spaced evenly on a log scale."""
    if axis != 0:
        raise NotImplementedError('logspace(axis=%d): only axis=0 is supported' % axis)
    return _npi.logspace(start=start, stop=stop, num=num, endpoint=endpoint, base=base,
                         ctx=ctx or current_context(), dtype=_dtype_name(dtype))


@set_module('mxnet.numpy')
def indices(dimensions, dtype=_np.int32, ctx=None):
    """An array representing the indices of a grid."""
    return _npi.indices(dimensions=dimensions, dtype=dtype, ctx=ctx or current_context())


@set_module('mxnet.numpy')
def flipud(m):
    """Reverse the order of elements along axis 0 (up/down)."""
    return flip(m, 0)


@set_module('mxnet.numpy')
def fliplr(m):
    """Reverse the order of elements along axis 1 (left/right)."""
    return flip(m, 1)


@set_module('mxnet.numpy')
def inner(a, b):
    """Inner product of two arrays (over their last axes)."""
    return tensordot(a, b, ([-1], [-1]))


@set_module('mxnet.numpy')
def outer(a, b):
    """Outer product of two vectors (flattened)."""
    return tensordot(a.reshape(-1), b.reshape(-1), 0)


@set_module('mxnet.numpy')
def vdot(a, b):
    """Dot product of two flattened arrays."""
    return tensordot(a.reshape(-1), b.reshape(-1), 1)


@set_module('mxnet.numpy')
def append(arr, values, axis=None):  # pylint: disable=redefined-outer-name
    """Values appended to the end of an array (both flattened without ``axis``)."""
    return concatenate([arr, values], axis=axis)


def _rows(out):
    """The rows of an array, as a tuple (a symbol stays whole: its rows are not known)."""
    return tuple(out) if getattr(out, 'shape', None) is not None else out


@set_module('mxnet.numpy')
def diagflat(array, k=0):  # pylint: disable=redefined-outer-name
    """Create a two-dimensional array with the flattened input as a diagonal."""
    return _npi.diagflat(array, k=k)


@set_module('mxnet.numpy')
def diag_indices_from(arr):
    """The indices to access the main diagonal of an n-dimensional array (a tuple of arrays,
    one per axis)."""
    return _rows(_npi.diag_indices_from(arr))


@set_module('mxnet.numpy')
def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None, **kwargs):
    """Replace NaN with ``nan`` and infinities with ``posinf`` / ``neginf`` (the largest and
    smallest finite values of the type by default); in place where ``copy`` is False."""
    if kwargs:
        raise TypeError('nan_to_num() got unexpected keyword arguments %s' % list(kwargs))
    if isinstance(x, numbers.Number):
        return _np.nan_to_num(x, copy, nan, posinf, neginf)
    if getattr(x, 'dtype', None) in (_np.int8, _np.uint8, _np.int32, _np.int64):
        return x
    return _npi.nan_to_num(x, copy=copy, nan=nan, posinf=posinf, neginf=neginf,
                           out=None if copy else x)


@set_module('mxnet.numpy')
def unravel_index(indices, shape, order='C'):  # pylint: disable=redefined-outer-name
    """Converts flat indices into a tuple of coordinate arrays for an array of ``shape``."""
    if order != 'C':
        raise NotImplementedError("unravel_index(order='%s'): only order='C' is supported"
                                  % order)
    if isinstance(indices, numbers.Number):
        return _np.unravel_index(indices, shape)
    return _rows(_npi.unravel_index_fallback(indices, shape=shape))


@set_module('mxnet.numpy')
def hanning(M, dtype=_np.float32, ctx=None):
    """The Hanning window of ``M`` points."""
    return _npi.hanning(M=M, dtype=dtype, ctx=ctx or current_context())


@set_module('mxnet.numpy')
def hamming(M, dtype=_np.float32, ctx=None):
    """The Hamming window of ``M`` points."""
    return _npi.hamming(M=M, dtype=dtype, ctx=ctx or current_context())


@set_module('mxnet.numpy')
def blackman(M, dtype=_np.float32, ctx=None):
    """The Blackman window of ``M`` points."""
    return _npi.blackman(M=M, dtype=dtype, ctx=ctx or current_context())


@set_module('mxnet.numpy')
def broadcast_arrays(*args):
    """Broadcast any number of arrays against each other.

    Parameters
    ----------
    `*args` : a list of ndarrays
        The arrays to broadcast.

    Returns
    -------
    broadcasted : list of arrays
        Each array broadcast to the common shape (the arrays themselves where they all have
        that shape already).
    """
    try:
        shape = tuple(torch.broadcast_shapes(*(tuple(a.shape) for a in args)))
    except RuntimeError:
        raise ValueError('operands could not be broadcast together with shapes %s'
                         % ' '.join(str(a.shape) for a in args)) from None
    if builtins_all(a.shape == shape for a in args):
        return list(args)
    return [broadcast_to(a, shape) for a in args]


@set_module('mxnet.numpy')
def meshgrid(*xi, **kwargs):
    """Return coordinate matrices from coordinate vectors.

    Parameters
    ----------
    x1, x2,..., xn : ndarrays
        1-D arrays representing the coordinates of a grid.
    indexing : {'xy', 'ij'}, optional
        Cartesian ('xy', default) or matrix ('ij') indexing of output.
    sparse : bool, optional
        Only False (the default) is supported, as in MXNet.
    copy : bool, optional
        Only True (the default) is supported, as in MXNet.

    Returns
    -------
    X1, X2,..., XN : list of ndarray
        ``(N1, N2, ..., Nn)``-shaped arrays for indexing='ij', ``(N2, N1, ..., Nn)``-shaped
        ones for indexing='xy'.
    """
    if not kwargs.pop('copy', True):
        raise NotImplementedError('mx.np.meshgrid(copy=False) is not supported (nor by MXNet)')
    if kwargs.pop('sparse', False):
        raise NotImplementedError('mx.np.meshgrid(sparse=True) is not supported (nor by MXNet)')
    indexing = kwargs.pop('indexing', 'xy')
    if kwargs:
        raise TypeError("meshgrid() got an unexpected keyword argument '%s'" % list(kwargs)[0])
    if indexing not in ('xy', 'ij'):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    unit = (1,) * len(xi)
    out = [x.reshape(unit[:i] + (-1,) + unit[i + 1:]) for i, x in enumerate(xi)]
    if indexing == 'xy' and len(xi) > 1:  # the first two axes swapped
        out[0] = out[0].reshape((1, -1) + unit[2:])
        out[1] = out[1].reshape((-1, 1) + unit[2:])
    return broadcast_arrays(*out)


@set_module('mxnet.numpy')
def bincount(x, weights=None, minlength=0):
    """Count the occurrences of each value in an array of non-negative integers (summing
    ``weights`` where given)."""
    if minlength < 0:
        raise ValueError('Minlength value should greater than 0')
    if weights is None:
        return _npi.bincount(x, minlength=minlength, has_weights=False)
    return _npi.bincount(x, weights, minlength=minlength, has_weights=True)


@set_module('mxnet.numpy')
def polyval(p, x):
    """Evaluate the polynomial with coefficients ``p`` (highest power first) at ``x``."""
    if isinstance(p, NDArray) and isinstance(x, NDArray):
        return _npi.polyval(p, x)
    if not isinstance(p, NDArray) and not isinstance(x, NDArray):
        return _np.polyval(p, x)
    raise TypeError('polyval: p and x must both be arrays or both be array-likes')


@set_module('mxnet.numpy')
def ediff1d(ary, to_end=None, to_begin=None):
    """The differences between consecutive elements of the flattened array, with ``to_begin``
    and ``to_end`` (arrays or scalars) around them."""
    arrays = [a for a in (to_begin, to_end) if isinstance(a, NDArray)]
    begin_arr, end_arr = isinstance(to_begin, NDArray), isinstance(to_end, NDArray)
    return _npi.ediff1d(ary, *arrays, to_begin_arr_given=begin_arr, to_end_arr_given=end_arr,
                        to_begin_scalar=None if begin_arr else to_begin,
                        to_end_scalar=None if end_arr else to_end)


@set_module('mxnet.numpy')
def average(a, axis=None, weights=None, returned=False, out=None):
    """The weighted average along the specified axis (and the sum of the weights where
    ``returned``)."""
    if weights is None:
        return _npi.average(a, axis=_axis(axis), returned=returned, weighted=False, out=out)
    return _npi.average(a, weights, axis=_axis(axis), returned=returned, weighted=True,
                        out=out)


@set_module('mxnet.numpy')
def percentile(a, q, axis=None, out=None, overwrite_input=None, interpolation='linear',
               keepdims=False):
    """The q-th percentile (q from 0 to 100) of the data along the specified axis."""
    if overwrite_input is not None:
        raise NotImplementedError('percentile(overwrite_input=) is not supported')
    if isinstance(q, numbers.Number):
        return _npi.percentile(a, axis=_axis(axis), interpolation=interpolation,
                               keepdims=keepdims, q_scalar=q, out=out)
    return _npi.percentile(a, q, axis=_axis(axis), interpolation=interpolation,
                           keepdims=keepdims, q_scalar=None, out=out)


@set_module('mxnet.numpy')
def quantile(a, q, axis=None, out=None, overwrite_input=None, interpolation='linear',
             keepdims=False):
    """The q-th quantile (q from 0 to 1) of the data along the specified axis."""
    return percentile(a, q * 100, axis, out, overwrite_input, interpolation, keepdims)


@set_module('mxnet.numpy')
def resize(a, new_shape):
    """A new array of ``new_shape`` filled with repeated copies of ``a``."""
    return _npi.resize_fallback(a, new_shape=new_shape)


_PAD_KWARGS = {'constant': ('constant_values',), 'edge': (), 'reflect': ('reflect_type',),
               'symmetric': ('reflect_type',), 'maximum': ('stat_length',),
               'minimum': ('stat_length',)}


@set_module('mxnet.numpy')
def pad(x, pad_width, mode='constant', **kwargs):
    """Pad an array: ``pad_width`` holds (before, after) per axis (or one pair, or one
    number, for every axis); modes 'constant', 'edge', 'reflect', 'symmetric', 'maximum',
    'minimum'. MXNet 1.9.1 pads with zeros in 'constant' mode whatever ``constant_values``
    says (its front end drops the value), and so does this one."""
    if _np.asarray(pad_width).dtype.kind != 'i':
        raise TypeError('`pad_width` must be of integral type.')
    if not isinstance(pad_width, tuple):
        raise TypeError('`pad_width` must be tuple.')
    if mode not in _PAD_KWARGS:
        raise ValueError('mode {%r} is not supported.' % (mode,))
    unsupported = set(kwargs) - set(_PAD_KWARGS[mode])
    if unsupported:
        raise ValueError("unsupported keyword arguments for mode '%s': %s" % (mode, unsupported))
    if kwargs.get('reflect_type', 'even') not in ('even', None):
        raise ValueError("unsupported reflect_type '%s'" % kwargs['reflect_type'])
    if kwargs.get('stat_length') is not None:
        raise ValueError("unsupported stat_length '%s'" % (kwargs['stat_length'],))
    if isinstance(kwargs.get('constant_values'), tuple):
        raise TypeError("unsupported constant_values type: {'tuple'}.")
    return _npi.pad(x, pad_width=pad_width, mode=mode, constant_value=0)


@set_module('mxnet.numpy')
def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None):
    """The sorted unique elements of an array (slices along ``axis``), with the indices of
    their first occurrences, the inverse indices and the counts where asked."""
    out = _npi.unique(ar, return_index=return_index, return_inverse=return_inverse,
                      return_counts=return_counts, axis=axis)
    return tuple(out) if isinstance(out, list) else out


@set_module('mxnet.numpy')
def histogram(a, bins=10, range=None, normed=None, weights=None, density=None):  # pylint: disable=redefined-builtin
    """The histogram of a set of data: (counts, bin edges); ``bins`` is a number of equal
    bins over ``range`` or an array of bin edges."""
    if normed is True or density is True or weights is not None:
        raise NotImplementedError('histogram(normed=, density=, weights=) is not supported')
    if isinstance(bins, numbers.Number):
        if range is None:
            raise NotImplementedError('histogram: automatic range is not supported; pass '
                                      'range=')
        return tuple(_npi.histogram(a, bin_cnt=bins, range=range))
    if isinstance(bins, NDArray):
        return tuple(_npi.histogram(a, bins))
    raise NotImplementedError('histogram(bins=%s): bins must be a number or an array'
                              % type(bins).__name__)


def _slice_args(obj):
    return {'start': obj.start, 'stop': obj.stop, 'step': 1 if obj.step is None else obj.step}


@set_module('mxnet.numpy')
def delete(arr, obj, axis=None):
    """A new array with the sub-arrays at ``obj`` (an int, a slice or an index array) along
    ``axis`` deleted (of the flattened array without ``axis``)."""
    if isinstance(obj, slice):
        return _npi.delete(arr, axis=axis, **_slice_args(obj))
    if isinstance(obj, numbers.Integral):
        return _npi.delete(arr, int_ind=int(obj), axis=axis)
    if isinstance(obj, NDArray):
        return _npi.delete(arr, obj, axis=axis)
    raise TypeError("'obj' can not support type %s" % type(obj).__name__)


@set_module('mxnet.numpy')
def insert(arr, obj, values, axis=None):
    """Insert ``values`` (an array or a scalar) before the positions ``obj`` (an int, a slice
    or an index array) along ``axis`` (of the flattened array without ``axis``)."""
    if isinstance(values, numbers.Number):
        extra, kwargs = (), {'val': float(values)}
    elif isinstance(values, NDArray):
        extra, kwargs = (values,), {}
    else:
        raise TypeError("'values' can not support type %s" % type(values).__name__)
    if isinstance(obj, slice):
        return _npi.insert_slice(arr, *extra, axis=axis, **_slice_args(obj), **kwargs)
    if isinstance(obj, numbers.Integral):
        return _npi.insert_scalar(arr, *extra, int_ind=int(obj), axis=axis, **kwargs)
    if isinstance(obj, NDArray):
        return _npi.insert_tensor(arr, *extra, obj, axis=axis, **kwargs)
    raise TypeError("'obj' can not support type %s" % type(obj).__name__)
