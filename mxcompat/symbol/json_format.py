"""Reading MXNet's symbol JSON, every generation of it.

Current files (MXNet >= 1.0) keep operator parameters and user attributes together under
"attrs" and write inputs as [node, output, version]. Older files use "param" (operator
parameters) and "attr" (user attributes), two-element inputs, and files from before 0.9 omit the
auxiliary-state variables (e.g. BatchNorm's moving statistics), which are recreated here.
"""
import json

from ..base import MXNetError
from ..ops import custom, registry
from ..utils.mxnet_api import MXNET_VERSION, UnsupportedOperatorError, is_operator
from .symbol import Node, Symbol

__all__ = ['graph_from_json']


def graph_from_json(text):
    """Parse MXNet symbol JSON into output entries [(Node, index)]."""
    try:
        graph = json.loads(text)
    except ValueError as err:
        raise MXNetError('Failed to parse symbol JSON: %s' % err) from None
    return _graph_from_object(graph)


def _graph_from_object(graph):
    if not isinstance(graph, dict) or not isinstance(graph.get('nodes'), list):
        raise MXNetError('Symbol JSON must be an object with a "nodes" list')
    jnodes = graph['nodes']
    unknown = sorted({n.get('op') for n in jnodes if isinstance(n, dict) and
                      n.get('op') not in (None, 'null', 'Custom') and
                      n.get('op') not in registry.all_ops()})
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
        if not isinstance(jn, dict) or 'name' not in jn or 'op' not in jn:
            raise MXNetError('Symbol JSON node %d must have "op" and "name"' % i)
        attrs = {}
        for key in ('param', 'attr', 'attrs'):
            part = jn.get(key) or {}
            if not isinstance(part, dict):
                raise MXNetError('Symbol JSON node %d ("%s"): "%s" must be an object'
                                 % (i, jn['name'], key))
            attrs.update({str(k): str(v) for k, v in part.items()})
        inputs = []
        for entry in jn.get('inputs', []):
            if not isinstance(entry, list) or len(entry) not in (2, 3):
                raise MXNetError('Symbol JSON node %d ("%s"): bad input entry %r'
                                 % (i, jn['name'], entry))
            src, idx = entry[0], entry[1]
            if not isinstance(src, int) or not 0 <= src < i:
                raise MXNetError('Symbol JSON node %d ("%s"): input refers to node %r, which '
                                 'does not precede it' % (i, jn['name'], src))
            inputs.append((nodes[src], int(idx)))
        if jn['op'] == 'null':
            op = None
        elif jn['op'] == 'Custom':  # each custom operator has its own inputs and parameters
            op = custom.opdef({k: v for k, v in attrs.items()
                               if not (k.startswith('__') and k.endswith('__'))})
        else:
            op = registry.get(jn['op'])
        node = Node(op, jn['name'], attrs, inputs)
        if jn.get('subgraphs'):  # the graphs a control-flow operator runs
            node.subgraphs = [Symbol(_graph_from_object(g)) for g in jn['subgraphs']]
        if op is not None:
            try:
                node.params
            except MXNetError as err:
                raise MXNetError('Symbol JSON node "%s": %s' % (jn['name'], err)) from None
            _add_missing_inputs(node)
        nodes.append(node)
    heads = graph.get('heads')
    if heads is None:
        heads = [[len(nodes) - 1, 0]]
    out = []
    for h in heads:
        if not isinstance(h, list) or len(h) < 2 or not 0 <= h[0] < len(nodes):
            raise MXNetError('Symbol JSON: bad head entry %r' % (h,))
        out.append((nodes[h[0]], int(h[1])))
    return out


def _add_missing_inputs(node):
    """Files from before MXNet 0.9 omit auxiliary-state variables: create them."""
    names = node.op.list_inputs(node.params)
    if node.op.variadic or len(node.inputs) >= len(names):
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
    if not indent:
        body.append('"attrs": {"mxnet_version": ["int", 10901]}')
    return '{\n' + ', \n'.join(pad + '  ' + b for b in body) + '\n' + pad + '}'
