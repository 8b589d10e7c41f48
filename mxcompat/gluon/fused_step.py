"""A recorded training step of a compiled static graph, computed as one compiled function.

``hybridize(static_alloc=True, static_shape=True)`` promised MXNet users a static CachedOp
whose forward and backward passes run from plans made once. Once such a graph compiles (at
its 50th call by default, ``MXCOMPAT_COMPILE_STATIC``, block.py) mxcompat defers its call under
``autograd.record()``: it returns pending NDArrays (pending.py). A HybridBlock called on them
(the loss) extends the deferred graph with its own traced graph, and ``backward()`` on the
deferred outputs computes forward, loss and the parameters' gradients as one compiled function
(``torch.func.grad_and_value``, traced once and compiled by inductor), with no autograd engine
pass and no activations handed between two compiled regions. On the CPU only such a joint
function beats torch eager: compiling the model alone is slower than eager there
(benchmarks/torch_compile_regions.py).

Everything else that reads a pending array (its values or shape, an operator, a backward pass
through other arrays, a parameter change by ``Trainer.step`` or ``set_data``) first computes
the deferred calls the ordinary way, as they would have run undeferred: the same calls, under
the recording and train mode of the original call. The deferral changes timing only (an
input the graph rejects raises when the outputs are first read or differentiated, as MXNet's
asynchronous errors do at the next read). A call is deferred only where the joint function
computes what the ordinary pass would: a graph without auxiliary states (BatchNorm updates its
moving statistics in the backward pass), no data input that takes a gradient, no monitor
callback. A loss block joins a deferred graph from its second call on (a block made anew for
every step would compile anew every step); a joint function that cannot be compiled leaves its
graph to the ordinary way, with one warning.
"""
import warnings

import torch

from .. import autograd, symbol
from ..autograd import _adopt_written
from ..ndarray.ndarray import NDArray, _new
from ..pending import PENDING, PendingNDArray
from ..symbol.lowering import Lowered
from .gemm_choice import inductor_options

__all__ = ['defer', 'extend']

_FORCING = [0]  # > 0 while deferred calls run the ordinary way: they defer nothing
_MAX_SEEN = 64  # signatures a graph remembers having seen once


class _Joint(object):
    """The graph of a deferred call and the blocks applied to its outputs: ``symbol`` groups
    every output made so far; its inputs are slots of the run (``order``: the slot of each of
    ``symbol.list_inputs()``). ``made`` lists, for the last call, what fills its new slots:
    ('arg', k) for its k-th argument, ('param', Parameter)."""

    def __init__(self, sym, order, n_slots, made, blocks, fmt):
        self.symbol = sym
        self.order = order
        self.n_slots = n_slots
        self.made = made
        self.blocks = blocks
        self.fmt = fmt
        self.n_out = len(sym._outputs)
        self._lowered = None
        self._compiled = {}

    def compiled(self, key, options, inputs):
        """The compiled joint function for ``key`` = (heads, head-gradient flags, slots
        differentiated, train mode, input shapes), made for the flat ``inputs`` (the
        differentiated slots, the other slots, the head gradients given): it returns the
        gradients, then the outputs."""
        fn = self._compiled.get(key)
        if fn is None:
            if self._lowered is None:
                self._lowered = Lowered(self.symbol)
            heads, with_grads, diff = key[:3]
            fn = self._compiled[key] = _compile(
                _grads_and_outputs(self._lowered, self.order, heads, with_grads, diff),
                options, inputs)
        return fn


def _grads_and_outputs(lowered, order, heads, with_grads, diff):
    """The joint function on flat inputs (see _Joint.compiled)."""
    n_params = sum(diff)
    n_slots = len(diff)

    def total(params, others, head_grads):
        ps, os = iter(params), iter(others)
        slots = [next(ps) if d else next(os) for d in diff]
        outs = lowered([slots[i] for i in order])
        loss = 0
        hg = iter(head_grads)
        for h, with_grad in zip(heads, with_grads):
            loss = loss + ((outs[h] * next(hg)).sum() if with_grad else outs[h].sum())
        return loss, outs
    grads_and_value = torch.func.grad_and_value(total, has_aux=True)

    def joint(*inputs):
        grads, (_, outs) = grads_and_value(inputs[:n_params], inputs[n_params:n_slots],
                                           inputs[n_slots:])
        return tuple(grads) + tuple(outs)
    return joint


def _compile(fn, options, inputs):
    """``fn`` compiled for ``inputs``: traced to one graph (forward and backward) and given to
    inductor directly, with no dynamo guards to check per call; torch.compile where another
    backend or a mode was asked for."""
    options = inductor_options(options)
    if options.get('backend', 'inductor') != 'inductor' or 'mode' in options:
        return torch.compile(fn, **options)
    # imported here: inductor takes about a second to import
    from torch.fx.experimental.proxy_tensor import make_fx
    from torch._inductor.compile_fx import compile_fx
    return compile_fx(make_fx(fn)(*inputs), list(inputs),
                      config_patches=options.get('options'))


class _Run(object):
    """One deferred call and the calls on its outputs: the tensors of its slots, the pending
    NDArrays (in the joint graph's output order) and, per call, how to run it the ordinary
    way."""

    def __init__(self, graph, joint, sig, slots, outputs, replay):
        self.graph = graph
        self.joint = joint
        self.sig = sig
        self.slots = slots
        self.outputs = outputs
        self.replays = [replay]
        self.train = autograd.is_training()
        self.index = {id(a): i for i, a in enumerate(outputs)}
        for a in outputs:
            PENDING[id(a)] = self

    def add(self, joint, sig, slots, outputs, replay):
        self.joint, self.sig = joint, sig
        self.slots.extend(slots)
        for a in outputs:
            self.index[id(a)] = len(self.outputs)
            self.outputs.append(a)
            PENDING[id(a)] = self
        self.replays.append(replay)

    def _release(self):
        for a in self.outputs:
            PENDING.pop(id(a), None)
        if self.graph._run is self:
            self.graph._run = None

    def force(self):
        """Computes the deferred calls the ordinary way, recorded as at the first call."""
        self._release()
        _FORCING[0] += 1
        try:
            with autograd.record(train_mode=self.train):
                at = 0
                for call, args, fmt_of in self.replays:
                    out = fmt_of(call(*args))
                    for a, o in zip(self.outputs[at:at + len(out)], out):
                        a._t, a._ctx = o._t, o._ctx
                        a.__class__ = NDArray
                        h = getattr(o, '_h', None)
                        if h is not None:
                            a._h = h
                    at += len(out)
        finally:
            _FORCING[0] -= 1

    def backward(self, heads, head_grads):
        """Forward, loss and gradients as one compiled function; False where that cannot run
        (the caller then reads the heads, which computes them the ordinary way)."""
        joint = self.joint
        options = self.graph._compile_options
        if options is None or joint is None:
            return False
        grads_given = [g is not None for g in head_grads] if head_grads is not None \
            else [False] * len(heads)
        diff = tuple(t.requires_grad for t in self.slots)
        if not any(diff):
            return False
        key = (tuple(self.index[id(h)] for h in heads), tuple(grads_given), diff, self.train,
               tuple(t.shape for t in self.slots))
        inputs = [t.detach() for t, d in zip(self.slots, diff) if d]
        inputs += [t for t, d in zip(self.slots, diff) if not d]
        if head_grads is not None:
            inputs += [g._t for g in head_grads if g is not None]
        training = autograd.set_training(self.train)
        try:
            try:
                fn = joint.compiled(key, options, inputs)
            except Exception as err:  # pylint: disable=broad-except
                # the ordinary forward raises the operator's error where the inputs are at
                # fault; where it runs, compiling failed
                self.force()
                warnings.warn('hybridize: the training step through %s could not be compiled '
                              '(%s: %s); it runs the ordinary way'
                              % (', '.join(self.graph.symbol.list_outputs()),
                                 type(err).__name__, str(err).split('\n')[0]), stacklevel=4)
                self.graph.fusable = False
                return False
            try:
                got = fn(*inputs)
            except Exception:  # pylint: disable=broad-except
                return False  # the ordinary pass raises the operator's error, naming it
        finally:
            autograd.set_training(training)
        n = len(got) - joint.n_out
        grads, outs = got[:n], got[n:]
        self._release()
        for a, t in zip(self.outputs, outs):
            a._t = t
            a.__class__ = NDArray
        _store(tuple(t for t, d in zip(self.slots, diff) if d), grads)
        return True


def _store(variables, grads):
    """Each variable's gradient as its grad_req asks ('write' takes the new gradient's memory
    as the ordinary pass does, 'add' adds)."""
    written = []
    for t, g in zip(variables, grads):
        buf = t.grad
        if buf is None:
            t.grad = g
        elif getattr(t, '_mx_grad_req', 'write') == 'add':
            buf.add_(g)
        else:
            t.grad = g
            written.append((t, buf))
        t._mx_fresh_grad = True
    if written:
        _adopt_written(written)


def defer(block, args, first, tensors):
    """The pending outputs (a list) of ``block``'s hybridized call on ``args`` (``first``:
    the first of them that is not None; ``tensors``: the graph's inputs), or None where the
    call runs now. Called while recording."""
    graph = block._cached_op
    if _FORCING[0] or type(block._cached_graph[1]) is not symbol.Symbol or any(
            t.requires_grad for t, (is_arg, _) in zip(tensors, block._cached_op_args)
            if is_arg):
        return None
    if graph._run is not None:
        graph._run.force()  # one deferred call per graph: an older one runs now
    joint = graph._joints.get(())
    if joint is None:
        joint = graph._joints[()] = _Joint(graph.symbol, list(range(len(tensors))),
                                           len(tensors), None, (block,), block._out_format)
    ctx = first._ctx if first is not None else None
    outputs = [_pending(ctx) for _ in range(joint.n_out)]
    graph._run = _Run(graph, joint, (), list(tensors), outputs,
                      (block._call_cached_op, args, _flat))
    return outputs


def extend(block, args):
    """The pending outputs of HybridBlock ``block`` called on ``args``, some of them pending,
    as an extension of their deferred graph; None where the call runs now (reading its
    inputs computes them)."""
    if _FORCING[0]:
        return None
    run = None
    positions = []
    for a in args:
        if type(a) is not NDArray and type(a) is not PendingNDArray:
            return None
        r = PENDING.get(id(a))
        if r is None:
            if a._t.requires_grad:
                return None
            positions.append(-1)
        elif run is None or r is run:
            run = r
            positions.append(run.index[id(a)])
        else:
            return None
    graph = run.graph
    sig = run.sig + ((id(block), tuple(positions)),)
    joint = graph._joints.get(sig, False)
    if joint is False:
        if sig not in graph._seen:
            if len(graph._seen) >= _MAX_SEEN:
                graph._seen.clear()
            graph._seen[sig] = block  # alive while its id is in the signature
            return None
        joint = graph._joints[sig] = _extended(run.joint, block, positions)
    if joint is None:
        return None
    slots = []
    for kind, what in joint.made:
        if kind == 'arg':
            slots.append(args[what]._t)
        else:
            data = what._data
            if data is None or len(data) != 1:
                return None
            slots.append(data[0]._t)
    ctx = args[0]._ctx
    outputs = [_pending(ctx) for _ in range(joint.n_out - run.joint.n_out)]
    run.add(joint, sig, slots, outputs, (block.forward, args, _flat))
    return _grouped(outputs, joint.fmt)


def _extended(prev, block, positions):
    """The _Joint of ``prev`` with ``block`` applied to its outputs at ``positions`` (-1: a
    new data input), or None where the block's graph cannot join (auxiliary states, a trace
    that fails)."""
    from .block import _flatten
    made_outputs = [symbol.Symbol([e]) for e in prev.symbol._outputs]
    names = {}
    inputs = []
    for k, p in enumerate(positions):
        if p >= 0:
            inputs.append(made_outputs[p])
        else:
            name = '_fused%d_%d' % (len(prev.blocks), k)
            names[name] = ('arg', k)
            inputs.append(symbol.var(name))
    params = {}
    for key, param in block._reg_params.items():
        params[key] = param.var()
        names.setdefault(param.name, ('param', param))
    try:
        with block.name_scope():
            out = block._trace(inputs, params)
    except Exception:  # pylint: disable=broad-except
        return None  # a forward that only runs on NDArrays
    flat, fmt = _flatten(out, 'output')
    sym = symbol.Group(made_outputs + flat)
    if sym.list_auxiliary_states():
        return None
    prev_names = prev.symbol.list_inputs()
    slot_of = {n: prev.order[i] for i, n in enumerate(prev_names)}
    made = []
    order = []
    for name in sym.list_inputs():
        slot = slot_of.get(name)
        if slot is None:
            if name not in names:
                return None
            slot = slot_of[name] = prev.n_slots + len(made)
            made.append(names[name])
        order.append(slot)
    return _Joint(sym, order, prev.n_slots + len(made), made, prev.blocks + (block,), fmt)


def _pending(ctx):
    a = _new(PendingNDArray)
    a._ctx = ctx
    return a


def _flat(out):
    from .block import _flatten
    return _flatten(out, 'output')[0]


def _grouped(outputs, fmt):
    """``outputs`` as a call returns them: one array alone, else in the structure ``fmt``."""
    if len(outputs) == 1 and fmt == 0:
        return outputs[0]
    from .block import _regroup
    return _regroup(outputs, fmt)
