"""Autograd for NDArray, on torch.autograd.

``record()`` switches torch's grad mode on for its scope and ``pause()`` switches it off; outside
them mxcompat leaves torch's grad mode as the user has it, so that the hot path of an operator
never toggles state. ``grad_req`` keeps MXNet's meaning: 'write' overwrites a variable's
gradient on each backward (a leaf hook, just before torch stores the gradient, either zeroes
the buffer, into which torch then adds it, or, for a large buffer, sets the buffer aside, which
then adopts the storage of the gradient torch made), 'add' accumulates, 'null' computes none.
"""
import threading
import weakref

import torch

from . import autograd_history as _history
from .base import MXNetError
from .deferred_errors import fail_gradients
from .pending import PENDING, backward as pending_backward
from .ndarray import ndarray as _ndarray_module
from .ndarray.ndarray import NDArray, wrap
from .ops.contrib_detection import _ZeroGradInputs

# torch.set_grad_enabled without building a context-manager object
_set_grad_enabled = torch._C._set_grad_enabled
try:  # torch.autograd.backward less its argument checks (absent in other torch versions)
    from torch.autograd.graph import _engine_run_backward as _run_backward
except ImportError:
    _run_backward = None
# the engine itself: for graphs on the CPU, which it runs in the calling thread, torch's wrapper
# above only adds its debug-logging check and a context hand-over to device threads
_run_engine = getattr(torch.autograd.Variable, '_execution_engine', None)
if _run_engine is not None:
    _run_engine = _run_engine.run_backward

__all__ = ['record', 'pause', 'train_mode', 'predict_mode', 'is_recording', 'is_training',
           'set_recording', 'set_training', 'mark_variables', 'backward', 'grad', 'get_symbol',
           'Function', 'NDArray']


class _State(threading.local):
    def __init__(self):
        self.recording = False
        self.training = False
        # torch's node counter (per thread) when a backward last freed its graph: nodes
        # numbered below it may belong to a freed graph (see _cut_freed)
        self.freed_below = None


_state = _State()
_history._STATE.append(_state)  # (read by the history, which autograd imports)


class _Backward(object):
    """The backward pass under way. Not thread-local: torch runs the gradient hooks of CUDA
    tensors on its own device threads, not on the thread that called backward."""
    adopting = None  # tensors whose gradient buffer is set aside


_backward = _Backward()


def set_recording(is_recording):
    """Set status to recording/not recording. When recording, graph will be constructed
    for gradient computation.

    Parameters
    ----------
    is_recording: bool

    Returns
    -------
    previous state before this set.
    """
    prev = _set_flag(bool(is_recording))
    torch.set_grad_enabled(bool(is_recording))
    return prev


def _set_flag(is_recording):
    """Set this thread's recording flag (a bool) and keep count of the threads that record
    (autograd_history.ACTIVE); returns the previous flag."""
    prev = _state.recording
    _state.recording = is_recording
    if is_recording is not prev:
        _history.ACTIVE[0] += 1 if is_recording else -1
    return prev


def swap_recording(is_recording):
    """Sets the recording flag alone (torch's grad mode stays as it is); returns the previous
    one. A bound executor records its training forward so: integer variables
    (``_IntegerVariable``) pass gradients only while recording."""
    return _set_flag(bool(is_recording))


def set_training(train_mode):
    """Set status to training/predicting. This affects ctx.is_train in operator
    running context. For example, Dropout will drop inputs randomly when
    train_mode=True while simply passing through if train_mode=False.

    Parameters
    ----------
    train_mode: bool

    Returns
    -------
    previous state before this set.
    """
    prev = _state.training
    _state.training = bool(train_mode)
    return prev


def is_recording():
    """Get status on recording/not recording.

    Returns
    -------
    Current state of recording.
    """
    return _state.recording


def is_training():
    """Get status on training/predicting.

    Returns
    -------
    Current state of training/predicting.
    """
    return _state.training


class _RecordingStateScope:
    """Scope for managing training state."""
    __slots__ = ('_enter_is_record', '_enter_train_mode', '_prev_is_record', '_prev_train_mode',
                 '_prev_grad_enabled')

    def __init__(self, is_record, train_mode):
        self._enter_is_record = is_record
        self._enter_train_mode = train_mode
        self._prev_is_record = None
        self._prev_train_mode = None
        self._prev_grad_enabled = None

    def __enter__(self):
        self._prev_grad_enabled = torch.is_grad_enabled()
        if self._enter_is_record is not None:
            self._prev_is_record = _set_flag(self._enter_is_record)
            _set_grad_enabled(self._enter_is_record)
        if self._enter_train_mode is not None:
            self._prev_train_mode = _state.training
            _state.training = self._enter_train_mode

    def __exit__(self, ptype, value, trace):
        if self._enter_is_record is not None:
            _set_flag(self._prev_is_record)
        if self._enter_train_mode is not None:
            _state.training = self._prev_train_mode
        _set_grad_enabled(self._prev_grad_enabled)


def record(train_mode=True):
    """Returns an autograd recording scope context to be used in 'with' statement
    and captures code that needs gradients to be calculated.

    .. note:: When forwarding with train_mode=False, the corresponding backward
              should also use train_mode=False, otherwise gradient is undefined.

    Example::

        with autograd.record():
            y = model(x)
            backward([y])
        metric.update(...)
        optim.step(...)

    Parameters
    ----------
    train_mode: bool, default True
        Whether the forward pass is in training or predicting mode. This controls the behavior
        of some layers such as Dropout, BatchNorm.
    """
    return _RecordingStateScope(True, train_mode)


def pause(train_mode=False):
    """Returns a scope context to be used in 'with' statement for codes that do not need
    gradients to be calculated.

    Example::

        with autograd.record():
            y = model(x)
            backward([y])
            with autograd.pause():
                # testing, IO, gradient updates...

    Parameters
    ----------
    train_mode: bool, default False
        Whether to do forward for training or predicting.
    """
    return _RecordingStateScope(False, train_mode)


def train_mode():
    """Returns a scope context to be used in 'with' statement in which forward pass behavior
    is set to training mode, without changing the recording states.

    Example::

        y = model(x)
        with autograd.train_mode():
            y = dropout(y)
    """
    return _RecordingStateScope(None, True)


def predict_mode():
    """Returns a scope context to be used in 'with' statement in which forward pass behavior
    is set to inference mode, without changing the recording states.

    Example::

        with autograd.record():
            y = model(x)
            with autograd.predict_mode():
                y = sampling(y)
            backward([y])
    """
    return _RecordingStateScope(None, False)


_GRAD_REQS = ('write', 'add', 'null')


_GRAD_ONLY = object()  # _backward.adopting during autograd.grad: no gradient is stored

# elements of a host buffer from which setting it aside pays: below, zeroing it and torch's
# in-place add cost less than the bookkeeping of _adopt_written (on a device, two kernel
# launches always cost more)
_ADOPT_FROM = 4096


def _clear_before_write(tref):
    def hook(g):
        t = tref()
        if t is None:
            return
        adopting = _backward.adopting
        if adopting is _GRAD_ONLY:
            return
        buf = t.grad
        if buf is not None and t._mx_grad_req == 'write':
            if adopting is None or buf.requires_grad or \
                    buf.is_cpu and buf.numel() < _ADOPT_FROM:
                # (and a backward run outside mxcompat's) clear: torch adds the new gradient
                # into the buffer itself
                buf.zero_()
            else:
                # torch stores the new gradient as a first one (no clearing pass, no adding
                # pass); _adopt_written then moves it into the buffer NDArrays hold
                t.grad = None
                adopting.append((t, buf))
        t._mx_fresh_grad = True  # read by NDArray._fresh_grad (Trainer's stale check)
    return hook


_storage_use_count = getattr(torch._C, '_storage_Use_Count', None)


def _shares_memory(buf):
    """Whether another tensor sees the memory of ``buf`` (a view of it, a view it is, a
    ``detach()``-ed alias): new values must then be written into that memory."""
    if buf._base is not None:
        return True
    if _storage_use_count is None:  # (torch without it: only views of a base are seen)
        return False
    # one reference is buf's own, one the storage object made for the call
    return _storage_use_count(buf.untyped_storage()._cdata) > 2


def _adopt_written(set_aside):
    """After a backward pass: each 'write' gradient buffer that ``_clear_before_write`` set
    aside takes over the gradient torch stored in ``t.grad`` (its storage; a copy where other
    tensors see the buffer's memory; zeros where none was stored) and is ``t.grad`` again.
    (Torch made the new gradient with the buffer's shape and dtype: ``t.grad`` accepts no
    other.)"""
    for t, buf in set_aside:
        new = t.grad
        if new is None:
            buf.zero_()
        elif new.requires_grad:
            continue  # a gradient with history (create_graph) stays as torch made it
        elif _shares_memory(buf):
            with torch.no_grad():
                buf.copy_(new)
        else:
            buf.data = new  # set_() does the same swap at twice the cost
        t.grad = buf


_no_subclass = torch._C.DisableTorchFunctionSubclass
_tree_map = torch.utils._pytree.tree_map
_tree_leaves = torch.utils._pytree.tree_leaves


def _shadow_of(a):
    """An argument of the call on the shadows: each variable's shadow, float64 for each
    integer or boolean dtype (the shadows compute in float64)."""
    if type(a) is _IntegerVariable:
        return a._mx_shadow
    if isinstance(a, torch.dtype) and not a.is_floating_point:
        return torch.float64
    return a


# integer remainders and floor divisions: MXNet's gradient through them is zero
_NO_INTEGER_GRADIENT = frozenset([
    torch.remainder, torch.Tensor.remainder, torch.fmod, torch.Tensor.fmod, torch.floor_divide,
    torch.Tensor.floor_divide, torch.Tensor.__mod__, torch.Tensor.__floordiv__])


class _IntegerVariable(torch.Tensor):
    """An integer or boolean tensor that MXNet differentiates. Torch differentiates only
    floating-point tensors, so each such tensor carries ``_mx_shadow``, a float64 copy of its
    values with history: while ``record()`` is on, every torch call that takes one runs twice,
    once as asked (its result is the value) and once on the shadows (its result, where it has
    history, is the new shadow; a floating-point result is the shadow itself, cast). A
    variable's shadow is a leaf whose gradient, cast to the variable's dtype (truncating as
    MXNet's integer gradients do), lands in the variable's ``grad`` buffer. Plain tensors never
    pay for it: only tensors of this class reach ``__torch_function__``."""

    @staticmethod
    def mark(t, grad_req, grad_buffer):
        """Make the integer tensor ``t`` a variable; returns the tensor to use."""
        with _no_subclass():
            v = t.as_subclass(_IntegerVariable)
            v.grad = grad_buffer if grad_buffer is not None else torch.zeros_like(t)
        v._mx_grad_req = grad_req
        shadow = t.detach().to(torch.float64).requires_grad_()
        shadow.register_hook(_IntegerVariable._hook(weakref.ref(v)))
        v._mx_shadow = shadow
        return v

    @staticmethod
    def _hook(vref):
        def hook(g):
            v = vref()
            if v is not None:
                with _no_subclass():
                    buf = v.grad
                    if v._mx_grad_req == 'add':
                        buf.add_(g.to(buf.dtype))
                    else:
                        buf.copy_(g.to(buf.dtype))
                    v._mx_fresh_grad = True
        return hook

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        with _no_subclass():
            out = func(*args, **kwargs)
            if not _state.recording or func in _NO_INTEGER_GRADIENT or \
                    getattr(func, '__name__', None) in ('__get__', '__set__'):
                return out
            if _with_float(out, args):
                # MXNet's gradient reaches only the floating-point operands (the plain call
                # records them); the integer ones get zeros
                shadows = [a._mx_shadow for a in _tree_leaves(args)
                           if type(a) is _IntegerVariable]
                return _ZeroGradInputs.apply(out, *shadows)
            try:
                shadow = func(*_tree_map(_shadow_of, args), **_tree_map(_shadow_of, kwargs))
            except (RuntimeError, TypeError):  # an operation floating-point tensors lack
                return out
            if isinstance(out, (tuple, list)) and isinstance(shadow, (tuple, list)):
                return type(out)(_pair(o, s) for o, s in zip(out, shadow))
            return _pair(out, shadow)


def cast(t, dtype):
    """``t.to(dtype)``; an integer or boolean result of a recorded floating-point ``t`` keeps
    MXNet's gradient (it passes through the cast) by way of a shadow (see
    ``_IntegerVariable``)."""
    out = t.to(dtype)
    if t.requires_grad and not out.is_floating_point():
        return _pair(out, t.to(torch.float64))
    return out


def integer_variable(t):
    """``(variable, shadow)``: the integer tensor ``t`` as a variable of a bound executor and
    its shadow, a float64 leaf whose gradient is the variable's (see ``_IntegerVariable``)."""
    shadow = t.detach().to(torch.float64).requires_grad_()
    return _pair(t.detach(), shadow), shadow


def _with_float(out, args):
    """Whether a floating-point result comes from a floating-point operand too."""
    if not isinstance(out, torch.Tensor) or not out.is_floating_point():
        return False
    return any(isinstance(a, torch.Tensor) and a.is_floating_point()
               for a in _tree_leaves(args))


class _ShadowGrad(torch.autograd.Function):
    """``out``, a floating-point result of integer variables, whose gradient goes to
    ``shadow``, the result of the same call on their shadows (whose values can differ: a
    shadow holds the values before an integer cast truncated them)."""

    @staticmethod
    def forward(ctx, out, shadow):
        ctx.dtype = shadow.dtype
        return out.view_as(out)

    @staticmethod
    def backward(ctx, grad):
        return None, grad.to(ctx.dtype)


class _IntegerGrad(torch.autograd.Function):
    """``shadow``, the shadow of an integer result of type ``dtype``, whose gradient is that of
    the integer result: as in MXNet, of its type (truncated toward zero)."""

    @staticmethod
    def forward(ctx, shadow, dtype):
        ctx.dtype = dtype
        return shadow.view_as(shadow)

    @staticmethod
    def backward(ctx, grad):
        return grad.to(ctx.dtype).to(grad.dtype), None


def _pair(out, shadow):
    """The result ``out`` of a call, given the result ``shadow`` of the same call on the
    shadows: ``out`` passing its gradient to the shadow where it is floating-point, ``out``
    carrying the shadow where it is an integer tensor, ``out`` alone where the shadow has no
    history."""
    if not isinstance(out, torch.Tensor) or not isinstance(shadow, torch.Tensor) or \
            not shadow.requires_grad or out.shape != shadow.shape:
        return out
    if out.is_floating_point():
        return _ShadowGrad.apply(out, shadow)
    v = out.as_subclass(_IntegerVariable)
    v._mx_shadow = shadow if out.dtype is torch.bool else _IntegerGrad.apply(shadow, out.dtype)
    return v


def mark_tensor(t, grad_req, grad_buffer=None):
    """Make the leaf tensor ``t`` a variable with MXNet's ``grad_req`` semantics.

    Returns the tensor to use (a detached leaf when ``t`` was produced by a recorded op).
    """
    if grad_req not in _GRAD_REQS:
        raise MXNetError("grad_req must be one of 'write', 'add' or 'null', got %r" % (grad_req,))
    if grad_req == 'null':
        if t.requires_grad:
            t = t.detach()
        return t
    if not t.is_leaf:
        t = t.detach()
    if not t.is_floating_point():
        t = _IntegerVariable.mark(t, grad_req, grad_buffer)
        _history.mark(t)
        return t
    with torch.no_grad():
        t.requires_grad_(True)
        if grad_buffer is not None:
            t.grad = grad_buffer
        elif t.grad is None:
            t.grad = torch.zeros_like(t)
        else:
            t.grad.zero_()
    t._mx_grad_req = grad_req
    _history.mark(t)
    if not getattr(t, '_mx_hooked', False):
        t.register_hook(_clear_before_write(weakref.ref(t)))
        t._mx_hooked = True
    return t


def mark_variables(variables, gradients, grad_reqs='write'):
    """Mark NDArrays as variables to compute gradient for autograd.

    This is equivalent to the function .attach_grad() in a variable, but with this
    call we can set the gradient to any value.

    Parameters
    ----------
    variables: NDArray or list of NDArray
    gradients: NDArray or list of NDArray
    grad_reqs: str or list of str
    """
    if isinstance(variables, NDArray):
        variables = [variables]
        gradients = [gradients]
    if isinstance(grad_reqs, str):
        grad_reqs = [grad_reqs] * len(variables)
    if gradients is None:
        gradients = [None] * len(variables)
    if len(variables) != len(gradients) or len(variables) != len(grad_reqs):
        raise MXNetError('mark_variables: variables, gradients and grad_reqs must have the same '
                         'length')
    for var, g, req in zip(variables, gradients, grad_reqs):
        var._t = mark_tensor(var._t, req, None if g is None else g._t)


def _parse_head(heads, head_grads):
    if head_grads is None:  # the common case: one head (of NDArray.backward), no gradient
        h = heads[0] if type(heads) is list and len(heads) == 1 else heads
        if isinstance(h, NDArray):  # (mx.np.ndarray too)
            t = h._t
            if t.requires_grad and not getattr(t, '_mx_graph_freed', False):
                return [t], [torch.ones_like(t)]
    if isinstance(heads, NDArray):
        heads = [heads]
        if head_grads is not None and not isinstance(head_grads, (list, tuple)):
            head_grads = [head_grads]
    if head_grads is None:
        head_grads = [None] * len(heads)
    elif len(head_grads) != len(heads):
        raise MXNetError('heads and head_grads must be lists of the same length: %d vs %d'
                         % (len(heads), len(head_grads)))
    ts, gs = [], []
    for h, g in zip(heads, head_grads):
        t = h._t
        if not t.requires_grad or getattr(t, '_mx_graph_freed', False):
            if not t.is_floating_point() and not getattr(t, '_mx_graph_freed', False):
                t = getattr(t, '_mx_shadow', None)  # an integer result: see _IntegerVariable
                if t is None or not t.requires_grad:
                    continue  # (of no variable: MXNet's gradient through it is zero)
                ts.append(t)
                gs.append(torch.ones_like(t) if g is None else g._t.to(t.dtype))
                continue
            if not t.requires_grad and _history.in_graph(h):
                continue  # an output of a recorded call without a gradient (argmax, a mask)
            raise MXNetError('Cannot differentiate node because it is not in a computational '
                             'graph. You need to set is_recording to true or use '
                             'autograd.record() to save computational graphs for backward. If '
                             'you want to differentiate the same graph twice, you need to pass '
                             'retain_graph=True to backward.')
        ts.append(t)
        gs.append(torch.ones_like(t) if g is None else g._t)
    return ts, gs


_sequence_nr = torch.autograd._get_sequence_nr
_set_multithreading = torch._C._set_multithreading_enabled
_AccumulateGrad = torch._C._functions.AccumulateGrad


class _Cut(Exception):
    """Raised by the first node of a freed graph that a backward would run: by then every
    node of the new graph has run (torch runs ready nodes newest first)."""


def _saved_tensor_names(node, cache={}):  # noqa: B006  (a cache per node type)
    names = cache.get(type(node))
    if names is None:
        names = cache[type(node)] = tuple(
            '_saved_' + a[len('_raw_saved_'):] for a in dir(node) if a.startswith('_raw_saved_'))
    return names


def _is_freed(node):
    """Whether a backward without retain_graph has freed ``node``'s saved tensors."""
    for name in _saved_tensor_names(node):
        try:
            getattr(node, name)
        except RuntimeError:
            return True
    return False


class _CutFreed:
    """MXNet's rule for arrays of a freed graph: once a backward has run through a graph
    (without retain_graph), the arrays it computed are constants to any later recording, so
    a later backward stops where it reaches them. Torch would try to run the freed nodes (and
    fail) or, for nodes with nothing saved, run them and reach old leaves.

    A pre-hook on the head that torch runs first looks, from inside the engine, at the nodes
    it is about to run. When some are numbered below the last freeing backward and at least
    one of those is freed, every such old node gets a pre-hook that raises _Cut, each new node
    with a leaf among its inputs a hook that collects what it sends that leaf, and each leaf a
    hook that notes it received its gradient from torch; ``finish`` then stores the collected
    gradients of the leaves that torch never reached (those an old node also feeds), with
    their grad_req. (A graph recorded before the freeing backward and not freed by it, if the
    same backward reaches it, is cut as well.)"""

    def __init__(self, head, freed_below):
        self.freed_below = freed_below
        self.handles = [head.register_prehook(self.look)]
        # the engine lists the nodes it will run only when it runs them all in this thread
        self.multithreading = torch._C._is_multithreading_enabled()
        _set_multithreading(False)
        self.sent = {}     # AccumulateGrad node -> gradient the new nodes sent it
        self.reached = set()  # AccumulateGrad nodes torch ran

    def look(self, grad_outputs):
        try:
            order = torch._C._current_graph_task_execution_order()
        except RuntimeError:  # (torch cannot list them inside some re-entrant backwards)
            return None
        below = self.freed_below
        old = [n for n in order if n._sequence_nr() < below]
        if not any(_is_freed(n) for n in old):
            return None
        hooks = self.handles
        for n in old:
            hooks.append(n.register_prehook(_raise_cut))
        for n in order:
            if n._sequence_nr() < below:
                continue
            if type(n) is _AccumulateGrad:
                hooks.append(n.register_prehook(self._note_reached(n)))
            elif any(f is not None and type(f) is _AccumulateGrad
                     for f, _ in n.next_functions):
                hooks.append(n.register_hook(self._collect(n)))
        return None

    def _note_reached(self, acc):
        def hook(grad_outputs):
            self.reached.add(acc)
        return hook

    def _collect(self, node):
        def hook(grad_inputs, grad_outputs):
            sent = self.sent
            for (f, _), g in zip(node.next_functions, grad_inputs):
                if g is not None and f is not None and type(f) is _AccumulateGrad:
                    sent[f] = g if f not in sent else sent[f] + g
        return hook

    def remove(self):
        for h in self.handles:
            h.remove()

    def finish(self):
        with torch.no_grad():
            for acc, g in self.sent.items():
                if acc in self.reached:
                    continue
                t = acc.variable
                req = getattr(t, '_mx_grad_req', None)
                if t.grad is None:
                    t.grad = g.clone()
                elif req == 'write':
                    t.grad.copy_(g)
                else:
                    t.grad.add_(g)
                if req is not None:
                    t._mx_fresh_grad = True


def _raise_cut(grad_outputs):
    raise _Cut


def _reaches_older(fns, below):
    """Whether the graph of the nodes ``fns`` reaches a node numbered below ``below`` (other
    than a leaf's AccumulateGrad), walking the nodes numbered from ``below`` on."""
    stack = list(fns)
    seen = set()
    while stack:
        n = stack.pop()
        if n._sequence_nr() < below:
            return True
        for f, _ in n.next_functions:
            if f is not None and type(f) is not _AccumulateGrad and f not in seen:
                seen.add(f)
                stack.append(f)
    return False


def _cut_freed(ts, freed_below):
    """A _CutFreed on the head torch runs first (the newest), or None when the heads' history
    reaches no node older than the last freeing backward (a walk of the new nodes, no hook, no
    listing by the engine; ``backward`` skips the walk where the recorded history vouches for
    it, as for a training step's graph recorded from leaves after that backward) or when no
    head is newer than it (nothing new to cut from)."""
    fns = [f for f in [t.grad_fn for t in ts] if f is not None]
    if not _reaches_older(fns, freed_below):
        return None
    head = max(fns, key=lambda f: f._sequence_nr())
    if head._sequence_nr() < freed_below:
        return None
    return _CutFreed(head, freed_below)


def backward(heads, head_grads=None, retain_graph=False, train_mode=True):
    """Compute the gradients of heads w.r.t previously marked variables.

    Parameters
    ----------
    heads: NDArray or list of NDArray
        Output NDArray(s)
    head_grads: NDArray or list of NDArray or None
        Gradients with respect to heads.
    train_mode: bool, optional
        Whether to do backward for training or predicting.
    """
    if PENDING and pending_backward(heads, head_grads, retain_graph):
        return
    ts, gs = _parse_head(heads, head_grads)
    if not ts:
        return
    prev = _backward.adopting
    _backward.adopting = adopting = []
    cut = None
    if _state.freed_below is not None and not _history.since_freed(
            (heads,) if isinstance(heads, NDArray) else heads):
        cut = _cut_freed(ts, _state.freed_below)
    try:
        if head_grads is None and _run_engine is not None and \
                (ts[0].is_cpu if len(ts) == 1 else all(t.is_cpu for t in ts)):
            # the head gradients are ones of the heads' own shapes: no checks to make
            _run_engine(tuple(ts), tuple(gs), retain_graph, False, (), True, True)
        elif head_grads is None and _run_backward is not None:
            _run_backward(tuple(ts), tuple(gs), retain_graph, False, (),
                          allow_unreachable=True, accumulate_grad=True)
        else:
            torch.autograd.backward(ts, gs, retain_graph=retain_graph)
    except _Cut:
        pass  # every node of the new graph ran; cut.finish stores what its leaves got
    except RuntimeError as err:
        if 'backward through the graph a second time' in str(err):
            raise MXNetError('Cannot differentiate node because it is not in a computational '
                             'graph (its graph was freed by an earlier backward). Pass '
                             'retain_graph=True to differentiate the same graph twice.') from None
        raise
    finally:
        _backward.adopting = prev
        if adopting:
            _adopt_written(adopting)
        if cut is not None:
            cut.remove()
            _set_multithreading(cut.multithreading)
    if cut is not None:
        cut.finish()
    fail_gradients(ts, gs if head_grads is not None else ())  # (ones made here carry none)
    if not retain_graph:  # MXNet frees the whole graph; torch only the saved tensors
        for t in ts:
            if not t.is_leaf:
                t._mx_graph_freed = True
        _state.freed_below = _sequence_nr()
        _history.freed()


_ndarray_module._autograd_backward = backward


def grad(heads, variables, head_grads=None, retain_graph=None, create_graph=False,
         train_mode=True):
    """Compute the gradients of heads w.r.t variables. Gradients will be
    returned as new NDArrays instead of stored into `variable.grad`.
    Supports recording gradient graph for computing higher order gradients.

    Parameters
    ----------
    heads: NDArray or list of NDArray
        Output NDArray(s)
    variables: NDArray or list of NDArray
        Input variables to compute gradients for.
    head_grads: NDArray or list of NDArray or None
        Gradients with respect to heads.
    retain_graph: bool
        Whether to keep computation graph to differentiate again, instead
        of clearing history and release memory. Defaults to the same value
        as create_graph.
    create_graph: bool
        Whether to record gradient graph for computing higher order
    train_mode: bool, optional
        Whether to do backward for training or prediction.

    Returns
    -------
    NDArray or list of NDArray:
        Gradients with respect to variables.
    """
    if isinstance(variables, NDArray):
        variables = [variables]  # the result is a list all the same, as MXNet 1.9.1 returns
    ts, gs = _parse_head(heads, head_grads)
    if retain_graph is None:
        retain_graph = create_graph
    prev = _backward.adopting
    _backward.adopting = _GRAD_ONLY  # variables' gradient buffers are left as they are
    try:
        with torch.set_grad_enabled(create_graph):
            res = torch.autograd.grad(ts, [v._t for v in variables], gs,
                                      retain_graph=retain_graph, create_graph=create_graph,
                                      allow_unused=True)
    finally:
        _backward.adopting = prev
    out = []
    for v, r in zip(variables, res):
        if r is None or r._is_zerotensor():  # torch's ZeroTensor: MXNet's is an array of zeros
            r = torch.zeros_like(v._t)
        if create_graph and not r.requires_grad:
            # MXNet records the gradient even where it does not depend on the variables
            # (clip, radians): differentiating it again gives zeros, not an error (detached:
            # torch may hand back a head gradient itself, which stays as the caller made it)
            r = r.detach().requires_grad_()
        out.append(wrap(r))
    fail_gradients(ts, gs, [o._t for o in out])
    return out


def get_symbol(x):
    """Retrieve recorded computation history as `Symbol`.

    Parameters
    ----------
    x : NDArray
        Array representing the head of computation graph.

    Returns
    -------
    Symbol
        The retrieved Symbol.
    """
    return _history.get_symbol(x)


class _FunctionBridge(torch.autograd.Function):
    @staticmethod
    def forward(ctx, func, *tensors):
        ctx.mx_func = func
        with _RecordingStateScope(False, None):
            outputs = func.forward(*[wrap(t) for t in tensors])
        single = isinstance(outputs, NDArray)
        func._single = single
        outs = (outputs,) if single else tuple(outputs)
        return tuple(o._t for o in outs)

    @staticmethod
    def backward(ctx, *grads):
        func = ctx.mx_func
        with _RecordingStateScope(False, None):
            igrads = func.backward(*[wrap(g) for g in grads])
        if isinstance(igrads, NDArray):
            igrads = (igrads,)
        return (None,) + tuple(None if g is None else g._t for g in igrads)


class Function:
    """Customize differentiation in autograd.

    If you don't want to use the gradients computed by the default
    chain-rule, you can use Function to customize differentiation for
    computation. You define your computation in
    the forward method and provide the customized differentiation
    in the backward method. During gradient computation, autograd will
    use the user-defined backward function instead of the default chain-rule.
    You can also cast to numpy array and back for some operations in
    forward and backward.

    For example, a stable sigmoid function can be defined as::

        class sigmoid(mx.autograd.Function):
            def forward(self, x):
                y = 1 / (1 + mx.nd.exp(-x))
                self.save_for_backward(y)
                return y

            def backward(self, dy):
                # backward takes as many inputs as forward's return value,
                # and returns as many NDArrays as forward's arguments.
                y, = self.saved_tensors
                return dy * y * (1-y)
    """
    def __init__(self):
        self._used = False
        self.saved_tensors = ()
        self._single = True

    def save_for_backward(self, *args):
        self.saved_tensors = args

    def __call__(self, *inputs):
        if self._used:
            raise MXNetError('Each Function instance can only be called once. Please create '
                             'another instance.')
        self._used = True
        for x in inputs:
            if not isinstance(x, NDArray):
                raise MXNetError('Function inputs must be NDArrays, got %s' % type(x).__name__)
        outs = _FunctionBridge.apply(self, *[x._t for x in inputs])
        outs = [wrap(t) for t in outs]
        return outs[0] if self._single else outs

    def forward(self, *inputs):
        """Forward computation."""
        raise NotImplementedError

    def backward(self, *output_grads):
        """Backward computation.

        Takes as many inputs as forward's outputs,
        and returns as many NDArrays as forward's inputs.
        """
        raise NotImplementedError
