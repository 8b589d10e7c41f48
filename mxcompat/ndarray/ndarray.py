"""NDArray: MXNet's n-dimensional array, a thin wrapper around one ``torch.Tensor``.

The hot path of every operation is one Python call and one torch call: an NDArray holds its
tensor in ``_t`` and nothing else is computed per operation. MXNet semantics that differ from
torch's (dtype rules of scalar arithmetic, integer division, comparisons returning the input's
dtype, legacy indexing that never yields 0-d arrays) are handled here.
"""
import ctypes
import warnings
import weakref

import numpy as np
import torch
import torch.utils.dlpack

from ..base import (MXNetError, numeric_types, integer_types, dtype_torch, dtype_np, mx_real_t,
                    torch_to_np_type, BFLOAT16_NP)
from ..context import Context, current_context, context_of_device, as_context, \
    mixed_context_error, operator_error
from ..util import is_np_shape
from ..ops.shape_rules import infer_reshape
from ..ops.int_cast import cast_recorded, int_scalar
from ..ops.elemwise_arith import mod as _mod, power as _power
from ..deferred_errors import carry, rethrow, waitall as _raise_pending
from ..autograd_history import ACTIVE as _ACTIVE, note as _note, recording as _recording, \
    unknown_graph as _unknown_graph

# torch's grad mode, read and set without a context-manager object
_grad_enabled, _set_grad_enabled = torch.is_grad_enabled, torch._C._set_grad_enabled

__all__ = ['NDArray', 'wrap', 'array', 'empty', 'zeros', 'ones', 'full', 'from_numpy',
           'from_torch', 'from_dlpack', 'to_dlpack_for_read', 'to_dlpack_for_write', 'waitall',
           'concatenate', 'moveaxis', 'onehot_encode', 'histogram', 'py_slice']

py_slice = slice  # MXNet's name for the builtin, used by its tests

_INT_DTYPES = frozenset([torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8,
                         torch.uint16, torch.uint32, torch.uint64, torch.bool])
_GRAD_REQ_MAP = {'null': 0, 'write': 1, 'add': 3}
# MXNet's storage type ids (sparse arrays keep their values densely: see ndarray/sparse.py)
_STORAGE_TYPE_STR_TO_ID = {'undefined': -1, 'default': 0, 'row_sparse': 1, 'csr': 2}
_STORAGE_TYPE_ID_TO_STR = {v: k for k, v in _STORAGE_TYPE_STR_TO_ID.items()}


# handle value -> array, for NDArray(handle): the arrays whose handle was taken
_BY_HANDLE = weakref.WeakValueDictionary()

# the generated operator modules mx.nd.op and mx.nd._internal, and mx.np.ndarray, which
# ndarray/__init__.py sets once it has made them from this module's NDArray (an import inside a
# method would cost about 2 us a call)
_op = _internal = _np_ndarray = None
# autograd.backward, which autograd.py sets (it imports this module)
_autograd_backward = None


class NDArray:
    """An array object representing a multidimensional, homogeneous array of fixed-size items.

    In mxcompat an NDArray wraps exactly one ``torch.Tensor`` (``to_torch()`` returns it
    without a copy).
    """
    __slots__ = ('_t', '_ctx', '_h', '__weakref__')
    # numpy defers binary operators with an NDArray on the right to NDArray's reflected ones
    __array_priority__ = 1000.0

    def __init__(self, handle, writable=True):
        ctx = None
        if handle is None:  # MXNet's pickles construct NDArray(None), then restore the state
            handle = torch.empty(0)
        elif isinstance(handle, ctypes.c_void_p):  # an array's ``handle``: the same data
            source = _BY_HANDLE.get(handle.value)
            if source is None:
                raise MXNetError('NDArray(handle): %r is not the handle of a live array; pass '
                                 'an array\'s .handle (or a callback\'s array)' % (handle,))
            handle, ctx = source._t, source._ctx
        elif not isinstance(handle, torch.Tensor):
            raise MXNetError('NDArray(handle): handle must be a torch.Tensor; use mx.nd.array '
                             'to make an NDArray from data')
        self._t = handle
        self._ctx = ctx

    # ---------------------------------------------------------------- properties
    @property
    def shape(self):
        """Tuple of array dimensions."""
        return tuple(self._t.shape)

    @property
    def size(self):
        """Number of elements in the array."""
        return self._t.numel()

    @property
    def ndim(self):
        """Number of array dimensions."""
        return self._t.dim()

    @property
    def dtype(self):
        """Data-type of the array's elements (a numpy type, e.g. ``numpy.float32``)."""
        return torch_to_np_type(self._t.dtype)

    @property
    def context(self):
        """Device context of the array."""
        return self._ctx or context_of_device(self._t.device)

    ctx = context

    @property
    def stype(self):
        """Storage-type of the array: 'default' (dense); CSRNDArray and RowSparseNDArray
        (``mx.nd.sparse``) have 'csr' and 'row_sparse'."""
        return 'default'

    @property
    def handle(self):
        """The array's handle, a ``ctypes.c_void_p`` (MXNet's ``NDArrayHandle``):
        ``NDArray(handle)`` is an array of the same data while this array lives."""
        _BY_HANDLE[id(self)] = self
        return ctypes.c_void_p(id(self))

    # ctypes.cast(arr, NDArrayHandle) gives the handle: monitor callbacks written for MXNet,
    # which passes them handles, take mxcompat's arrays
    _as_parameter_ = handle

    @property
    def writable(self):
        """Whether this array can be written to."""
        return True

    @property
    def T(self):
        """Returns a copy of the array with axes transposed (same as ``transpose()``)."""
        if self._t.dim() < 2:
            return self
        return wrap(self._t.permute(*range(self._t.dim() - 1, -1, -1)).contiguous())

    @property
    def grad(self):
        """Returns gradient buffer attached to this NDArray (None if none is attached)."""
        g = self._t.grad
        if g is None:
            return None
        return wrap(g)

    @property
    def _fresh_grad(self):
        """Whether a backward pass has written this array's gradient since it was last
        marked stale (``gluon.Trainer`` uses it to detect stale gradients)."""
        return getattr(self._t, '_mx_fresh_grad', False)

    @_fresh_grad.setter
    def _fresh_grad(self, state):
        self._t._mx_fresh_grad = bool(state)

    @staticmethod
    def _basic_indexing_slice_is_contiguous(slc_key, shape):
        """Whether indexing with the given key (one slice per axis) results in a contiguous
        array: from right to left, once an axis is sliced to a proper subset, every later
        slice must have at most one element."""
        assert len(slc_key) == len(shape)
        lens = [len(range(*slc.indices(n))) for slc, n in zip(slc_key, shape)]
        total = 1
        for n in lens:
            total *= n
        if total in (0, 1):
            return True
        is_subset = False
        for idx, n, num in zip(reversed(slc_key), reversed(shape), reversed(lens)):
            step = idx.indices(n)[2]
            if num == 0:
                return True
            if num > 1 and (step > 1 or step < 0):
                return False
            if is_subset:
                if num > 1:
                    return False
            elif num < n:
                is_subset = True
        return True

    # ---------------------------------------------------------------- conversion
    def asnumpy(self):
        """Returns a ``numpy.ndarray`` object with value copied from this array."""
        t = self._t
        # a host array without a graph, of a NumPy type: one torch call (asked first: torch's
        # refusal of a device array or one with a graph costs about 25 us)
        if t.is_cpu and not t.requires_grad:
            try:
                return t.numpy().copy()
            except TypeError:  # a type numpy lacks (bfloat16)
                if type(t) is not torch.Tensor:  # an operator's error, raised at this read
                    raise
        t = t.detach()
        if t.dtype is torch.bfloat16:
            return t.view(torch.int16).cpu().numpy().view(BFLOAT16_NP).copy()
        return t.cpu().numpy().copy()

    def asscalar(self):
        """Returns a scalar whose value is copied from this array.

        This function is equivalent to ``self.asnumpy()[0]``. This NDArray must have shape
        (1,); as in MXNet 1.9.1, any array of size 1 is accepted, and one of another number of
        dimensions gives ``self.asnumpy()[()]`` (a numpy scalar for a 0-d array, else the
        numpy array itself)."""
        if self.size != 1:
            raise ValueError('The current array is not a scalar')
        if self.ndim == 1:
            return self.asnumpy()[0]
        return self.asnumpy()[()]

    def __array__(self, dtype=None, copy=None):
        a = self.asnumpy()
        return a if dtype is None else a.astype(dtype)

    def to_torch(self):
        """The underlying ``torch.Tensor`` (no copy)."""
        return self._t

    def astype(self, dtype, copy=True):
        """Returns a copy of the array after casting to a specified type.

        Parameters
        ----------
        dtype : numpy.dtype or str
            The type of the returned array.
        copy : bool
            Default `True`. By default, astype always returns a newly allocated ndarray on the
            same context. If this is set to `False`, and the dtype requested is the same as the
            ndarray's dtype, the ndarray is returned instead of a copy.
        """
        td = dtype_torch(mx_real_t if dtype is None else dtype)  # (MXNet's default type)
        if not copy and td is self._t.dtype:
            return self
        return self._like(cast_recorded(self._t, td, copy=True))

    def copy(self):
        """Makes a copy of this ``NDArray``, keeping the same context."""
        return self._like(self._t.clone())

    def copyto(self, other):
        """Copies the value of this array to another array or to a context.

        Parameters
        ----------
        other : NDArray or Context
            The destination array or context.

        Returns
        -------
        NDArray
            The copied array. If ``other`` is an ``NDArray``, then the return value
            and ``other`` will point to the same ``NDArray``.
        """
        if isinstance(other, NDArray):
            if other._t is self._t:
                import warnings
                warnings.warn('You are attempting to copy an array to itself', RuntimeWarning)
                return False
            if other.shape != self.shape:
                raise MXNetError('copyto: shape mismatch, source %s vs destination %s'
                                 % (self.shape, other.shape))
            _assign(other, self._t)  # recorded under autograd.record(), as MXNet's _copyto
            return other
        if isinstance(other, Context):
            # a copy made outside autograd.record() is not part of the graph, as in MXNet (torch's
            # grad mode, left on there, would tie it to the source's gradient)
            t = self._t if _recording() else self._t.detach()
            return _on_ctx(t.to(other.torch_device, copy=True), other)
        raise TypeError('copyto does not support type ' + str(type(other)))

    def as_in_context(self, context):
        """Returns an array on the target device with the same value as this array.

        If the target context is the same as ``self.context``, then ``self`` is returned.
        Otherwise, a copy is made.
        """
        if self.context == context:
            return self
        return self.copyto(context)

    def as_nd_ndarray(self):
        """This function is a no-op in the legacy (mx.nd) array interface."""
        return self

    def as_np_ndarray(self):
        """An ``mx.np.ndarray`` sharing this array's data (no copy) and its recorded history
        (MXNet's two arrays are one)."""
        out = _new(_np_ndarray)
        out._t = self._t
        out._ctx = self._ctx
        try:
            out._h = self._h
        except AttributeError:  # (nothing recorded it)
            pass
        return out

    def tostype(self, stype):
        """Return a copy of the array with chosen storage type.

        Parameters
        ----------
        stype : str
            ``'default'``, ``'csr'`` (2-D arrays) or ``'row_sparse'``.

        Returns
        -------
        NDArray, CSRNDArray or RowSparseNDArray
            A copy of the array with the chosen storage type
        """
        if stype == 'default':
            return self.copy()
        from .sparse import _wrap
        return _wrap(stype, self._t.detach().clone(), self.context)

    def detach(self):
        """Returns a new NDArray, detached from the current graph."""
        return self._like(self._t.detach())

    def wait_to_read(self):
        """Waits until all previous write operations on the current array are finished.

        Raises the error of an operator that failed to compute the array (MXNet's engine
        reports operators' errors when the array is read)."""
        rethrow(self._t)
        if self._t.is_cuda:
            torch.cuda.synchronize(self._t.device)

    wait_to_write = wait_to_read

    def to_dlpack_for_read(self):
        """Returns a reference view of NDArray that represents as DLManagedTensor."""
        return torch.utils.dlpack.to_dlpack(self._t.detach())

    to_dlpack_for_write = to_dlpack_for_read

    def __dlpack__(self, stream=None, **kwargs):
        return self._t.detach().__dlpack__(stream=stream, **kwargs) if stream is not None \
            else self._t.detach().__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._t.__dlpack_device__()

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        args = _unwrap_tree(args)
        kwargs = _unwrap_tree(kwargs) if kwargs else {}
        return func(*args, **kwargs)

    def _like(self, t):
        """Wrap ``t`` keeping this array's context."""
        out = NDArray.__new__(NDArray)
        out._t = t
        out._ctx = self._ctx
        return out

    # ---------------------------------------------------------------- autograd
    def attach_grad(self, grad_req='write', stype=None):
        """Attach a gradient buffer to this NDArray, so that `backward` can compute gradient
        with respect to it.

        Parameters
        ----------
        grad_req : {'write', 'add', 'null'}
            How gradient will be accumulated.
            - 'write': gradient will be overwritten on every backward.
            - 'add': gradient will be added to existing value on every backward.
            - 'null': do not compute gradient for this NDArray.
        stype : str, optional
            The storage type of the gradient array. Defaults to the same stype of this NDArray.
        """
        from .. import autograd
        if stype not in (None, 'default'):
            raise NotImplementedError("attach_grad(stype='%s'): sparse gradients are not "
                                      'supported by mxcompat' % stype)
        autograd.mark_variables([self], [None], grad_req)

    def backward(self, out_grad=None, retain_graph=False, train_mode=True):
        """Compute the gradients of this NDArray w.r.t variables.

        Parameters
        ----------
        out_grad : NDArray, optional
            Gradient with respect to head.
        retain_graph : bool, optional
            Whether to retain the computaion graph for another backward
            pass on the same graph. By default the computaion history
            is cleared.
        train_mode : bool, optional
            Whether to compute gradient for training or inference.
        """
        _autograd_backward([self], None if out_grad is None else [out_grad], retain_graph,
                           train_mode)

    # ---------------------------------------------------------------- python protocol
    def __repr__(self):
        shape_info = 'x'.join(str(x) for x in self.shape)
        return '\n%s\n<%s %s @%s>' % (str(self.asnumpy()), self.__class__.__name__,
                                      shape_info, self.context)

    __str__ = __repr__

    def __len__(self):
        if self._t.dim() == 0:
            raise TypeError('len() of unsized object')
        return self._t.shape[0]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __bool__(self):
        num = self._t.numel()
        if num == 0:
            return False
        if num == 1:
            return bool(self._t.item())
        raise ValueError('The truth value of an NDArray with multiple elements is ambiguous.')

    __nonzero__ = __bool__
    __hash__ = object.__hash__

    def __getstate__(self):
        return {'array': self.asnumpy(), 'ctx': str(self.context)}

    def __setstate__(self, state):
        if 'handle' in state:  # state pickled by real MXNet: NDArray::Save bytes
            from .serialization import load_raw_bytes
            self._t = load_raw_bytes(state['handle'])
        else:
            self._t = torch.from_numpy(np.ascontiguousarray(state['array']))
        self._ctx = None  # on the host: cpu(0), whatever the array was before

    def __reduce__(self):
        ctx = self.context
        return (_rebuild, (self.asnumpy(), ctx.device_type, ctx.device_id))

    # ---------------------------------------------------------------- arithmetic
    # The hot dunders inline their common cases (same-dtype arrays, Python scalars that need no
    # cast): one Python frame around the torch call.
    def __add__(self, other):
        t = self._t
        if type(other) is NDArray:
            o = other._t
            if t.dtype is o.dtype:
                r = _new(NDArray)
                try:
                    r._t = t + o
                except RuntimeError as e:
                    raise operator_error('broadcast_add', (t, o), e) from None
                r._ctx = self._ctx
                return _recorded(r, torch.add, 0, (self, other)) if _ACTIVE[0] else r
        elif type(other) is int or type(other) is float and t.dtype not in _INT_DTYPES:
            r = _new(NDArray)
            r._t = t + other
            r._ctx = self._ctx
            return _recorded(r, torch.add, 1, (self,), other) if _ACTIVE[0] else r
        return _binary(self, other, torch.add, torch.add)

    __radd__ = __add__

    def __sub__(self, other):
        t = self._t
        if type(other) is NDArray:
            o = other._t
            if t.dtype is o.dtype:
                r = _new(NDArray)
                try:
                    r._t = t - o
                except RuntimeError as e:
                    raise operator_error('broadcast_sub', (t, o), e) from None
                r._ctx = self._ctx
                return _recorded(r, torch.sub, 0, (self, other)) if _ACTIVE[0] else r
        elif type(other) is int or type(other) is float and t.dtype not in _INT_DTYPES:
            r = _new(NDArray)
            r._t = t - other
            r._ctx = self._ctx
            return _recorded(r, torch.sub, 1, (self,), other) if _ACTIVE[0] else r
        return _binary(self, other, torch.sub, torch.sub)

    def __rsub__(self, other):
        return _rscalar(self, other, torch.sub)

    def __mul__(self, other):
        t = self._t
        if type(other) is NDArray:
            o = other._t
            if t.dtype is o.dtype:
                r = _new(NDArray)
                try:
                    r._t = t * o
                except RuntimeError as e:
                    raise operator_error('broadcast_mul', (t, o), e) from None
                r._ctx = self._ctx
                return _recorded(r, torch.mul, 0, (self, other)) if _ACTIVE[0] else r
        elif type(other) is int or type(other) is float and t.dtype not in _INT_DTYPES:
            r = _new(NDArray)
            r._t = t * other
            r._ctx = self._ctx
            return _recorded(r, torch.mul, 1, (self,), other) if _ACTIVE[0] else r
        return _binary(self, other, torch.mul, torch.mul)

    __rmul__ = __mul__

    def __truediv__(self, other):
        t = self._t
        dt = t.dtype
        if dt in _INT_DTYPES:
            return _binary(self, other, _int_div, _int_div)
        if type(other) is NDArray:
            o = other._t
            if o.dtype is dt:
                r = _new(NDArray)
                try:
                    r._t = t / o
                except RuntimeError as e:
                    raise operator_error('broadcast_div', (t, o), e) from None
                r._ctx = self._ctx
                return _recorded(r, torch.div, 0, (self, other)) if _ACTIVE[0] else r
        elif type(other) is float or type(other) is int:
            r = _new(NDArray)
            r._t = t / other
            r._ctx = self._ctx
            return _recorded(r, torch.div, 1, (self,), other) if _ACTIVE[0] else r
        return _binary(self, other, torch.div, torch.div)

    __div__ = __truediv__

    def __rtruediv__(self, other):
        if self._t.dtype in _INT_DTYPES:
            return _rscalar(self, other, _int_div)
        return _rscalar(self, other, torch.div)

    __rdiv__ = __rtruediv__

    def __mod__(self, other):
        return _binary(self, other, _mod, _mod)

    def __rmod__(self, other):
        return _rscalar(self, other, _mod)

    def __pow__(self, other):
        return _binary(self, other, _power, _power)

    def __rpow__(self, other):
        return _rscalar(self, other, _power)

    def __neg__(self):
        r = _new(NDArray)
        r._t = -self._t
        r._ctx = self._ctx
        return _recorded(r, torch.mul, 1, (self,), -1.0) if _ACTIVE[0] else r

    def __abs__(self):
        r = self._like(torch.abs(self._t))
        return _recorded(r, torch.abs, 0, (self,)) if _ACTIVE[0] else r

    def __pos__(self):
        return self

    def __iadd__(self, other):
        return _inplace(self, other, torch.Tensor.add_)

    def __isub__(self, other):
        return _inplace(self, other, torch.Tensor.sub_)

    def __imul__(self, other):
        return _inplace(self, other, torch.Tensor.mul_)

    def __itruediv__(self, other):
        if self._t.dtype in _INT_DTYPES:
            res = _binary(self, other, _int_div, _int_div)
            with torch.no_grad():
                self._t.copy_(res._t)
            return self
        return _inplace(self, other, torch.Tensor.div_)

    __idiv__ = __itruediv__

    def __imod__(self, other):
        res = _binary(self, other, _mod, _mod)
        with torch.no_grad():
            self._t.copy_(res._t)
        return self

    def __eq__(self, other):
        return _compare(self, other, torch.eq)

    def __ne__(self, other):
        return _compare(self, other, torch.ne)

    def __gt__(self, other):
        return _compare(self, other, torch.gt)

    def __ge__(self, other):
        return _compare(self, other, torch.ge)

    def __lt__(self, other):
        return _compare(self, other, torch.lt)

    def __le__(self, other):
        return _compare(self, other, torch.le)

    # ---------------------------------------------------------------- indexing
    def __getitem__(self, key):
        """x.__getitem__(i) <=> x[i]: basic and advanced indexing as in MXNet 1.x.

        Basic indexing returns a view sharing memory with this array where the indexed region
        is contiguous in memory, and a copy elsewhere; advanced indexing returns a copy.
        Integer indexing that would remove every axis returns shape (1,), as MXNet 1.x does.
        """
        t = self._t
        tk = type(key)
        if tk is slice and key.step is None:  # a range of rows: a view
            r = _new(NDArray)
            r._t = t[key]
            r._ctx = self._ctx
            return r
        if tk is int:  # a row: a view (MXNet's _at)
            if t.dim() == 1:
                n = t.shape[0]
                if key < -n or key >= n:
                    raise IndexError('index %d is out of bounds for axis 0 with size %d'
                                     % (key, n))
                r = t[key:key + 1] if key != -1 else t[key:]
            else:
                r = t[key]
            out = _new(NDArray)
            out._t = r
            out._ctx = self._ctx
            return out
        if tk is tuple and _plain_key(key):  # torch's basic indexing, as NumPy's
            r = t[key]
            if r.dim() == 0:
                r = r.reshape(1)
        else:
            key = _bounded_key(_convert_key(key, t), t.shape, False)
            flips, key = _flip_negative_steps(key, t.dim(), t.shape)
            r = (t.flip(flips) if flips else t)[key]
            if r.dim() == 0:
                r = r.reshape(1)
        out = _new(NDArray)
        out._t = r if r.is_contiguous() else r.contiguous()  # MXNet copies such a region
        out._ctx = self._ctx
        return out

    def __setitem__(self, key, value):
        """x.__setitem__(i, y) <=> x[i]=y: sets values of an NDArray at index i."""
        _setitem(self, key, value, False)

    # ---------------------------------------------------------------- shape
    def reshape(self, *shape, **kwargs):
        """Returns a **view** of this array with a new shape without altering any data.

        Parameters
        ----------
        shape : tuple of int, or n ints
            The new shape should not change the array size. MXNet's special values are
            supported: 0 copies the dimension, -1 infers it, -2 copies all remaining
            dimensions, -3 merges two dimensions, -4 splits one into the two that follow.
        reverse : bool, default False
            If true then the special values are inferred from right to left.
        """
        global _plain_target
        if len(shape) == 1:
            s = shape[0]
            if s is _plain_target and not kwargs:
                # the tuple object checked last time (code usually passes a constant)
                r = _new(NDArray)
                try:
                    r._t = self._t.view(*s)
                    r._ctx = self._ctx
                    return r
                except RuntimeError:
                    pass  # not viewable: the checked path copies
            if type(s) is tuple:
                shape = s
            elif type(s) is not int and isinstance(s, (list, tuple)):
                shape = tuple(s)
        elif not shape:
            shape = kwargs.pop('shape', None)
            if not shape:  # MXNet asserts here too; () is only accepted positionally
                raise TypeError('reshape() missing 1 required positional argument: shape')
        if shape and not kwargs and 0 not in shape and -2 not in shape and -3 not in shape \
                and -4 not in shape:
            try:  # no MXNet special code: a torch view (its -1 means the same)
                r = _new(NDArray)
                r._t = self._t.view(*shape)
                r._ctx = self._ctx
                _plain_target = shape
                return r
            except (RuntimeError, TypeError):
                pass  # not viewable, not ints, or a bad code: take the checked path
        reverse = kwargs.pop('reverse', False)
        if kwargs:
            raise TypeError('Got unknown keywords in reshape: %s. Accepted keyword arguments '
                            'are \'shape\' and \'reverse\'.' % ', '.join(kwargs))
        t = self._t
        new_shape = infer_reshape(t.shape, shape, reverse)
        # (unpacked: torch parses a shape given as one tuple at several times the cost)
        r = _new(NDArray)
        r._t = t.reshape(*new_shape) if new_shape else t.reshape(())
        r._ctx = self._ctx
        return r

    def flatten(self, inplace=False):
        """Flatten this array without altering any data.

        Parameters
        ----------
        inplace : bool, default False
            If True, this method returns a **view** of this array
            that shares data with this array. Otherwise, a copy is returned.
        """
        return _op.flatten(self) if not inplace else self.reshape((0, -1))

    def expand_dims(self, axis, inplace=False):
        """Adds an additional dimension to the current array without altering any data.

        Parameters
        ----------
        axis : int
            Position where new axis is to be inserted (in [-ndim-1, ndim]).
        inplace : bool, default False
            If True, this method returns a **view** of this array
            that shares data with this array. Otherwise, a copy is returned.
        """
        if not inplace:
            return _op.expand_dims(self, axis=axis)
        ndim = self._t.dim()
        if not -ndim - 1 <= axis <= ndim:
            raise MXNetError('expand_dims: axis %d is out of range for %dd array' % (axis, ndim))
        return self._like(self._t.unsqueeze(axis))

    def squeeze(self, axis=None, inplace=False):
        """Remove dimensions with size 1 from this array without altering any data.

        Parameters
        ----------
        axis : int, tuple of int, or None
            Selects a subset of the single-dimensional entries in the shape.
            If an axis is selected with shape entry greater than one, an error is raised.
        inplace : bool, default False
            If True, this method returns a **view** of this array
            that shares data with this array. Otherwise, a copy is returned.
        """
        out = _op.squeeze(self, axis=axis)
        return out if not inplace else self._like(self._t.view(out.shape))

    def slice_assign(self, rhs, begin, end, step):
        """Assign the rhs to a cropped subset of this NDArray in place; returns this NDArray."""
        return _internal._slice_assign(self, rhs, begin=begin, end=end, step=step, out=self)

    def slice_assign_scalar(self, value, begin, end, step):
        """Assign the scalar to a cropped subset of this NDArray in place; returns this
        NDArray."""
        return _internal._slice_assign_scalar(self, value, begin=begin, end=end, step=step,
                                              out=self)

    def broadcast_to(self, shape):
        """Broadcasts the input array to a new shape (0 keeps a dimension)."""
        cur = tuple(self._t.shape)
        shape = tuple(shape)
        if len(shape) < len(cur):
            raise ValueError('Cannot broadcast array of shape %s to %s' % (cur, shape))
        err = ValueError('operands could not be broadcast together with remapped shapes'
                         '[original->remapped]: %s and requested shape %s' % (cur, shape))
        cur = (1,) * (len(shape) - len(cur)) + cur
        target = tuple(c if s == 0 else s for c, s in zip(cur, shape))
        if any(c != 1 and c != s for c, s in zip(cur, target)):
            raise err
        return self._like(self._t.reshape(cur).expand(target).contiguous())

    def broadcast_like(self, other):
        """Broadcasts the input array to the shape of other."""
        return self.broadcast_to(other.shape)


# the last reshape target (a tuple object) found free of MXNet's special codes; tuples are
# immutable, so the same object needs no second check
_plain_target = None


def _rebuild(a, device_type='cpu', device_id=0):
    """Unpickles (and deep-copies) an array as MXNet does: onto the GPU it was saved from,
    host arrays onto cpu(0), whatever the current context."""
    ctx = Context('gpu', device_id) if device_type == 'gpu' else Context('cpu', 0)
    return array(a, dtype=a.dtype, ctx=ctx)


_new = object.__new__


def wrap(t):
    """Wrap a ``torch.Tensor`` as an NDArray without copying."""
    out = NDArray.__new__(NDArray)
    out._t = t
    out._ctx = None  # None: the context follows the tensor's device (cpu(0) for host memory)
    return out


def _unwrap_tree(x):
    if isinstance(x, NDArray):
        return x._t
    if isinstance(x, (list, tuple)):
        return type(x)(_unwrap_tree(i) for i in x)
    if isinstance(x, dict):
        return {k: _unwrap_tree(v) for k, v in x.items()}
    return x


# -------------------------------------------------------------------- arithmetic helpers
def _scalar(t, s):
    """MXNet casts a scalar operand to the array's dtype before computing (int_cast)."""
    if t.dtype in _INT_DTYPES:
        return int_scalar(int(s) if isinstance(s, (bool, np.bool_)) else s, t.dtype)
    return s


def _check_dtypes(a, b, opname):
    if a.dtype is not b.dtype:
        raise MXNetError('%s: incompatible dtypes of operands: expected %s, got %s; cast one '
                         'with astype()' % (opname, torch_to_np_type(a.dtype).__name__,
                                            torch_to_np_type(b.dtype).__name__))


def _binary(self, other, tensor_fn, scalar_fn):
    t = self._t
    if isinstance(other, NDArray):
        o = other._t
        if o.dtype is not t.dtype:
            _check_dtypes(t, o, tensor_fn.__name__)
        try:
            r = self._like(tensor_fn(t, o))
        except RuntimeError as e:
            raise operator_error(tensor_fn.__name__, (t, o), e) from None
        return _recorded(r, tensor_fn, 0, (self, other)) if _ACTIVE[0] else r
    if isinstance(other, numeric_types):
        r = self._like(scalar_fn(t, _scalar(t, other)))
        return _recorded(r, tensor_fn, 1, (self,), other) if _ACTIVE[0] else r
    if isinstance(other, torch.Tensor):
        return self._like(tensor_fn(t, other))
    return NotImplemented


def _rscalar(self, other, fn):
    t = self._t
    if isinstance(other, numeric_types):
        r = self._like(fn(torch.full_like(t, _scalar(t, other)), t))
        return _recorded(r, fn, 2, (self,), other) if _ACTIVE[0] else r
    if isinstance(other, NDArray):
        r = self._like(fn(other._t, t))
        return _recorded(r, fn, 0, (other, self)) if _ACTIVE[0] else r
    return NotImplemented


def _int_div(a, b):
    if isinstance(b, torch.Tensor) or isinstance(a, torch.Tensor) and a.dtype in _INT_DTYPES:
        return torch.div(a, b, rounding_mode='trunc')
    return torch.div(a, b)


# the operators MXNet records for an arithmetic or comparison function: (two arrays, array and
# scalar, scalar and array)
_RECORDED_AS = {
    torch.add: ('broadcast_add', '_plus_scalar', '_plus_scalar'),
    torch.sub: ('broadcast_sub', '_minus_scalar', '_rminus_scalar'),
    torch.mul: ('broadcast_mul', '_mul_scalar', '_mul_scalar'),
    torch.div: ('broadcast_div', '_div_scalar', '_rdiv_scalar'),
    _int_div: ('broadcast_div', '_div_scalar', '_rdiv_scalar'),
    _mod: ('broadcast_mod', '_mod_scalar', '_rmod_scalar'),
    _power: ('broadcast_power', '_power_scalar', '_rpower_scalar'),
    torch.abs: ('abs',),
    torch.eq: ('broadcast_equal', '_equal_scalar'),
    torch.ne: ('broadcast_not_equal', '_not_equal_scalar'),
    torch.gt: ('broadcast_greater', '_greater_scalar'),
    torch.ge: ('broadcast_greater_equal', '_greater_equal_scalar'),
    torch.lt: ('broadcast_lesser', '_lesser_scalar'),
    torch.le: ('broadcast_lesser_equal', '_lesser_equal_scalar'),
}


def _recorded(r, fn, form, inputs, scalar=None):
    """``r``, with the call of MXNet's operator for ``fn`` in the ``form`` of
    :data:`_RECORDED_AS` noted for ``autograd.get_symbol``."""
    ops = _RECORDED_AS[fn]
    op = ops[form]
    if type(op) is str:  # the table entries, once (the table imports this module)
        from ..ops.registry import get
        ops = _RECORDED_AS[fn] = tuple(get(name) for name in ops)
        op = ops[form]
    _note((r,), op, () if scalar is None else (('scalar', float(scalar), None),), inputs)
    return r


def _inplace(self, other, fn):
    t = self._t
    _check_not_recording(t)
    if isinstance(other, NDArray):
        other = other._t
        if other.dtype is not t.dtype:
            _check_dtypes(t, other, fn.__name__)
    elif isinstance(other, numeric_types):
        other = _scalar(t, other)
    elif not isinstance(other, torch.Tensor):
        raise TypeError('type %s not supported' % str(type(other)))
    return _write_inplace(self, other, fn)


def _write_inplace(self, other, fn):
    """``fn(self._t, other)`` (torch's in-place operator; ``other`` a tensor or a number),
    outside record(), as MXNet writes an array in place."""
    t = self._t
    try:
        if t.requires_grad and (t.is_leaf or t._base is not None and t._base.is_leaf):
            # outside record() (the caller checked) MXNet writes in place without a graph: a
            # Parameter's data, or a view of it such as ``w[0:1]``, is updated as plain data
            # (grad mode off for the call: not recorded, as under no_grad, without the cost of
            # its context manager or of a detached alias)
            prev = _grad_enabled()
            _set_grad_enabled(False)
            try:
                fn(t, other)
            finally:
                _set_grad_enabled(prev)
        else:
            fn(t, other)
            if isinstance(other, torch.Tensor) and other.requires_grad:
                _unknown_graph()  # t took other's graph, which no recorded call made
    except RuntimeError as e:
        err = mixed_context_error(fn.__name__, (t, other))
        if err is None and isinstance(other, torch.Tensor) and other.dim() and \
                torch.broadcast_shapes(t.shape, other.shape) != t.shape:
            err = MXNetError('Shape inconsistent, Provided = %s, inferred shape=%s: the '
                             'right-hand side of an in-place operator must broadcast to the '
                             "left-hand side's shape" % (list(t.shape), list(other.shape)))
        raise (err or operator_error(fn.__name__, (t, other), e)) from None
    return self


def _compare(self, other, fn):
    t = self._t
    if isinstance(other, NDArray):
        try:
            r = self._like(fn(t, other._t).to(t.dtype))
        except RuntimeError as e:
            raise operator_error(fn.__name__, (t, other._t), e) from None
        return _recorded(r, fn, 0, (self, other)) if _ACTIVE[0] else r
    if isinstance(other, numeric_types):
        r = self._like(fn(t, _scalar(t, other)).to(t.dtype))
        return _recorded(r, fn, 1, (self,), other) if _ACTIVE[0] else r
    if other is None:
        return False if fn is torch.eq else (True if fn is torch.ne else NotImplemented)
    return NotImplemented


def _check_not_recording(t):
    """MXNet refuses in-place writes to arrays in a recorded graph."""
    if t.requires_grad and _recording():
        raise MXNetError('Assigning to NDArrays that are already in a computational graph will '
                         'cause undefined behavior when evaluating gradients. Please call '
                         'backward first to clear the graph or do this out side of a record '
                         'section. Also note that you cannot use inplace operations like +=, *=, '
                         'relu(x, out=x), y[idx]=x, etc inside a record section.')


def _setitem(self, key, value, np_mode):
    """``self[key] = value``; ``np_mode``: NumPy semantics (boolean masks, any value dtype)."""
    t = self._t
    _check_not_recording(t)
    given = key
    if isinstance(value, NDArray):
        value = value._t
        if value.requires_grad and _recording() and not (
                key is Ellipsis or not np_mode and type(key) is slice and key == slice(None)):
            # MXNet records the assignment as an in-place operator, which it refuses
            raise MXNetError('Check failed: AGInfo::IsNone(*output): Inplace operations (+=, '
                             '-=, x[:]=, etc) are not supported when recording with autograd.')
        if value.dtype is not t.dtype:
            value = value.to(t.dtype)
    elif isinstance(value, np.generic):
        value = value.item()
        if t.dtype in _INT_DTYPES and isinstance(value, float):
            value = int(value)
    elif isinstance(value, np.ndarray):
        value = torch.from_numpy(np.ascontiguousarray(value)).to(t.dtype)
    elif isinstance(value, (list, tuple)):
        value = torch.tensor(value, dtype=t.dtype)
    elif isinstance(value, torch.Tensor):
        pass
    elif isinstance(value, numeric_types):
        if t.dtype in _INT_DTYPES and isinstance(value, (float, np.floating)):
            value = int(value)
    else:
        raise TypeError('NDArray does not support assignment with %s of type %s'
                        % (str(value), str(type(value))))
    if type(key) is slice and key == slice(None):
        key = Ellipsis
    elif key is not Ellipsis:
        key = _bounded_key(_convert_key(key, t, np_mode), t.shape, True)
    if isinstance(value, torch.Tensor):
        if value.device != t.device:
            value = value.to(t.device)
        value = value.detach()
    flips = None
    if key is not Ellipsis:
        flips, key = _flip_negative_steps(key, t.dim(), t.shape)
    # written through detached aliases: not recorded, as under no_grad, without its cost
    d = t.detach()
    try:
        if flips:
            f = d.flip(flips)
            f[key] = value
            d[...] = f.flip(flips)
        else:
            d[key] = value
        carry(t, value)
    except RuntimeError:
        if not isinstance(value, torch.Tensor) or mixed_context_error('setitem', (t, value)):
            raise
        if type(given) is tuple and any(k is None for k in given):
            # new axes select nothing: MXNet also takes a value shaped without them
            return _setitem(self, tuple(k for k in given if k is not None), value, np_mode)
        target = tuple((d.flip(flips) if flips else d)[key].shape)
        if np_mode:
            raise MXNetError('shape %s is not broadcastable to %s' % (
                list(value.shape), list(target))) from None
        raise ValueError('operands could not be broadcast together with remapped shapes'
                         '[original->remapped]: %s and requested shape %s'
                         % (tuple(value.shape), target)) from None


def _flip_negative_steps(key, ndim, shape):
    """torch has no negative strides: (axes to flip, key with positive-step slices), or
    (None, key) when no slice has a negative step."""
    items = key if isinstance(key, tuple) else (key,)
    if not any(type(k) is slice and k.step is not None and k.step < 0 for k in items):
        return None, key
    used = sum(0 if k is None or k is Ellipsis else
               (k.dim() if isinstance(k, torch.Tensor) and k.dtype is torch.bool else 1)
               for k in items)
    axis, flips, out = 0, [], []
    for k in items:
        if k is Ellipsis:
            axis += ndim - used
        elif k is not None:
            if type(k) is slice and k.step is not None and k.step < 0:
                n = shape[axis]
                start, stop, step = k.indices(n)
                k = slice(n - 1 - start, n - 1 - stop, -step)
                flips.append(axis)
            axis += k.dim() if isinstance(k, torch.Tensor) and k.dtype is torch.bool else 1
        out.append(k)
    return flips, (tuple(out) if isinstance(key, tuple) else out[0])


def _plain_key(key):
    """Whether a tuple key holds only Python ints, slices without a step, None and Ellipsis
    (which torch indexes as NumPy does)."""
    for k in key:
        tk = type(k)
        if tk is not int and k is not None and k is not Ellipsis and \
                (tk is not slice or k.step is not None):
            return False
    return True


def _convert_key(key, t, np_mode=False):
    """Translate an MXNet index key into a torch one (NDArray and float indices -> int64;
    boolean arrays are masks with ``np_mode``, NumPy semantics)."""
    if isinstance(key, tuple):
        return tuple(_convert_key_item(k, t, np_mode) for k in key)
    return _convert_key_item(key, t, np_mode)


def _convert_key_item(k, t, np_mode=False):
    is_nd = isinstance(k, NDArray)
    if is_nd:
        k = k._t
    elif isinstance(k, np.ndarray):
        k = torch.from_numpy(k)
    elif isinstance(k, list):
        k = torch.tensor(k)
    elif isinstance(k, integer_types) and not isinstance(k, int):
        return int(k)
    elif isinstance(k, (float, np.floating)):
        raise ValueError('NDArray does not support slicing with key %s of type %s.'
                         % (k, type(k)))
    if isinstance(k, torch.Tensor):
        if np_mode and k.dtype is torch.bool:
            return k.to(t.device)
        if is_nd and k.dtype is torch.bool:
            raise ValueError('Cannot perform boolean indexing in legacy mode. Please activate '
                             'numpy semantics by calling `npx.set_np()` in the global scope '
                             'before calling this function.')
        if k.dtype is not torch.int64:
            k = k.to(torch.int64)
        return k.to(t.device)
    return k


def _bounded_index(k, n, axis, assign):
    if assign:
        # MXNet's _scatter_set_nd writes outside the array for these; they wrap into the axis
        if n:
            return torch.remainder(k, n)
    elif k.numel() and bool(((k < -n) | (k >= n)).any()):  # MXNet raises: one device wait
        raise IndexError('index %d is out of bounds for axis %d with size %d'
                         % (int(k[(k < -n) | (k >= n)][-1]), axis, n))
    if not n and k.numel():
        raise IndexError('index %d is out of bounds for axis %d with size 0'
                         % (int(k.reshape(-1)[-1]), axis))
    return k


def _bounded_key(key, shape, assign):
    """The converted ``key`` with its integer index arrays kept inside their axes, since torch's
    indexing kernels assert on the GPU for an index outside them: reading raises IndexError as
    MXNet's gather_nd does; assigning (``assign``) wraps them into the axis."""
    items = key if isinstance(key, tuple) else (key,)
    if not any(isinstance(k, torch.Tensor) for k in items):
        return key
    used = sum(0 if k is None or k is Ellipsis else
               k.dim() if isinstance(k, torch.Tensor) and k.dtype is torch.bool else 1
               for k in items)
    out, axis = [], 0
    for k in items:
        if k is Ellipsis:
            axis += len(shape) - used
        elif isinstance(k, torch.Tensor) and k.dtype is not torch.bool:
            if axis < len(shape):  # else: too many indices, which torch reports
                k = _bounded_index(k, shape[axis], axis, assign)
            axis += 1
        elif k is not None:
            axis += k.dim() if isinstance(k, torch.Tensor) else 1
        out.append(k)
    return tuple(out) if isinstance(key, tuple) else out[0]


# -------------------------------------------------------------------- creation
def _device_and_ctx(ctx):
    if ctx is None:
        ctx = current_context()
    elif not isinstance(ctx, Context):
        ctx = as_context(ctx)
    return ctx.torch_device, ctx


def _assign(o, r):
    """Write ``r`` into the array ``o`` (``out=`` and ``copyto``): recorded as an in-place copy
    under ``autograd.record()`` unless ``o`` is a variable with a gradient buffer."""
    t = o._t
    if t is r:
        return
    if t.shape != r.shape:
        raise MXNetError('out= array has shape %s but the result has shape %s'
                         % (tuple(t.shape), tuple(r.shape)))
    if t.requires_grad or r.requires_grad and not torch.is_grad_enabled():
        t.detach().copy_(r)  # not recorded (cheaper than a no_grad block)
        carry(t, r)
    else:
        t.copy_(r)
        if r.requires_grad:
            _unknown_graph()  # o took r's graph, which no recorded call made


def _on_ctx(t, ctx):
    out = wrap(t)
    if ctx.device_typeid != 2 and (ctx.device_id != 0 or ctx.device_typeid != 1):
        out._ctx = ctx  # host contexts other than cpu(0) are kept by name
    return out


def _tensor_from_source(source, dtype):
    if isinstance(source, np.ndarray):
        return torch.from_numpy(np.array(source, dtype=dtype_np(dtype), copy=True))
    return torch.from_numpy(np.array(source, dtype=dtype_np(dtype)))


def array(source_array, ctx=None, dtype=None):
    """Creates an array from any object exposing the array interface.

    Parameters
    ----------
    source_array : array_like
        An object exposing the array interface, an object whose `__array__`
        method returns an array, or any (nested) sequence.
    ctx : Context, optional
        Device context (default is the current default context).
    dtype : str or numpy.dtype, optional
        The data type of the output array. The default dtype is ``source_array.dtype``
        if `source_array` is an `NDArray`, `float32` otherwise.

    Returns
    -------
    NDArray
        An `NDArray` with the same contents as the `source_array`.
    """
    dev, ctx = _device_and_ctx(ctx)
    if isinstance(source_array, NDArray):
        t = source_array._t.detach()
        td = t.dtype if dtype is None else dtype_torch(dtype)
        return _on_ctx(t.to(device=dev, dtype=td, copy=True), ctx)
    if isinstance(source_array, torch.Tensor):
        td = torch.float32 if dtype is None else dtype_torch(dtype)
        return _on_ctx(source_array.detach().to(device=dev, dtype=td, copy=True), ctx)
    if dtype is None:
        dtype = np.float32
    try:
        t = _tensor_from_source(source_array, dtype)
    except (TypeError, ValueError) as err:
        raise TypeError('source_array must be array like object: %s' % err) from None
    if dev.type != 'cpu':
        t = t.to(dev)
    return _on_ctx(t, ctx)


def empty(shape, ctx=None, dtype=None, stype=None):
    """Returns a new array of given shape and type, without initializing entries."""
    if stype not in (None, 'default'):
        return zeros(shape, ctx, dtype, stype)
    return full(shape, 0, ctx, dtype)


def _inferable(opname, shape):
    """Raise MXNetError, as the shape inference of MXNet's operator ``opname`` fails, for a
    ``shape`` that MXNet's legacy shape semantics (outside ``mx.np_shape()``) take as unknown:
    ``()`` or one with a 0 size. (Callers skip the call for a tuple without 0 sizes.)"""
    if isinstance(shape, integer_types):
        shape = (shape,)
    if (not shape or 0 in shape) and not is_np_shape():
        raise MXNetError('Operator %s inferring shapes failed: shape=%s is unknown in MXNet\'s '
                         'legacy shape semantics, where () and 0 sizes mean "unknown"; make '
                         'scalar and zero-size arrays inside `with mx.np_shape(True):` (or '
                         'after `mx.npx.set_np()`), or with mx.nd.empty / mx.nd.array'
                         % (opname, tuple(shape)))


def zeros(shape, ctx=None, dtype=None, stype=None, out=None, **kwargs):
    """Returns a new array filled with all zeros, with the given shape and type.

    Parameters
    ----------
    shape : int or tuple of int
        The shape of the empty array.
    ctx : Context, optional
        An optional device context (default is the current default context).
    dtype : str or numpy.dtype, optional
        An optional value type (default is `float32`).
    stype : str, optional
        An optional storage type (default is `default`): 'csr' or 'row_sparse' make a
        CSRNDArray or RowSparseNDArray (``mx.nd.sparse.zeros``).
    """
    if stype not in (None, 'default'):
        from .sparse import zeros as sparse_zeros
        return sparse_zeros(stype, shape, ctx, dtype)
    if not (type(shape) is tuple and shape and 0 not in shape):
        _inferable('_zeros', shape)
    return full(shape, 0, ctx, dtype, out=out)


def ones(shape, ctx=None, dtype=None, stype=None, out=None, **kwargs):
    """Returns a new array filled with all ones, with the given shape and type."""
    if not (type(shape) is tuple and shape and 0 not in shape):
        _inferable('_ones', shape)
    return full(shape, 1, ctx, dtype, out=out, stype=stype)


def full(shape, val, ctx=None, dtype=np.float32, out=None, stype=None):
    """Returns a new array of given shape and type, filled with the given value `val`.

    Parameters
    ----------
    shape : int or tuple of int
        The shape of the new array.
    val : scalar
        Fill value.
    ctx : Context, optional
        Device context (default is the current default context).
    dtype : `str` or `numpy.dtype`, optional
        The data type of the returned `NDArray`. The default datatype is `float32`.
    out : NDArray, optional
        The output NDArray (default is `None`).
    """
    if stype not in (None, 'default'):
        raise NotImplementedError("mx.nd.full(stype='%s'): sparse arrays are created with "
                                  "mx.nd.zeros(stype=) or mx.nd.sparse" % stype)
    if out is not None:
        out[:] = val
        return out
    if isinstance(shape, integer_types):
        shape = (int(shape),)
    dev, ctx = _device_and_ctx(ctx)
    td = torch.float32 if dtype is None else dtype_torch(dtype)
    return _on_ctx(torch.full(tuple(shape), val, dtype=td, device=dev), ctx)


def from_numpy(ndarray, zero_copy=True, array_cls=NDArray):
    """Returns an MXNet's NDArray backed by numpy's ndarray (shares memory when possible)."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError('from_numpy: expected a numpy.ndarray, got %s' % type(ndarray))
    if zero_copy and not ndarray.flags['C_CONTIGUOUS']:
        raise ValueError('from_numpy(zero_copy=True): only C-contiguous arrays can be shared; '
                         'pass zero_copy=False or numpy.ascontiguousarray(a)')
    if zero_copy:
        with warnings.catch_warnings():  # torch warns about arrays already made read-only
            warnings.simplefilter('ignore', UserWarning)
            out = wrap(torch.from_numpy(ndarray))
        ndarray.flags['WRITEABLE'] = False  # as in MXNet, the NDArray now owns the memory
        return out
    return wrap(torch.from_numpy(np.array(ndarray, copy=True, order='C')))


def from_torch(tensor):
    """Wrap a ``torch.Tensor`` as an NDArray without copying (they share memory)."""
    if not isinstance(tensor, torch.Tensor):
        raise TypeError('from_torch: expected a torch.Tensor, got %s' % type(tensor))
    return wrap(tensor)


def from_dlpack(dlpack):
    """Returns a NDArray backed by a dlpack tensor (a PyCapsule or an object with
    ``__dlpack__``)."""
    return wrap(torch.utils.dlpack.from_dlpack(dlpack))


def to_dlpack_for_read(data):
    """Returns a reference view of NDArray that represents as DLManagedTensor until
    all previous write operations on the current array are finished."""
    return data.to_dlpack_for_read()


def to_dlpack_for_write(data):
    """Returns a reference view of NDArray that represents as DLManagedTensor until
    all previous read/write operations on the current array are finished."""
    return data.to_dlpack_for_write()


def waitall():
    """Wait for all async operations to finish in MXNet (synchronises CUDA streams).

    Raises the first error of an operator that failed since the last ``waitall`` (MXNet's
    engine reports operators' errors when their results are read, or here), clearing all
    of them."""
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        for device in range(torch.cuda.device_count()):
            torch.cuda.synchronize(device)
    _raise_pending()


def concatenate(arrays, axis=0, always_copy=True):
    """DEPRECATED, use ``concat`` instead."""
    if not arrays:
        raise ValueError('concatenate: arrays must not be empty')
    if not always_copy and len(arrays) == 1:
        return arrays[0]
    return arrays[0]._like(torch.cat([a._t for a in arrays], dim=axis))


def moveaxis(tensor, source, destination):
    """Moves the `source` axis into the `destination` position
    while leaving the other axes in their original order

    Parameters
    ----------
    tensor : mx.nd.array
        The array which axes should be reordered
    source : int or sequence of int
        Original position of the axes to move. Can be negative but must be unique.
    destination : int or sequence of int
        Destination position for each of the original axes. Can be negative but must be unique.

    Returns
    -------
    result : mx.nd.array
        Array with moved axes.
    """
    ndim = tensor.ndim
    src = (source,) if isinstance(source, integer_types) else tuple(source)
    dst = (destination,) if isinstance(destination, integer_types) else tuple(destination)
    if len(src) != len(dst):
        raise ValueError('`source` and `destination` arguments must have the same number of '
                         'elements')
    for a in src + dst:
        if not -ndim <= a < ndim:
            raise ValueError('axis %d is out of bounds for array of dimension %d' % (a, ndim))
    src = tuple(a % ndim for a in src)
    dst = tuple(a % ndim for a in dst)
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError('repeated axis in `source` or `destination` argument')
    return tensor._like(torch.movedim(tensor._t, src, dst).contiguous())


def histogram(a, bins=10, range=None):
    """Compute the histogram of the input data.

    Parameters
    ----------
    a : NDArray
        Input data. The histogram is computed over the flattened array.
    bins : int or sequence of scalars
        If bins is an int, it defines the number of equal-width bins in the
        given range (10, by default). If bins is a sequence, it defines the bin edges,
        including the rightmost edge, allowing for non-uniform bin widths.
    range : (float, float), optional
        The lower and upper range of the bins. If not provided, range is simply
        (a.min(), a.max()). Values outside the range are ignored.
    """
    if isinstance(bins, NDArray):
        return _internal._histogram(data=a, bins=bins)
    if isinstance(bins, integer_types):
        if range is None:
            warnings.warn("range is not specified, using numpy's result to ensure consistency "
                          "with numpy")
            res, bin_bounds = np.histogram(a.asnumpy(), bins=bins)
            return array(res), array(bin_bounds)
        return _internal._histogram(data=a, bin_cnt=bins, range=range)
    raise ValueError('bins argument should be either an integer or an NDArray')


def onehot_encode(indices, out):
    """One-hot encoding indices into matrix out (DEPRECATED: use one_hot)."""
    return _internal._onehot_encode(indices, out, out=out)

