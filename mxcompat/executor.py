"""Executor: runs a bound symbol graph with torch.

The graph is lowered once (symbol/lowering.py) into a torch.fx GraphModule of direct calls of
the operators' torch implementations; the backward pass is torch.autograd over the tensors
recorded during a training forward.
"""
import torch

from . import autograd
from .base import MXNetError, dtype_torch, gc_paused
from .context import Context, as_context, swap_context
from .ndarray.ndarray import NDArray, _on_ctx, wrap
from .ops.indexing import is_zero_grad
from .ndarray.sparse import _var_storage_types, _wrap as _sparse_wrap
from .symbol.passes import cse_enabled, eliminate_common_expr, executor_debug_str
from .symbol.inference import consumer_sized_params, infer_bound_shapes, infer_type
from .symbol.lowering import Lowered

__all__ = ['Executor', 'simple_bind']

_set_grad_enabled = torch._C._set_grad_enabled
try:  # torch.autograd.grad less its argument checks (absent in other torch versions)
    from torch.autograd.graph import _engine_run_backward as _run_backward
except ImportError:
    _run_backward = None
_CONTIGUOUS = torch.contiguous_format

_REQS = ('write', 'add', 'null')


def _as_list_or_dict(arrays, names, what):
    if arrays is None:
        return [None] * len(names)
    if isinstance(arrays, dict):  # MXNet ignores extra entries in dicts
        return [arrays.get(n) for n in names]
    arrays = list(arrays)
    if len(arrays) != len(names):
        raise MXNetError('bind: %s has %d arrays but the symbol has %d (%s)'
                         % (what, len(arrays), len(names), ', '.join(names)))
    return arrays


class Executor:
    """Executor is the object providing efficient symbolic graph execution and optimization.

    Do not construct it directly: use ``Symbol.bind`` or ``Symbol.simple_bind`` (which passes
    ``out_shapes``, the output shapes its shape inference found for the arrays it made, so
    that binding does not infer them again).
    """

    @gc_paused
    def __init__(self, symbol, ctx, args, args_grad=None, grad_req='write', aux_states=None,
                 group2ctx=None, out_shapes=None):
        self._symbol = symbol
        self._ctx = as_context(ctx) if not isinstance(ctx, Context) else ctx
        self._group2ctx = group2ctx
        arg_names = symbol.list_arguments()
        aux_names = symbol.list_auxiliary_states()
        self._arg_names = arg_names
        self._aux_names = aux_names
        self._output_names = symbol.list_outputs()
        if isinstance(args, dict):
            missing = [n for n in arg_names if n not in args]
            if missing:
                raise MXNetError('bind: arguments missing from args: %s' % ', '.join(missing))
        self.arg_arrays = _as_list_or_dict(args, arg_names, 'args')
        for name, a in zip(arg_names, self.arg_arrays):
            if not isinstance(a, NDArray):
                raise MXNetError('bind: argument %s must be an NDArray, got %s'
                                 % (name, type(a).__name__))
        self.grad_arrays = _as_list_or_dict(args_grad, arg_names, 'args_grad')
        if isinstance(grad_req, str):
            reqs = [grad_req] * len(arg_names)
        elif isinstance(grad_req, dict):
            reqs = [grad_req.get(n, 'null') for n in arg_names]
        else:
            reqs = list(grad_req)
        for r in reqs:
            if r not in _REQS:
                raise MXNetError("grad_req must be 'write', 'add' or 'null', got %r" % (r,))
        self._grad_req = [r if g is not None else 'null' for r, g in zip(reqs, self.grad_arrays)]
        if not group2ctx:
            _check_contexts(self._ctx, arg_names, self.arg_arrays, self.grad_arrays)
        if aux_states is None and aux_names:
            raise MXNetError('bind: aux_states are required for %s' % ', '.join(aux_names))
        self.aux_arrays = _as_list_or_dict(aux_states, aux_names, 'aux_states') \
            if aux_names else []
        # simple_bind's arrays have the shapes its inference found, with these outputs
        self._out_shapes = self._check_shapes() if out_shapes is None else out_shapes
        # lowered at bind: the operators' implementations are those of the table now (a
        # later mx.contrib.amp.init does not change a bound executor)
        self._graph = Lowered(symbol, consumer_sized_params(symbol, dict(
            [(n, a.shape) for n, a in zip(arg_names, self.arg_arrays)] +
            [(n, a.shape) for n, a in zip(aux_names, self.aux_arrays) if a is not None])))
        arg_index = {n: i for i, n in enumerate(arg_names)}
        aux_index = {n: i for i, n in enumerate(aux_names)}
        # (array, index of its gradient or -1) per graph input, in the lowered graph's order:
        # as in MXNet, the arrays bound here are the ones every forward reads
        self._feed = []
        for name in symbol.list_inputs():
            if name in arg_index:
                i = arg_index[name]
                self._feed.append((self.arg_arrays[i], i if self._grad_req[i] != 'null' else -1))
            else:
                self._feed.append((self.aux_arrays[aux_index[name]], -1))
        self._needs_grad = any(r != 'null' for r in self._grad_req)
        # integer arguments with a gradient: gradient arrays that no operator reaches (the
        # indices of take, the length of softmax) are set to zero under 'write' and 'add' alike,
        # as MXNet's operators set them
        self._int_grads = frozenset(i for a, i in self._feed
                                    if i >= 0 and not a._t.is_floating_point())
        self._outputs = None
        self._recorded = None
        self._heads = None
        self._monitor = None
        self._monitor_all = False
        self._monitor_steps = None
        self._cse = cse_enabled()

    @property
    def outputs(self):
        """The output arrays. As in MXNet they belong to the executor: before the first
        forward they are zero arrays of the inferred shapes (allocated when first asked
        for), and every forward writes its results into them."""
        if self._outputs is None:
            self._outputs = self._allocate_outputs()
        return self._outputs

    def _store_outputs(self, results):
        """Writes ``results`` into the output arrays (made on the first forward; replaced
        where an operator's result changed shape, dtype or device)."""
        outs = self._outputs
        if outs is None or len(outs) != len(results):
            self._outputs = [_on_ctx(r.detach().clone(memory_format=_CONTIGUOUS), self._ctx)
                             for r in results]
            return
        for k, (o, r) in enumerate(zip(outs, results)):
            t = o._t
            if t.shape == r.shape and t.dtype is r.dtype and t.device == r.device:
                t.copy_(r.detach() if r.requires_grad else r)
            else:
                outs[k] = _on_ctx(r.detach().clone(memory_format=_CONTIGUOUS), self._ctx)

    def _check_shapes(self):
        """Shape inference from the bound arrays, as MXNet runs it at bind: an array whose
        shape contradicts the graph raises an error naming the operator, the argument and
        both shapes. Returns the output shapes (None where they stay unknown)."""
        bound = [(n, a) for n, a in zip(self._arg_names, self.arg_arrays)] + \
            [(n, a) for n, a in zip(self._aux_names, self.aux_arrays) if a is not None]
        try:
            return infer_bound_shapes(self._symbol, {n: a.shape for n, a in bound},
                                      {n: a._t.dtype for n, a in bound})[1]
        except MXNetError as err:
            raise MXNetError('bind: %s' % err) from None

    def _allocate_outputs(self):
        """Zero arrays of the inferred output shapes and types ([] when they can't be
        inferred)."""
        try:
            shapes = self._out_shapes
            if shapes is None or any(not s or 0 in s for s in shapes):
                return []
            types = self._symbol.infer_type(
                **{n: a.dtype for n, a in zip(self._arg_names, self.arg_arrays)})[1]
        except MXNetError:
            return []
        dev = self.arg_arrays[0]._t.device if self.arg_arrays else self._ctx.torch_device
        types = types or [None] * len(shapes)
        return [_on_ctx(torch.zeros(s, dtype=dtype_torch(t) if t is not None else torch.float32,
                                    device=dev), self._ctx) for s, t in zip(shapes, types)]

    # ------------------------------------------------------------------ dictionaries
    @property
    def arg_dict(self):
        """Get dictionary representation of argument arrrays."""
        return dict(zip(self._arg_names, self.arg_arrays))

    @property
    def grad_dict(self):
        """Get dictionary representation of gradient arrays."""
        return {n: g for n, g in zip(self._arg_names, self.grad_arrays) if g is not None}

    @property
    def aux_dict(self):
        """Get dictionary representation of auxiliary states arrays."""
        return dict(zip(self._aux_names, self.aux_arrays))

    @property
    def output_dict(self):
        """Get dictionary representation of output arrays."""
        return dict(zip(self._output_names, self.outputs))

    # ------------------------------------------------------------------ running
    def forward(self, is_train=False, **kwargs):
        """Calculate the outputs specified by the bound symbol.

        Parameters
        ----------
        is_train: bool, optional
            Whether this forward is for evaluation purpose. If True,
            a backward call is expected to follow.
        **kwargs
            Additional specification of input arguments.

        Returns
        -------
        A list of output NDArrays.
        """
        if kwargs:
            self._copy_inputs(kwargs)
        return self._run(is_train, is_train)

    def _copy_inputs(self, kwargs):
        arg_dict = None
        for name, array in kwargs.items():
            if arg_dict is None:
                arg_dict = self.arg_dict
            if name not in arg_dict:
                raise MXNetError('forward: unknown argument %s; arguments are %s'
                                 % (name, ', '.join(self._arg_names)))
            target = arg_dict[name]
            if not isinstance(array, NDArray):
                array = wrap(torch.as_tensor(array, dtype=target._t.dtype))
            if array.shape != target.shape:
                raise MXNetError('forward: shape of argument %s is %s, expected %s'
                                 % (name, array.shape, target.shape))
            target._t.data.copy_(array._t.detach())

    def _run(self, is_train, record):
        need_grad = record and self._needs_grad
        leaves = grad_index = None
        if need_grad:
            ins, leaves, grad_index = [], [], []
            for a, g in self._feed:
                t = a._t
                if g >= 0 and t.is_floating_point():
                    t = t.detach().requires_grad_(True)
                    leaves.append(t)
                    grad_index.append(g)
                elif g >= 0:
                    # an integer argument's gradient is that of its float64 shadow (see
                    # autograd._IntegerVariable)
                    t, shadow = autograd.integer_variable(t)
                    leaves.append(shadow)
                    grad_index.append(g)
                elif t.requires_grad:
                    t = t.detach()
                ins.append(t)
        else:
            ins = [a._t for a, _ in self._feed]
        outs = self._call(ins, is_train, need_grad)
        self._store_outputs(outs)
        # each output array's tensor and version as this forward left it: backward finds the
        # arrays the caller changed in place since
        self._recorded = (outs, leaves, grad_index, [(o._t, o._t._version) for o in
                                                    self._outputs]) if need_grad else None
        return self._outputs

    def _call(self, ins, is_train, need_grad):
        """The graph's output tensors for input tensors ``ins``, run with the training flag,
        grad mode, recording and default context of a forward (monitored where a monitor is
        installed)."""
        prev_train = autograd.set_training(is_train)
        prev_grad = torch.is_grad_enabled()
        _set_grad_enabled(need_grad)
        # (recording: integer results of Cast pass gradients, autograd._IntegerVariable)
        prev_rec = autograd.swap_recording(True) if need_grad else None
        # operators that make arrays (zeros, random, ...) make them on the executor's context
        prev_ctx = swap_context(self._ctx)
        try:
            if self._monitor is None:
                return self._graph(ins)
            return self._run_monitored(self._graph, ins, need_grad)
        finally:
            swap_context(prev_ctx)
            if need_grad:
                autograd.swap_recording(prev_rec)
            _set_grad_enabled(prev_grad)
            autograd.set_training(prev_train)

    def _map_forward(self, name, batch, is_train):
        """The first outputs of forwards in which argument ``name`` takes each value along the
        leading axis of ``batch`` (the other inputs as bound), stacked: one torch.func.vmap
        call that records no graph and writes no output array (numeric_grad's batches). It
        raises where the graph cannot be mapped: random operators, values read on the host,
        in-place updates of auxiliary states, an installed monitor."""
        if self._monitor is not None:
            raise MXNetError('a monitored executor runs its forwards one by one')
        at = [i for i, n in enumerate(self._symbol.list_inputs()) if n == name]
        bound = [a._t for a, _ in self._feed]

        def first_output(value):
            ins = list(bound)
            for i in at:
                ins[i] = value
            return self._call(ins, is_train, False)[0]
        return torch.func.vmap(first_output)(batch)

    def backward(self, out_grads=None, is_train=True):
        """Do backward pass to get the gradient of arguments.

        Parameters
        ----------
        out_grads : NDArray or list of NDArray or dict of str to NDArray, optional
            Gradient on the outputs to be propagated back.
            This parameter is only needed when bind is called
            on outputs that are not a loss function.
        is_train : bool, default True
            Whether this backward is for training or inference.
        """
        if not self._needs_grad:
            return
        if self._recorded is None:
            # MXNet runs backward after an inference forward, or none at all (its backward
            # pass reads the arrays as they are): record an inference-mode forward now
            self._run(False, True)
        outs, leaves, grad_index, stored = self._recorded
        if not leaves:
            return
        for r, o, (t, version) in zip(outs, self._outputs, stored):
            if (o._t is not t or t._version != version) and r.grad_fn is not None \
                    and o._t.shape == r.shape:
                # MXNet's backward reads an output array the caller changed in place after the
                # forward (``out += x``) where an operator's gradient uses its output (relu,
                # sigmoid, softmax, ...): the recorded result takes the array's values
                r.data.copy_(o._t.detach())
        if out_grads is None:
            heads = self._ones_like(outs)
        else:
            if isinstance(out_grads, NDArray):
                out_grads = [out_grads]
            elif isinstance(out_grads, dict):
                out_grads = [out_grads[n] for n in self._output_names]
            heads = [g._t if isinstance(g, NDArray) else torch.as_tensor(g) for g in out_grads]
            # head gradients are copied to the executor's device, as MXNet copies them
            heads = [h if h.device == o.device else h.to(o.device) for h, o in zip(heads, outs)]
            for k, (h, o) in enumerate(zip(heads, outs)):
                if h.shape != o.shape:
                    # MXNet copies a head gradient only where the backward pass reads it (not
                    # for argmax, shape_array, MultiProposal, ...)
                    if o.requires_grad and not is_zero_grad(o) or \
                            getattr(o, '_mx_shadow', None) is not None:
                        raise MXNetError('backward: out_grads[%d] has shape %s but output %s '
                                         'has shape %s; pass a gradient of the output\'s shape'
                                         % (k, tuple(h.shape), self._output_names[k],
                                            tuple(o.shape)))
                    heads[k] = torch.zeros_like(o)
        # an output listed twice (an RNN's last output and its state) takes the gradient given
        # last for it, as in MXNet, not the sum
        # outputs of non-differentiable operators (comparisons, logical ops, ...) pass no
        # gradient: with none left, every 'write' gradient is zero, as in MXNet
        # an integer output with a shadow (autograd._IntegerVariable) passes its gradient to it
        if len(outs) == 1:
            root = outs[0]
            if root.requires_grad:
                heads = heads[:1]
            else:
                root = getattr(root, '_mx_shadow', None)
                if root is None:
                    self._write_grads(grad_index, [None] * len(grad_index))
                    return
                heads = [heads[0].to(root.dtype)]
            roots = [root]
        else:
            pairs = {}
            for o, h in zip(outs, heads):
                if o.requires_grad:
                    pairs[id(o)] = (o, h)
                elif getattr(o, '_mx_shadow', None) is not None:
                    pairs[id(o)] = (o._mx_shadow, h.to(o._mx_shadow.dtype))
            pairs = list(pairs.values())
            if not pairs:
                self._write_grads(grad_index, [None] * len(grad_index))
                return
            roots, heads = [o for o, _ in pairs], [h for _, h in pairs]
        if out_grads is None and _run_backward is not None:
            # our own head gradients fit their outputs: skip autograd.grad's checks of them
            grads = _run_backward(tuple(roots), tuple(heads), True, False, tuple(leaves), True,
                                  accumulate_grad=False)
        else:
            grads = torch.autograd.grad(roots, leaves, heads, retain_graph=True,
                                        allow_unused=True)
        self._write_grads(grad_index, grads)
        if self._monitor is not None and self._monitor_steps is not None:
            self._run_backward_monitor(roots, heads)

    def _write_grads(self, grad_index, grads):
        """Writes (grad_req 'write') or adds ('add') each computed gradient into its array;
        an argument the outputs do not depend on gets zeros under 'write'."""
        write_dst, write_src, add_dst, add_src = [], [], [], []
        arrays, reqs = self.grad_arrays, self._grad_req
        for i, g in zip(grad_index, grads):
            dst = arrays[i]._t
            if dst.requires_grad:
                dst = dst.detach()
            if reqs[i] == 'write' or g is None and i in self._int_grads:
                if g is None:
                    dst.zero_()
                else:
                    write_dst.append(dst)
                    write_src.append(g)
            elif g is not None:
                add_dst.append(dst)
                # (an integer argument's float64 gradient is truncated, then added)
                add_src.append(g if g.dtype is dst.dtype else g.to(dst.dtype))
        if write_dst:
            torch._foreach_copy_(write_dst, write_src)
        if add_dst:
            torch._foreach_add_(add_dst, add_src)

    def _ones_like(self, outs):
        """Head gradients of ones for ``outs`` (kept between calls: the operators' backward
        passes only read them)."""
        heads = self._heads
        if heads is not None and len(heads) == len(outs):
            for h, o in zip(heads, outs):
                if h.shape != o.shape or h.dtype is not o.dtype or h.device != o.device:
                    break
            else:
                return heads
        heads = self._heads = [torch.ones_like(o, requires_grad=False) for o in outs]
        return heads

    def set_monitor_callback(self, callback, monitor_all=False):
        """Install callback for monitor.

        Parameters
        ----------
        callback : function
            Takes a string and an NDArrayHandle.
        monitor_all : bool, default False
            If true, monitor both input and output, otherwise monitor output only.
        """
        self._monitor = callback
        self._monitor_all = monitor_all

    def _run_monitored(self, graph, ins, need_grad):
        """Runs the graph node by node, reporting each operator's outputs (and inputs with
        ``monitor_all``) to the monitor callback, as MXNet does."""
        monitor = self._monitor
        steps = [] if need_grad else None

        def on_inputs(node, tensors):
            if steps is not None:
                steps.append((node, tensors))
            if not self._monitor_all:
                return
            for (i, _), t, iname in zip(node.inputs, tensors,
                                        node.op.monitor_inputs(node.params)):
                arr = wrap(t.detach())
                if i.op is None:  # as MXNet, a variable input also reports itself
                    monitor(i.name, arr)
                monitor('%s_%s' % (node.name, iname), arr)

        def on_outputs(node, tensors):
            for name, t in zip(node.output_names(), tensors):
                monitor(name, wrap(t.detach()))
        outs = graph.run_monitored(ins, on_inputs, on_outputs)
        self._monitor_steps = steps
        return outs

    def _run_backward_monitor(self, roots, heads):
        """Reports, as MXNet's backward nodes do, the gradient of each input of every
        operator the gradients flow through (``<node>_backward_output<k>``; zeros for an
        input without gradient), last operator first."""
        steps = [(node, ins) for node, ins in self._monitor_steps
                 if any(t.requires_grad for t in ins)]
        wanted = {id(t): t for _, ins in steps for t in ins if t.requires_grad}
        grads = torch.autograd.grad(roots, list(wanted.values()), heads,
                                    retain_graph=True, allow_unused=True)
        by_id = dict(zip(wanted, grads))
        for node, ins in reversed(steps):
            for k, t in enumerate(ins):
                g = by_id.get(id(t))
                if g is None:
                    g = torch.zeros_like(t)
                name = '%s_backward_output' % node.name
                self._monitor(name if len(ins) == 1 else name + str(k), wrap(g.detach()))

    def copy_params_from(self, arg_params, aux_params=None, allow_extra_params=False):
        """Copy parameters from arg_params, aux_params into executor's internal array.

        Parameters
        ----------
        arg_params : dict of str to NDArray
            Parameters, dict of name to NDArray of arguments.
        aux_params : dict of str to NDArray, optional
            Parameters, dict of name to NDArray of auxiliary states.
        allow_extra_params : boolean, optional
            Whether allow extra parameters that are not needed by symbol.
            If this is True, no error will be thrown when arg_params or aux_params
            contain extra parameters that is not needed by the executor.
        """
        arg_dict = self.arg_dict
        for name, array in arg_params.items():
            if name in arg_dict:
                dst = arg_dict[name]
                dst._t.data.copy_(array._t.detach().to(dst._t.dtype))
            elif not allow_extra_params:
                raise ValueError('Find name "%s" that is not in the arguments' % name)
        if aux_params is None:
            return
        aux_dict = self.aux_dict
        for name, array in aux_params.items():
            if name in aux_dict:
                dst = aux_dict[name]
                dst._t.data.copy_(array._t.detach().to(dst._t.dtype))
            elif not allow_extra_params:
                raise ValueError('Find name %s that is not in the auxiliary states' % name)

    def reshape(self, partial_shaping=False, allow_up_sizing=False, **kwargs):
        """Return a new executor with the same symbol and shared memory,
        but different input/output shapes.

        Parameters
        ----------
        partial_shaping : bool
            Whether to allow changing the shape of unspecified arguments.
        allow_up_sizing : bool
            Whether to allow allocating new ndarrays that's larger than the original.
        kwargs : dict of string to tuple of int
            New shape for arguments.

        Returns
        -------
        exec : Executor
            A new executor that shares memory with self.
        """
        arg_shapes, out_shapes, aux_shapes = self._symbol.infer_shape(**kwargs)
        if arg_shapes is None:
            raise MXNetError('Insufficient argument shapes provided.')
        new_args, new_grads = [], []
        for name, arr, grad, shape in zip(self._arg_names, self.arg_arrays, self.grad_arrays,
                                          arg_shapes):
            new_args.append(_reshaped(arr, shape, name, partial_shaping or name in kwargs,
                                      allow_up_sizing))
            new_grads.append(None if grad is None else
                             _reshaped(grad, shape, name, partial_shaping or name in kwargs,
                                       allow_up_sizing))
        new_aux = [_reshaped(arr, shape, name, partial_shaping, allow_up_sizing)
                   for name, arr, shape in zip(self._aux_names, self.aux_arrays, aux_shapes)]
        new = Executor(self._symbol, self._ctx, new_args, new_grads, self._grad_req, new_aux,
                       self._group2ctx)
        # as MXNet's, the reshaped executor keeps the monitor callback
        new._monitor, new._monitor_all, new._monitor_steps = \
            self._monitor, self._monitor_all, self._monitor_steps
        # the outputs share memory too: the new executor writes into the start of ours
        outs = self.outputs
        if outs and len(outs) == len(out_shapes):
            new._outputs = [_output_view(o, shape) for o, shape in zip(outs, out_shapes)]
        return new

    def debug_str(self):
        """Get a debug string about internal execution plan.

        Returns
        -------
        debug_str : string
            Debug string of the executor.
        """
        return executor_debug_str(self._symbol, self._arg_names, self.arg_arrays,
                                  self._aux_names, self.aux_arrays, self._grad_req)

    def get_optimized_symbol(self):
        """Get an optimized version of the symbol from the executor.

        Returns
        -------
        symbol : Symbol
            Optimized symbol from the executor.
        """
        if self._cse:
            return eliminate_common_expr(self._symbol)
        return self._symbol.__copy__()


def _reshaped(arr, shape, name, allowed, allow_up_sizing):
    shape = tuple(shape)
    if arr.shape == shape:
        return arr
    if not allowed:
        raise AssertionError('Shape of unspecified array arg:%s changed. This can cause the new '
                             'executor to not share parameters with the old one. Please check '
                             'for error in network. If this is intended, set partial_shaping=True '
                             'to suppress this warning.' % name)
    size = 1
    for d in shape:
        size *= d
    if size > arr.size:
        if not allow_up_sizing:
            raise MXNetError('New shape of arg: %s is larger than original. First making a big '
                             'executor and then down sizing it is more efficient than the reverse. '
                             'If you really want to up size, set allow_up_sizing=True to enable '
                             'allocation of new arrays.' % name)
        return arr._like(torch.zeros(shape, dtype=arr._t.dtype, device=arr._t.device))
    return arr._like(arr._t.reshape(-1)[:size].view(shape))


def _output_view(arr, shape):
    """``arr``'s memory viewed as ``shape`` where it is large enough, else a new array."""
    shape = tuple(shape)
    size = 1
    for d in shape:
        size *= d
    t = arr._t
    if t.shape == shape:
        return arr
    if size <= t.numel() and t.is_contiguous():
        return arr._like(t.view(-1)[:size].view(shape))
    return arr._like(torch.zeros(shape, dtype=t.dtype, device=t.device))


def _check_contexts(ctx, names, args, grads):
    """As MXNet's bind without ``group2ctx``: every argument array and gradient array lives
    on the executor's context ``ctx``."""
    for kind, what, arrays in (('Input', 'arguments', args), ('Gradient', 'gradients', grads)):
        for name, a in zip(names, arrays):
            if a is not None and a.context != ctx:
                raise MXNetError(
                    '%s array %s is in %s while binding with ctx=%s. All %s must be in global '
                    'context (%s) unless group2ctx is specified for cross-device graph; copy it '
                    'with as_in_context(%s)' % (kind, name, a.context, ctx, what, ctx, ctx))


@gc_paused
def simple_bind(symbol, ctx, grad_req, type_dict, stype_dict, group2ctx, shared_arg_names,
                shared_exec, shared_buffer, shapes):
    """Allocate arrays from inferred shapes, types and storage types (the variables' ``stype``
    and ``stype_dict``: arguments only, gradients are dense), then bind (Symbol.simple_bind)."""
    stypes = _var_storage_types(symbol.attr_dict(), stype_dict)
    # as MXNet, only tuple-valued keywords naming an input are shapes; the rest are ignored
    inputs = set(symbol.list_inputs())
    shapes = {k: v for k, v in shapes.items() if isinstance(v, tuple) and k in inputs}
    arg_shapes, out_shapes, aux_shapes = symbol.infer_shape(**shapes)
    if arg_shapes is None:
        partial = symbol.infer_shape_partial(**shapes)[0]
        unknown = [n for n, s in zip(symbol.list_arguments(), partial) if not s or 0 in s]
        raise MXNetError('simple_bind: cannot infer the shapes of %s; pass them as keyword '
                         'arguments (name=shape)' % ', '.join(unknown))
    # the types inference finds (the inputs' __dtype__ among them); float32 for the rest
    arg_types, _, aux_types = infer_type(symbol, (), type_dict or {}, True,
                                         (arg_shapes, aux_shapes))[0]
    ctx = as_context(ctx)
    dev = ctx.torch_device
    names = symbol.list_arguments()
    if isinstance(grad_req, str):
        reqs = {n: grad_req for n in names}
    elif isinstance(grad_req, dict):
        reqs = {n: grad_req.get(n, 'null') for n in names}
    else:
        reqs = dict(zip(names, grad_req))
    shared = shared_exec.arg_dict if shared_exec is not None else {}
    args, grads = [], []
    for n, s, t in zip(names, arg_shapes, arg_types):
        td = dtype_torch(t) if t is not None else torch.float32
        if n in shared and shared[n].shape == tuple(s):
            args.append(shared[n])
        elif stypes.get(n, 'default') != 'default':
            args.append(_sparse_wrap(stypes[n], torch.zeros(s, dtype=td, device=dev), ctx))
        else:
            args.append(_on_ctx(torch.zeros(s, dtype=td, device=dev), ctx))
        grads.append(None if reqs.get(n, 'null') == 'null' else
                     _on_ctx(torch.zeros(s, dtype=td, device=dev), ctx))
    aux = [_on_ctx(torch.zeros(s, dtype=dtype_torch(t) if t is not None else torch.float32,
                               device=dev), ctx) for s, t in zip(aux_shapes, aux_types)]
    return Executor(symbol, ctx, args, grads, [reqs.get(n, 'null') for n in names], aux,
                    group2ctx, out_shapes)
