"""The operator history that ``autograd.record()`` keeps, as MXNet's does, for
``autograd.get_symbol``.

Gradients come from torch.autograd, whose graph holds torch's operations. MXNet's recorded
graph holds MXNet's operators (a hybridized block is one ``_CachedOp`` node, or its
operators when the graph is inlined), with variables named ``var<N>`` (arrays marked by
``attach_grad``/Parameters) and ``null<N>`` (other inputs). So each operator call that MXNet
would record leaves a small node on its output NDArrays (the ``_h`` slot: the node and the
output's index). Nodes name their inputs' nodes, never their arrays: the history keeps no
tensor alive.

Front ends test ``ACTIVE[0]`` (how many threads record) before calling :func:`note`: a
module-level read costs a few nanoseconds; the thread-local recording flag is read only
when some thread records.
"""
import itertools

__all__ = ['ACTIVE', 'given', 'note', 'note_graph', 'mark', 'get_symbol']

ACTIVE = [0]
_COUNT = itertools.count()  # MXNet's one counter for var<N> and null<N>
_NODES = itertools.count()  # node_<N>


class _Node:
    """An operator call: the table entry, its parameters (Python values or MXNet's
    attribute strings), the entries of its inputs and, for a ``_CachedOp``, its graph."""
    __slots__ = ('op', 'params', 'inputs', 'name', 'subgraph')

    def __init__(self, op, params, inputs, subgraph=None):
        self.op = op
        self.params = params
        self.inputs = inputs
        self.name = 'node_%d' % next(_NODES)
        self.subgraph = subgraph


class _Leaf:
    """A variable of the recorded graph."""
    __slots__ = ('name',)
    op = None

    def __init__(self, prefix):
        self.name = '%s%d' % (prefix, next(_COUNT))


def mark(t):
    """Name the tensor ``t`` a new variable (``attach_grad``, Parameters)."""
    t._mx_var = _Leaf('var')


_STATE = []  # autograd's thread-local state, imported on first use (autograd imports this)


def _recording():
    if not _STATE:
        from .autograd import _state
        _STATE.append(_state)
    return _STATE[0].recording


def _entry(x):
    """The recorded entry of the NDArray ``x``, or None. A marked variable is one whatever
    the array held before (``attach_grad`` on an operator's output starts a new graph)."""
    t = x._t
    if t.requires_grad and t.is_leaf:
        leaf = getattr(t, '_mx_var', None)
        if leaf is not None:
            return leaf, 0
    return getattr(x, '_h', None)


def _inputs(arrays):
    """The entries of the NDArrays among ``arrays`` (optional inputs left out are None), or
    None where none of them is in the graph (MXNet records nothing then)."""
    entries = [(x, _entry(x)) for x in arrays if hasattr(x, '_t')]  # (not None, scalars)
    if not any(e is not None or x._t.requires_grad for x, e in entries):
        return None
    out = []
    for x, e in entries:
        if e is None:  # an input outside the graph: a variable of its own, from now on
            e = x._h = (_Leaf('null'), 0)
        out.append(e)
    return out


def given(params):
    """The parameters a call gave, as MXNet records them: ``params`` holds (name, value,
    default) and a value that is its default object was left out by the caller."""
    return {k: v for k, v, d in params if v is not d}


def note(outputs, op, params, inputs):
    """Record the call of the table entry ``op`` (``params``: its parameters) on the NDArrays
    ``inputs``, which gave the NDArrays ``outputs``."""
    if not _recording():
        return
    entries = _inputs(inputs)
    if entries is None:
        return
    node = _Node(op, params, entries)
    for i, o in enumerate(outputs):
        o._h = (node, i)


def note_graph(outputs, symbol, inputs, inline):
    """Record a hybridized block's call: its graph ``symbol`` run on the NDArrays ``inputs``
    (in ``symbol.list_inputs()`` order) gave ``outputs``. ``inline``: its operators are
    recorded one by one (MXNet's ``inline_limit``), else one ``_CachedOp`` node."""
    if not _recording():
        return
    entries = _inputs(inputs)
    if entries is None:
        return
    if not inline:
        from .ops.registry import get
        node = _Node(get('_CachedOp'), {}, entries, symbol)
        for i, o in enumerate(outputs):
            o._h = (node, i)
        return
    of = dict(zip(symbol.list_inputs(), entries))
    made = {}
    for n in symbol._nodes():
        if n.op is None:
            made[id(n)] = of[n.name]
        else:
            made[id(n)] = _Node(n.op, n.attrs, [_follow(made, e) for e in n.inputs])
    for o, e in zip(outputs, symbol._outputs):
        o._h = _follow(made, e)


def _follow(made, entry):
    node, i = entry
    got = made[id(node)]
    return got if isinstance(got, tuple) else (got, i)


def get_symbol(x):
    """The Symbol of the operators recorded up to the NDArray ``x``."""
    from .base import MXNetError
    from .symbol import symbol as sym
    entry = _entry(x)
    if entry is None:
        raise MXNetError('NDArray is not part of a computation graph. Did you forget to turn '
                         'on recording?')
    made = {}
    stack = [(entry[0], False)]
    while stack:  # post-order: inputs before their consumers, without recursion
        node, ready = stack.pop()
        if id(node) in made:
            continue
        if node.op is None:
            made[id(node)] = sym.var(node.name)
            continue
        if not ready:
            stack.append((node, True))
            stack.extend((n, False) for n, _ in node.inputs if id(n) not in made)
            continue
        ins = [_output(made[id(n)], i) for n, i in node.inputs]
        if node.subgraph is not None:
            made[id(node)] = sym.Symbol(
                [(sym.Node(node.op, node.name, {}, [s._outputs[0] for s in ins],
                           [node.subgraph]), i)
                 for i in range(len(node.subgraph.list_outputs()))])
        else:
            made[id(node)] = sym.compose_op(node.op, node.op.name, ins, {}, dict(node.params),
                                            name=node.name)
    return _output(made[id(entry[0])], entry[1])


def _output(s, i):
    from .symbol.symbol import Symbol
    return s if len(s._outputs) == 1 else Symbol([s._outputs[i]])
