"""Gluon recurrent layers and cells (``mx.gluon.rnn``) as real MXNet runs them.

Every model in MODELS is built by a function of the ``mx`` module it is given, so the test
builds the same models with mxcompat. Parameters are set from a numpy generator seeded by the
parameter's name (``seeded``), inputs and begin states likewise. Written per model: parameter
names and shapes, repr, the outputs (and returned states), and the gradients of the inputs,
the begin states and every parameter for fixed head gradients.
"""
import json
import os
import zlib

import numpy as np

N, T, C = 2, 3, 4


def seeded(key, shape, lo=-0.5, hi=0.5):
    r = np.random.RandomState(zlib.crc32(key.encode()) & 0xffffffff)
    return r.uniform(lo, hi, size=shape).astype(np.float32)


def _layer(cls, hidden, layout='TNC', states=True, seq=None, **kw):
    def build(mx):
        net = getattr(mx.gluon.rnn, cls)(hidden, layout=layout, prefix='m_', **kw)
        shape = (T, N, C) if layout == 'TNC' else (N, T, C)
        # MXNet has no CPU backward for LSTM with projection: forward values only
        return net, {'kind': 'layer', 'shape': shape, 'states': states,
                     'grad': not kw.get('projection_size')}
    return build


def _cell(make, layout='NTC', merge=True, valid=False, as_list=False, steps=T):
    def build(mx):
        net = make(mx.gluon.rnn)
        shape = (N, steps, C) if layout == 'NTC' else (steps, N, C)
        return net, {'kind': 'cell', 'shape': shape, 'layout': layout, 'merge': merge,
                     'valid': valid, 'as_list': as_list, 'steps': steps, 'grad': True}
    return build


def _stack(rnn, hybrid=True):
    net = (rnn.HybridSequentialRNNCell if hybrid else rnn.SequentialRNNCell)(prefix='s_')
    with net.name_scope():
        net.add(rnn.LSTMCell(5, input_size=C))
        net.add(rnn.DropoutCell(0.0))
        net.add(rnn.ResidualCell(rnn.GRUCell(5)))
        net.add(rnn.RNNCell(3, activation='relu'))
    return net


def _bi(rnn):
    return rnn.BidirectionalCell(rnn.LSTMCell(3, prefix='bl_'), rnn.GRUCell(4, prefix='br_'))


def _zoneout(rnn):
    return rnn.ZoneoutCell(rnn.LSTMCell(3, prefix='z_'), zoneout_outputs=0.3,
                           zoneout_states=0.2)


def _in_sequential(mx):
    """A bidirectional LSTM whose input size a HybridSequential's graph infers (the fused
    parameter vector's shape is inferred back through ``_rnn_param_concat``)."""
    net = mx.gluon.nn.HybridSequential(prefix='q_')
    with net.name_scope():
        net.add(mx.gluon.rnn.LSTM(4, bidirectional=True))
        net.add(mx.gluon.nn.Dense(3, flatten=False))
    return net, {'kind': 'layer', 'shape': (T, N, C), 'states': False, 'grad': True}


MODELS = {
    'rnn_relu_2l': _layer('RNN', 5, num_layers=2),
    'rnn_tanh_bi_ntc': _layer('RNN', 4, layout='NTC', activation='tanh', bidirectional=True),
    'rnn_nostate': _layer('RNN', 3, states=False),
    'lstm_2l_bi': _layer('LSTM', 4, num_layers=2, bidirectional=True),
    'lstm_ntc': _layer('LSTM', 5, layout='NTC', input_size=C),
    'lstm_proj': _layer('LSTM', 5, num_layers=2, projection_size=3),
    'lstm_proj_bi_ntc': _layer('LSTM', 4, layout='NTC', bidirectional=True,
                               projection_size=2, num_layers=2),
    'lstm_nostate': _layer('LSTM', 3, states=False, bidirectional=True),
    # projection_size equal to hidden_size (torch's fused kernel cannot tell it is there)
    'lstm_proj_equal': _layer('LSTM', 3, num_layers=2, projection_size=3),
    'lstm_proj_equal_bi_ntc': _layer('LSTM', 2, layout='NTC', bidirectional=True,
                                     projection_size=2, states=False),
    'gru_2l_bi_ntc': _layer('GRU', 4, num_layers=2, layout='NTC', bidirectional=True),
    'gru_tnc': _layer('GRU', 3),
    'cell_rnn_tanh': _cell(lambda rnn: rnn.RNNCell(4, prefix='c_')),
    'cell_rnn_relu_tnc': _cell(lambda rnn: rnn.RNNCell(4, activation='relu', prefix='c_'),
                               layout='TNC', merge=False),
    'cell_lstm': _cell(lambda rnn: rnn.LSTMCell(4, prefix='c_'), merge=None, as_list=True),
    'cell_lstm_valid': _cell(lambda rnn: rnn.LSTMCell(4, prefix='c_'), valid=True),
    'cell_lstm_act': _cell(lambda rnn: rnn.LSTMCell(3, prefix='c_', activation='softsign',
                                                     recurrent_activation='tanh')),
    'cell_gru_tnc': _cell(lambda rnn: rnn.GRUCell(4, prefix='c_'), layout='TNC'),
    'cell_gru_valid_nomerge': _cell(lambda rnn: rnn.GRUCell(3, prefix='c_'), valid=True,
                                    merge=False),
    'stack_hybrid': _cell(_stack),
    'stack_plain_valid': _cell(lambda rnn: _stack(rnn, False), valid=True),
    'bidirectional': _cell(_bi),
    'bidirectional_valid_nomerge': _cell(_bi, valid=True, merge=False),
    'zoneout_predict': _cell(_zoneout),
    'residual_valid': _cell(lambda rnn: rnn.ResidualCell(rnn.GRUCell(C, prefix='g_')),
                            valid=True),
    'lstm_bi_in_sequential': _in_sequential,
}


def build(mx, name):
    return MODELS[name](mx)


def inputs(mx, name, spec, net):
    """The NDArray arguments of the model's call: data and (when used) begin states and
    valid lengths, all seeded."""
    x = mx.nd.array(seeded(name + '/x', spec['shape'], -1, 1))
    args = {'x': x}
    if spec['kind'] == 'layer':
        if spec['states']:
            args['states'] = [mx.nd.array(seeded('%s/s%d' % (name, i), info['shape']))
                              for i, info in enumerate(net.state_info(N))]
    else:
        args['states'] = [mx.nd.array(seeded('%s/s%d' % (name, i), info['shape']))
                          for i, info in enumerate(net.state_info(N))]
        if spec['valid']:
            args['valid'] = mx.nd.array([2, 3][:N])
    return args


def set_params(mx, net, name, spec):
    """Complete deferred shapes with one forward and then seed every parameter."""
    net.initialize()
    forward(mx, net, spec, inputs(mx, name, spec, net))
    for key, p in net.collect_params().items():
        p.set_data(mx.nd.array(seeded(key, p.shape)))


def forward(mx, net, spec, args):
    """The model's outputs as a flat list of NDArrays."""
    x = args['x']
    if spec['kind'] == 'layer':
        out = net(x, args['states']) if 'states' in args else net(x)
    else:
        data = x
        if spec['as_list']:
            data = [x[:, t] for t in range(spec['steps'])]
        out = net.unroll(spec['steps'], data, begin_state=args['states'],
                         layout=spec['layout'], merge_outputs=spec['merge'],
                         valid_length=args.get('valid'))
    flat = []

    def walk(o):
        if isinstance(o, (list, tuple)):
            for i in o:
                walk(i)
        else:
            flat.append(o)
    walk(out)
    return flat


def _same(a, b):
    """Whether two outputs are one array (also as two mxcompat wrappers of one tensor)."""
    return a is b or (getattr(a, '_t', None) is not None and a._t is getattr(b, '_t', None))


def run(mx, net, name, spec):
    """(outputs, {grad key: gradient}) for the seeded inputs and head gradients."""
    args = inputs(mx, name, spec, net)
    wrt = {'x': args['x']}
    for i, s in enumerate(args.get('states', [])):
        wrt['s%d' % i] = s
    if not spec['grad']:
        return [o.asnumpy() for o in forward(mx, net, spec, args)], {}
    for v in wrt.values():
        v.attach_grad()
    with mx.autograd.record(train_mode=False):
        outs = forward(mx, net, spec, args)
    # a cell's last output and its state are one array: give each array one head gradient
    distinct = [(i, o) for i, o in enumerate(outs) if not any(_same(o, p) for p in outs[:i])]
    mx.autograd.backward([o for _, o in distinct],
                         [mx.nd.array(seeded('%s/head%d' % (name, i), o.shape, -1, 1))
                          for i, o in distinct])
    grads = {'in_' + k: v.grad.asnumpy() for k, v in wrt.items()}
    for key, p in net.collect_params().items():
        grads['param_' + key] = p.grad().asnumpy()
    return [o.asnumpy() for o in outs], grads


def write(mx, outdir):
    arrays, facts = {}, {}
    for name in MODELS:
        net, spec = build(mx, name)
        set_params(mx, net, name, spec)
        outs, grads = run(mx, net, name, spec)
        for i, o in enumerate(outs):
            arrays['%s/out%d' % (name, i)] = o
        for k, g in grads.items():
            arrays['%s/%s' % (name, k)] = g
        facts[name] = {'params': [[k, list(p.shape)] for k, p in net.collect_params().items()],
                       'repr': repr(net), 'num_outputs': len(outs)}
    np.savez_compressed(os.path.join(outdir, 'gluon_rnn.npz'), **arrays)
    with open(os.path.join(outdir, 'facts.json'), 'w') as f:
        json.dump(facts, f, sort_keys=True)
