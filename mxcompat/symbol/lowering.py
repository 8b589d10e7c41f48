"""The one lowering of Symbol graphs to torch: a ``torch.fx.GraphModule``.

``Lowered(symbol)`` turns a Symbol graph (its variables, arguments and auxiliary states alike,
and its operator nodes with their converted parameters) into a ``torch.fx.GraphModule`` whose
nodes call the operator table's implementations, ``op.fn`` as the table holds it when the
graph is lowered (``OpDef.rebind``, as ``mx.contrib.amp.init`` uses it, changes the graphs
lowered after it, not those lowered before). The module's generated ``forward`` is
straight-line Python with one call per operator node (``op.view`` instead of ``op.fn`` for a
node of an inplace_identity operator, a reshape, whose input and output stay inside the graph:
they share memory there, as in MXNet's graph executor): inputs at the positions the
implementation takes them, parameters positional where the implementation takes them so, and
each value dropped after its last use, so that a graph holds no more memory than the same
calls made eagerly; a graph of more than ``CHUNK`` operator nodes calls them through
submodules of that many nodes (``chunk0``, ``chunk1``, ...), each generated and compiled on
its own, and a graph of more than ``CHUNK`` inputs takes them as one tuple
(``forward(self, *inputs)``), which a variadic operator of more than ``CHUNK`` graph inputs
(an ``add_n`` of 50,000 variables) indexes in one call: no generated function has a
parameter, a local or an argument per input. Every way mxcompat runs a Symbol graph goes
through it:

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
# fx node meta: the fx values of its inputs, in list_inputs order (a list), or the fx value of
# the tuple of graph inputs and their positions in it (a tuple, for a _gathered call)
_INPUTS = 'mx_inputs'
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


CHUNK = 1024
"""The most operator nodes one generated function calls, and the most graph inputs it names.
A larger graph is lowered to a module whose ``forward`` calls submodules (``chunk0``,
``chunk1``, ...) of this many nodes each: compiling a function costs memory in proportion to
its length (half a gigabyte for a chain of 100,000 nodes in one function), a chunk's is
freed before the next is compiled. A graph of more inputs takes them as one tuple, and a
variadic operator of more graph inputs takes them from it (``_gathered``)."""

_INPUTS_TUPLE = object()
"""Stands for the tuple of all graph inputs of a graph of more than ``CHUNK`` inputs where a
(node, output index) entry is expected: in ``_Builder.values`` and a chunk's ``outer``."""


def _gathered(fn, idx):
    """``fn`` taking the graph inputs at positions ``idx`` of the tuple of all of them (its
    first argument) as its inputs."""
    def call(inputs, **kwargs):
        return fn(*[inputs[i] for i in idx], **kwargs)
    call.__name__ = getattr(fn, '__name__', 'op')
    return call


class _Builder(object):
    """Fills one fx ``Graph`` with the calls of Symbol nodes.

    In a chunk (``outer`` a list) an input entry made outside it (by an earlier chunk) becomes
    a placeholder, recorded in ``outer`` with the entry it stands for. With ``positions``
    (graph input node id -> position, for a graph that takes its inputs as one tuple) a graph
    input is an item of that tuple."""
    __slots__ = ('graph', 'values', 'multi', 'consts', 'outer', 'params', 'positions', 'exposed')

    def __init__(self, params, chunk, exposed, positions=None):
        self.graph = Graph()
        self.values = {}    # (id(symbol node), output index) -> fx value
        self.multi = {}     # id(symbol node) -> fx call of a multi-output node
        self.consts = {}
        # in a chunk, the entries (node, index) given to its placeholders, in order
        self.outer = [] if chunk else None
        self.params = params
        self.positions = positions
        self.exposed = exposed  # ids of the nodes whose outputs are graph outputs

    def value(self, node, k):
        """The fx value of output ``k`` of ``node``."""
        key = (id(node), k)
        v = self.values.get(key)
        if v is None:
            call = self.multi.get(id(node))
            if self.positions is not None and id(node) in self.positions:
                v = self.graph.call_function(operator.getitem, (
                    self.value(_INPUTS_TUPLE, 0), self.positions[id(node)]))
            elif call is None and self.outer is not None:  # made by an earlier chunk
                v = self.graph.placeholder('i%d' % len(self.outer))
                self.outer.append((node, k))
            else:  # an output of a multi-output node, on its first use
                v = self.graph.call_function(operator.getitem, (self.multi[id(node)], k))
            self.values[key] = v
        return v

    def const(self, v):
        if _literal(v):
            return v
        name = 'c%d' % len(self.consts)
        self.consts[name] = v
        return self.graph.get_attr(name)

    def call(self, node):
        """Adds the call of operator ``node``."""
        op = node.op
        graph = self.graph
        params = self.params
        p = node.params if params is None else params.get(id(node), node.params)
        positions = self.positions
        if op.variadic and positions is not None and len(node.inputs) > CHUNK and \
                all(id(i) in positions for i, _ in node.inputs):
            # its inputs are items of the tuple of graph inputs (variadic: in order, no
            # parameter taken positionally)
            idx = tuple(positions[id(i)] for i, _ in node.inputs)
            ins = (self.value(_INPUTS_TUPLE, 0), idx)
            fxn = graph.call_function(_gathered(op.fn, idx), ins[:1],
                                      {name: self.const(v) for name, v in p.items()})
        else:
            ins = [self.value(i, k) for i, k in node.inputs]
            args = place(op, p, ins)
            if op.takes_positionally() and len(args) == len(op.inputs) and \
                    p.keys() == op.params.keys():
                args.extend(self.const(p[name]) for name in op.params)
                kwargs = {}
            else:
                kwargs = {name: self.const(v) for name, v in p.items()}
            fn = op.fn
            exposed = self.exposed
            if op.view is not None and id(node) not in exposed and \
                    all(i.op is not None and id(i) not in exposed for i, _ in node.inputs):
                # made by another node, read only inside the graph: they may share memory
                fn = op.view
            fxn = graph.call_function(fn, tuple(args), kwargs)
        fxn.meta[_NODE] = node
        fxn.meta[_INPUTS] = ins
        # an implementation returns the tuple of its outputs, or the tensor itself where
        # there is one; hidden outputs are never consumed, and an operator with hidden
        # outputs and one visible output, or with a count of outputs set by its parameters
        # (SliceChannel with num_outputs=1), may return either
        if node.num_visible_outputs() > 1:
            self.multi[id(node)] = fxn
        elif node.num_outputs() > 1 or not isinstance(op.num_outputs, int):
            self.values[(id(node), 0)] = graph.call_function(_first_output, (fxn,))
        else:
            self.values[(id(node), 0)] = fxn

    def module(self):
        return GraphModule(self.consts, self.graph, class_name='LoweredSymbol')


class Lowered(object):
    """A Symbol graph lowered to a ``torch.fx.GraphModule``.

    Calling it with the tensors of ``symbol.list_inputs()``, in that order, returns the list
    of the graph's output tensors; an MXNetError raised by an operator names the node. A graph
    input that is also an output comes back as a copy. A graph of more than ``CHUNK``
    operator nodes calls them in submodules of ``CHUNK`` nodes; one of more than ``CHUNK``
    inputs takes them as one tuple (``forward(*inputs)``: called alike).

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
    __slots__ = ('symbol', 'module', 'forward', '_modules')

    @gc_paused
    def __init__(self, symbol, params=None):
        self.symbol = symbol
        nodes = symbol._nodes()
        inputs = [node for node in nodes if node.op is None]
        calls = [node for node in nodes if node.op is not None]
        positions = None
        if len(inputs) > CHUNK:
            positions = {id(node): j for j, node in enumerate(inputs)}
        exposed = frozenset(id(node) for node, _ in symbol._outputs)
        top = _Builder(params, False, exposed, positions)
        if positions is None:
            for j, node in enumerate(inputs):
                top.values[(id(node), 0)] = top.graph.placeholder('a%d' % j)
        else:
            top.values[(id(_INPUTS_TUPLE), 0)] = top.graph.placeholder('*inputs')
        chunks = {}
        if len(calls) <= CHUNK:
            for node in calls:
                top.call(node)
        else:
            last = _last_uses(calls, symbol._outputs)
            for c in range(0, len(calls), CHUNK):
                sub = _Builder(params, True, exposed, positions)
                part = calls[c:c + CHUNK]
                for node in part:
                    sub.call(node)
                # the entries made here that later chunks or the outputs read
                made = [(node, k) for node in part for k in range(node.num_visible_outputs())
                        if last.get((id(node), k), -1) >= c + len(part)]
                sub.graph.output([sub.value(n, k) for n, k in made])
                name = 'chunk%d' % len(chunks)
                chunks[name] = sub.module()
                call = top.graph.call_module(name, tuple(top.value(n, k) for n, k in sub.outer))
                for at, (n, k) in enumerate(made):
                    top.values[(id(n), k)] = top.graph.call_function(operator.getitem,
                                                                     (call, at))
        outs = []
        for node, k in symbol._outputs:
            v = top.value(node, k)
            outs.append(top.graph.call_method('clone', (v,)) if node.op is None else v)
        top.graph.output(outs)
        # the chunks join the module once it is compiled: compiling a module compiles its
        # children again
        top.consts.update((name, torch.nn.Module()) for name in chunks)
        self.module = top.module()
        for name, chunk in chunks.items():
            setattr(self.module, name, chunk)
        self._modules = [self.module] + list(chunks.values())
        self.forward = self.module.forward

    def calls(self):
        """``(graph, fx node)`` of every operator call, in the order they run."""
        for module in self._modules:
            for fxn in module.graph.nodes:
                if fxn.op == 'call_function' and _NODE in fxn.meta:
                    yield module.graph, fxn

    def input_value(self, j):
        """The value of graph input ``j`` (in ``list_inputs`` order) in ``module.graph``: its
        placeholder, or an item of the tuple of all inputs in a graph of more than ``CHUNK``
        inputs."""
        graph = self.module.graph
        first = next(iter(graph.nodes))
        if first.op != 'placeholder' or not first.target.startswith('*'):
            return [n for n in graph.nodes if n.op == 'placeholder'][j]
        with graph.inserting_after(first):
            return graph.call_function(operator.getitem, (first, j))

    def outer_value(self, graph, value):
        """``value``, a value of ``module.graph``, made available in ``graph`` (one of the
        graphs of ``calls()``): a new placeholder of a chunk, which its call is given."""
        if graph is self.module.graph:
            return value
        name = next(n for n, m in self.module.named_children() if m.graph is graph)
        others = [n for n in graph.nodes if n.op == 'placeholder']
        with graph.inserting_before(next(iter(graph.nodes))):
            ph = graph.placeholder('outer')
        if others:  # a chunk's parameters are its placeholders in graph order: this one last
            others[-1].append(ph)
        call = next(n for n in self.module.graph.nodes
                    if n.op == 'call_module' and n.target == name)
        call.args = call.args + (value,)
        return ph

    def recompile(self):
        """Regenerate ``forward`` after an edit of the graphs."""
        self.module.recompile()  # and its chunks
        self.forward = self.module.forward

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
        codes = {type(m).forward.__code__: m for m in self._modules}
        module = line = None
        while tb is not None:
            m = codes.get(tb.tb_frame.f_code)
            if m is not None:
                module, line = m, tb.tb_lineno
            tb = tb.tb_next
        if module is None:
            return None
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


def _last_uses(calls, outputs):
    """{(id(node), output index): position in ``calls`` of its last consumer} (len(calls)
    for an output of the graph)."""
    last = {}
    for at, node in enumerate(calls):
        for i, k in node.inputs:
            last[(id(i), k)] = at
    for node, k in outputs:
        last[(id(node), k)] = len(calls)
    return last


def _in_operator(node, err):
    return MXNetError('Error in operator %s(name="%s"): %s' % (node.op.name, node.name, err))


class _Monitored(Interpreter):
    """Runs a lowered graph node by node, calling the monitor's callbacks."""

    def __init__(self, module, on_inputs, on_outputs):
        super().__init__(module)
        self.on_inputs = on_inputs
        self.on_outputs = on_outputs

    def call_module(self, target, args, kwargs):
        """A chunk of the graph (see ``CHUNK``), run node by node as well."""
        return _Monitored(self.fetch_attr(target), self.on_inputs, self.on_outputs).run(*args)

    def run_node(self, n):
        node = n.meta.get(_NODE)
        if node is None or n.op != 'call_function':
            return super().run_node(n)
        if self.on_inputs is not None:
            ins = n.meta[_INPUTS]
            if ins.__class__ is tuple:  # (the tuple of graph inputs, positions): _gathered
                inputs = self.env[ins[0]]
                self.on_inputs(node, [inputs[j] for j in ins[1]])
            else:
                self.on_inputs(node, [self.env[i] for i in ins])
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
