"""Cases for mxcompat/ops/rnn.py (the fused RNN operator).

MXNet's CPU kernels ignore ``use_sequence_length`` and ``lstm_state_clip_*`` (only cuDNN
honours them), and train LSTMs with a projection only on GPU; those behaviours are covered by
tests/test_rnn_gpu_semantics.py against per-element MXNet runs instead.
"""
import numpy as np

from . import case, rng

GATES = {'rnn_relu': 1, 'rnn_tanh': 1, 'lstm': 4, 'gru': 3}


def param_size(mode, layers, dirs, inp, hid, proj=None):
    """Length of MXNet's flat parameter vector."""
    g = GATES[mode] * hid
    out = proj or hid
    size, ni = 0, inp
    for _ in range(layers):
        size += dirs * (g * ni + g * out + 2 * g + (proj * hid if proj else 0))
        ni = out * dirs
    return size


def rnn_case(cid, mode, layers=1, bidirectional=False, seq=3, batch=2, inp=4, hid=5, proj=None,
             dtype=np.float32, state_outputs=True, grad=True, train=False, check='value',
             rtol=1e-4, atol=1e-5, **extra):
    r = rng(cid)
    dirs = 2 if bidirectional else 1
    n = param_size(mode, layers, dirs, inp, hid, proj)
    kwargs = {
        'data': r.uniform(-1, 1, (seq, batch, inp)).astype(dtype),
        'parameters': r.uniform(-0.4, 0.4, (n,)).astype(dtype),
        'state': r.uniform(-0.5, 0.5, (layers * dirs, batch, proj or hid)).astype(dtype),
        'state_size': hid, 'num_layers': layers, 'mode': mode,
        'bidirectional': bidirectional, 'state_outputs': state_outputs,
    }
    names = ['data', 'parameters', 'state']
    if mode == 'lstm':
        kwargs['state_cell'] = r.uniform(-0.5, 0.5, (layers * dirs, batch, hid)).astype(dtype)
        names.append('state_cell')
    if proj:
        kwargs['projection_size'] = proj
    kwargs.update(extra)
    return case(cid, 'RNN', kwargs=kwargs, grad=names if grad else (), train=train, check=check,
                rtol=rtol, atol=atol)


CASES = []
for _mode in ('rnn_relu', 'rnn_tanh', 'lstm', 'gru'):
    CASES += [
        rnn_case('RNN-%s' % _mode, _mode),
        rnn_case('RNN-%s-2layer-bidir' % _mode, _mode, layers=2, bidirectional=True),
        rnn_case('RNN-%s-3layer' % _mode, _mode, layers=3, seq=4, inp=3, hid=4),
        rnn_case('RNN-%s-float64' % _mode, _mode, layers=2, bidirectional=True,
                 dtype=np.float64, rtol=1e-6, atol=1e-7),
        rnn_case('RNN-%s-predict' % _mode, _mode, grad=False, state_outputs=False),
    ]

CASES += [
    rnn_case('RNN-lstm-no-state-outputs', 'lstm', layers=2, state_outputs=False),
    rnn_case('RNN-gru-bidir-no-state-outputs', 'gru', bidirectional=True, state_outputs=False),
    # a dropout rate only matters in training mode: predicting gives the exact numbers
    rnn_case('RNN-lstm-dropout-predict', 'lstm', layers=2, grad=False, p=0.5),
    rnn_case('RNN-gru-dropout-train', 'gru', layers=3, grad=False, train=True, p=0.4,
             check='shape'),
    # MXNet runs LSTMs with a projection (LSTMP) on CPU in inference only
    rnn_case('RNN-lstmp', 'lstm', proj=3, grad=False),
    rnn_case('RNN-lstmp-2layer-bidir', 'lstm', layers=2, bidirectional=True, proj=3, hid=6,
             grad=False),
    rnn_case('RNN-lstmp-float64', 'lstm', layers=2, proj=2, grad=False, dtype=np.float64,
             rtol=1e-6, atol=1e-7),
    rnn_case('RNN-bad-param-size', 'lstm', grad=False, parameters=np.zeros(7, np.float32),
             check='error'),
    rnn_case('RNN-bad-state-shape', 'gru', grad=False, state=np.zeros((2, 2, 5), np.float32),
             check='error'),
    rnn_case('RNN-bad-data-rank', 'rnn_tanh', grad=False, data=np.zeros((3, 4), np.float32),
             check='error'),
]
