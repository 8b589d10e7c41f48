"""The graph passes of MXNet's mixed precision conversion (``amp.convert_symbol``).

``reduce_precision`` adds ``amp_cast`` / ``amp_multicast`` nodes to a float32 graph, as
MXNet's ReducePrecision pass does: in front of the inputs of low precision operators (to the
target type), of float32 and conditionally float32 operators (to float32), of widest-type
operators (an ``amp_multicast`` unless the types of all their inputs are known, then casts), and
a cast to float32 after every graph output not already float32. Casts of one entry to one type
are shared. ``remove_amp_cast`` undoes it (``Symbol.tojson`` and ``save`` do by default).

The types the pass tracks follow MXNet's: a low precision operator's outputs are in the target
type, a float32 operator's in float32, and an operator of no list keeps the type of its first
input.
"""
from ..ops import registry
from .symbol import Node, Symbol, _topo

__all__ = ['reduce_precision', 'remove_amp_cast']

_CASTS = ('amp_cast', 'amp_multicast')


def remove_amp_cast(sym):
    """The symbol with every amp_cast / amp_multicast that feeds a node bypassed (graph
    outputs keep theirs), as MXNet's RemoveAmpCast pass; the symbol itself where it has none."""
    nodes = sym._nodes()
    if not any(n.op is not None and n.op.name in _CASTS for n in nodes):
        return sym
    mapping = {}
    for node in nodes:  # post-order: a cast's own inputs are already bypassed
        inputs = []
        for i, k in node.inputs:
            new = mapping[id(i)]
            if i.op is not None and i.op.name in _CASTS:
                new, k = new.inputs[0 if i.op.name == 'amp_cast' else k]
            inputs.append((new, k))
        mapping[id(node)] = Node(node.op, node.name, node.attrs, inputs, node.subgraphs)
    return Symbol([(mapping[id(n)], k) for n, k in sym._outputs])


def _suffix(node, k):
    """MXNet's name suffix for output k of node in a cast's name ('' for a variable)."""
    return '' if node.op is None else '_' + node.op.output_label(node.params, k)


def _mutated(node):
    m = node.op.mutate
    if callable(m):
        m = m(node.params)
    names = node.op.list_inputs(node.params)
    return set(i for i, n in enumerate(names) if n in m or n in node.op.aux)


def reduce_precision(sym, target_dtype, target_ops, fp32_ops, widest_ops, conditional_fp32_ops,
                     excluded_sym_names, data_names, cast_optional_params, fp32_params=None):
    """The symbol with AMP casts added (see the module docstring).

    Parameters
    ----------
    sym : Symbol
    target_dtype : {'float16', 'bfloat16'}
    target_ops, fp32_ops, widest_ops : collection of str
        Operators run in target_dtype, in float32, in the widest type of their inputs.
    conditional_fp32_ops : dict of str -> dict of str -> list of str
        Operator -> parameter -> the values (as attribute strings) that make it float32.
    excluded_sym_names : collection of str
        Nodes kept in float32.
    data_names : collection of str
        The graph's data inputs (float32); the other variables are parameters.
    cast_optional_params : bool
        Parameters feeding low precision operators are not cast (they are stored in the
        target type instead).
    fp32_params : dict of str -> list of str, optional
        Per low precision operator, its inputs in order, a non-empty name marking one kept in
        float32 (MXNet's type inference keeps BatchNorm's gamma and beta so).
    """
    cast_op, multicast_op = registry.get('amp_cast'), registry.get('amp_multicast')
    mirror = {}
    typed = {'float32': {}, target_dtype: {}}  # type -> old entry -> new entry in that type

    def cast(node, k, dtype):
        entry = (id(node), k)
        got = typed[dtype].get(entry)
        if got is None:
            src = mirror[id(node)]
            c = Node(cast_op, '%s%s_amp_cast_%s' % (node.name, _suffix(node, k), dtype),
                     {'dtype': dtype}, [(src, k)])
            got = typed[dtype][entry] = (c, 0)
        return got

    def mark(node, new, dtype):
        for k in range(node.num_outputs()):
            typed[dtype][(id(node), k)] = (new, k)

    def conditional(node):
        for pname, values in conditional_fp32_ops.get(node.op.name, {}).items():
            if pname in node.attrs and node.attrs[pname] in values:
                return True
        return False

    for node in _topo(sym._outputs):
        new = Node(node.op, node.name, node.attrs, [], node.subgraphs)
        mirror[id(node)] = new
        if node.op is None:
            continue
        name, excluded = node.op.name, node.name in excluded_sym_names
        if name in fp32_ops or excluded:
            mark(node, new, 'float32')
            for i, k in node.inputs:
                new.inputs.append(typed['float32'].get((id(i), k)) or
                                  ((mirror[id(i)], k) if i.op is None else cast(i, k, 'float32')))
        elif name in target_ops:
            mark(node, new, target_dtype)
            keep = _mutated(node)
            keep.update(j for j, n in enumerate((fp32_params or {}).get(name, ())) if n)
            for j, (i, k) in enumerate(node.inputs):
                have = typed[target_dtype].get((id(i), k))
                if have is not None:
                    new.inputs.append(have)
                elif j in keep or (cast_optional_params and i.op is None and
                                   i.name not in data_names):
                    new.inputs.append((mirror[id(i)], k))
                    if cast_optional_params and i.op is None:
                        typed[target_dtype][(id(i), k)] = (mirror[id(i)], k)
                else:
                    new.inputs.append(cast(i, k, target_dtype))
        elif name in widest_ops:
            known = [e in typed[target_dtype] or e in typed['float32']
                     for e in ((id(i), k) for i, k in node.inputs)]
            if not all(known):
                first, k0 = node.inputs[0]
                m = Node(multicast_op, '%s%s_amp_multicast' % (first.name, _suffix(first, k0)),
                         {'num_outputs': str(len(node.inputs))},
                         [(mirror[id(i)], k) for i, k in node.inputs])
                new.inputs.extend((m, j) for j in range(len(node.inputs)))
            else:
                wide = any((id(i), k) in typed['float32'] for i, k in node.inputs)
                dtype = 'float32' if wide else target_dtype
                mark(node, new, dtype)
                for i, k in node.inputs:
                    new.inputs.append(typed[dtype].get((id(i), k)) or cast(i, k, dtype))
        elif conditional(node) and not excluded:
            mark(node, new, 'float32')
            keep = _mutated(node)
            for j, (i, k) in enumerate(node.inputs):
                have = typed['float32'].get((id(i), k))
                new.inputs.append(have or ((mirror[id(i)], k) if j in keep
                                           else cast(i, k, 'float32')))
        else:
            if node.inputs:
                i, k = node.inputs[0]
                for dtype in (target_dtype, 'float32'):
                    if (id(i), k) in typed[dtype]:
                        mark(node, new, dtype)
                        break
            new.inputs.extend((mirror[id(i)], k) for i, k in node.inputs)
    outputs = []
    for n, k in sym._outputs:
        outputs.append(typed['float32'].get((id(n), k)) or cast(n, k, 'float32'))
    return Symbol(outputs)
