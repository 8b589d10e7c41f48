"""Graph passes MXNet's executor runs when it binds a symbol.

- common subexpression elimination (``MXNET_ELIMINATE_COMMON_EXPR``, on by default), whose
  result ``Executor.get_optimized_symbol`` returns;
- the gradient graph check: binding with gradients fails for an operator that has no gradient
  and receives one (``BlockGrad`` / ``stop_gradient`` in front of it stops it);
- the memory plan ``Executor.debug_str`` reports as "Total N MB allocated".

Execution itself does not need these passes: torch computes the same numbers either way.
"""
import os

from ..base import MXNetError
from .inference import entry_shapes
from .symbol import Node, Symbol, _topo, graph_changed

__all__ = ['cse_enabled', 'eliminate_common_expr', 'check_gradient_graph', 'executor_debug_str']

# operators whose gradient is zero by definition (MXNet's MakeZeroGradNodes): a gradient stops
# at them, so the operators in front of them need none
_ZERO_GRAD = frozenset((
    'BlockGrad', 'zeros_like', 'ones_like', 'argmax', 'argmin', 'argsort', 'shape_array',
    'size_array', '_contrib_arange_like', '_contrib_index_array', '_contrib_quantize_asym',
    '_contrib_dequantize', '_contrib_quantize', '_contrib_quantize_v2', '_contrib_requantize',
    '_contrib_quantized_batch_norm', '_contrib_quantized_concat', '_contrib_quantized_conv',
    '_contrib_quantized_elemwise_mul', '_contrib_quantized_embedding',
    '_contrib_quantized_flatten', '_contrib_quantized_fully_connected',
    '_contrib_quantized_pooling', '_ravel_multi_index', '_unravel_index', 'logical_not',
    'ceil', 'floor', 'fix', 'rint', 'round', 'trunc',
    '_equal', '_not_equal', '_greater', '_greater_equal', '_lesser', '_lesser_equal',
    '_logical_and', '_logical_or', '_logical_xor',
    'broadcast_equal', 'broadcast_not_equal', 'broadcast_greater', 'broadcast_greater_equal',
    'broadcast_lesser', 'broadcast_lesser_equal', 'broadcast_logical_and',
    'broadcast_logical_or', 'broadcast_logical_xor',
    '_equal_scalar', '_not_equal_scalar', '_greater_scalar', '_greater_equal_scalar',
    '_lesser_scalar', '_lesser_equal_scalar', '_logical_and_scalar', '_logical_or_scalar',
    '_logical_xor_scalar'))

_RANDOM_PREFIXES = ('_random_', '_sample_', '_image_random_', '_npx__image_random_')


def _zero_grad(op):
    name = op.name
    return op.zero_grad or name in _ZERO_GRAD or name.startswith('_sample_') or \
        name.startswith('_random_') and name.endswith('_like')


def _random(op):
    # (MXNet's rrelu LeakyReLU draws its noise without asking for the random resource, so it
    # merges like any other operator)
    return op.name.startswith(_RANDOM_PREFIXES) and not op.name.startswith('_random_pdf_')


def _mergeable(n, m):
    """MXNet's test whether node ``m`` computes what ``n`` computes (given equal inputs)."""
    if n.op is None or m.op is None or n.op is not m.op or n.attrs != m.attrs:
        return False
    op = n.op
    return op.merges and not (op.aux or op.mutate or n.subgraphs or _random(op))


# ---------------------------------------------------------------------- common subexpressions
def cse_enabled():
    """Whether ``MXNET_ELIMINATE_COMMON_EXPR`` (default on) asks binds to merge common
    subexpressions."""
    value = os.environ.get('MXNET_ELIMINATE_COMMON_EXPR', '1').strip().lower()
    return value not in ('0', 'false')


def eliminate_common_expr(symbol):
    """The symbol with every node that repeats another node (same operator, attributes and
    inputs) replaced by that node, repeated until none is left; a graph output that then
    repeats an earlier one becomes a ``_copy`` of it. Returns a new Symbol."""
    copy_op = None
    outputs = list(symbol.__copy__()._outputs)
    while True:
        nodes = _topo(outputs)
        groups = {}
        for node in nodes:
            if node.inputs:
                key = tuple((id(i), k) for i, k in node.inputs)
                groups.setdefault(key, []).append(node)
        replace = {}
        for group in groups.values():
            taken = set()
            for a in range(len(group)):
                if a in taken:
                    continue
                for b in range(a + 1, len(group)):
                    if b not in taken and _mergeable(group[a], group[b]):
                        taken.add(b)
                        replace[id(group[b])] = group[a]
        if not replace:
            return Symbol(outputs)
        for node in nodes:
            node.inputs = [(replace.get(id(i), i), k) for i, k in node.inputs]
        graph_changed()
        outputs = [(replace.get(id(n), n), k) for n, k in outputs]
        if copy_op is None:
            from ..ops import registry
            copy_op = registry.get('_copy')
        seen = {}
        for j, (n, k) in enumerate(outputs):
            count = seen.get((id(n), k))
            if count is None:
                seen[(id(n), k)] = 0
                continue
            seen[(id(n), k)] = count + 1
            outputs[j] = (Node(copy_op, '%s_%d_copy' % (n.name, count), {}, [(n, k)]), 0)


# ---------------------------------------------------------------------- gradient graph
def _gradient_nodes(symbol):
    """Nodes whose inputs receive a gradient from the outputs: what MXNet's backward pass
    differentiates. Raises MXNetError for an operator among them that has no gradient."""
    nodes = symbol._nodes()
    live = {id(n) for n, _ in symbol._outputs}
    out = []
    for node in reversed(nodes):
        if node.op is None or id(node) not in live or not node.inputs or _zero_grad(node.op):
            continue
        if not node.op.differentiable:
            raise MXNetError('Operator %s is non-differentiable because it didn\'t register '
                             'FGradient attribute. Bind with grad_req=\'null\' or put '
                             'BlockGrad (stop_gradient) after node %s'
                             % (node.op.name, node.name))
        out.append(node)
        live.update(id(i) for i, _ in node.inputs)
    return out


def check_gradient_graph(symbol, grad_req, args_grad=True):
    """Raise MXNetError, as MXNet's bind does, when ``grad_req`` asks for gradients and an
    operator without a gradient would have to give one."""
    if args_grad is None:
        return
    if isinstance(grad_req, str):
        need = grad_req != 'null'
    elif isinstance(grad_req, dict):
        names = set(symbol.list_arguments())
        need = any(r != 'null' for n, r in grad_req.items() if n in names)
    else:
        need = any(r != 'null' for r in grad_req)
    if need and any(n.op is not None and not n.op.differentiable for n in symbol._nodes()):
        _gradient_nodes(symbol)


# ---------------------------------------------------------------------- memory plan
class _Pool:
    """MXNet's storage pool: a request takes a free block of similar size (within a factor of
    16), growing it if needed, or a new block."""
    match_range = 16

    def __init__(self):
        self.blocks = []   # sizes
        self.free = []     # indices into blocks

    def alloc(self, size):
        if size == 0:
            return None
        fits = [b for b in self.free if size <= self.blocks[b] <= size * self.match_range]
        if fits:
            b = min(fits, key=lambda i: self.blocks[i])
        else:
            smaller = [b for b in self.free if size // self.match_range <= self.blocks[b] < size]
            if not smaller:
                self.blocks.append(size)
                return len(self.blocks) - 1
            b = max(smaller, key=lambda i: self.blocks[i])
            self.blocks[b] = size
        self.free.remove(b)
        return b

    def release(self, block):
        if block is not None:
            self.free.append(block)

    @property
    def total(self):
        return sum(self.blocks)


def _inplace_input(node, uses, saved, outputs, nbytes):
    """The input entry an elementwise operator may overwrite with its output: one read only
    by this node, not kept for the backward pass, of the output's size (MXNet's in-place
    option)."""
    if node.num_outputs() != 1:
        return None
    size = nbytes(node, 0)
    for i, k in node.inputs:
        e = (id(i), k)
        if i.op is not None and uses[e] == 1 and e not in saved and e not in outputs and \
                nbytes(i, k) == size:
            return e
    return None


def _storage_bytes(symbol, shapes_given, dtypes_given, need_grad):
    """Bytes the executor's memory plan allocates for the intermediate results of the graph
    (and, with gradients, for the stored activations and intermediate gradients)."""
    nodes, shapes, dtypes = entry_shapes(symbol, shapes_given, dtypes_given)

    def nbytes(node, k):
        s = shapes[id(node)][k]
        if s is None or any(d <= 0 for d in s):
            return 0
        dt = (dtypes.get(id(node)) or [None] * (k + 1))[k]
        size = dt.itemsize if dt is not None else 4
        for d in s:
            size *= d
        return size

    backward = _gradient_nodes(symbol) if need_grad else []
    saved = {(id(i), k) for n in backward for i, k in n.inputs}
    outputs = {(id(n), k) for n, k in symbol._outputs}
    uses = {}
    for node in nodes:
        for i, k in node.inputs:
            uses[(id(i), k)] = uses.get((id(i), k), 0) + 1
    pool, block = _Pool(), {}
    for node in nodes:
        if node.op is None:
            continue
        reuse = _inplace_input(node, uses, saved, outputs, nbytes) \
            if len(node.inputs) == 1 or node.op.infer_shape == 'same' else None
        if reuse is not None:
            block[(id(node), 0)] = block.pop(reuse, None)
        else:
            for k in range(node.num_outputs()):
                block[(id(node), k)] = pool.alloc(nbytes(node, k))
        for i, k in node.inputs:
            e = (id(i), k)
            uses[e] -= 1
            if uses[e] == 0 and i.op is not None and e not in saved and e not in outputs:
                pool.release(block.pop(e, None))
    # backward: each gradient contribution is a buffer; a node's output gradients are freed
    # before it writes its input gradients; a variable's only gradient goes to its grad array
    contribs = {}
    for node in backward:
        for i, k in node.inputs:
            contribs[(id(i), k)] = contribs.get((id(i), k), 0) + 1
    grads = {}
    for node in backward:
        for k in range(node.num_outputs()):
            for b in grads.pop((id(node), k), ()):
                pool.release(b)
        for i, k in node.inputs:
            e = (id(i), k)
            if i.op is None and contribs[e] == 1:
                continue
            grads.setdefault(e, []).append(pool.alloc(nbytes(i, k)))
    return pool.total


def executor_debug_str(symbol, arg_names, arg_arrays, aux_names, aux_arrays, grad_reqs):
    """The debug string of a bound executor: its graph and its memory plan."""
    shapes = dict(zip(arg_names, (a.shape for a in arg_arrays)))
    shapes.update(zip(aux_names, (a.shape for a in aux_arrays if a is not None)))
    dtypes = {n: a._t.dtype for n, a in zip(arg_names, arg_arrays)}
    need_grad = any(r != 'null' for r in grad_reqs)
    total = _storage_bytes(symbol, shapes, dtypes, need_grad)
    return '%sTotal %d MB allocated\nTotal 11 TempSpace resource requested\n' \
        % (symbol.debug_str(), total >> 20)
