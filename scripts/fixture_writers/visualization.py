"""``mx.viz`` as real MXNet prints and draws: ``print_summary`` text for several networks
and options, and the ``graphviz.Digraph`` calls ``plot_network`` makes, recorded through a
stand-in ``graphviz`` module (RecordingGraphviz) so no Graphviz install is needed.

The networks and the recorder are shared with tests/test_visualization.py.
"""
import contextlib
import io
import json
import os
import sys
import types

import numpy as np


def mlp(mx):
    data = mx.sym.Variable('data')
    net = mx.sym.FullyConnected(data=data, name='fc1', num_hidden=16)
    net = mx.sym.Activation(data=net, name='relu1', act_type='relu')
    net = mx.sym.FullyConnected(data=net, name='fc2', num_hidden=8, no_bias=True)
    net = mx.sym.LeakyReLU(data=net, name='lrelu', act_type='elu')
    net = mx.sym.FullyConnected(data=net, name='fc3', num_hidden=4)
    return mx.sym.SoftmaxOutput(data=net, name='softmax')


def convnet(mx):
    data = mx.sym.Variable('data')
    a = mx.sym.Convolution(data, kernel=(3, 3), pad=(1, 1), num_filter=8, name='conv_a')
    a = mx.sym.BatchNorm(a, name='bn_a')
    a = mx.sym.Activation(a, act_type='relu', name='relu_a')
    b = mx.sym.Convolution(data, kernel=(1, 1), num_filter=4, no_bias=True, name='conv_b')
    net = mx.sym.Concat(a, b, dim=1, name='concat')
    net = mx.sym.Convolution(net, kernel=(3, 3), stride=(2, 2), num_filter=6, num_group=2,
                             name='conv_g')
    net = mx.sym.Pooling(net, kernel=(2, 2), stride=(2, 2), pool_type='max', name='pool')
    net = mx.sym.Pooling(net, global_pool=True, pool_type='avg', kernel=(1, 1), name='gpool')
    net = mx.sym.Flatten(net, name='flat')
    net = mx.sym.FullyConnected(net, num_hidden=5, name='fc')
    return mx.sym.softmax(net, name='prob')


def lstm(mx):
    import_rnn(mx)
    data = mx.sym.Variable('data')
    emb = mx.sym.Embedding(data, input_dim=20, output_dim=6, name='embed')
    cell = mx.rnn.LSTMCell(5, prefix='lstm_')
    outputs, _ = cell.unroll(3, emb, layout='NTC', merge_outputs=True)
    pred = mx.sym.Reshape(outputs, shape=(-1, 5))
    pred = mx.sym.FullyConnected(pred, num_hidden=20, name='pred')
    return mx.sym.SoftmaxOutput(pred, name='softmax')


def import_rnn(mx):
    if not hasattr(mx, 'rnn'):
        import importlib
        mx.rnn = importlib.import_module(mx.__name__ + '.rnn')


NETS = {'mlp': (mlp, {'data': (10, 20)}),
        'convnet': (convnet, {'data': (2, 3, 8, 8)}),
        'lstm': (lstm, {'data': (4, 3)})}

# id -> (net, print_summary keyword arguments other than the symbol); shape True: the net's
SUMMARIES = {
    'mlp': ('mlp', dict(shape=True)),
    'mlp-noshape': ('mlp', dict()),
    'mlp-narrow': ('mlp', dict(shape=True, line_length=80)),
    'mlp-absolute-positions': ('mlp', dict(shape=True, positions=[30, 50, 60, 90],
                                           line_length=90)),
    'convnet': ('convnet', dict(shape=True)),
    'convnet-noshape': ('convnet', dict()),
    'lstm': ('lstm', dict(shape=True)),
}

PLOTS = {
    'mlp': ('mlp', dict(shape=True, node_attrs={'fixedsize': 'false'})),
    'mlp-plain': ('mlp', dict(title='net', save_format='png')),
    'convnet': ('convnet', dict(shape=True, dtype={'data': np.float32}, hide_weights=False)),
    'lstm': ('lstm', dict(shape=True)),
}


class _RecordingDigraph:
    """Stands in for graphviz.Digraph and records every call."""

    def __init__(self, name=None, format=None, **kwargs):
        self.calls = [['Digraph', name, format, sorted(kwargs.items())]]

    def node(self, name, label=None, **attrs):
        self.calls.append(['node', name, label, sorted(attrs.items())])

    def edge(self, tail_name, head_name, **attrs):
        self.calls.append(['edge', tail_name, head_name, sorted(attrs.items())])


@contextlib.contextmanager
def recording_graphviz():
    """Make ``import graphviz`` give the recorder while in this block."""
    module = types.ModuleType('graphviz')
    module.Digraph = _RecordingDigraph
    saved = sys.modules.get('graphviz')
    sys.modules['graphviz'] = module
    try:
        yield
    finally:
        if saved is None:
            del sys.modules['graphviz']
        else:
            sys.modules['graphviz'] = saved


def _kwargs(net, options):
    kwargs = dict(options)
    if kwargs.pop('shape', False):
        kwargs['shape'] = NETS[net][1]
    return kwargs


def summary(mx, sid):
    """The text print_summary prints for one case."""
    net, options = SUMMARIES[sid]
    with mx.name.NameManager():
        sym = NETS[net][0](mx)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        mx.viz.print_summary(sym, **_kwargs(net, options))
    return out.getvalue()


def plot_calls(mx, pid):
    """The Digraph calls plot_network makes for one case (labels as JSON would store them)."""
    net, options = PLOTS[pid]
    with mx.name.NameManager():
        sym = NETS[net][0](mx)
    with recording_graphviz():
        dot = mx.viz.plot_network(sym, **_kwargs(net, options))
    return json.loads(json.dumps(dot.calls))


def write(mx, outdir):
    out = {'summary': {sid: summary(mx, sid) for sid in SUMMARIES},
           'plot': {pid: plot_calls(mx, pid) for pid in PLOTS}}
    with open(os.path.join(outdir, 'visualization.json'), 'w') as f:
        json.dump(out, f, indent=1, sort_keys=True)
