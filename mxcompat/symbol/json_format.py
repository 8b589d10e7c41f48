"""Reading MXNet's symbol JSON, every generation of it.

Current files (MXNet >= 1.0) keep operator parameters and user attributes together under
"attrs" and write inputs as [node, output, version]. Older files use "param" (operator
parameters) and "attr" (user attributes), two-element inputs, and files from before 0.9 omit the
auxiliary-state variables (e.g. BatchNorm's moving statistics), which are recreated here.
"""
import json

from ..base import MXNetError, gc_paused
from ..ops import custom, registry
from ..util import is_np_shape
from ..utils.mxnet_api import MXNET_VERSION, UnsupportedOperatorError, is_operator
from .symbol import _HIDDEN_KEYS, Node, Symbol

__all__ = ['graph_from_json', 'parse_json']


MAX_DEPTH = 32
"""How deeply control-flow subgraphs may nest in a symbol file."""
MAX_OUTPUTS = 2 ** 16
"""The most outputs one node of a symbol file may declare (e.g. SliceChannel's num_outputs)."""


class _Bad(Exception):
    """A problem in the JSON; turned into MXNetError naming the source."""


def parse_json(text, source='JSON string'):
    """The JSON value of symbol JSON ``text`` (str, or bytes read as UTF-8); MXNetError naming
    ``source`` when it is not UTF-8, nests too deeply or is no JSON."""
    if isinstance(text, bytes):
        try:
            text = text.decode('utf-8')
        except UnicodeDecodeError as err:
            raise MXNetError('Invalid symbol JSON (%s): not UTF-8 text (%s)' % (source, err)) \
                from None
    try:
        return json.loads(text)
    except RecursionError:
        raise MXNetError('Failed to parse symbol JSON (%s): nested too deeply' % source) \
            from None
    except ValueError as err:
        raise MXNetError('Failed to parse symbol JSON (%s): %s' % (source, err)) from None


@gc_paused
def graph_from_json(text, source='JSON string'):
    """Parse MXNet symbol JSON (str, or UTF-8 bytes) into output entries [(Node, index)]. Every
    value is checked (types, node references, operator parameters) before it is used; a bad
    file raises MXNetError naming ``source``, the node and the problem."""
    graph = parse_json(text, source)
    try:
        return _graph_from_object(graph, 0)
    except _Bad as err:
        raise MXNetError('Invalid symbol JSON (%s): %s' % (source, err)) from None


def _is_int(v):
    return type(v) is int


def _entry(entry, nodes, what):
    """The (Node, output index) of an input or head entry [node, index(, version)]."""
    if type(entry) is not list or len(entry) not in (2, 3) or \
            not all(_is_int(v) for v in entry):
        raise _Bad('%s: bad entry %.100r (expected [node, output, version] integers)'
                   % (what, entry))
    src, idx = entry[0], entry[1]
    if not 0 <= src < len(nodes):
        raise _Bad('%s refers to node %d, which does not precede it' % (what, src))
    node = nodes[src]
    if not 0 <= idx < node.num_outputs():
        raise _Bad('%s refers to output %d of node %d ("%s"), which has %d outputs'
                   % (what, idx, src, node.name, node.num_outputs()))
    return node, idx


def _graph_from_object(graph, depth):
    if depth > MAX_DEPTH:
        raise _Bad('subgraphs nest deeper than %d levels' % MAX_DEPTH)
    if type(graph) is not dict or type(graph.get('nodes')) is not list:
        raise _Bad('a graph must be an object with a "nodes" list')
    jnodes = graph['nodes']
    for i, jn in enumerate(jnodes):
        if type(jn) is not dict or type(jn.get('name')) is not str or \
                type(jn.get('op')) is not str:
            raise _Bad('node %d must be an object with string "op" and "name"' % i)
    unknown = sorted({n['op'] for n in jnodes if n['op'] not in ('null', 'Custom') and
                      n['op'] not in registry.all_ops()})
    if unknown:
        msg = 'Symbol JSON uses operators that mxcompat does not know: %s' % ', '.join(unknown)
        of_mxnet = [op for op in unknown if is_operator(op)]
        if of_mxnet:
            raise UnsupportedOperatorError('%s (%s: operators of MXNet %s that mxcompat does not '
                                           'implement)' % (msg, ', '.join(of_mxnet),
                                                           MXNET_VERSION))
        raise MXNetError(msg)
    nodes = []
    for i, jn in enumerate(jnodes):
        what = 'node %d ("%s")' % (i, jn['name'][:100])
        attrs = {}
        for key in ('param', 'attr', 'attrs'):
            part = jn.get(key) or {}
            if type(part) is not dict or not all(type(v) is str for v in part.values()):
                raise _Bad('%s: "%s" must be an object of strings' % (what, key))
            attrs.update(part)
        jinputs = jn.get('inputs', [])
        if type(jinputs) is not list:
            raise _Bad('%s: "inputs" must be a list' % what)
        inputs = [_entry(e, nodes, '%s input %d' % (what, k)) for k, e in enumerate(jinputs)]
        if jn['op'] == 'null':
            op = None
        elif jn['op'] == 'Custom':  # each custom operator has its own inputs and parameters
            op = custom.opdef({k: v for k, v in attrs.items()
                               if not (k.startswith('__') and k.endswith('__'))})
        else:
            op = registry.get(jn['op'])
        node = Node(op, jn['name'], attrs, inputs)
        subgraphs = jn.get('subgraphs')
        if subgraphs:  # the graphs a control-flow operator runs
            if type(subgraphs) is not list:
                raise _Bad('%s: "subgraphs" must be a list' % what)
            node.subgraphs = [Symbol(_graph_from_object(g, depth + 1)) for g in subgraphs]
        if op is not None:
            _check_operator(node, len(inputs), what)
        else:
            _check_variable(node, what)
        nodes.append(node)
        jnodes[i] = None  # its parsed JSON is no longer needed: the Nodes reuse its memory
    heads = graph.get('heads')
    if heads is None:
        heads = [[len(nodes) - 1, 0]]
    if type(heads) is not list or not heads:
        raise _Bad('"heads" must be a non-empty list')
    return [_entry(h, nodes, 'head %d' % k) for k, h in enumerate(heads)]


def _check_variable(node, what):
    """A variable's shape and dtype attributes parse as inference will parse them."""
    from .inference import _var_shape, _var_dtype
    try:
        shape = _var_shape(node)
        _var_dtype(node)
    except (ValueError, TypeError, KeyError, SyntaxError, MXNetError) as err:
        raise _Bad('%s: invalid __shape__ or __dtype__ attribute: %s' % (what, err)) from None
    if shape is not None and any(d < -1 for d in shape):
        raise _Bad('%s: invalid __shape__ %s' % (what, shape))


def _check_operator(node, num_inputs, what):
    """Operator parameters converted by the operator table (types and ranges), and counts of
    inputs and outputs that agree with them. An attribute that is no parameter of an operator
    taking parameters is refused, as MXNet's parser refuses it (mirrored keys such as
    ``lr_mult`` and ``__dunder__`` keys are attributes)."""
    op = node.op
    if op.params:
        for k in node.attrs:
            if k not in op.params and k not in _HIDDEN_KEYS and \
                    not (k.startswith('__') and k.endswith('__')):
                raise registry.unknown_argument(op, k)
    try:
        params = node.params
    except MXNetError as err:
        raise _Bad('%s: %s' % (what, err)) from None
    key = op.key_var_num_args
    count = params.get(key) if key else None
    if count is not None:
        # a variadic operator's inputs are exactly its count; a control-flow operator also
        # counts its subgraphs
        exact = op.input_rule is None
        if count < 0 or count > num_inputs + len(node.subgraphs) or \
                (exact and count != num_inputs):
            raise _Bad('%s: %s=%d but the node has %d inputs' % (what, key, count, num_inputs))
    if not op.variadic:
        names = op.list_inputs(params)
        if len(node.inputs) > len(names):
            raise _Bad('%s: operator %s takes %d inputs (%s), the node has %d'
                       % (what, op.name, len(names), ', '.join(names), len(node.inputs)))
        _add_missing_inputs(node)
    outputs = node.num_outputs()
    if not 0 < outputs <= MAX_OUTPUTS:
        raise _Bad('%s declares %d outputs (at most %d)' % (what, outputs, MAX_OUTPUTS))


def _add_missing_inputs(node):
    """Files from before MXNet 0.9 omit auxiliary-state variables: create them."""
    names = node.op.list_inputs(node.params)
    if len(node.inputs) >= len(names):
        return
    for iname in names[len(node.inputs):]:
        attrs = {}
        if iname in node.op.input_init:
            attrs['__init__'] = node.op.input_init[iname]
        node.inputs.append((Node(None, '%s_%s' % (node.name, iname), attrs), 0))


def _write(value, indent, multi):
    """Render like dmlc's JSONWriter: arrays of more than 10 items and maps of more than one
    entry go one item per line (", " then newline), everything else on one line."""
    pad = ' ' * (indent + 2)
    if isinstance(value, dict):
        items = ['"%s": %s' % (k, _write(v, indent + 2, False)) for k, v in value.items()]
        if not items:
            return '{}'
        if multi or len(items) > 1:
            return '{\n' + ', \n'.join(pad + i for i in items) + '\n' + ' ' * indent + '}'
        return '{' + items[0] + '}'
    if isinstance(value, list):
        if not value:
            return '[]'
        if multi or len(value) > 10:
            items = [_write(v, indent + 2, False) for v in value]
            return '[\n' + ', \n'.join(pad + i for i in items) + '\n' + ' ' * indent + ']'
        return '[' + ', '.join(_write(v, indent, False) for v in value) + ']'
    return json.dumps(value)


_NP_SHAPE_ATTRS = _write({'is_np_shape': ['int', 1], 'mxnet_version': ['int', 10901]}, 2, False)


def graph_to_json(nodes, arg_nodes, row_ptr, heads, indent=0):
    """MXNet's symbol JSON text, laid out byte for byte as MXNet 1.9.1 writes it.

    A node is (op, name, attrs, inputs) or (op, name, attrs, inputs, subgraphs), each
    subgraph being the arguments of this function for the graph a control-flow operator runs;
    ``indent`` is the depth of a subgraph, which has no version attribute."""
    pad = ' ' * indent
    jnodes = []
    for op, name, attrs, inputs, *sub in nodes:
        parts = ['"op": %s' % json.dumps(op), '"name": %s' % json.dumps(name)]
        if attrs:
            parts.append('"attrs": %s' % _write(dict(sorted(attrs.items())), indent + 6, False))
        parts.append('"inputs": %s' % _write(inputs, indent + 6, False))
        if sub and sub[0]:
            graphs = [' ' * (indent + 8) + graph_to_json(*g, indent=indent + 8) for g in sub[0]]
            parts.append('"subgraphs": [\n' + ', \n'.join(graphs) + '\n' + pad + '      ]')
        jnodes.append(pad + '    {\n' + ', \n'.join(pad + '      ' + p for p in parts) +
                      '\n' + pad + '    }')
    body = [
        '"nodes": [\n' + ', \n'.join(jnodes) + '\n' + pad + '  ]' if jnodes else '"nodes": []',
        '"arg_nodes": %s' % _write(arg_nodes, indent + 2, False),
        '"node_row_ptr": %s' % _write(row_ptr, indent + 2, False),
        '"heads": %s' % _write(heads, indent + 2, False),
    ]
    if not indent:  # MXNet marks a graph written in NumPy-shape mode (-1: unknown sizes)
        body.append('"attrs": ' + (_NP_SHAPE_ATTRS if is_np_shape() else
                                   '{"mxnet_version": ["int", 10901]}'))
    return '{\n' + ', \n'.join(pad + '  ' + b for b in body) + '\n' + pad + '}'
