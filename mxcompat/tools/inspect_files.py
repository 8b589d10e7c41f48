"""``mxcompat inspect FILE``: what an MXNet parameter file or symbol JSON file holds.

A parameter file (``.params``, ``mx.nd.save``; told apart from JSON by its first bytes) is
described as::

    {"file": str, "kind": "params",
     "layout": "checkpoint" (all keys arg:/aux:) | "named" (other dicts) | "list",
     "arrays": [{"name": str or null (list files), "shape": [int, ...], "dtype": str,
                 "size": int (elements), "bytes": int}, ...]   (in file order),
     "totals": {"count": int, "elements": int, "bytes": int}}

and a symbol JSON file as::

    {"file": str, "kind": "symbol", "nodes": int (top-level nodes),
     "inputs": {"data": [str], "parameters": [str], "auxiliary_states": [str]},
     "outputs": [str] or null,
     "operators": {op name: number of nodes, subgraphs included},
     "unsupported_operators": [{"op": str, "count": int, "in_mxnet": bool}, ...]}

``inputs`` follow ``list_arguments()`` and ``list_auxiliary_states()``; an argument is a
parameter when its name looks like one to MXNet (ends with ``_weight``, ``_bias``, ``_gamma``,
``_beta``, ``_moving_mean``, ``_moving_var``, ``_running_mean`` or ``_running_var``), else data
(labels included). ``unsupported_operators`` lists the operators mxcompat's operator table
lacks (``in_mxnet``: whether MXNet 1.9.1 registers it). When there are any, the graph cannot be
built, so ``inputs`` lists the variables in file order as data or parameters by name alone
(``auxiliary_states`` empty) and ``outputs`` is null. A file that is neither, or is corrupt,
raises MXNetError naming it and the problem.
"""
import collections
import json
import sys

from ..base import MXNetError
from ..visualization import _WEIGHT_SUFFIXES

__all__ = ['inspect_file', 'format_text', 'add_arguments', 'run', 'PARAM_SUFFIXES']

PARAM_SUFFIXES = _WEIGHT_SUFFIXES
"""Names of symbol inputs MXNet's tools treat as parameters (mx.viz's ``hide_weights``)."""
_MAX_DEPTH = 32
_HEADER = b'\x12\x01\x00\x00\x00\x00\x00\x00'  # u64 0x112, the NDArray file magic


def inspect_file(path):
    """Describe the parameter or symbol JSON file ``path`` (the module docstring's schema)."""
    try:
        with open(path, 'rb') as f:
            head = f.read(8)
    except OSError as err:
        raise MXNetError('cannot read "%s": %s' % (path, err.strerror or err)) from None
    if head == _HEADER:
        return _inspect_params(path)
    if head.lstrip()[:1] == b'{':
        return _inspect_symbol(path)
    raise MXNetError('%s is neither an MXNet parameter file (it does not start with the '
                     'NDArray file header) nor symbol JSON' % path)


def _inspect_params(path):
    from .convert import read_params
    keys, tensors = read_params(path, mapped=True)  # shapes and types: no array is read
    arrays = []
    for i, t in enumerate(tensors):
        arrays.append({'name': keys[i] if keys else None, 'shape': list(t.shape),
                       'dtype': str(t.dtype).replace('torch.', ''), 'size': t.numel(),
                       'bytes': t.numel() * t.element_size()})
    if keys is None:
        layout = 'list'
    elif keys and all(k.startswith(('arg:', 'aux:')) for k in keys):
        layout = 'checkpoint'
    else:
        layout = 'named'
    totals = {'count': len(arrays), 'elements': sum(a['size'] for a in arrays),
              'bytes': sum(a['bytes'] for a in arrays)}
    return {'file': path, 'kind': 'params', 'layout': layout, 'arrays': arrays,
            'totals': totals}


def _graph_ops(graph, path, depth, counts):
    """Count the operators of a parsed symbol JSON graph (subgraphs included) into
    ``counts``; returns its top-level node list."""
    if depth > _MAX_DEPTH:
        raise MXNetError('Invalid symbol JSON (%s): subgraphs nest deeper than %d levels'
                         % (path, _MAX_DEPTH))
    nodes = graph.get('nodes') if type(graph) is dict else None
    if type(nodes) is not list:
        raise MXNetError('Invalid symbol JSON (%s): a graph must be an object with a "nodes" '
                         'list' % path)
    for i, node in enumerate(nodes):
        if type(node) is not dict or type(node.get('op')) is not str or \
                type(node.get('name')) is not str:
            raise MXNetError('Invalid symbol JSON (%s): node %d must be an object with string '
                             '"op" and "name"' % (path, i))
        counts[node['op']] += 1
        subgraphs = node.get('subgraphs') or []
        if type(subgraphs) is not list:
            raise MXNetError('Invalid symbol JSON (%s): node %d: "subgraphs" must be a list'
                             % (path, i))
        for g in subgraphs:
            _graph_ops(g, path, depth + 1, counts)
    return nodes


def _split_inputs(names):
    params = [n for n in names if n.endswith(PARAM_SUFFIXES)]
    return [n for n in names if not n.endswith(PARAM_SUFFIXES)], params


def _inspect_symbol(path):
    from ..ops import registry
    from ..utils.mxnet_api import is_operator
    from ..symbol import Symbol
    from ..symbol.json_format import graph_from_json, parse_json
    with open(path, 'rb') as f:
        raw = f.read()
    graph = parse_json(raw, path)
    counts = collections.Counter()
    nodes = _graph_ops(graph, path, 0, counts)
    known = registry.all_ops()
    unsupported = [{'op': op, 'count': n, 'in_mxnet': is_operator(op)}
                   for op, n in sorted(counts.items())
                   if op not in ('null', 'Custom') and op not in known]
    operators = {op: n for op, n in sorted(counts.items()) if op != 'null'}
    if unsupported:
        data, params = _split_inputs([n['name'] for n in nodes if n['op'] == 'null'])
        inputs = {'data': data, 'parameters': params, 'auxiliary_states': []}
        outputs = None
    else:
        sym = Symbol(graph_from_json(raw, path))
        data, params = _split_inputs(sym.list_arguments())
        inputs = {'data': data, 'parameters': params,
                  'auxiliary_states': sym.list_auxiliary_states()}
        outputs = sym.list_outputs()
    return {'file': path, 'kind': 'symbol', 'nodes': len(nodes), 'inputs': inputs,
            'outputs': outputs, 'operators': operators, 'unsupported_operators': unsupported}


# ------------------------------------------------------------------------------- text
def _table(rows):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ['  ' + '  '.join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]


def _shape(shape):
    return '(%s)' % ', '.join(str(d) for d in shape) if len(shape) != 1 else '(%d,)' % shape[0]


def format_text(report):
    """The report of :func:`inspect_file` as text."""
    lines = []
    if report['kind'] == 'params':
        t = report['totals']
        lines.append('%s: MXNet parameter file (%s)' % (report['file'], {
            'list': 'a list of arrays', 'named': 'named arrays',
            'checkpoint': 'a Module checkpoint, arg:/aux: arrays'}[report['layout']]))
        rows = [('name', 'shape', 'dtype', 'elements', 'bytes')]
        for i, a in enumerate(report['arrays']):
            rows.append((a['name'] if a['name'] is not None else '[%d]' % i, _shape(a['shape']),
                         a['dtype'], str(a['size']), str(a['bytes'])))
        lines.extend(_table(rows))
        lines.append('total: %d arrays, %d elements, %d bytes'
                     % (t['count'], t['elements'], t['bytes']))
        return '\n'.join(lines)
    inputs = report['inputs']
    lines.append('%s: MXNet symbol graph, %d nodes' % (report['file'], report['nodes']))
    lines.append('data inputs: %s' % (', '.join(inputs['data']) or '-'))
    lines.append('parameters (%d): %s' % (len(inputs['parameters']),
                                          ', '.join(inputs['parameters']) or '-'))
    lines.append('auxiliary states (%d): %s' % (len(inputs['auxiliary_states']),
                                                ', '.join(inputs['auxiliary_states']) or '-'))
    lines.append('outputs: %s' % (', '.join(report['outputs']) if report['outputs'] is not None
                                  else 'unknown (the graph uses operators mxcompat lacks)'))
    lines.append('operators:')
    lines.extend(_table([(op, str(n)) for op, n in sorted(report['operators'].items(),
                                                           key=lambda kv: (-kv[1], kv[0]))])
                 if report['operators'] else ['  -'])
    bad = report['unsupported_operators']
    if bad:
        lines.append('operators mxcompat does not support:')
        lines.extend('  %s (%d node%s%s)' % (u['op'], u['count'], 's' if u['count'] > 1 else '',
                                             '' if u['in_mxnet'] else
                                             '; not an operator of MXNet 1.9.1 either')
                     for u in bad)
    else:
        lines.append('operators mxcompat does not support: none')
    return '\n'.join(lines)


# ------------------------------------------------------------------------------- command
def add_arguments(parser):
    """Add ``mxcompat inspect``'s arguments to ``parser``."""
    parser.add_argument('file', metavar='FILE', help='a .params / mx.nd.save file or a '
                                                     '-symbol.json file')
    parser.add_argument('--json', action='store_true',
                        help='print the report as JSON (schema: the docstring of '
                             'mxcompat/tools/inspect_files.py)')


def run(args):
    """Run ``mxcompat inspect`` with parsed ``args``; returns the exit status."""
    from .convert import _one_line
    try:
        report = inspect_file(args.file)
    except (MXNetError, OSError) as err:
        sys.stderr.write('mxcompat inspect: error: %s\n' % _one_line(err))
        return 1
    if args.json:
        json.dump(report, sys.stdout, indent=1)
        sys.stdout.write('\n')
    else:
        print(format_text(report))
    return 0
