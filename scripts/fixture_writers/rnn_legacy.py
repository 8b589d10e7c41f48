"""The legacy symbolic ``mx.rnn`` API as real MXNet builds and runs it.

For every cell type, layout and ``merge_outputs`` choice in CELLS: the unrolled graph's
arguments, outputs, inferred shapes and ``tojson()``, and its outputs and gradients with every
argument set from a generator seeded by the argument's name (``seeded``; tests do the same).
Also: FusedRNNCell against ``unfuse()`` with ``unpack_weights`` of the same flat vector,
``encode_sentences``, ``BucketSentenceIter`` batches for fixed sentences and seeds, and an
``save_rnn_checkpoint`` file pair.

``build`` and the case tables are shared with tests/test_rnn_legacy.py.
"""
import contextlib
import io
import json
import os
import random
import zlib

import numpy as np

B, T, I, H = 2, 3, 4, 3
CONV_IN = (B, 2, 3, 3)  # one step of a convolutional cell's input (N, C, H, W)


def seeded(name, shape, lo=-0.5, hi=0.5):
    """Values for the argument called ``name``, the same in the writer and the tests."""
    rs = np.random.RandomState(zlib.crc32(name.encode()) & 0xffffffff)
    return rs.uniform(lo, hi, shape).astype(np.float32)


def _lstm(mx):
    return mx.rnn.LSTMCell(H, prefix='lstm_')


# id -> (cell factory, inputs 'list' or 'sym', layout, merge_outputs, train with gradients)
CELLS = {
    'rnn-tanh-list': (lambda mx: mx.rnn.RNNCell(H, prefix='rnn_'), 'list', 'NTC', None, True),
    'rnn-relu-NTC-merge': (lambda mx: mx.rnn.RNNCell(H, activation='relu'), 'sym', 'NTC',
                           True, True),
    'rnn-TNC-nomerge': (lambda mx: mx.rnn.RNNCell(H), 'sym', 'TNC', False, True),
    'lstm-NTC-merge': (_lstm, 'sym', 'NTC', True, True),
    'lstm-TNC-merge': (_lstm, 'sym', 'TNC', True, True),
    'lstm-NTC-nomerge': (_lstm, 'sym', 'NTC', False, True),
    'lstm-list-merge': (_lstm, 'list', 'TNC', True, True),
    'lstm-forget-bias': (lambda mx: mx.rnn.LSTMCell(H, forget_bias=2.5), 'sym', 'NTC', None,
                         True),
    'gru-NTC-merge': (lambda mx: mx.rnn.GRUCell(H), 'sym', 'NTC', True, True),
    'gru-TNC-list': (lambda mx: mx.rnn.GRUCell(H, prefix='g_'), 'list', 'TNC', False, True),
    'fused-lstm-2layer-TNC': (lambda mx: mx.rnn.FusedRNNCell(H, num_layers=2, mode='lstm',
                                                             get_next_state=True),
                              'sym', 'TNC', True, True),
    'fused-gru-bi-NTC': (lambda mx: mx.rnn.FusedRNNCell(H, mode='gru', bidirectional=True,
                                                        get_next_state=True),
                         'sym', 'NTC', False, True),
    'fused-rnn_tanh-NTC': (lambda mx: mx.rnn.FusedRNNCell(H, num_layers=2, mode='rnn_tanh'),
                           'sym', 'NTC', None, True),
    'fused-rnn_relu-bi-TNC': (lambda mx: mx.rnn.FusedRNNCell(H, mode='rnn_relu',
                                                             bidirectional=True, prefix='f_'),
                              'sym', 'TNC', True, True),
    'fused-lstm-bi-dropout': (lambda mx: mx.rnn.FusedRNNCell(H, num_layers=2, mode='lstm',
                                                             bidirectional=True, dropout=0.5),
                              'sym', 'TNC', True, False),
    'unfused-lstm-bi-dropout': (lambda mx: mx.rnn.FusedRNNCell(
        H, num_layers=2, mode='lstm', bidirectional=True, dropout=0.5).unfuse(),
        'sym', 'TNC', True, False),
    'sequential': (lambda mx: _sequential(mx), 'sym', 'NTC', True, False),
    'shared-params': (lambda mx: _shared(mx), 'list', 'NTC', False, True),
    'bidirectional-lstm-NTC-merge': (lambda mx: mx.rnn.BidirectionalCell(
        mx.rnn.LSTMCell(H, prefix='l_'), mx.rnn.LSTMCell(H, prefix='r_')), 'sym', 'NTC', True,
        True),
    'bidirectional-gru-TNC-nomerge': (lambda mx: mx.rnn.BidirectionalCell(
        mx.rnn.GRUCell(H, prefix='l_'), mx.rnn.GRUCell(H, prefix='r_'),
        output_prefix='bid_'), 'sym', 'TNC', False, True),
    'bidirectional-list-none': (lambda mx: mx.rnn.BidirectionalCell(
        mx.rnn.RNNCell(H, prefix='l_'), mx.rnn.RNNCell(H, prefix='r_')), 'list', 'NTC', None,
        True),
    'zoneout': (lambda mx: mx.rnn.ZoneoutCell(mx.rnn.RNNCell(H, prefix='z_'),
                                              zoneout_outputs=0.5, zoneout_states=0.3),
                'list', 'NTC', True, False),
    'residual-gru-merge': (lambda mx: mx.rnn.ResidualCell(mx.rnn.GRUCell(I, prefix='res_')),
                           'sym', 'NTC', True, True),
    'residual-list': (lambda mx: mx.rnn.ResidualCell(mx.rnn.LSTMCell(I, prefix='res_')),
                      'list', 'NTC', None, True),
    'residual-bidirectional': (lambda mx: mx.rnn.ResidualCell(mx.rnn.BidirectionalCell(
        mx.rnn.GRUCell(I // 2, prefix='rl_'), mx.rnn.GRUCell(I // 2, prefix='rr_'))),
        'list', 'NTC', False, True),
    'dropout-cell': (lambda mx: mx.rnn.DropoutCell(0.4), 'sym', 'NTC', True, False),
    'conv-rnn': (lambda mx: mx.rnn.ConvRNNCell(CONV_IN, 2, prefix='crnn_'), 'conv', 'NTC',
                 False, True),
    'conv-lstm': (lambda mx: mx.rnn.ConvLSTMCell(CONV_IN, 2, i2h_kernel=(1, 1), i2h_pad=(0, 0)),
                  'conv', 'NTC', True, True),
    'conv-gru': (lambda mx: mx.rnn.ConvGRUCell(CONV_IN, 2, activation='tanh'), 'conv', 'NTC',
                 None, True),
}

# FusedRNNCell configurations compared with unfuse() and used for pack/unpack round trips
FUSED = {
    'lstm-2layer': dict(num_hidden=H, num_layers=2, mode='lstm'),
    'gru-bi': dict(num_hidden=H, num_layers=1, mode='gru', bidirectional=True),
    'rnn_tanh-2layer-bi': dict(num_hidden=H, num_layers=2, mode='rnn_tanh', bidirectional=True),
    'rnn_relu': dict(num_hidden=H, num_layers=1, mode='rnn_relu', prefix='relu_'),
}

SENTENCES = [['a', 'b', 'c'], ['b', 'c', 'd', 'x'], ['y', 'a'], ['c', 'c', 'z', 'a', 'b']]


def _sequential(mx):
    stack = mx.rnn.SequentialRNNCell()
    stack.add(mx.rnn.LSTMCell(H, prefix='s0_'))
    stack.add(mx.rnn.DropoutCell(0.5, prefix='s_drop_'))
    stack.add(mx.rnn.GRUCell(H, prefix='s1_'))
    stack.add(mx.rnn.RNNCell(H, prefix='s2_'))
    return stack


def _shared(mx):
    params = mx.rnn.RNNParams('shared_')  # both directions use the same weights
    return mx.rnn.BidirectionalCell(mx.rnn.GRUCell(H, prefix='a_', params=params),
                                    mx.rnn.GRUCell(H, prefix='b_', params=params))


def _flat_states(states):
    out = []
    for s in states:
        out.extend(_flat_states(s) if isinstance(s, list) else [s])
    return out


def build(mx, case_id):
    """(cell, grouped symbol of outputs then final states, input shapes) of one case."""
    factory, kind, layout, merge, _ = CELLS[case_id]
    with mx.name.NameManager():
        cell = factory(mx)
        step = CONV_IN if kind == 'conv' else (B, I)
        if kind == 'list':
            inputs = [mx.sym.var('t%d_data' % i) for i in range(T)]
            shapes = {'t%d_data' % i: step for i in range(T)}
        else:
            inputs = mx.sym.var('data')
            axis = layout.find('T')
            shapes = {'data': step[:axis] + (T,) + step[axis:]}
        outputs, states = cell.unroll(T, inputs, layout=layout, merge_outputs=merge)
        outs = list(outputs) if isinstance(outputs, list) else [outputs]
        sym = mx.sym.Group(outs + _flat_states(states))
    return cell, sym, shapes


def run(mx, sym, shapes, train, arg_values=None):
    """Outputs and gradients of ``sym`` with seeded arguments (``arg_values`` overrides)."""
    ex = sym.simple_bind(mx.cpu(), grad_req='write' if train else 'null', **shapes)
    for name, arr in ex.arg_dict.items():
        value = (arg_values or {}).get(name)
        arr[:] = seeded(name, arr.shape) if value is None else value
    outs = [o.asnumpy() for o in ex.forward(is_train=train)]
    grads = {}
    if train:
        ex.backward([mx.nd.array(seeded('head%d' % k, o.shape)) for k, o in enumerate(outs)])
        grads = {n: g.asnumpy() for n, g in ex.grad_dict.items() if g is not None}
    return outs, grads


def fused_pair(mx, fid):
    """A FusedRNNCell, its unfused stack, their unrolled symbols (TNC, merged) and shapes."""
    with mx.name.NameManager():
        cell = mx.rnn.FusedRNNCell(**FUSED[fid])
        data = mx.sym.var('data')
        fused, _ = cell.unroll(T, data, layout='TNC', merge_outputs=True)
        stack = cell.unfuse()
        unfused, _ = stack.unroll(T, data, layout='TNC', merge_outputs=True)
    return cell, stack, fused, unfused, {'data': (T, B, I)}


def bucket_iter(mx, config):
    """Every batch of two epochs of a BucketSentenceIter: [(bucket_key, data, label, shapes)]."""
    rs = np.random.RandomState(7)
    sentences = [list(rs.randint(1, 9, size=rs.randint(1, 9))) for _ in range(40)]
    random.seed(11)
    np.random.seed(11)
    with contextlib.redirect_stdout(io.StringIO()):
        it = mx.rnn.BucketSentenceIter(sentences, 4, **config)
    batches = []
    for _ in range(2):
        for batch in it:
            batches.append((batch.bucket_key, batch.data[0].asnumpy(), batch.label[0].asnumpy(),
                            [tuple(d.shape) for d in batch.provide_data] +
                            [tuple(d.shape) for d in batch.provide_label]))
        it.reset()
    return it, batches


BUCKET_CONFIGS = {
    'auto-NT': {},
    'buckets-TN-int': dict(buckets=[3, 5, 9], invalid_label=0, layout='TN', dtype='int32',
                           data_name='words', label_name='next'),
    'buckets-short': dict(buckets=[6, 2, 4]),
}

ENCODE_CALLS = {
    'new-vocab': dict(),
    'start-label': dict(start_label=1, invalid_label=0, invalid_key='<eos>'),
    'given-vocab-unk': dict(vocab={'a': 1, 'b': 2, 'c': 3}, unknown_token='UNK'),
}


def bucketing_training(mx):
    """Perplexity after each of two epochs of a BucketingModule LSTM language model fed by a
    BucketSentenceIter (parameters seeded by name, plain SGD)."""
    random.seed(1)
    np.random.seed(1)
    rs = np.random.RandomState(0)
    sentences = [list(rs.randint(1, 20, size=rs.randint(3, 10))) for _ in range(64)]
    with contextlib.redirect_stdout(io.StringIO()):
        it = mx.rnn.BucketSentenceIter(sentences, 8, buckets=[5, 10], invalid_label=0)
    stack = mx.rnn.SequentialRNNCell()
    stack.add(mx.rnn.LSTMCell(8, prefix='lstm_l0_'))
    stack.add(mx.rnn.GRUCell(8, prefix='gru_l1_'))

    def sym_gen(seq_len):
        data = mx.sym.Variable('data')
        label = mx.sym.Reshape(mx.sym.Variable('softmax_label'), shape=(-1,))
        embed = mx.sym.Embedding(data=data, input_dim=20, output_dim=6, name='embed')
        stack.reset()
        outputs, _ = stack.unroll(seq_len, inputs=embed, merge_outputs=True)
        pred = mx.sym.FullyConnected(mx.sym.Reshape(outputs, shape=(-1, 8)), num_hidden=20,
                                     name='pred')
        return mx.sym.SoftmaxOutput(data=pred, label=label, name='softmax'), ('data',), \
            ('softmax_label',)

    with mx.name.NameManager():
        model = mx.mod.BucketingModule(sym_gen=sym_gen, default_bucket_key=it.default_bucket_key,
                                       context=mx.cpu())
        model.bind(it.provide_data, it.provide_label)
        model.init_params()
        arg, aux = model.get_params()
        model.set_params({k: mx.nd.array(seeded(k, v.shape, -0.3, 0.3)) for k, v in arg.items()},
                         aux)
        model.init_optimizer(optimizer='sgd', optimizer_params={'learning_rate': 0.1})
        metric = mx.metric.Perplexity(0)
        result = []
        for _ in range(2):
            it.reset()
            metric.reset()
            for batch in it:
                model.forward_backward(batch)
                model.update()
                model.update_metric(metric, batch.label)
            result.append(metric.get()[1])
    return result


def write(mx, outdir):
    arrays, meta = {}, {'cells': {}, 'fused': {}, 'encode': {}, 'buckets': {}}
    for cid, (_, _, _, _, train) in CELLS.items():
        _, sym, shapes = build(mx, cid)
        arg_shapes, out_shapes, aux_shapes = sym.infer_shape(**shapes)
        meta['cells'][cid] = {
            'arguments': sym.list_arguments(), 'outputs': sym.list_outputs(),
            'aux': sym.list_auxiliary_states(), 'arg_shapes': arg_shapes,
            'out_shapes': out_shapes, 'json': sym.tojson()}
        outs, grads = run(mx, sym, shapes, train)
        for k, o in enumerate(outs):
            arrays['%s/out%d' % (cid, k)] = o
        for n, g in grads.items():
            arrays['%s/grad_%s' % (cid, n)] = g

    for fid in FUSED:
        cell, stack, fused, unfused, shapes = fused_pair(mx, fid)
        pname = cell._parameter.name
        flat_shape = fused.infer_shape(**shapes)[0][fused.list_arguments().index(pname)]
        flat = seeded(pname, flat_shape)
        unpacked = cell.unpack_weights({pname: mx.nd.array(flat)})
        for n, v in unpacked.items():
            arrays['fused/%s/unpacked/%s' % (fid, n)] = v.asnumpy()
        arrays['fused/%s/fused_out' % fid] = run(mx, fused, shapes, False)[0][0]
        arrays['fused/%s/unfused_out' % fid] = run(
            mx, unfused, shapes, False,
            {n: v.asnumpy() for n, v in stack.pack_weights(unpacked).items()})[0][0]
        meta['fused'][fid] = {'unpacked': sorted(unpacked), 'flat_shape': flat_shape,
                              'unfused_arguments': unfused.list_arguments(),
                              'unfused_json': unfused.tojson(), 'fused_json': fused.tojson()}
    # a fused checkpoint: parameters saved unpacked
    cell, _, fused, _, shapes = fused_pair(mx, 'lstm-2layer')
    pname = cell._parameter.name
    flat_shape = fused.infer_shape(**shapes)[0][fused.list_arguments().index(pname)]
    mx.rnn.save_rnn_checkpoint(cell, os.path.join(outdir, 'fused'), 3, fused,
                               {pname: mx.nd.array(seeded(pname, flat_shape))}, {})

    for eid, kwargs in ENCODE_CALLS.items():
        kwargs = dict(kwargs)
        if 'vocab' in kwargs:
            kwargs['vocab'] = dict(kwargs['vocab'])
        res, vocab = mx.rnn.encode_sentences(SENTENCES, **kwargs)
        meta['encode'][eid] = {'result': res, 'vocab': vocab}

    for bid, config in BUCKET_CONFIGS.items():
        it, batches = bucket_iter(mx, dict(config))
        meta['buckets'][bid] = {
            'keys': [b[0] for b in batches], 'shapes': [b[3] for b in batches],
            'buckets': it.buckets, 'default_bucket_key': it.default_bucket_key,
            'provide_data': [list(d) for d in it.provide_data],
            'provide_label': [list(d) for d in it.provide_label],
            'dtype': str(batches[0][1].dtype)}
        for k, b in enumerate(batches):
            arrays['buckets/%s/%d/data' % (bid, k)] = b[1]
            arrays['buckets/%s/%d/label' % (bid, k)] = b[2]

    meta['bucketing_perplexity'] = bucketing_training(mx)
    np.savez_compressed(os.path.join(outdir, 'rnn_legacy.npz'), **arrays)
    with open(os.path.join(outdir, 'rnn_legacy.json'), 'w') as f:
        json.dump(meta, f, indent=1, sort_keys=True)
