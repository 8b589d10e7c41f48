"""Custom operators implemented in Python (``mx.operator``).

A custom operator is a :class:`CustomOpProp` subclass registered under a name with
:func:`register`; ``mx.nd.Custom(*inputs, op_type=name, **kwargs)`` (and ``mx.sym.Custom``)
instantiate it with the keyword arguments as strings, ask it for argument, output and
auxiliary-state names, shapes and types, and run the :class:`CustomOp` it creates. In mxcompat
the operator runs as a ``torch.autograd.Function`` (see ``mxcompat/ops/custom.py``).
"""
import collections
import ctypes  # noqa: F401  (MXNet's module exports it to `from mxnet.operator import *`)
import threading
import traceback  # noqa: F401
import warnings
from array import array  # noqa: F401
from threading import Lock  # noqa: F401

from .base import MXNetError, NDArrayHandle, py_str  # noqa: F401
from .ndarray.ndarray import NDArray  # noqa: F401
from .util import is_np_array  # noqa: F401
from . import context  # noqa: F401

__all__ = ['PythonOp', 'NumpyOp', 'NDArrayOp', 'CustomOp', 'CustomOpProp', 'register',
           'get_all_registered_operators', 'get_operator_arguments', 'OperatorArguments',
           'is_np_array', 'NDArray', 'NDArrayHandle', 'Lock', 'array', 'collections',
           'context', 'ctypes', 'py_str', 'traceback', 'warnings']

_REGISTRY = {}
_REGISTRY_LOCK = threading.Lock()


class PythonOp:
    """Base class for operators implemented in Python (deprecated in MXNet; use CustomOp).

    Parameters
    ----------
    need_top_grad : bool
        the default need_top_grad() function returns this value.
    """
    def __init__(self, need_top_grad=True):
        self.info_ = None
        self.need_top_grad_ = need_top_grad
        warnings.warn('PythonOp has been deprecated. Please use CustomOp')

    def __call__(self, *args, **kwargs):
        return self.get_symbol(*args, **kwargs)

    def get_symbol(self, *args, **kwargs):
        """Create a symbol from this operator.

        Parameters
        ----------
        args : list
            a list of input arguments (symbols).

        Returns
        -------
        sym : mxnet.symbol.Symbol
        """
        raise NotImplementedError('Must override this')

    def forward(self, in_data, out_data):
        """Forward interface. Override to create new operators."""
        out_data[0][:] = in_data[0]

    def backward(self, out_grad, in_data, out_data, in_grad):
        """Backward interface. Can override when creating new operators."""
        in_grad[0][:] = 1.0

    def infer_shape(self, in_shape):
        """Interface for ``infer_shape``. Can override when creating new operators."""
        return in_shape, [in_shape[0]]

    def list_outputs(self):
        """Interface for ``list_outputs``. Can override when creating new operators."""
        return ['output']

    def list_arguments(self):
        """Interface for ``list_arguments``. Can override when creating new operators."""
        return ['data']

    def need_top_grad(self):
        """Whether this operator needs out_grad for backward."""
        return self.need_top_grad_


_PYTHON_OP_COUNT = [0]


def _python_op_symbol(pyop, args, kwargs, numpy_arrays):
    """A Custom-operator symbol running the deprecated PythonOp ``pyop``."""
    from .ops.custom import symbol_Custom
    import numpy as np

    def call(method, req, groups, writable):
        """Call pyop.method on numpy copies (NumpyOp) or the NDArrays (NDArrayOp)."""
        if not numpy_arrays:
            return method(*groups)
        copies = [[a.asnumpy() for a in g] for g in groups]
        method(*copies)
        for dst, r, src in zip(groups[writable], req, copies[writable]):
            _assign(dst, r, np.ascontiguousarray(src))

    class _Op(CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            call(pyop.forward, req, [in_data, out_data], 1)

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            call(pyop.backward, req, [out_grad, in_data, out_data, in_grad], 3)

    class _Prop(CustomOpProp):
        def __init__(self):
            super().__init__(need_top_grad=pyop.need_top_grad())

        def list_arguments(self):
            return pyop.list_arguments()

        def list_outputs(self):
            return pyop.list_outputs()

        def infer_shape(self, in_shape):
            ret = pyop.infer_shape(in_shape)
            return tuple(ret) if len(ret) == 3 else (ret[0], ret[1], [])

        def declare_backward_dependency(self, out_grad, in_data, out_data):
            if hasattr(pyop, 'declare_backward_dependency'):
                return pyop.declare_backward_dependency(out_grad, in_data, out_data)
            return super().declare_backward_dependency(out_grad, in_data, out_data)

        def create_operator(self, ctx, in_shapes, in_dtypes):
            return _Op()

    with _REGISTRY_LOCK:
        _PYTHON_OP_COUNT[0] += 1
        name = '_%s%d' % (type(pyop).__name__, _PYTHON_OP_COUNT[0])
        _REGISTRY[name] = _Prop
    return symbol_Custom(*args, op_type=name, **kwargs)


class NumpyOp(PythonOp):
    """Base class for numpy operators (deprecated in MXNet; use CustomOp). forward and
    backward receive numpy arrays and write the outputs / input gradients in place."""

    def __init__(self, need_top_grad=True):
        super().__init__(need_top_grad)
        warnings.warn('NumpyOp has been deprecated. Please use CustomOp')

    def get_symbol(self, *args, **kwargs):
        """Create a symbol from numpy operator."""
        return _python_op_symbol(self, args, kwargs, numpy_arrays=True)


class NDArrayOp(PythonOp):
    """Base class for NDArray operators (deprecated in MXNet; use CustomOp)."""

    def __init__(self, need_top_grad=True):
        super().__init__(need_top_grad)
        warnings.warn('NDArrayOp has been deprecated. Please use CustomOp')

    def get_symbol(self, *args, **kwargs):
        """Create a symbol from NDArray operator."""
        return _python_op_symbol(self, args, kwargs, numpy_arrays=False)

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """Declare dependencies of this operator for backward pass."""
        deps = []
        if self.need_top_grad():
            deps.extend(out_grad)
        deps.extend(in_data)
        deps.extend(out_data)
        return deps


class CustomOp:
    """Base class for operators implemented in python"""
    def __init__(self):
        pass

    def forward(self, is_train, req, in_data, out_data, aux):
        """Forward interface. Can override when creating new operators.

        Parameters
        ----------
        is_train : bool
            whether this is for training
        req : list of str
            how to assign to out_data. can be 'null', 'write', or 'add'.
            You can optionally use self.assign(dst, req, src) to handle this.
        in_data, out_data, aux: list of NDArrays
            input, output, and auxiliary states for forward. See document for
            corresponding arguments of Operator::Forward
        """

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Backward interface. Can override when creating new operators.

        Parameters
        ----------
        req : list of str
            how to assign to in_grad. can be 'null', 'write', or 'add'.
            You can optionally use self.assign(dst, req, src) to handle this.
        out_grad, in_data, out_data, in_grad, aux : list of NDArrays
            input and output for backward. See document for
            corresponding arguments of Operator::Backward
        """

    def assign(self, dst, req, src):
        """Helper function for assigning into dst depending on requirements."""
        _assign(dst, req, src)


def _assign(dst, req, src):
    if req in ('write', 'inplace'):
        dst[:] = src
    elif req == 'add':
        dst[:] += src


class CustomOpProp:
    """Base class for operator property class implemented in python.

    Parameters
    ----------
    need_top_grad : bool
        The default declare_backward_dependency function. Use this value
        to determine whether this operator needs gradient input.
    """
    def __init__(self, need_top_grad=True):
        self.need_top_grad_ = need_top_grad

    def infer_shape(self, in_shape):
        """infer_shape interface. Can override when creating new operators.

        Parameters
        ----------
        in_shape : list
            List of argument shapes in the same order as
            declared in list_arguments.

        Returns
        -------
        in_shape : list
            List of argument shapes. Can be modified from in_shape.
        out_shape : list
            List of output shapes calculated from in_shape,
            in the same order as declared in list_outputs.
        aux_shape : Optional, list
            List of aux shapes calculated from in_shape,
            in the same order as declared in list_auxiliary_states.
        """
        return in_shape, (in_shape[0],) * len(self.list_outputs()), ()

    def infer_type(self, in_type):
        """infer_type interface. override to create new operators

        Parameters
        ----------
        in_type : list of np.dtype
            list of argument types in the same order as
            declared in list_arguments.

        Returns
        -------
        in_type : list
            list of argument types. Can be modified from in_type.
        out_type : list
            list of output types calculated from in_type,
            in the same order as declared in list_outputs.
        aux_type : Optional, list
            list of aux types calculated from in_type,
            in the same order as declared in list_auxiliary_states.
        """
        return in_type, [in_type[0]] * len(self.list_outputs()), \
            [in_type[0]] * len(self.list_auxiliary_states())

    def infer_storage_type(self, in_stype):
        """infer_storage_type interface: mxcompat stores every array densely ('default')."""
        for i, stype in enumerate(in_stype):
            if stype != 'default':
                raise NotImplementedError('Custom operator: in_stype[%d] is %r; sparse storage '
                                          'is not supported by mxcompat' % (i, stype))
        return in_stype, ['default'] * len(self.list_outputs()), \
            ['default'] * len(self.list_auxiliary_states())

    def infer_storage_type_backward(self, ograd_stype, in_stype, out_stype, igrad_stype,
                                    aux_stype):
        """infer_storage_type_backward interface: every array is dense ('default')."""
        lists = [ograd_stype, in_stype, out_stype, igrad_stype, aux_stype]
        return tuple(['default'] * len(lst) for lst in lists)

    def list_outputs(self):
        """list_outputs interface. Can override when creating new operators.

        Returns
        -------
        outputs : list
            List of output blob names.
        """
        return ['output']

    def list_arguments(self):
        """list_arguments interface. Can override when creating new operators.

        Returns
        -------
        arguments : list
            List of argument blob names.
        """
        return ['data']

    def list_auxiliary_states(self):
        """list_auxiliary_states interface. Can override when creating new operators.

        Returns
        -------
        auxs : list
            list of auxiliary state blob names.
        """
        return []

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """Declare dependencies of this operator for backward pass.

        Parameters
        ----------
        out_grad : list of int
            ids of out_grad blobs.
        in_data : list of int
            ids of in_data blobs.
        out_data: list of int
            ids of out_data blobs.

        Returns
        -------
        deps : list of int
            ids of the needed blobs.
        """
        deps = []
        if self.need_top_grad_:
            deps.extend(out_grad)
        deps.extend(in_data)
        deps.extend(out_data)
        return deps

    def create_operator(self, ctx, in_shapes, in_dtypes):
        """Create an operator that carries out the real computation
        given the context, input shapes, and input data types."""
        return CustomOp()


def register(reg_name):
    """Register a subclass of CustomOpProp to the registry with name reg_name."""
    def do_register(prop_cls):
        """Register a subclass of CustomOpProp to the registry."""
        with _REGISTRY_LOCK:
            if reg_name in _REGISTRY and _REGISTRY[reg_name] is not prop_cls:
                warnings.warn('New registration is overriding existing custom operator %s'
                              % reg_name)
            _REGISTRY[reg_name] = prop_cls
        return prop_cls
    return do_register


def get_prop_class(op_type):
    """The CustomOpProp subclass registered as ``op_type``; MXNetError if there is none."""
    try:
        return _REGISTRY[op_type]
    except KeyError:
        raise MXNetError('Cannot find custom operator %s: register it with '
                         '@mx.operator.register(%r) first' % (op_type, op_type)) from None


register('custom_op')(CustomOpProp)


def get_all_registered_operators():
    """Get all registered MXNet operator names.

    Returns
    -------
    operator_names : list of string
    """
    from .ops import registry
    return sorted(set(registry.all_ops()) | {'Custom'})


OperatorArguments = collections.namedtuple('OperatorArguments', ['narg', 'names', 'types'])


def get_operator_arguments(op_name):
    """Given operator name, fetch operator arguments - number of arguments,
    argument names, argument types.

    Parameters
    ----------
    op_name: str
        Handle for the operator

    Returns
    -------
    operator_arguments : OperatorArguments, namedtuple with number of arguments, names and types
    """
    if op_name == 'Custom':
        return OperatorArguments(2, ['data', 'op_type'], ['NDArray-or-Symbol[]', 'string'])
    from .ops import registry
    from .base import REQUIRED
    op = registry.get(op_name)
    names, types = [], []
    for inp in op.inputs:
        names.append(inp.lstrip('*'))
        types.append('NDArray-or-Symbol[]' if inp.startswith('*') else 'NDArray-or-Symbol')
    for pname, (kind, default) in op.params.items():
        names.append(pname)
        if isinstance(default, bool):
            default = int(default)  # MXNet prints a boolean default as 0 or 1
        types.append('%s, required' % kind.name if default is REQUIRED
                     else '%s, optional, default=%s' % (kind.name, default))
    return OperatorArguments(len(names), names, types)
