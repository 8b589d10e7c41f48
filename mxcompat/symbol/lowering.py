"""The one lowering of Symbol graphs to torch: a ``torch.fx.GraphModule``.

``Lowered(symbol)`` turns a Symbol graph (its variables, arguments and auxiliary states alike,
and its operator nodes with their converted parameters) into a ``torch.fx.GraphModule`` whose
nodes call the operator table's implementations, ``op.fn`` as the table holds it when the
graph is lowered (``OpDef.rebind``, as ``mx.contrib.amp.init`` uses it, changes the graphs
lowered after it, not those lowered before). The module's generated ``forward`` is
straight-line Python with one call per operator node: inputs at the positions the
implementation takes them, parameters positional where the implementation takes them so, and
each value dropped after its last use, so that a graph holds no more memory than the same
calls made eagerly. Every way mxcompat runs a Symbol graph goes through it:

* execution: ``Lowered.__call__`` (the Executor, hybridized blocks, ``mx.nd.CachedOp`` and the
  subgraphs of the control-flow operators);
* ``torch.compile``: ``torch.compile(lowered.forward)`` (``hybridize(backend=...)``);
* a per-node monitor: ``Lowered.run_monitored`` (``Executor.set_monitor_callback``,
  ``HybridBlock.register_op_hook``);
* shape inference on ``meta`` tensors (symbol/inference.py): ``place`` gives a node's
  implementation its inputs as the module does.
"""
import operator
import sys

import torch
from torch.fx import Graph, GraphModule, Interpreter

from .. import profiler
from ..base import MXNetError, gc_paused

__all__ = ['Lowered', 'place']

_NODE = 'mx_node'      # fx node meta: the Symbol node it calls
_INPUTS = 'mx_inputs'  # fx node meta: the fx values of its inputs, in list_inputs order
_LITERALS = frozenset((type(None), bool, int, float, str, torch.dtype))


def place(op, params, inputs):
    """The positional inputs of ``op``'s implementation: ``inputs`` (the inputs
    ``op.list_inputs(params)`` names, in that order) at their positions in its signature,
    None for the absent ones."""
    pos = op.call_positions(params)
    if pos is None:
        return list(inputs)
    args = [None] * len(op.inputs)
    for p, v in zip(pos, inputs):
        args[p] = v
    return args


def _first_output(res):
    """Output 0 of the result of an operator with hidden outputs (BatchNorm, Dropout, sort,
    ...): that tensor, or the tuple of all outputs."""
    return res if isinstance(res, torch.Tensor) else res[0]


def _literal(value):
    """Whether the generated code can hold ``value`` as a literal."""
    kind = type(value)
    if kind in _LITERALS:
        return True
    return (kind is tuple or kind is list) and all(_literal(v) for v in value)


class Lowered(object):
    """A Symbol graph lowered to a ``torch.fx.GraphModule``.

    Calling it with the tensors of ``symbol.list_inputs()``, in that order, returns the list
    of the graph's output tensors; an MXNetError raised by an operator names the node. A graph
    input that is also an output comes back as a copy.

    Parameters
    ----------
    symbol : Symbol
        The graph.
    params : dict, optional
        Parameters to use in place of a node's own, by ``id(node)``.

    Attributes
    ----------
    module : torch.fx.GraphModule
        The lowered graph.
    forward : callable
        ``module.forward``, the generated function.
    """
    __slots__ = ('symbol', 'module', 'forward', '_code')

    @gc_paused
    def __init__(self, symbol, params=None):
        self.symbol = symbol
        graph = Graph()
        consts = {}
        values = {}     # (id(symbol node), output index) -> fx value
        multi = {}      # id(symbol node) -> fx call of a multi-output node

        def value(node, k):
            v = values.get((id(node), k))
            if v is None:  # an output of a multi-output node, on its first use
                v = values[(id(node), k)] = graph.call_function(
                    operator.getitem, (multi[id(node)], k))
            return v

        def const(v):
            if _literal(v):
                return v
            name = 'c%d' % len(consts)
            consts[name] = v
            return graph.get_attr(name)

        for j, node in enumerate(symbol._nodes()):
            if node.op is None:
                ph = values[(id(node), 0)] = graph.placeholder('a%d' % j)
                ph.meta[_NODE] = node
                continue
            op = node.op
            p = node.params if params is None else params.get(id(node), node.params)
            ins = [value(i, k) for i, k in node.inputs]
            args = place(op, p, ins)
            if op.takes_positionally() and len(args) == len(op.inputs) and \
                    p.keys() == op.params.keys():
                args.extend(const(p[name]) for name in op.params)
                kwargs = {}
            else:
                kwargs = {name: const(v) for name, v in p.items()}
            fxn = graph.call_function(op.fn, tuple(args), kwargs)
            fxn.meta[_NODE] = node
            fxn.meta[_INPUTS] = ins
            # an implementation returns the tuple of its outputs, or the tensor itself where
            # there is one; hidden outputs are never consumed, and an operator with hidden
            # outputs and one visible output, or with a count of outputs set by its parameters
            # (SliceChannel with num_outputs=1), may return either
            if node.num_visible_outputs() > 1:
                multi[id(node)] = fxn
            elif node.num_outputs() > 1 or not isinstance(op.num_outputs, int):
                values[(id(node), 0)] = graph.call_function(_first_output, (fxn,))
            else:
                values[(id(node), 0)] = fxn
        outs = []
        for node, k in symbol._outputs:
            v = value(node, k)
            outs.append(graph.call_method('clone', (v,)) if node.op is None else v)
        graph.output(outs)
        self.module = GraphModule(consts, graph, class_name='LoweredSymbol')
        self.forward = self.module.forward
        self._code = type(self.module).forward.__code__

    def recompile(self):
        """Regenerate ``forward`` after an edit of ``module.graph``."""
        self.module.recompile()
        self.forward = self.module.forward
        self._code = type(self.module).forward.__code__

    def __call__(self, tensors):
        """The outputs for ``tensors``."""
        if profiler.naming():  # each operator in a range named as MXNet names it
            return self.run_monitored(tensors, None, None)
        try:
            return self.forward(*tensors)
        except RuntimeError as err:
            # an operator's failure (MXNet's own error, or torch's on inputs MXNet would have
            # refused: another dtype, ...) is MXNet's error naming the operator
            node = self._failed_node(sys.exc_info()[2])
            if node is None:
                raise
            raise _in_operator(node, err) from None

    def _failed_node(self, tb):
        """The Symbol node whose line of the generated code ``tb`` passes last."""
        line = None
        while tb is not None:
            if tb.tb_frame.f_code is self._code:
                line = tb.tb_lineno
            tb = tb.tb_next
        if line is None:
            return None
        module = self.module
        index = module._lineno_map.get(line - module._prologue_start)
        if index is None:
            return None
        for k, n in enumerate(module.graph.nodes):
            if k == index:
                return n.meta.get(_NODE)
        return None

    def run_monitored(self, tensors, on_inputs, on_outputs):
        """Run the graph node by node: ``on_inputs(node, tensors)`` (unless None) before each
        operator node with its input tensors in ``list_inputs`` order, ``on_outputs(node,
        tensors)`` (unless None) after it with all its outputs. Returns the outputs, as a call
        does."""
        return _Monitored(self.module, on_inputs, on_outputs).run(*tensors)


def _in_operator(node, err):
    return MXNetError('Error in operator %s(name="%s"): %s' % (node.op.name, node.name, err))


class _Monitored(Interpreter):
    """Runs a lowered graph node by node, calling the monitor's callbacks."""

    def __init__(self, module, on_inputs, on_outputs):
        super().__init__(module)
        self.on_inputs = on_inputs
        self.on_outputs = on_outputs

    def run_node(self, n):
        node = n.meta.get(_NODE)
        if node is None or n.op != 'call_function':
            return super().run_node(n)
        if self.on_inputs is not None:
            self.on_inputs(node, [self.env[i] for i in n.meta[_INPUTS]])
        try:
            if profiler.naming():
                with profiler.operator_range(node.op.name):
                    res = super().run_node(n)
            else:
                res = super().run_node(n)
        except MXNetError as err:
            raise _in_operator(node, err) from None
        if self.on_outputs is not None:
            self.on_outputs(node, (res,) if isinstance(res, torch.Tensor) else tuple(res))
        return res
