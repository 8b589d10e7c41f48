"""The ``Custom`` operator: runs a Python :class:`mxcompat.operator.CustomOp`.

Like MXNet, each call instantiates the registered :class:`CustomOpProp` with the keyword
arguments converted to strings, takes argument / output / auxiliary-state names, shapes and types
from it, creates the operator with ``create_operator`` and calls its ``forward`` with NDArrays
(recording paused, training flag as at the call). When an input needs a gradient the call is a
``torch.autograd.Function`` whose backward calls the operator's ``backward`` with the arrays
``declare_backward_dependency`` asked for (the others are empty arrays, as in MXNet).

``Custom`` takes free-form keyword arguments, so it is not an entry of the operator table:
``mx.nd.Custom`` is :func:`Custom` below, and :func:`custom` (torch tensors in, tensors out) with
:func:`signature` and :func:`infer` serve the symbol front end.
"""
import torch

from ..base import MXNetError, dtype_torch, dtype_flag, torch_to_np_type
from ..context import as_context, current_context
from ..ndarray.ndarray import NDArray, wrap
from ..profiler import scope as _profiler_scope

__all__ = ['Custom', 'symbol_Custom', 'custom', 'signature', 'infer', 'opdef']


class _Call:
    """One instantiation of a custom operator: its prop, names, shapes and types."""
    __slots__ = ('op_type', 'prop', 'args', 'outs', 'auxs', 'out_shapes', 'out_dtypes', 'op',
                 'deps', 'is_train', 'grad_reqs')

    def __init__(self, op_type, attrs):
        from ..operator import get_prop_class
        self.op_type = op_type
        prop_cls = get_prop_class(op_type)
        kwargs = {k: str(v) for k, v in attrs.items()}
        self.prop = self._guard('__init__', prop_cls, **kwargs)
        self.args = list(self._guard('list_arguments', self.prop.list_arguments))
        self.outs = list(self._guard('list_outputs', self.prop.list_outputs))
        self.auxs = list(self._guard('list_auxiliary_states', self.prop.list_auxiliary_states))

    def _guard(self, what, fn, *args, **kwargs):
        """Call user code; its exceptions become MXNetError naming the operator, as in MXNet."""
        try:
            return fn(*args, **kwargs)
        except MXNetError:
            raise
        except Exception as err:
            raise MXNetError('Error in custom operator %s (%s): %s: %s'
                             % (self.op_type, what, type(err).__name__, err)) from err

    def _split(self, ret, what, n_in):
        if not isinstance(ret, (list, tuple)) or len(ret) not in (2, 3):
            raise MXNetError('Custom operator %s: %s must return 2 or 3 lists'
                             % (self.op_type, what))
        ins, outs = list(ret[0]), list(ret[1])
        auxs = list(ret[2]) if len(ret) == 3 else []
        for got, want, kind in ((ins, n_in, 'input'), (outs, len(self.outs), 'output'),
                                (auxs, len(self.auxs), 'aux state')):
            if len(got) != want:
                raise MXNetError('Custom operator %s: %s returned %d %s entries, expected %d'
                                 % (self.op_type, what, len(got), kind, want))
        return ins, outs, auxs

    def infer_shape(self, arg_shapes):
        ret = self._guard('infer_shape', self.prop.infer_shape, [list(s) for s in arg_shapes])
        return self._split(ret, 'infer_shape', len(self.args))

    def infer_type(self, arg_types):
        ret = self._guard('infer_type', self.prop.infer_type, list(arg_types))
        return self._split(ret, 'infer_type', len(self.args))

    def prepare(self, tensors):
        """Check the inputs and infer the output shapes and types."""
        n_args, n_aux = len(self.args), len(self.auxs)
        if len(tensors) != n_args + n_aux:
            raise MXNetError('Custom operator %s expects %d inputs (%s), got %d'
                             % (self.op_type, n_args + n_aux, ', '.join(self.args + self.auxs),
                                len(tensors)))
        arg_t, aux_t = tensors[:n_args], tensors[n_args:]
        ins, outs, auxs = self.infer_shape([tuple(t.shape) for t in arg_t])
        for kind, names, given, inferred in (('input', self.args, arg_t, ins),
                                             ('aux state', self.auxs, aux_t, auxs)):
            for name, t, s in zip(names, given, inferred):
                if tuple(t.shape) != tuple(int(d) for d in s):
                    raise MXNetError('Custom operator %s: %s %s has shape %s, infer_shape '
                                     'expects %s' % (self.op_type, kind, name, tuple(t.shape),
                                                     tuple(s)))
        self.out_shapes = [tuple(int(d) for d in s) for s in outs]
        _, otypes, _ = self.infer_type([torch_to_np_type(t.dtype) for t in arg_t])
        try:
            self.out_dtypes = [dtype_torch(d) for d in otypes]
        except MXNetError as err:
            raise MXNetError('Custom operator %s: infer_type returned %s' % (self.op_type, err)) \
                from None

    def create(self, tensors):
        """Create the operator and ask which arrays its backward needs."""
        n_args = len(self.args)
        ctx = _context_of(tensors)
        self.op = self._guard('create_operator', self.prop.create_operator, ctx,
                              [list(t.shape) for t in tensors],
                              [dtype_flag(t.dtype) for t in tensors])
        n_out = len(self.outs)
        self.deps = set(self._guard(
            'declare_backward_dependency', self.prop.declare_backward_dependency,
            list(range(n_out)), list(range(n_out, n_out + n_args)),
            list(range(n_out + n_args, 2 * n_out + n_args))))
        from ..autograd import is_training
        self.is_train = is_training()

    def forward(self, arg_t, aux_t, device):
        outs = [torch.zeros(s, dtype=d, device=device)
                for s, d in zip(self.out_shapes, self.out_dtypes)]
        from ..autograd import pause
        with pause(train_mode=self.is_train), \
                _profiler_scope('Custom Operator', self.op_type + '::pure_python', self.op_type):
            self._guard('CustomOp.forward', self.op.forward, is_train=self.is_train,
                        req=['write'] * len(outs), in_data=[wrap(t) for t in arg_t],
                        out_data=[wrap(t) for t in outs], aux=[wrap(t) for t in aux_t])
        return outs

    def backward(self, out_grads, arg_t, outs, aux_t, needs_grad):
        n_out, n_args = len(self.outs), len(self.args)
        empty = _empty_array
        out_grad = [wrap(g) if i in self.deps else empty() for i, g in enumerate(out_grads)]
        in_data = [wrap(t) if n_out + i in self.deps else empty() for i, t in enumerate(arg_t)]
        out_data = [wrap(t) if n_out + n_args + i in self.deps else empty()
                    for i, t in enumerate(outs)]
        in_grads = [torch.zeros_like(t) for t in arg_t]
        from ..autograd import pause
        # backward runs in training mode, as autograd.backward(train_mode=True) does in MXNet
        with pause(train_mode=True), _profiler_scope(
                'Custom Operator', '_backward_%s::pure_python' % self.op_type,
                '_backward_' + self.op_type):
            self._guard('CustomOp.backward', self.op.backward,
                        req=[r if n else 'null' for r, n in zip(self.grad_reqs, needs_grad)],
                        out_grad=out_grad,
                        in_data=in_data, out_data=out_data,
                        in_grad=[wrap(g) for g in in_grads], aux=[wrap(t) for t in aux_t])
        return [g if n else None for g, n in zip(in_grads, needs_grad)]


def _empty_array():
    return wrap(torch.empty((0,), dtype=torch.float32))


def _context_of(tensors):
    if not tensors:
        return current_context()
    return as_context(tensors[0].device)


class _CustomFunction(torch.autograd.Function):
    """Autograd node of one custom-operator call. Aux states travel in ``call`` (outside the
    graph: they never receive gradients and the operator may update them in place)."""

    @staticmethod
    def forward(ctx, call, aux_t, device, *arg_t):
        outs = call.forward(arg_t, aux_t, device)
        n_out, n_args = len(call.outs), len(call.args)
        keep_in = [t if n_out + i in call.deps else None for i, t in enumerate(arg_t)]
        keep_out = [t if n_out + n_args + i in call.deps else None for i, t in enumerate(outs)]
        ctx.call = call
        ctx.aux_t = aux_t
        ctx.device = device
        ctx.shapes = [(t.shape, t.dtype, t.device) for t in arg_t]
        ctx.n_in = len(keep_in)
        ctx.save_for_backward(*(keep_in + keep_out))
        return tuple(outs)

    @staticmethod
    def backward(ctx, *grads):
        call = ctx.call
        saved = ctx.saved_tensors
        arg_t = [t if t is not None else torch.empty(s, dtype=d, device=dev)
                 for t, (s, d, dev) in zip(saved[:ctx.n_in], ctx.shapes)]
        outs = [t if t is not None else torch.empty(0) for t in saved[ctx.n_in:]]
        grads = [g if g is not None else torch.zeros(s, dtype=d, device=ctx.device)
                 for g, s, d in zip(grads, call.out_shapes, call.out_dtypes)]
        in_grads = call.backward(grads, arg_t, outs, ctx.aux_t, ctx.needs_input_grad[3:])
        return (None, None, None) + tuple(in_grads)


def custom(*tensors, op_type, **attrs):
    """Run custom operator ``op_type`` on torch tensors (arguments, then auxiliary states);
    returns a tuple of output tensors. On ``meta`` tensors (shape inference) only the prop's
    infer_shape / infer_type run."""
    call = _Call(op_type, attrs)
    call.prepare(tensors)
    n_args = len(call.args)
    arg_t, aux_t = tensors[:n_args], list(tensors[n_args:])
    device = arg_t[0].device if arg_t else _context_of(tensors).torch_device
    if device.type == 'meta':
        return tuple(torch.empty(s, dtype=d, device=device)
                     for s, d in zip(call.out_shapes, call.out_dtypes))
    call.create(tensors)
    if torch.is_grad_enabled() and any(t.requires_grad for t in arg_t):
        # MXNet's backward adds straight into a variable's gradient when its grad_req is 'add';
        # here the operator gets a zeroed buffer with that req and torch does the adding
        call.grad_reqs = ['add' if t.is_leaf and getattr(t, '_mx_grad_req', None) == 'add'
                          else 'write' for t in arg_t]
        return _CustomFunction.apply(call, aux_t, device, *arg_t)
    return tuple(call.forward(arg_t, aux_t, device))


def signature(op_type, attrs):
    """(argument names, auxiliary-state names, output names) of a custom operator."""
    call = _Call(op_type, attrs)
    return call.args, call.auxs, call.outs


def infer(op_type, attrs, arg_shapes, arg_types):
    """Shapes and numpy types inferred by a custom operator's prop:
    ``((in_shapes, out_shapes, aux_shapes), (in_types, out_types, aux_types))``; either of
    arg_shapes / arg_types may be None to skip that inference."""
    call = _Call(op_type, attrs)
    shapes = None if arg_shapes is None else call.infer_shape(arg_shapes)
    types = None if arg_types is None else call.infer_type(arg_types)
    return shapes, types


def opdef(attrs):
    """An operator-table entry (``OpDef``) for one use of ``Custom``: ``attrs`` holds
    ``op_type`` and the prop's keyword arguments. Its inputs are the prop's arguments then
    auxiliary states, its outputs the prop's outputs; the symbol front end builds its nodes
    with it since Custom's parameters differ from one custom operator to another."""
    from .registry import OpDef, Str, REQUIRED
    attrs = dict(attrs)
    op_type = attrs.pop('op_type', None)
    if op_type is None:
        raise MXNetError('Custom: required argument `op_type` is missing')
    args, auxs, outs = signature(op_type, attrs)
    params = {'op_type': (Str, REQUIRED)}
    params.update((k, (Str, None)) for k in attrs)

    def input_shapes(shapes, _params):
        """Argument and aux-state shapes the prop infers. As in MXNet, its infer_shape sees
        an unknown shape as ``[]`` and a partly known one with 0 for each unknown size (a
        deferred Gluon parameter), and a shape it returns as ``[]`` stays unknown; while some
        argument shape is unknown, an infer_shape that fails means "not known yet"."""
        given = [[] if s is None else list(s) for s in shapes[:len(args)]]
        try:
            (ins, _, aux_shapes), _ = infer(op_type, attrs, given, None)
        except MXNetError:
            if all(s and all(d > 0 for d in s) for s in given):
                raise
            return [None] * len(shapes)
        return [tuple(int(d) for d in s) if len(s) else None for s in list(ins) + aux_shapes]

    def types(in_types, _params):
        """Argument and output types the prop infers (None where unknown): its infer_type
        sees an unknown type as None, as in MXNet."""
        given = [None if t is None else torch_to_np_type(t) for t in in_types[:len(args)]]
        try:
            _, (ins, outs, aux_types) = infer(op_type, attrs, None, given)
            return ([None if t is None else dtype_torch(t) for t in ins + aux_types],
                    [None if t is None else dtype_torch(t) for t in outs])
        except MXNetError:
            if any(t is None for t in given):
                return None
            raise

    def custom_one(*tensors, **params):
        """``custom`` for a custom operator with one output: returns that tensor, as every
        single-output implementation of the table does."""
        return custom(*tensors, **params)[0]

    return OpDef('Custom', custom_one if len(outs) == 1 else custom, tuple(args + auxs),
                 params, (), tuple(auxs), len(outs), None, tuple(outs), Custom.__doc__, None,
                 None, input_shapes, True, tuple(auxs), merges=False, infer_type=types)


def symbol_Custom(*data, **kwargs):  # noqa: N802  (MXNet's operator name)
    """``mx.sym.Custom``: a symbol applying a custom operator. Inputs are Symbols, given in
    order or by the prop's argument / auxiliary-state names; other keyword arguments are
    ``op_type`` and the prop's parameters (``name`` and ``attr`` as for every operator).
    An input not given becomes the variable ``<name>_<input name>``, as for every operator."""
    from ..symbol.symbol import Symbol, compose_op
    name = kwargs.pop('name', None)
    attr = kwargs.pop('attr', None)
    named = {k: v for k, v in kwargs.items() if isinstance(v, Symbol)}
    params = {k: v for k, v in kwargs.items() if not isinstance(v, Symbol)}
    return compose_op(opdef(params), 'Custom', list(data), named, params, name, attr)


def Custom(*data, **kwargs):
    """Apply a custom operator implemented in a frontend language (like Python).

    Custom operators should override required methods like `forward` and `backward`.
    The custom operator must be registered before it can be used.
    Please check the tutorial here: https://mxnet.incubator.apache.org/api/faq/new_op

    Parameters
    ----------
    data : NDArray[]
        Input data for the custom operator: its arguments, then its auxiliary states.
    op_type : string
        Name of the custom operator. This is the name that is passed to
        `mx.operator.register` to register the operator.
    out : NDArray, optional
        The output NDArray to hold the result.

    Returns
    -------
    out : NDArray or list of NDArrays
        The output of this function.
    """
    kwargs.pop('name', None)
    out = kwargs.pop('out', None)
    op_type = kwargs.pop('op_type', None)
    if op_type is None:
        raise MXNetError('Custom: required argument `op_type` is missing: pass the name given '
                         'to mx.operator.register')
    tensors = []
    for i, x in enumerate(data):
        if not isinstance(x, NDArray):
            raise MXNetError('Custom(op_type=%s): positional argument %d must be an NDArray, '
                             'got %s' % (op_type, i, type(x).__name__))
        tensors.append(x._t)
    res = custom(*tensors, op_type=op_type, **kwargs)
    if out is not None:
        outs = out if isinstance(out, (list, tuple)) else [out]
        for o, r in zip(outs, res):
            o[:] = wrap(r)
        return out
    if len(res) == 1:
        return wrap(res[0])
    return [wrap(r) for r in res]
