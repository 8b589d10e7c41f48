"""The hybridized forward: a Symbol graph lowered to one torch.fx GraphModule.

``HybridBlock.hybridize()`` traces ``hybrid_forward`` into a Symbol, as MXNet does. The graph
is then lowered once (symbol/lowering.py) to a ``torch.fx.GraphModule`` whose generated
``forward`` calls, one line per operator node, the operator's torch implementation from the
operator table with its parameters already converted. A forward pass is a single Python call
with no per-operator wrapping, so it costs less than the imperative path, and it is an
ordinary torch program: autograd, hooks and ``torch.compile`` (``hybridize(compile=True)``, a
torch.compile ``backend=`` or ``mode=``) all apply to it.
"""
import torch

from ..autograd import is_training
from ..ndarray.ndarray import wrap
from ..symbol.inference import consumer_sized_params, sized_by_consumers
from ..symbol.lowering import Lowered

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
        MXNet's CachedOp flags (static_alloc, static_shape, ...), kept for reference.
    compile_options : dict or None
        torch.compile keyword arguments; None runs the generated function as it is.

    A graph whose operators without inputs leave sizes to shape inference (``F.zeros(shape=(0,
    H))``, the ``begin_state`` of a cell traced with batch size 0) is lowered once per set of
    input shapes, with those sizes inferred from the inputs as MXNet's CachedOp does.
    """
    def __init__(self, sym, flags=None, compile_options=None):
        self.symbol = sym
        self.flags = dict(flags or {})
        self._compile_options = compile_options
        self._compiled = {}
        self._by_shapes = None
        if any(n.op is not None and not n.inputs and sized_by_consumers(n.params)
               for n in sym._nodes()):
            self._by_shapes = {}
            self.graph = None
        else:
            self.graph = Lowered(sym)

    def __call__(self, tensors):
        graph = self.graph if self._by_shapes is None else self._sized(tensors)
        if self._compile_options is None:
            return graph(tensors)
        return graph(tensors, self._compiled_fn(graph))

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
            fn = self._compiled[key] = torch.compile(graph.forward, **self._compile_options)
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
