"""Visualization of symbol graphs (``mx.viz``): a layer table and a Graphviz drawing."""
import copy
import json
import re
import warnings

from .symbol import Symbol

__all__ = ['print_summary', 'plot_network']

_WEIGHT_SUFFIXES = ('_weight', '_bias', '_beta', '_gamma', '_moving_var', '_moving_mean',
                    '_running_var', '_running_mean')
# fill colours of the drawing, by kind of node
_COLORS = ('#8dd3c7', '#fb8072', '#ffffb3', '#bebada', '#80b1d3', '#fdb462', '#b3de69',
           '#fccde5')


def _str2tuple(string):
    """The numbers in a shape string such as '(3, 3)', as strings."""
    return re.findall(r'\d+', string)


def _internal_shapes(symbol, shape):
    internals = symbol.get_internals()
    _, out_shapes, _ = internals.infer_shape(**shape)
    if out_shapes is None:
        raise ValueError('Input shape is incomplete')
    return dict(zip(internals.list_outputs(), out_shapes))


def _print_row(fields, positions):
    line = ''
    for field, end in zip(fields, positions):
        line = (line + str(field))[:end]
        line += ' ' * (end - len(line))
    print(line)


def _layer_params(node, pre_filter, shape_dict):
    """Parameter count of one layer as MXNet's summary counts it (only Convolution,
    FullyConnected, BatchNorm and Embedding have any)."""
    op, attrs = node['op'], node.get('attrs', {})
    if op == 'Convolution':
        count = pre_filter * int(attrs['num_filter']) // int(attrs.get('num_group', '1'))
        for k in _str2tuple(attrs['kernel']):
            count *= int(k)
        if attrs.get('no_bias') != 'True':
            count += int(attrs['num_filter'])
        return count
    if op == 'FullyConnected':
        units = int(attrs['num_hidden'])
        return pre_filter * units if attrs.get('no_bias') == 'True' else (pre_filter + 1) * units
    if op == 'BatchNorm':
        if shape_dict is None:
            return 0
        return int(shape_dict[node['name'] + '_output'][1]) * 2
    if op == 'Embedding':
        return int(attrs['input_dim']) * int(attrs['output_dim'])
    return 0


def print_summary(symbol, shape=None, line_length=120, positions=(.44, .64, .74, 1.)):
    """Convert symbol for detail information.

    Parameters
    ----------
    symbol: Symbol
        Symbol to be visualized.
    shape: dict
        A dict of shapes, str->shape (tuple), given input shapes.
    line_length: int
        Rotal length of printed lines
    positions: list
        Relative or absolute positions of log elements in each line.

    Returns
    ------
    None

    Notes
    -----
    If ``mxnet`` is imported, the visualization module can be used in its short-form.
    For example, if we ``import mxnet`` as follows::

        import mxnet

    this method in visualization module can be used in its short-form as::

        mxnet.viz.print_summary(...)

    """
    if not isinstance(symbol, Symbol):
        raise TypeError('symbol must be Symbol')
    shape_dict = _internal_shapes(symbol, shape) if shape is not None else None
    conf = json.loads(symbol.tojson())
    nodes = conf['nodes']
    # MXNet takes the set of numbers of the first head entry ([node, index, version])
    heads = set(conf['heads'][0])
    positions = list(positions)
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]

    def entry_shape(node):
        key = node['name'] + '_output' if node['op'] != 'null' else node['name']
        return shape_dict.get(key) if shape_dict is not None else None

    print('_' * line_length)
    _print_row(['Layer (type)', 'Output Shape', 'Param #', 'Previous Layer'], positions)
    print('=' * line_length)
    total_params = 0
    for i, node in enumerate(nodes):
        if node['op'] == 'null' and i > 0:
            continue
        out_shape = []
        if node['op'] != 'null' or i in heads:
            found = entry_shape(node)
            if found is not None:
                out_shape = found[1:]
        previous, pre_filter = [], 0
        if node['op'] != 'null':
            for item in node['inputs']:
                source = nodes[item[0]]
                if source['op'] != 'null' or item[0] in heads:
                    previous.append(source['name'])
                    found = entry_shape(source)
                    if found is not None:
                        pre_filter += int(found[1:][0])
        params = _layer_params(node, pre_filter, shape_dict)
        total_params += params
        _print_row([node['name'] + '(' + node['op'] + ')', 'x'.join(str(x) for x in out_shape),
                    params, previous[0] if previous else ''], positions)
        for name in previous[1:]:
            _print_row(['', '', '', name], positions)
        print(('=' if i == len(nodes) - 1 else '_') * line_length)
    print('Total params: {params}'.format(params=total_params))
    print('_' * line_length)


def _node_style(node, base):
    """(label, attributes) of one drawn node."""
    attr = copy.deepcopy(base)
    op, name, attrs = node['op'], node['name'], node.get('attrs', {})
    label = name
    color = _COLORS[7]
    if op == 'null':
        attr['shape'] = 'oval'
        color = _COLORS[0]
    elif op == 'Convolution':
        label = 'Convolution\n{kernel}/{stride}, {filter}'.format(
            kernel='x'.join(_str2tuple(attrs['kernel'])),
            stride='x'.join(_str2tuple(attrs['stride'])) if 'stride' in attrs else '1',
            filter=attrs['num_filter'])
        color = _COLORS[1]
    elif op == 'FullyConnected':
        label = 'FullyConnected\n{hidden}'.format(hidden=attrs['num_hidden'])
        color = _COLORS[1]
    elif op == 'BatchNorm':
        color = _COLORS[3]
    elif op == 'Activation':
        label = 'Activation\n{activation}'.format(activation=attrs['act_type'])
        color = _COLORS[2]
    elif op == 'LeakyReLU':
        label = 'LeakyReLU\n{activation}'.format(activation=attrs.get('act_type', 'Leaky'))
        color = _COLORS[2]
    elif op == 'Pooling':
        label = 'Pooling\n{pooltype}, {kernel}/{stride}'.format(
            pooltype=attrs['pool_type'],
            kernel='x'.join(_str2tuple(attrs['kernel'])) if 'kernel' in attrs else '[]',
            stride='x'.join(_str2tuple(attrs['stride'])) if 'stride' in attrs else '1')
        color = _COLORS[4]
    elif op in ('Concat', 'Flatten', 'Reshape'):
        color = _COLORS[5]
    elif op == 'Softmax':
        color = _COLORS[6]
    elif op == 'Custom':
        label = attrs['op_type']
    attr['fillcolor'] = color
    return label, attr


def plot_network(symbol, title='plot', save_format='pdf', shape=None, dtype=None, node_attrs={},
                 hide_weights=True):
    """Creates a visualization (Graphviz digraph object) of the given computation graph.
    Graphviz must be installed for this function to work.

    Parameters
    ----------
    title: str, optional
        Title of the generated visualization.
    symbol: Symbol
        A symbol from the computation graph. The generated digraph will visualize the part
        of the computation graph required to compute `symbol`.
    shape: dict, optional
        Specifies the shape of the input tensors. If specified, the visualization will include
        the shape of the tensors between the nodes. `shape` is a dictionary mapping
        input symbol names (str) to the corresponding tensor shape (tuple).
    dtype: dict, optional
        Specifies the type of the input tensors. If specified, the visualization will include
        the type of the tensors between the nodes. `dtype` is a dictionary mapping
        input symbol names (str) to the corresponding tensor type (e.g. `numpy.float32`).
    node_attrs: dict, optional
        Specifies the attributes for nodes in the generated visualization. `node_attrs` is
        a dictionary of Graphviz attribute names and values. For example::

            node_attrs={"shape":"oval","fixedsize":"false"}

        will use oval shape for nodes and allow variable sized nodes in the visualization.
    hide_weights: bool, optional
        If True (default), then inputs with names of form *_weight* (corresponding to weight
        tensors) or *_bias* (corresponding to bias vectors) will be hidden for a cleaner
        visualization.

    Returns
    -------
    dot: Digraph
        A Graphviz digraph object visualizing the computation graph to compute `symbol`.

    Example
    -------
    >>> net = mx.sym.Variable('data')
    >>> net = mx.sym.FullyConnected(data=net, name='fc1', num_hidden=128)
    >>> net = mx.sym.Activation(data=net, name='relu1', act_type="relu")
    >>> net = mx.sym.FullyConnected(data=net, name='fc2', num_hidden=10)
    >>> net = mx.sym.SoftmaxOutput(data=net, name='out')
    >>> digraph = mx.viz.plot_network(net, shape={'data':(100,200)},
    ... node_attrs={"fixedsize":"false"})
    >>> digraph.view()
    """
    try:
        from graphviz import Digraph
    except ImportError:
        raise ImportError('Draw network requires graphviz library: install the Python package '
                          '`graphviz` (pip install graphviz) and the Graphviz binaries') from None
    if not isinstance(symbol, Symbol):
        raise TypeError('symbol must be a Symbol')
    shape_dict = _internal_shapes(symbol, shape) if shape is not None else None
    type_dict = None
    if dtype is not None:
        internals = symbol.get_internals()
        _, out_types, _ = internals.infer_type(**dtype)
        if out_types is None:
            raise ValueError('Input type is incomplete')
        type_dict = dict(zip(internals.list_outputs(), out_types))
    nodes = json.loads(symbol.tojson())['nodes']
    names = [node['name'] for node in nodes]
    if len(names) != len(set(names)):
        repeated, seen = [], set()
        for n in names:
            if n in seen and n not in repeated:
                repeated.append(n)
            seen.add(n)
        warnings.warn('There are multiple variables with the same name in your graph, this may '
                      'result in cyclic graph. Repeated names: ' + ','.join(repeated),
                      RuntimeWarning)
    base = {'shape': 'box', 'fixedsize': 'true', 'width': '1.3', 'height': '0.8034',
            'style': 'filled'}
    base.update(node_attrs)
    dot = Digraph(name=title, format=save_format)

    hidden = set()
    for node in nodes:
        if node['op'] == 'null' and node['name'].endswith(_WEIGHT_SUFFIXES):
            # hidden weights get no node and no edge; shown ones get no node of their own and
            # graphviz draws them as plain ovals through their edges
            if hide_weights:
                hidden.add(node['name'])
            continue
        label, attr = _node_style(node, base)
        dot.node(name=node['name'], label=label, **attr)

    def edge_key(source):
        if source['op'] == 'null':
            return source['name']
        key = source['name'] + '_output'
        num_outputs = source.get('attrs', {}).get('num_outputs')
        if num_outputs is not None:  # MXNet labels every edge with the last output's shape
            key += str(int(num_outputs) - 1)
        return key

    for node in nodes:
        if node['op'] == 'null':
            continue
        inputs = node['inputs']
        if node['op'] == '_contrib_BilinearResize2D':
            inputs = inputs[:1]
        for item in inputs:
            source = nodes[item[0]]
            if source['name'] in hidden:
                continue
            attr = {'dir': 'back', 'arrowtail': 'open', 'label': ''}
            if shape_dict is not None:
                attr['label'] = 'x'.join(str(x) for x in shape_dict[edge_key(source)][1:])
            if type_dict is not None:
                attr['label'] += '(' + type_dict[edge_key(source)].__name__ + ')'
            dot.edge(tail_name=node['name'], head_name=source['name'], **attr)
    return dot
