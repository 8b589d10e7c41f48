"""Monitor callback names from real MXNet.

``Executor.set_monitor_callback`` on small symbols, with ``monitor_all`` (each operator input
is reported as ``<node>_<input name>``, the name coming from the operator's FListInputNames or
else ``input0``, ``input1``, ...; a variable input also under its own name) and without; and
``HybridBlock.register_op_hook`` on hybridized Gluon blocks, as MXNet's test_op_all_names_monitor
and test_op_hook_output_names do. Each name is recorded with the shape of its array. The same
``run(mx)`` executes under mxcompat in tests/test_monitor_names.py.
"""
import ctypes
import json
import os
from unittest import mock

DATA = (2, 3, 4, 4)


def _symbols(mx):
    """[(case id, symbol, {input name: shape})]; the inputs data, a, b and cond are shaped
    ``DATA`` unless listed."""
    sym = mx.sym
    data, a, b = sym.Variable('data'), sym.Variable('a'), sym.Variable('b')
    with mx.name.NameManager():
        plus = a + b
    net = sym.FullyConnected(data, num_hidden=5, name='fc1')
    net = sym.Activation(net, act_type='relu', name='relu1')
    net = sym.FullyConnected(net, num_hidden=3, name='fc2')
    net = sym.SoftmaxOutput(net, sym.Variable('label'), name='sm')
    return [
        ('Convolution', sym.Convolution(data, kernel=(2, 2), num_filter=1, name='conv'), {}),
        ('Convolution-no_bias', sym.Convolution(data, kernel=(2, 2), num_filter=1, no_bias=True,
                                                name='conv'), {}),
        ('Deconvolution', sym.Deconvolution(data, kernel=(2, 2), num_filter=1, name='deconv'),
         {}),
        ('FullyConnected', sym.FullyConnected(data, num_hidden=5, name='fc'), {}),
        ('LRN', sym.LRN(data, nsize=1, name='lrn'), {}),
        ('Activation', sym.Activation(data, act_type='relu', name='act'), {}),
        ('Concat', sym.concat(data, data, dim=0, name='concat'), {}),
        ('softmax', sym.softmax(data, name='softmax'), {}),
        ('softmax-length', sym.softmax(data, sym.Variable('length'), axis=1, use_length=True,
                                       name='softmax'), {'length': (2, 4, 4)}),
        ('SoftmaxActivation', sym.SoftmaxActivation(data, name='softmax'), {}),
        ('UpSampling', sym.UpSampling(data, scale=2, sample_type='nearest', name='upsampling'),
         {}),
        ('Pooling-avg', sym.Pooling(data, kernel=(2, 2), pool_type='avg', name='pooling'), {}),
        ('Pooling-max', sym.Pooling(data, kernel=(2, 2), pool_type='max', name='pooling'), {}),
        ('elemwise_add', sym.elemwise_add(a, b, name='add'), {}),
        ('plus', plus, {}),
        ('broadcast_add', sym.broadcast_add(a, b, name='badd'), {'b': (1, 3, 1, 4)}),
        ('relu', sym.relu(data, name='relu'), {}),
        ('BatchNorm', sym.BatchNorm(data, name='bn'), {}),
        ('Dropout', sym.Dropout(data, p=0.5, name='drop'), {}),
        ('Flatten', sym.Flatten(data, name='flat'), {}),
        ('Reshape', sym.Reshape(data, shape=(2, -1), name='reshape'), {}),
        ('sum', sym.sum(data, axis=1, name='sum'), {}),
        ('plus_scalar', sym._internal._plus_scalar(data, scalar=1.0, name='ps'), {}),
        ('transpose', sym.transpose(data, name='tr'), {}),
        ('stack', sym.stack(a, b, axis=0, name='stack'), {}),
        ('add_n', sym.add_n(a, b, data, name='addn'), {}),
        ('where', sym.where(sym.Variable('cond'), a, b, name='where'), {}),
        ('dot', sym.dot(sym.Variable('x'), sym.Variable('y'), name='dot'),
         {'x': (2, 3), 'y': (3, 4)}),
        ('LeakyReLU-prelu', sym.LeakyReLU(data, act_type='prelu', name='prelu'), {}),
        ('Embedding', sym.Embedding(sym.Variable('idx'), input_dim=4, output_dim=2, name='emb'),
         {'idx': (2, 3)}),
        ('SliceChannel', sym.split(data, num_outputs=3, axis=1, name='split'), {}),
        ('make_loss', sym.make_loss(data, name='loss'), {}),
        ('network', net, {'label': (2,)}),
    ]


def _array(mx, arr):
    """The NDArray a callback received, as MXNet's callbacks are written (MXNet passes a
    handle; mxcompat an array, which ctypes.cast turns into its handle)."""
    return mx.nd.NDArray(ctypes.cast(arr, mx.base.NDArrayHandle), writable=False)


def _name(s):
    return s.decode() if isinstance(s, bytes) else s


def _monitor(mx, symbol, shapes, monitor_all):
    """[[name, shape]] the executor's monitor callback reports in one forward pass."""
    seen = []

    def callback(name, arr):
        seen.append([_name(name), list(_array(mx, arr).shape)])
    # softmax's length must be integers
    types = {'data': 'float32', 'length': 'int32'} if 'length' in shapes else None
    exe = symbol.simple_bind(mx.cpu(), grad_req='null', type_dict=types, **shapes)
    for arr in exe.arg_arrays + exe.aux_arrays:
        arr[:] = 1
    exe.set_monitor_callback(callback, monitor_all=monitor_all)
    exe.forward()
    mx.nd.waitall()
    return seen


def _executor_cases(mx):
    out = {}
    for cid, symbol, shapes in _symbols(mx):
        args = symbol.list_arguments()
        shapes = dict({n: DATA for n in ('data', 'a', 'b', 'cond') if n in args}, **shapes)
        outputs = _monitor(mx, symbol, shapes, False)
        visible = set(symbol.get_internals().list_outputs())
        out[cid] = {'all': _monitor(mx, symbol, shapes, True), 'outputs': outputs,
                    # outputs MXNet keeps for the backward pass and hides from list_outputs
                    'hidden': [n for n, _ in outputs if n not in visible]}
    return out


def _hook(mx, block, x, monitor_all, **hybridize):
    """[[name, operator, shape]] a hybridized block's op hook reports in one call."""
    seen = []

    def callback(name, op_name, arr):
        seen.append([_name(name), _name(op_name), list(_array(mx, arr).shape)])
    block.initialize()
    block.hybridize(**hybridize)
    block.register_op_hook(callback, monitor_all)
    block(x)
    mx.nd.waitall()
    return seen


def _gluon_cases(mx):
    nn = mx.gluon.nn

    def seq(prefix, *layers):
        net = nn.HybridSequential(prefix=prefix)
        with net.name_scope():
            net.add(*[layer() for layer in layers])
        return net
    x, img = mx.nd.ones((2, 3, 4)), mx.nd.ones(DATA)
    dense_relu = (lambda: nn.Dense(2), lambda: nn.Activation('relu'))
    convnet = (lambda: nn.Conv2D(2, 3), nn.BatchNorm, lambda: nn.Activation('relu'),
               nn.MaxPool2D, lambda: nn.Dense(3))
    return {
        'dense': _hook(mx, seq('dense_', lambda: nn.Dense(2)), x, False),
        'relu': _hook(mx, seq('relu_', lambda: nn.Activation('relu')), x, False),
        'avgpool-all': _hook(mx, seq('pool_', nn.AvgPool1D), x, True),
        'dense-relu-all': _hook(mx, seq('dense_', *dense_relu), x, True),
        'dense-relu-all-static': _hook(mx, seq('dense_', *dense_relu), x, True,
                                       static_alloc=True),
        'convnet-all': _hook(mx, seq('net_', *convnet), img, True),
        'concat-all': _hook(mx, nn.HybridLambda(lambda F, v: F.concat(v, v, dim=1),
                                                prefix='cat_'), img, True),
    }


def _reshaped(mx):
    """[[name, shape]] reported by executors reshaped from a monitored one (smaller and, with
    allow_up_sizing, larger): they keep its callback, as test_monitor_with_variable_input_shape
    relies on."""
    seen = []
    exe = mx.sym.relu(mx.sym.Variable('x'), name='r').simple_bind(mx.cpu(), x=(4, 3))
    exe.set_monitor_callback(lambda name, arr: seen.append([_name(name),
                                                            list(_array(mx, arr).shape)]),
                             monitor_all=True)
    exe.reshape(x=(2, 3)).forward()
    exe.reshape(x=(8, 3), allow_up_sizing=True).forward()
    mx.nd.waitall()
    return seen


def run(mx):
    """{'executor': {case id: {'all', 'outputs': [[name, shape]], 'hidden': [name]}},
    'gluon': {case id: [[name, operator, shape]]}, 'reshaped': [[name, shape]]}."""
    # no fused subgraph nodes in MXNet's graphs, as its test has it
    with mock.patch.dict(os.environ, MXNET_SUBGRAPH_BACKEND='NONE'):
        return {'executor': _executor_cases(mx), 'gluon': _gluon_cases(mx),
                'reshaped': _reshaped(mx)}


def write(mx, outdir):
    path = os.path.join(outdir, 'monitor_names.json')
    with open(path + '.tmp', 'w') as f:
        json.dump(run(mx), f, indent=1, sort_keys=True)
    os.replace(path + '.tmp', path)
