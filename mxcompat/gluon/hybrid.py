"""The hybridized forward: a Symbol graph lowered to one torch.fx GraphModule.

``HybridBlock.hybridize()`` traces ``hybrid_forward`` into a Symbol, as MXNet does. The graph
is then lowered once (symbol/lowering.py) to a ``torch.fx.GraphModule`` whose generated
``forward`` calls, one line per operator node, the operator's torch implementation from the
operator table with its parameters already converted. A forward pass is a single Python call
with no per-operator wrapping, so it costs less than the imperative path, and it is an
ordinary torch program: autograd, hooks and ``torch.compile`` all apply to it.

``hybridize(static_alloc=True, static_shape=True)`` (MXNet's promise that memory and input
shapes stay fixed), ``hybridize(compile=True)``, a torch.compile ``backend=`` or ``mode=``
compile the generated function with ``torch.compile`` (inductor unless another backend is
named): one compiled function per train/predict mode, specialised to the input shapes
(``dynamic=False`` under ``static_shape``). An input of a new shape compiles the graph again,
as MXNet's CachedOp re-plans a static graph when its input shapes change (and so does a call
under another autograd state); past ``torch._dynamo.config.recompile_limit`` versions torch
runs the graph uncompiled. Compiled and
uncompiled graphs compute the same: gradients, ``grad_req``, BatchNorm's moving statistics
(applied when a backward pass reaches the graph, see nn_norm.hook_compiled_updates) and
Dropout's masks (drawn by torch's generator, ``fallback_random``). Where the graph cannot be
compiled (no C++ compiler for inductor, a backend error) it runs uncompiled, with one warning.
"""
import warnings

import torch

from ..autograd import is_training
from ..ndarray.ndarray import wrap
from ..ops.nn_norm import hook_compiled_updates
from ..symbol.inference import consumer_sized_params, sized_by_consumers
from ..symbol.lowering import Lowered
from .gemm_choice import inductor_options

__all__ = ['CachedGraph', 'torch_backends']

_BACKENDS = None


def torch_backends():
    """Names of the torch.compile backends."""
    global _BACKENDS
    if _BACKENDS is None:
        try:
            from torch._dynamo import list_backends
            _BACKENDS = frozenset(list_backends(exclude_tags=())) | {'inductor'}
        except Exception:  # torch without dynamo
            _BACKENDS = frozenset()
    return _BACKENDS


class CachedGraph(object):
    """A Symbol graph lowered to a ``torch.fx.GraphModule`` (symbol/lowering.py), run as the
    hybridized forward.

    Calling it with the tensors of ``symbol.list_inputs()`` (in that order) returns the list
    of output tensors.

    Parameters
    ----------
    sym : Symbol
        The graph.
    flags : dict
        MXNet's CachedOp flags (static_alloc, static_shape, inline_limit, ...).
    compile_options : dict or None
        torch.compile keyword arguments; None runs the generated function as it is.
    uncompiled_calls : int
        The number of calls that run uncompiled before the graph compiles (a graph compiled
        for its static flags alone waits: a test or a short loop does not pay seconds of
        compiling for a few calls).

    A graph whose operators without inputs leave sizes to shape inference (``F.zeros(shape=(0,
    H))``, the ``begin_state`` of a cell traced with batch size 0) is lowered once per set of
    input shapes, with those sizes inferred from the inputs as MXNet's CachedOp does.
    """
    def __init__(self, sym, flags=None, compile_options=None, uncompiled_calls=0):
        self.symbol = sym
        self.flags = dict(flags or {})
        self._compile_options = compile_options
        self.uncompiled_calls = uncompiled_calls
        self._compiled = {}
        self._by_shapes = None
        # autograd records the graph's operators one by one (MXNet inlines a graph of at most
        # inline_limit operators, where memory is not static), else one _CachedOp node
        self.inlined = not self.flags.get('static_alloc') and sum(
            n.op is not None for n in sym._nodes()) <= self.flags.get('inline_limit', 2)
        if any(n.op is not None and not n.inputs and sized_by_consumers(n.params)
               for n in sym._nodes()):
            self._by_shapes = {}
            self.graph = None
        else:
            self.graph = Lowered(sym)
        # a recorded call defers to its backward pass (fused_step.py): a compiled static graph
        # whose backward updates no auxiliary states
        self.fusable = compile_options is not None and bool(
            self.flags.get('static_alloc') and self.flags.get('static_shape')) and \
            self._by_shapes is None and not sym.list_auxiliary_states()
        self._run = None  # the call deferred now
        self._joints = {}  # the graphs of deferred calls, by the blocks applied to them
        self._seen = {}  # those seen once

    def __call__(self, tensors):
        graph = self.graph if self._by_shapes is None else self._sized(tensors)
        if self._compile_options is None:
            return graph(tensors)
        if self.uncompiled_calls:
            self.uncompiled_calls -= 1
            return graph(tensors)
        try:
            out = _compiling_backward_now(self._compiled_fn(graph), tensors)
        except Exception as err:  # pylint: disable=broad-except
            # the uncompiled graph raises the operator's error (naming it) where the inputs
            # are at fault; where it computes the call, the compiled graph is (an inductor
            # bug, a missing C++ compiler, code that fails at run time: an LSTM's)
            hook_compiled_updates(())  # drops what the failed call recorded
            out = graph(tensors)
            warnings.warn('hybridize: the graph computing %s could not be compiled with '
                          'torch.compile (%s: %s); it runs uncompiled'
                          % (', '.join(self.symbol.list_outputs()), type(err).__name__,
                             str(err).split('\n')[0]),
                          stacklevel=4)
            self._compile_options = None
            self._compiled.clear()
            self.fusable = False
            return out
        hook_compiled_updates(out)
        return out

    def _sized(self, tensors):
        """The graph lowered with the sizes inferred for the shapes of ``tensors``."""
        key = tuple(t.shape for t in tensors)
        graph = self._by_shapes.get(key)
        if graph is None:
            known = dict(zip(self.symbol.list_inputs(), key))
            graph = self._by_shapes[key] = Lowered(
                self.symbol, consumer_sized_params(self.symbol, known))
        return graph

    def _compiled_fn(self, graph):
        # operators read the train mode when they run: one compiled function per mode
        key = (is_training(), id(graph))
        fn = self._compiled.get(key)
        if fn is None:
            fn = self._compiled[key] = torch.compile(
                graph.forward, **inductor_options(self._compile_options))
        return fn

    def run_monitored(self, tensors, callback, monitor_all=False):
        """Run the graph node by node, calling ``callback(name, op_name, NDArray)`` on each
        operator's outputs (and inputs with ``monitor_all``), as MXNet's op hooks do."""
        def on_inputs(node, ins):
            for iname, t in zip(node.op.monitor_inputs(node.params), ins):
                callback('%s_%s' % (node.name, iname), node.op.name, wrap(t.detach()))

        def on_outputs(node, outs):
            for oname, t in zip(node.output_names(), outs):
                callback(oname, node.op.name, wrap(t.detach()))
        graph = self.graph if self._by_shapes is None else self._sized(tensors)
        return graph.run_monitored(tensors, on_inputs if monitor_all else None, on_outputs)


def _compiling_backward_now(fn, tensors):
    """``fn(*tensors)``, a call that compiles its backward graph with its forward graph where
    it compiles: torch compiles the backward lazily, in the backward pass, where a failure
    could not fall back to the uncompiled graph (a GluonTS DeepAR backward hit an inductor
    assertion there)."""
    if not torch.is_grad_enabled():  # no backward graph: the call as it is
        return fn(*tensors)
    from torch._functorch import config  # loaded by torch.compile already
    lazy = config.force_non_lazy_backward_lowering
    config.force_non_lazy_backward_lowering = True
    try:
        return fn(*tensors)
    finally:
        config.force_non_lazy_backward_lowering = lazy
