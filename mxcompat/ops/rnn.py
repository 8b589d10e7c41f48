"""The fused recurrent operator ``RNN`` (vanilla ReLU/tanh RNN, LSTM, LSTM with projection, GRU).

MXNet packs every trainable parameter into one flat vector: first the weights of every layer
and direction (``i2h`` then ``h2h``, then ``h2r`` with a projection), then the biases of every
layer and direction (``i2h`` then ``h2h``). The gate order inside each matrix is MXNet's and
cuDNN's, which is also torch's (LSTM: input, forget, cell, output; GRU: reset, update, new).
The implementation slices that vector into views, so gradients flow back into it, and runs
torch's fused kernels.

Two options that MXNet honours only on GPU (cuDNN) and silently ignores on CPU are implemented
with their GPU meaning on every device: ``use_sequence_length`` (each batch element stops at
its own length; outputs beyond it are 0 and the returned states are those of the last valid
step) and ``lstm_state_clip_min``/``lstm_state_clip_max`` (the LSTM cell state is clipped at
every step; the clipped path is a Python loop over time steps).

torch's fused LSTM kernel recognizes a projection only by the projected state and the cell
state differing in size; a ``projection_size`` equal to ``state_size``, which MXNet accepts,
runs through the same loop.
"""
import torch
import torch.nn.functional as F

from ..autograd import is_training
from ..base import MXNetError
from . import param_shapes
from .registry import register, REQUIRED, Int, Float, Bool, Opt, Enum

_GATES = {'rnn_relu': 1, 'rnn_tanh': 1, 'lstm': 4, 'gru': 3}
_KERNELS = {'rnn_relu': torch._VF.rnn_relu, 'rnn_tanh': torch._VF.rnn_tanh,
            'lstm': torch._VF.lstm, 'gru': torch._VF.gru}
_LAYOUTS = {}


def _layout(mode, num_layers, dirs, input_size, state_size, proj):
    """[(offset, shape)] of every parameter in torch's order (per layer and direction: w_ih,
    w_hh, b_ih, b_hh[, w_hr]), the total length of MXNet's flat vector, the sizes of its
    consecutive pieces and, per piece, its position in torch's order."""
    key = (mode, num_layers, dirs, input_size, state_size, proj)
    found = _LAYOUTS.get(key)
    if found is not None:
        return found
    rows = _GATES[mode] * state_size
    out_size = proj or state_size
    weights, pos, ni = [], 0, input_size
    for _ in range(num_layers):
        for _ in range(dirs):
            entry = [(pos, (rows, ni))]
            pos += rows * ni
            entry.append((pos, (rows, out_size)))
            pos += rows * out_size
            if proj:
                entry.append((pos, (proj, state_size)))
                pos += proj * state_size
            weights.append(entry)
        ni = out_size * dirs
    order = []
    for entry in weights:
        b_ih, b_hh = (pos, (rows,)), (pos + rows, (rows,))
        pos += 2 * rows
        order.extend(entry[:2] + [b_ih, b_hh] + entry[2:])
    by_offset = sorted(range(len(order)), key=lambda i: order[i][0])
    sizes = [_numel(order[i][1]) for i in by_offset]
    found = _LAYOUTS[key] = (order, pos, sizes, by_offset)
    return found


def _unpack(parameters, layout):
    """Views of the flat vector in torch's order. One ``split`` (rather than a slice per
    weight) keeps the backward pass to a single concatenation of the weight gradients."""
    order, _, sizes, by_offset = layout
    pieces = parameters.split(sizes)
    weights = [None] * len(order)
    for piece, i in zip(pieces, by_offset):
        weights[i] = piece.view(order[i][1])
    return weights


def _rnn_inputs(p):
    names = ['data', 'parameters', 'state']
    if p['mode'] == 'lstm':
        names.append('state_cell')
    if p['use_sequence_length']:
        names.append('sequence_length')
    return names


def _rnn_outputs(p):
    if not p['state_outputs']:
        return 1
    return 3 if p['mode'] == 'lstm' else 2


def _rnn_output_names(p):
    names = ['output']
    if p['state_outputs']:
        names.append('state_output')
        if p['mode'] == 'lstm':
            names.append('statecell_output')
    return names


@register('RNN', merges=False,
          inputs=('data', 'parameters', 'state', 'state_cell', 'sequence_length'),
          aliases=('_npx_rnn',), infer_shape=param_shapes.rnn,
          params={'state_size': (Int, REQUIRED), 'num_layers': (Int, REQUIRED),
                  'bidirectional': (Bool, False),
                  'mode': (Enum('rnn_relu', 'rnn_tanh', 'lstm', 'gru'), REQUIRED),
                  'p': (Float, 0.0), 'state_outputs': (Bool, False),
                  'projection_size': (Opt(Int), None),
                  'lstm_state_clip_min': (Opt(Float), None),
                  'lstm_state_clip_max': (Opt(Float), None),
                  'lstm_state_clip_nan': (Bool, False),
                  'use_sequence_length': (Bool, False)},
          input_rule=_rnn_inputs, num_outputs=_rnn_outputs, output_names=_rnn_output_names)
def rnn(data, parameters, state, state_cell=None, sequence_length=None, *, state_size,
        num_layers, bidirectional, mode, p, state_outputs, projection_size, lstm_state_clip_min,
        lstm_state_clip_max, lstm_state_clip_nan, use_sequence_length):
    """Applies recurrent layers to input data. Currently, vanilla RNN, LSTM and GRU are
    implemented, with both multi-layer and bidirectional support.

    ``data`` is (sequence, batch, input) ('TNC'); ``parameters`` is the flat vector of all
    weights then all biases; ``state`` (and ``state_cell`` for LSTM) are
    (num_layers * directions, batch, state). Returns the output (sequence, batch,
    directions * state), plus the final states when ``state_outputs`` is set."""
    if mode != 'lstm' and sequence_length is None and state_cell is not None \
            and use_sequence_length:
        sequence_length = state_cell  # given positionally right after state
    dirs = 2 if bidirectional else 1
    proj = projection_size
    if proj is not None and mode != 'lstm':
        raise MXNetError('RNN: projection_size is only supported with mode=lstm')
    _check_rnn(data, parameters, state, state_cell, sequence_length, mode, num_layers, dirs,
               state_size, proj, p, use_sequence_length)
    if (lstm_state_clip_min is None) != (lstm_state_clip_max is None):
        raise MXNetError('RNN: lstm_state_clip_min and lstm_state_clip_max must be given together')
    weights = _unpack(parameters, _layout(mode, num_layers, dirs, data.shape[2], state_size,
                                          proj))
    res = run_unpacked(data, weights, state, state_cell,
                       sequence_length if use_sequence_length else None, mode, num_layers,
                       bidirectional, p, lstm_state_clip_min, lstm_state_clip_max,
                       lstm_state_clip_nan)
    if not state_outputs:
        return res[0]
    return res


def run_unpacked(data, weights, state, state_cell, lengths, mode, num_layers, bidirectional, p,
                 clip_min=None, clip_max=None, clip_nan=False):
    """The computation of the ``RNN`` operator on checked inputs, with the weights given as
    separate tensors in torch's order (see ``_layout``); returns (output, state[, cell]).

    ``gluon.rnn`` layers, which keep every weight as its own Parameter, call it directly in
    imperative mode: that skips concatenating the weights into the flat vector and splitting
    it again (a copy of every weight and of its gradient at every step)."""
    train = is_training()
    if not train:
        # MXNet differentiates through an RNN in predict mode too; cuDNN's kernels only keep
        # what their backward pass needs in training mode, which without dropout computes the
        # same outputs
        p = 0.0
        train = data.is_cuda and torch.is_grad_enabled() and \
            (data.requires_grad or any(w.requires_grad for w in weights))
    dirs = 2 if bidirectional else 1
    # torch's fused LSTM tells a projection only by h and c differing in size: a
    # projection_size equal to state_size runs the loop
    if mode == 'lstm' and (clip_min is not None or (
            len(weights) == 5 * num_layers * dirs and state.shape[2] == state_cell.shape[2])):
        return _lstm_loop(data, state, state_cell, weights, num_layers, dirs, p, train,
                          lengths, clip_min, clip_max, clip_nan)
    hx = (state, state_cell) if mode == 'lstm' else state
    if lengths is not None:
        return _packed(mode, data, hx, weights, num_layers, dirs, p, train, lengths)
    return tuple(_KERNELS[mode](data, hx, weights, True, num_layers, p, train, bidirectional,
                                False))


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _check_rnn(data, parameters, state, state_cell, seq_len, mode, num_layers, dirs, state_size,
               proj, p, use_sequence_length):
    if data.dim() != 3:
        raise MXNetError('RNN: input data should be a rank-3 tensor of dim [sequence length, '
                         'batch size, input size], got shape %s' % (tuple(data.shape),))
    if not data.is_floating_point():
        raise MXNetError('RNN: data must be a floating point array, got %s' % data.dtype)
    if not 0 <= p < 1:
        raise MXNetError('RNN: unsupported dropout value p=%s, should be 0 <= p < 1' % p)
    total = _layout(mode, num_layers, dirs, data.shape[2], state_size, proj)[1]
    if parameters is None or parameters.dim() != 1 or parameters.shape[0] != total:
        raise MXNetError('RNN: parameters must be a vector of %d elements for this configuration, '
                         'got shape %s' % (total, None if parameters is None
                                           else tuple(parameters.shape)))
    if parameters.dtype != data.dtype:
        raise MXNetError('RNN: parameters dtype %s differs from data dtype %s'
                         % (str(parameters.dtype)[6:], str(data.dtype)[6:]))
    want = (num_layers * dirs, data.shape[1], proj or state_size)
    if state is None or tuple(state.shape) != want:
        raise MXNetError('RNN: state must have shape %s, got %s'
                         % (want, None if state is None else tuple(state.shape)))
    if mode == 'lstm':
        want = (num_layers * dirs, data.shape[1], state_size)
        if state_cell is None or tuple(state_cell.shape) != want:
            raise MXNetError('RNN: state_cell must have shape %s, got %s'
                             % (want, None if state_cell is None else tuple(state_cell.shape)))
    if use_sequence_length and (seq_len is None or tuple(seq_len.shape) != (data.shape[1],)):
        raise MXNetError('RNN: use_sequence_length=True needs sequence_length of shape (%d,), '
                         'got %s' % (data.shape[1], None if seq_len is None
                                     else tuple(seq_len.shape)))


def _packed(mode, data, hx, weights, num_layers, dirs, p, train, lengths):
    """Variable-length batch through torch's packed-sequence kernels."""
    seq_len = data.shape[0]
    packed = torch.nn.utils.rnn.pack_padded_sequence(
        data, lengths.long().cpu(), enforce_sorted=False)
    order, back = packed.sorted_indices, packed.unsorted_indices
    if mode == 'lstm':
        hx = (hx[0].index_select(1, order), hx[1].index_select(1, order))
    else:
        hx = hx.index_select(1, order)
    res = _KERNELS[mode](packed.data, packed.batch_sizes, hx, weights, True, num_layers, p,
                         train, dirs == 2)
    out, _ = torch.nn.utils.rnn.pad_packed_sequence(
        torch.nn.utils.rnn.PackedSequence(res[0], packed.batch_sizes, order, back),
        total_length=seq_len)
    return (out,) + tuple(h.index_select(1, back) for h in res[1:])


def _clip(c, lo, hi, clip_nan):
    if clip_nan:  # NaN would otherwise propagate through clamp
        c = torch.nan_to_num(c, nan=lo)
    return c.clamp(lo, hi)


def _lstm_loop(data, h0, c0, weights, num_layers, dirs, p, train, lengths, lo, hi, clip_nan):
    """LSTM as a Python loop over time steps, for what torch's fused kernel cannot do: a cell
    state clipped to [lo, hi] after every step (cuDNN's clip mode; lo None: no clipping) and
    a projection as large as the state."""
    per = len(weights) // (num_layers * dirs)
    seq_len = data.shape[0]
    valid = None
    if lengths is not None:
        valid = torch.arange(seq_len, device=data.device).unsqueeze(1) < \
            lengths.to(data.device).long().unsqueeze(0)
    inp, hys, cys = data, [], []
    for layer in range(num_layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            w_ih, w_hh, b_ih, b_hh = weights[k * per:k * per + 4]
            w_hr = weights[k * per + 4] if per == 5 else None
            h, c = h0[k], c0[k]
            xs = F.linear(inp, w_ih, b_ih)
            ys = [None] * seq_len
            for t in (range(seq_len - 1, -1, -1) if d else range(seq_len)):
                i, f, g, o = (xs[t] + F.linear(h, w_hh, b_hh)).chunk(4, 1)
                c_new = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
                if lo is not None:
                    c_new = _clip(c_new, lo, hi, clip_nan)
                h_new = torch.sigmoid(o) * torch.tanh(c_new)
                if w_hr is not None:
                    h_new = F.linear(h_new, w_hr)
                if valid is None:
                    h, c, ys[t] = h_new, c_new, h_new
                else:
                    m = valid[t].unsqueeze(1)
                    h, c = torch.where(m, h_new, h), torch.where(m, c_new, c)
                    ys[t] = h_new * m
            outs.append(torch.stack(ys))
            hys.append(h)
            cys.append(c)
        inp = outs[0] if dirs == 1 else torch.cat(outs, 2)
        if p and train and layer < num_layers - 1:
            inp = F.dropout(inp, p, True)
    return inp, torch.stack(hys), torch.stack(cys)
