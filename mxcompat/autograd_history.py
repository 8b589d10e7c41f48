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

The history also spares ``autograd.backward`` a walk of torch's graph. After a backward that
freed its graph, arrays of that graph are constants to later recordings (MXNet's rule, which
``autograd._cut_freed`` enforces by walking the new graph for nodes older than that
backward). Each recorded call carries the number of freeing backwards before it (the epoch,
``SINCE_FREED[0]``); a call that takes an array of an older epoch, or one whose graph the
history does not know (made by no recorded call), sets ``SINCE_FREED[1]``. A head recorded
in the current epoch, with the flag unset, has a graph of new torch nodes only.
"""
import itertools

import torch

__all__ = ['ACTIVE', 'recording', 'note', 'note_graph', 'mark', 'in_graph', 'get_symbol']

ACTIVE = [0]
_COUNT = itertools.count()  # MXNet's one counter for var<N> and null<N>
_NODES = itertools.count()  # node_<N>
# [the epoch: how many backwards freed their graph, whether a call recorded since took an
# array whose graph may reach further back] (see the module's docstring)
SINCE_FREED = [0, False]
# tensor types whose untracked arrays hold no graph where they do not require a gradient
# (not the integer variables of autograd, whose graph is their shadow's)
_PLAIN = frozenset([torch.Tensor, torch.nn.Parameter])


# An operator call is a tuple, built in one step on every recorded call (a class instance
# would cost a constructor's frame): (the table entry, its parameters ((name, value, default);
# values are Python's or MXNet's attribute strings), the entries of its inputs, its number
# (its name is node_<number>), for a ``_CachedOp`` its graph, else None, and its epoch).


class _Leaf:
    """A variable of the recorded graph."""
    __slots__ = ('name',)

    def __init__(self, prefix):
        self.name = '%s%d' % (prefix, next(_COUNT))


def mark(t):
    """Name the tensor ``t`` a new variable (``attach_grad``, Parameters)."""
    t._mx_var = _Leaf('var')


_STATE = []  # [autograd's thread-local state]: autograd puts it here when it is imported


def recording():
    """Whether this thread records (``autograd.is_recording()``, for the modules autograd
    imports, which cannot import it at module level)."""
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
    """The entries of the NDArrays among ``arrays`` (optional inputs left out are None,
    numbers have no ``_t``), or None where none of them is in the graph (MXNet records
    nothing then); sets ``SINCE_FREED[1]`` for an array whose graph may reach an older epoch.
    Written out: it runs for every operator call while recording."""
    entries = []
    need = loose = False
    epoch = SINCE_FREED[0]
    for x in arrays:
        try:
            t = x._t
        except AttributeError:
            continue
        if t.requires_grad:
            need = True
            if t.is_leaf:
                e = getattr(t, '_mx_var', None)
                if e is not None:
                    entries.append((e, 0))
                    continue
        e = getattr(x, '_h', None)
        if e is None:
            e = x
            loose = True
        else:
            need = True
            if type(e[0]) is tuple:  # a recorded call's output
                if e[0][5] != epoch:
                    SINCE_FREED[1] = True
                entries.append(e)
                continue
        if t.requires_grad and not t.is_leaf or type(t) not in _PLAIN:
            SINCE_FREED[1] = True  # a graph that no recorded call made
        entries.append(e)
    if not need:
        return None
    if loose:
        for i, e in enumerate(entries):
            if type(e) is not tuple:  # an array outside the graph: a variable of its own now
                entries[i] = e._h = (_Leaf('null'), 0)
    return entries


def note(outputs, op, params, inputs):
    """Record the call of the table entry ``op`` on the NDArrays ``inputs``, which gave the
    NDArrays ``outputs``. ``params`` holds (name, value, default) for its parameters: a
    value that is its default object was left out by the caller, and MXNet records the
    others only (sorted out by :func:`get_symbol`)."""
    if _STATE[0].recording:
        entries = _inputs(inputs)
        if entries is not None:
            node = (op, params, entries, next(_NODES), None, SINCE_FREED[0])
            if len(outputs) == 1:
                outputs[0]._h = (node, 0)
            else:
                for i, o in enumerate(outputs):
                    o._h = (node, i)


def note_graph(outputs, symbol, inputs, inline):
    """Record a hybridized block's call: its graph ``symbol`` run on the NDArrays ``inputs``
    (in ``symbol.list_inputs()`` order) gave ``outputs``. ``inline``: its operators are
    recorded one by one (MXNet's ``inline_limit``), else one ``_CachedOp`` node."""
    if not _STATE[0].recording:
        return
    entries = _inputs(inputs)
    if entries is None:
        return
    if not inline:
        from .ops.registry import get
        node = (get('_CachedOp'), (), entries, next(_NODES), symbol, SINCE_FREED[0])
        for i, o in enumerate(outputs):
            o._h = (node, i)
        return
    # each symbol node's recorded node, or the entry of a graph input: (node, None), (entry,)
    made = {}
    of = dict(zip(symbol.list_inputs(), entries))
    for n in symbol._nodes():
        if n.op is None:
            made[id(n)] = (of[n.name],)
        else:
            made[id(n)] = ((n.op, [(k, v, None) for k, v in n.attrs.items()],
                            [_follow(made, e) for e in n.inputs], next(_NODES), None,
                            SINCE_FREED[0]), None)
    for o, e in zip(outputs, symbol._outputs):
        o._h = _follow(made, e)


def freed():
    """A backward freed its graph: a new epoch begins."""
    SINCE_FREED[0] += 1
    SINCE_FREED[1] = False


def unknown_graph():
    """An array took a graph that no recorded call made (an in-place write of an array with
    history): the history no longer vouches for the graphs of the epoch."""
    SINCE_FREED[1] = True


def since_freed(heads):
    """Whether the graphs of the NDArrays ``heads`` hold only torch nodes made since the last
    backward that freed its graph: each head is the output of a call recorded since, and no
    call since took an array whose graph may reach further back."""
    if SINCE_FREED[1]:
        return False
    epoch = SINCE_FREED[0]
    for h in heads:
        e = getattr(h, '_h', None)
        if e is None or type(e[0]) is not tuple or e[0][5] != epoch:
            return False
    return True


def in_graph(x):
    """Whether the NDArray ``x`` is the output of a recorded call: MXNet's graph holds it even
    where no gradient flows through it (``argmax``, the mask of rrelu), so it may be a head
    of a backward, which sends nothing through it."""
    e = getattr(x, '_h', None)
    return e is not None and type(e[0]) is tuple


def _follow(made, entry):
    node, i = entry
    got = made[id(node)]
    return got[0] if len(got) == 1 else (got[0], i)


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
        if type(node) is _Leaf:
            made[id(node)] = sym.var(node.name)
            continue
        op, params, inputs, number, subgraph, _ = node
        if not ready:
            stack.append((node, True))
            stack.extend((n, False) for n, _ in inputs if id(n) not in made)
            continue
        ins = [_output(made[id(n)], i) for n, i in inputs]
        if subgraph is not None:
            made[id(node)] = sym.Symbol(
                [(sym.Node(op, 'node_%d' % number, {}, [s._outputs[0] for s in ins],
                           [subgraph]), i)
                 for i in range(len(subgraph.list_outputs()))])
        else:
            given = {k: v for k, v, default in params if v is not default}
            made[id(node)] = sym.compose_op(op, op.name, ins, {}, given,
                                            name='node_%d' % number)
    return _output(made[id(entry[0])], entry[1])


def _output(s, i):
    from .symbol.symbol import Symbol
    return s if len(s._outputs) == 1 else Symbol([s._outputs[i]])
