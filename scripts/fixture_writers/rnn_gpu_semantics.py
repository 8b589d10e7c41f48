"""RNN behaviours that MXNet implements only with cuDNN, reproduced on CPU MXNet.

* ``use_sequence_length``: every batch element is run alone on its own prefix through MXNet's
  RNN; outputs past a length are 0, final states are those of the last valid step, parameter
  gradients are the sums over elements.
* ``lstm_state_clip_min/max`` and LSTM-with-projection training: an LSTM unrolled from MXNet
  operators (FullyConnected, sigmoid, tanh, clip), checked first against MXNet's own fused RNN
  where both apply (no clipping; projection in inference).
"""
import os

import numpy as np

from scripts.op_cases.rnn import param_size

GATES = {'rnn_relu': 1, 'rnn_tanh': 1, 'lstm': 4, 'gru': 3}

VARLEN = {
    'lstm-bidir': dict(mode='lstm', layers=1, bidirectional=True),
    'gru-2layer': dict(mode='gru', layers=2, bidirectional=False),
    'rnn_tanh-2layer-bidir': dict(mode='rnn_tanh', layers=2, bidirectional=True),
    'rnn_relu': dict(mode='rnn_relu', layers=1, bidirectional=False),
}
UNROLLED = {
    'clip': dict(layers=1, bidirectional=False, proj=None, clip=(-0.3, 0.35)),
    'clip-2layer-bidir': dict(layers=2, bidirectional=True, proj=None, clip=(-0.2, 0.25)),
    'proj': dict(layers=1, bidirectional=False, proj=3, clip=None),
    'proj-2layer-bidir-clip': dict(layers=2, bidirectional=True, proj=2, clip=(-0.3, 0.3)),
}
SEQ, BATCH, INP, HID = 5, 3, 4, 5
LENGTHS = np.array([5, 2, 4], dtype=np.int32)


def inputs(name, mode, layers, bidirectional, proj=None):
    """data, flat parameters, state, state_cell (or None) and head gradients."""
    r = np.random.RandomState(sum(map(ord, name)))
    dirs = 2 if bidirectional else 1
    out = proj or HID
    data = r.uniform(-1, 1, (SEQ, BATCH, INP)).astype(np.float32)
    params = r.uniform(-0.6, 0.6, (param_size(mode, layers, dirs, INP, HID, proj),)) \
        .astype(np.float32)
    state = r.uniform(-0.5, 0.5, (layers * dirs, BATCH, out)).astype(np.float32)
    cell = r.uniform(-0.5, 0.5, (layers * dirs, BATCH, HID)).astype(np.float32) \
        if mode == 'lstm' else None
    heads = [r.uniform(-1, 1, (SEQ, BATCH, out * dirs)).astype(np.float32),
             r.uniform(-1, 1, state.shape).astype(np.float32)]
    if cell is not None:
        heads.append(r.uniform(-1, 1, cell.shape).astype(np.float32))
    return data, params, state, cell, heads


def _write_varlen(mx, arrays):
    for name, cfg in VARLEN.items():
        data, params, state, cell, heads = inputs(name, cfg['mode'], cfg['layers'],
                                                  cfg['bidirectional'])
        w = mx.nd.array(params)
        w.attach_grad(grad_req='add')
        out = np.zeros(heads[0].shape, np.float32)
        states = [np.zeros_like(state)] + ([np.zeros_like(cell)] if cell is not None else [])
        grads = {'data': np.zeros_like(data), 'state': np.zeros_like(state)}
        if cell is not None:
            grads['state_cell'] = np.zeros_like(cell)
        for b, n in enumerate(LENGTHS):
            x = mx.nd.array(data[:n, b:b + 1])
            h = mx.nd.array(state[:, b:b + 1])
            args = [x, w, h]
            if cell is not None:
                args.append(mx.nd.array(cell[:, b:b + 1]))
            for a in args[:1] + args[2:]:
                a.attach_grad()
            with mx.autograd.record():
                res = mx.nd.RNN(*args, state_size=HID, num_layers=cfg['layers'],
                                bidirectional=cfg['bidirectional'], mode=cfg['mode'],
                                state_outputs=True)
            hg = [heads[0][:n, b:b + 1]] + [hd[:, b:b + 1] for hd in heads[1:]]
            mx.autograd.backward(res, [mx.nd.array(g) for g in hg])
            out[:n, b] = res[0].asnumpy()[:, 0]
            for s, r in zip(states, res[1:]):
                s[:, b] = r.asnumpy()[:, 0]
            grads['data'][:n, b] = args[0].grad.asnumpy()[:, 0]
            grads['state'][:, b] = args[2].grad.asnumpy()[:, 0]
            if cell is not None:
                grads['state_cell'][:, b] = args[3].grad.asnumpy()[:, 0]
        arrays['varlen/%s/out' % name] = out
        for k, s in enumerate(states):
            arrays['varlen/%s/state%d' % (name, k)] = s
        for k, g in grads.items():
            arrays['varlen/%s/grad_%s' % (name, k)] = g
        arrays['varlen/%s/grad_parameters' % name] = w.grad.asnumpy()


def _unrolled_lstm(mx, x, w, h0, c0, layers, dirs, proj, clip):
    """An LSTM built from MXNet operators on MXNet's flat parameter layout."""
    rows, out = 4 * HID, proj or HID
    pos, ni, mats = 0, INP, []
    for _ in range(layers):
        for _ in range(dirs):
            m = {}
            for key, shape in (('i2h', (rows, ni)), ('h2h', (rows, out))) + \
                    ((('h2r', (proj, HID)),) if proj else ()):
                m[key] = w[pos:pos + shape[0] * shape[1]].reshape(shape)
                pos += shape[0] * shape[1]
            mats.append(m)
        ni = out * dirs
    for m in mats:
        m['bi'] = w[pos:pos + rows]
        m['bh'] = w[pos + rows:pos + 2 * rows]
        pos += 2 * rows
    inp, hys, cys = x, [], []
    for layer in range(layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            m = mats[k]
            h, c = h0[k], c0[k]
            ys = [None] * SEQ
            for t in (range(SEQ - 1, -1, -1) if d else range(SEQ)):
                g = mx.nd.FullyConnected(inp[t], m['i2h'], m['bi'], num_hidden=rows) + \
                    mx.nd.FullyConnected(h, m['h2h'], m['bh'], num_hidden=rows)
                i, f, gg, o = mx.nd.split(g, num_outputs=4, axis=1)
                c = mx.nd.sigmoid(f) * c + mx.nd.sigmoid(i) * mx.nd.tanh(gg)
                if clip:
                    c = mx.nd.clip(c, clip[0], clip[1])
                h = mx.nd.sigmoid(o) * mx.nd.tanh(c)
                if proj:
                    h = mx.nd.FullyConnected(h, m['h2r'], no_bias=True, num_hidden=proj)
                ys[t] = h
            outs.append(mx.nd.stack(*ys))
            hys.append(h)
            cys.append(c)
        inp = mx.nd.concat(*outs, dim=2)
    return inp, mx.nd.stack(*hys), mx.nd.stack(*cys)


def _write_unrolled(mx, arrays):
    for name, cfg in UNROLLED.items():
        dirs = 2 if cfg['bidirectional'] else 1
        data, params, state, cell, heads = inputs(name, 'lstm', cfg['layers'],
                                                  cfg['bidirectional'], cfg['proj'])
        args = [mx.nd.array(a) for a in (data, params, state, cell)]
        fused = mx.nd.RNN(*args, state_size=HID, num_layers=cfg['layers'], mode='lstm',
                          bidirectional=cfg['bidirectional'], state_outputs=True,
                          projection_size=cfg['proj'])
        check = _unrolled_lstm(mx, *args, cfg['layers'], dirs, cfg['proj'], None)
        for a, b in zip(fused, check):  # the emulation is MXNet's LSTM when nothing clips
            np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)
        for a in args:
            a.attach_grad()
        with mx.autograd.record():
            res = _unrolled_lstm(mx, *args, cfg['layers'], dirs, cfg['proj'], cfg['clip'])
        mx.autograd.backward(list(res), [mx.nd.array(h) for h in heads])
        for k, r in enumerate(res):
            arrays['unrolled/%s/out%d' % (name, k)] = r.asnumpy()
        for key, a in zip(('data', 'parameters', 'state', 'state_cell'), args):
            arrays['unrolled/%s/grad_%s' % (name, key)] = a.grad.asnumpy()


def write(mx, outdir):
    arrays = {}
    _write_varlen(mx, arrays)
    _write_unrolled(mx, arrays)
    tmp = os.path.join(outdir, 'rnn_gpu_semantics.tmp.npz')
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, os.path.join(outdir, 'rnn_gpu_semantics.npz'))
