"""Fused recurrent layers (``mx.gluon.rnn.RNN/LSTM/GRU``), run by the ``RNN`` operator."""
import re

import torch

from ... import ndarray
from ...ndarray.ndarray import wrap
from ...ops import rnn as rnn_op
from ..block import HybridBlock
from ..parameter import tensor_types
from . import rnn_cell

__all__ = ['RNN', 'LSTM', 'GRU']

_PARAM_KEY = re.compile(r'(l|r)(\d)_(i2h|h2h|h2r)_(weight|bias)\Z')


class _RNNLayer(HybridBlock):
    """Implementation of recurrent layers: per layer and direction, parameters
    ``{l|r}{layer}_{i2h|h2h}_{weight|bias}`` (and ``_h2r_weight`` with a projection),
    concatenated into the operator's flat vector at every forward."""
    def __init__(self, hidden_size, num_layers, layout, dropout, bidirectional, input_size,
                 i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer,
                 h2h_bias_initializer, mode, projection_size, h2r_weight_initializer,
                 lstm_state_clip_min, lstm_state_clip_max, lstm_state_clip_nan, dtype,
                 use_sequence_length=False, **kwargs):
        super(_RNNLayer, self).__init__(**kwargs)
        assert layout in ('TNC', 'NTC'), \
            "Invalid layout %s; must be one of ['TNC' or 'NTC']" % layout
        self._hidden_size = hidden_size
        self._projection_size = projection_size if projection_size else None
        self._num_layers = num_layers
        self._mode = mode
        self._layout = layout
        self._dropout = dropout
        self._dir = 2 if bidirectional else 1
        self._input_size = input_size
        self._i2h_weight_initializer = i2h_weight_initializer
        self._h2h_weight_initializer = h2h_weight_initializer
        self._i2h_bias_initializer = i2h_bias_initializer
        self._h2h_bias_initializer = h2h_bias_initializer
        self._h2r_weight_initializer = h2r_weight_initializer
        self._lstm_state_clip_min = lstm_state_clip_min
        self._lstm_state_clip_max = lstm_state_clip_max
        self._lstm_state_clip_nan = lstm_state_clip_nan
        self._dtype = dtype
        self._use_sequence_length = use_sequence_length
        self.skip_states = None
        self._gates = {'rnn_relu': 1, 'rnn_tanh': 1, 'lstm': 4, 'gru': 3}[mode]

        rows, proj = self._gates * hidden_size, self._projection_size
        out_size = proj or hidden_size
        ni = input_size
        for layer in range(num_layers):
            for d in 'lr'[:self._dir]:
                tag = '%s%d_' % (d, layer)
                self._register_param(tag + 'i2h_weight', (rows, ni), i2h_weight_initializer,
                                     dtype)
                self._register_param(tag + 'h2h_weight', (rows, out_size),
                                     h2h_weight_initializer, dtype)
                self._register_param(tag + 'i2h_bias', (rows,), i2h_bias_initializer, dtype)
                self._register_param(tag + 'h2h_bias', (rows,), h2h_bias_initializer, dtype)
                if proj:
                    self._register_param(tag + 'h2r_weight', (proj, hidden_size),
                                         h2r_weight_initializer, dtype)
            ni = out_size * self._dir
        kinds = ('i2h', 'h2h', 'h2r') if proj else ('i2h', 'h2h')
        self._flat_order = [
            '%s%d_%s_%s' % (d, layer, g, t) for t in ('weight', 'bias')
            for layer in range(num_layers) for d in 'lr'[:self._dir] for g in kinds
            if not (g == 'h2r' and t == 'bias')]
        tail = ('h2r_weight',) if proj else ()
        self._torch_order = [
            '%s%d_%s' % (d, layer, n) for layer in range(num_layers) for d in 'lr'[:self._dir]
            for n in ('i2h_weight', 'h2h_weight', 'i2h_bias', 'h2h_bias') + tail]
        # imperative calls run the operator's kernel on the Parameters themselves (see
        # _forward_kernel) unless an option needs the operator's own checks
        self._direct = (not use_sequence_length and 0 <= dropout < 1 and
                        (lstm_state_clip_min is None) == (lstm_state_clip_max is None))

    def _register_param(self, name, shape, init, dtype):
        p = self.params.get(name, shape=shape, init=init, allow_deferred_init=True,
                            dtype=dtype)
        setattr(self, name, p)
        return p

    def __repr__(self):
        s = '{name}({mapping}, {layout}'
        if self._num_layers != 1:
            s += ', num_layers={num_layers}'
        if self._dropout != 0:
            s += ', dropout={dropout}'
        if self._dir == 2:
            s += ', bidirectional'
        s += ')'
        shape = self.l0_i2h_weight.shape
        mapping = '{0} -> {1}'.format(shape[1] if shape[1] else None, shape[0] // self._gates)
        return s.format(name=self.__class__.__name__, mapping=mapping, layout=self._layout,
                        num_layers=self._num_layers, dropout=self._dropout)

    def _collect_params_with_prefix(self, prefix=''):
        # structural names of MXNet's former unfused layout (kept for checkpoint files)
        if prefix:
            prefix += '.'
        bidirectional = self._dir == 2
        ret = {}
        for key, val in self._reg_params.items():
            d, layer, g, t = _PARAM_KEY.match(key).groups()
            if bidirectional:
                name = '_unfused.{}.{}_cell.{}_{}'.format(layer, d, g, t)
            else:
                name = '_unfused.{}.{}_{}'.format(layer, g, t)
            ret[prefix + name] = val
        for name, child in self._children.items():
            ret.update(child._collect_params_with_prefix(prefix + name))
        return ret

    def state_info(self, batch_size=0):
        raise NotImplementedError

    def _state_shape(self, batch_size, size):
        return {'shape': (self._num_layers * self._dir, batch_size, size),
                '__layout__': 'LNC', 'dtype': self._dtype}

    def _unfuse(self):
        """Unfuses the fused RNN in to a stack of rnn cells."""
        assert not self._projection_size, '_unfuse does not support projection layer yet!'
        assert not self._lstm_state_clip_min and not self._lstm_state_clip_max, \
            '_unfuse does not support state clipping yet!'
        mode, hidden = self._mode, self._hidden_size

        def make(**kwargs):
            if mode.startswith('rnn_'):
                return rnn_cell.RNNCell(hidden, activation=mode[4:], **kwargs)
            return {'lstm': rnn_cell.LSTMCell, 'gru': rnn_cell.GRUCell}[mode](hidden, **kwargs)

        stack = rnn_cell.HybridSequentialRNNCell(prefix=self.prefix, params=self.params)
        with stack.name_scope():
            ni = self._input_size
            for i in range(self._num_layers):
                kwargs = {'input_size': ni,
                          'i2h_weight_initializer': self._i2h_weight_initializer,
                          'h2h_weight_initializer': self._h2h_weight_initializer,
                          'i2h_bias_initializer': self._i2h_bias_initializer,
                          'h2h_bias_initializer': self._h2h_bias_initializer}
                if self._dir == 2:
                    stack.add(rnn_cell.BidirectionalCell(make(prefix='l%d_' % i, **kwargs),
                                                         make(prefix='r%d_' % i, **kwargs)))
                else:
                    stack.add(make(prefix='l%d_' % i, **kwargs))
                if self._dropout > 0 and i != self._num_layers - 1:
                    stack.add(rnn_cell.DropoutCell(self._dropout))
                ni = hidden * self._dir
        return stack

    def cast(self, dtype):
        super(_RNNLayer, self).cast(dtype)
        self._dtype = dtype

    def begin_state(self, batch_size=0, func=ndarray.zeros, **kwargs):
        """Initial state for this cell.

        Parameters
        ----------
        batch_size: int
            Only required for `NDArray` API. Size of the batch ('N' in layout).
        func : callable, default `ndarray.zeros`
            Function for creating initial state (``symbol.zeros``, ``symbol.var``, ...).
        **kwargs :
            Additional keyword arguments passed to func. For example `mean`, `std`,
            `dtype`, etc.

        Returns
        -------
        states : nested list of Symbol
            Starting states for the first RNN step.
        """
        states = []
        for i, info in enumerate(self.state_info(batch_size)):
            args = dict(info) if info is not None else {}
            args.update(kwargs)
            states.append(func(name='%sh0_%d' % (self.prefix, i), **args))
        return states

    def infer_shape(self, inputs, *args):
        """Infers the input size of the first layer from ``inputs``."""
        ni = inputs.shape[2]
        for d in 'lr'[:self._dir]:
            p = getattr(self, '%s0_i2h_weight' % d)
            p.shape = (p.shape[0], ni)
        self._input_size = ni

    def __call__(self, inputs, states=None, sequence_length=None, **kwargs):
        self.skip_states = states is None
        if states is None:
            like = wrap(inputs) if isinstance(inputs, torch.Tensor) else inputs
            if isinstance(like, ndarray.NDArray):  # zero states as NDArrays, also for tensors
                batch_size = like.shape[self._layout.find('N')]
                states = self.begin_state(batch_size, ctx=like.context, dtype=like.dtype)
            else:
                states = self.begin_state(0, func=rnn_cell._symbol_zeros(
                    inputs, self._layout.find('N'), 1))
        if isinstance(states, tensor_types):
            states = [states]
        if self._use_sequence_length:
            return super(_RNNLayer, self).__call__(inputs, states, sequence_length, **kwargs)
        return super(_RNNLayer, self).__call__(inputs, states, **kwargs)

    def hybrid_forward(self, F, inputs, states, sequence_length=None, **kwargs):
        if F is ndarray:
            batch_size = inputs.shape[self._layout.find('N')]
            for state, info in zip(states, self.state_info(batch_size)):
                if state.shape != info['shape']:
                    raise ValueError('Invalid recurrent state shape. Expecting %s, got %s.'
                                     % (str(info['shape']), str(state.shape)))
        out = self._forward_kernel(F, inputs, states, sequence_length, **kwargs)
        return out[0] if self.skip_states else out

    def _forward_kernel(self, F, inputs, states, sequence_length, **kwargs):
        """Run the fused ``RNN`` operator on the concatenated parameters (imperative calls:
        its kernel on the Parameters themselves, see ``_forward_direct``)."""
        if self._layout == 'NTC':
            inputs = F.swapaxes(inputs, 0, 1)
        if F is ndarray and self._direct:
            out = self._forward_direct(inputs, states, kwargs)
            if out is not None:
                if self._layout == 'NTC':
                    out[0] = F.swapaxes(out[0], 0, 1)
                return out
        flat = F._internal._rnn_param_concat(*[kwargs[k].reshape(-1) for k in self._flat_order],
                                             dim=0)
        extra = list(states)
        if self._use_sequence_length:
            extra.append(sequence_length)
        rnn = F.RNN(inputs, flat, *extra, use_sequence_length=self._use_sequence_length,
                    state_size=self._hidden_size, projection_size=self._projection_size,
                    num_layers=self._num_layers, bidirectional=self._dir == 2,
                    p=self._dropout, state_outputs=True, mode=self._mode,
                    lstm_state_clip_min=self._lstm_state_clip_min,
                    lstm_state_clip_max=self._lstm_state_clip_max,
                    lstm_state_clip_nan=self._lstm_state_clip_nan)
        outputs = rnn[0]
        new_states = [rnn[1], rnn[2]] if self._mode == 'lstm' else [rnn[1]]
        if self._layout == 'NTC':
            outputs = F.swapaxes(outputs, 0, 1)
        return outputs, new_states

    def _forward_direct(self, inputs, states, params):
        """[output, [states]] computed on the Parameters' own tensors (the same kernel as the
        ``RNN`` operator, without its flat parameter vector); None when the operator has to
        report a mismatch of input size or dtype."""
        data = inputs._t
        weights = [params[k]._t for k in self._torch_order]
        w = weights[0]
        if data.dim() != 3 or data.shape[2] != w.shape[1] or data.dtype != w.dtype:
            return None
        res = rnn_op.run_unpacked(
            data, weights, states[0]._t, states[1]._t if self._mode == 'lstm' else None, None,
            self._mode, self._num_layers, self._dir == 2, self._dropout,
            self._lstm_state_clip_min, self._lstm_state_clip_max, self._lstm_state_clip_nan)
        return [wrap(res[0]), [wrap(t) for t in res[1:]]]


class RNN(_RNNLayer):
    r"""Applies a multi-layer Elman RNN with `tanh` or `ReLU` non-linearity to an input
    sequence: ``h_t = act(w_ih * x_t + b_ih + w_hh * h_(t-1) + b_hh)``.

    Parameters
    ----------
    hidden_size: int
        The number of features in the hidden state h.
    num_layers: int, default 1
        Number of recurrent layers.
    activation: {'relu' or 'tanh'}, default 'relu'
        The activation function to use.
    layout : str, default 'TNC'
        The format of input and output tensors. T, N and C stand for sequence length,
        batch size, and feature dimensions respectively.
    dropout: float, default 0
        If non-zero, introduces a dropout layer on the outputs of each RNN layer except
        the last layer.
    bidirectional: bool, default False
        If `True`, becomes a bidirectional RNN.
    i2h_weight_initializer, h2h_weight_initializer : str or Initializer
    i2h_bias_initializer, h2h_bias_initializer : str or Initializer, default 'zeros'
    input_size: int, default 0
        The number of expected features in the input x. If not specified, it will be
        inferred from input.
    dtype : str, default 'float32'
    prefix : str or None
    params : ParameterDict or None

    Inputs:
        - **data**: input tensor with shape `(sequence_length, batch_size, input_size)`
          when `layout` is "TNC".
        - **states**: initial recurrent state tensor with shape
          `(num_layers, batch_size, num_hidden)` (`2*num_layers` when bidirectional).
          If `states` is None, zeros will be used as default begin states.

    Outputs:
        - **out**: output tensor with shape `(sequence_length, batch_size, num_hidden)`
          when `layout` is "TNC" (`2*num_hidden` when bidirectional).
        - **out_states**: output recurrent state tensor with the same shape as `states`.
          If `states` is None `out_states` will not be returned.
    """
    def __init__(self, hidden_size, num_layers=1, activation='relu', layout='TNC', dropout=0,
                 bidirectional=False, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer='zeros', h2h_bias_initializer='zeros', input_size=0,
                 dtype='float32', **kwargs):
        super(RNN, self).__init__(hidden_size, num_layers, layout, dropout, bidirectional,
                                  input_size, i2h_weight_initializer, h2h_weight_initializer,
                                  i2h_bias_initializer, h2h_bias_initializer,
                                  'rnn_' + activation, None, None, None, None, False, dtype,
                                  **kwargs)

    def state_info(self, batch_size=0):
        return [self._state_shape(batch_size, self._hidden_size)]


class LSTM(_RNNLayer):
    r"""Applies a multi-layer long short-term memory (LSTM) RNN to an input sequence.

    Parameters
    ----------
    hidden_size: int
        The number of features in the hidden state h.
    num_layers: int, default 1
        Number of recurrent layers.
    layout : str, default 'TNC'
        The format of input and output tensors.
    dropout: float, default 0
        Dropout on the outputs of each RNN layer except the last layer.
    bidirectional: bool, default False
        If `True`, becomes a bidirectional RNN.
    input_size: int, default 0
        The number of expected features in the input x (inferred when 0).
    i2h_weight_initializer, h2h_weight_initializer : str or Initializer
    i2h_bias_initializer, h2h_bias_initializer : str or Initializer, default 'zeros'
    projection_size: int, default None
        The number of features after projection.
    h2r_weight_initializer : str or Initializer, default None
        Initializer for the projected recurrent weights matrix.
    state_clip_min, state_clip_max : float or None, default None
        Bounds of the LSTM cell state at every step.
    state_clip_nan : boolean, default False
        Whether to clip NaN cell states to the bounds.
    dtype : str, default 'float32'

    Inputs:
        - **data**: input tensor with shape `(sequence_length, batch_size, input_size)`
          when `layout` is "TNC".
        - **states**: a list of two initial recurrent state tensors (h, c), each
          `(num_layers * directions, batch_size, num_hidden)`; zeros when None.

    Outputs:
        - **out**: output tensor with shape `(sequence_length, batch_size, num_hidden)`.
        - **out_states**: a list of two output recurrent state tensors with the same shape
          as in `states`. If `states` is None `out_states` will not be returned.
    """
    def __init__(self, hidden_size, num_layers=1, layout='TNC', dropout=0, bidirectional=False,
                 input_size=0, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer='zeros', h2h_bias_initializer='zeros',
                 projection_size=None, h2r_weight_initializer=None, state_clip_min=None,
                 state_clip_max=None, state_clip_nan=False, dtype='float32', **kwargs):
        super(LSTM, self).__init__(hidden_size, num_layers, layout, dropout, bidirectional,
                                   input_size, i2h_weight_initializer, h2h_weight_initializer,
                                   i2h_bias_initializer, h2h_bias_initializer, 'lstm',
                                   projection_size, h2r_weight_initializer, state_clip_min,
                                   state_clip_max, state_clip_nan, dtype, **kwargs)

    def state_info(self, batch_size=0):
        return [self._state_shape(batch_size, self._projection_size or self._hidden_size),
                self._state_shape(batch_size, self._hidden_size)]


class GRU(_RNNLayer):
    r"""Applies a multi-layer gated recurrent unit (GRU) RNN to an input sequence
    (cuDNN's variant: the reset gate is applied after the matrix multiplication).

    Parameters
    ----------
    hidden_size: int
        The number of features in the hidden state h
    num_layers: int, default 1
        Number of recurrent layers.
    layout : str, default 'TNC'
        The format of input and output tensors.
    dropout: float, default 0
        Dropout on the outputs of each RNN layer except the last layer.
    bidirectional: bool, default False
        If True, becomes a bidirectional RNN.
    input_size: int, default 0
        The number of expected features in the input x (inferred when 0).
    i2h_weight_initializer, h2h_weight_initializer : str or Initializer
    i2h_bias_initializer, h2h_bias_initializer : str or Initializer, default 'zeros'
    dtype : str, default 'float32'

    Inputs:
        - **data**: input tensor with shape `(sequence_length, batch_size, input_size)`
          when `layout` is "TNC".
        - **states**: initial recurrent state tensor with shape
          `(num_layers * directions, batch_size, num_hidden)`; zeros when None.

    Outputs:
        - **out**: output tensor with shape `(sequence_length, batch_size, num_hidden)`.
        - **out_states**: output recurrent state tensor with the same shape as `states`.
          If `states` is None `out_states` will not be returned.
    """
    def __init__(self, hidden_size, num_layers=1, layout='TNC', dropout=0, bidirectional=False,
                 input_size=0, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer='zeros', h2h_bias_initializer='zeros', dtype='float32',
                 **kwargs):
        super(GRU, self).__init__(hidden_size, num_layers, layout, dropout, bidirectional,
                                  input_size, i2h_weight_initializer, h2h_weight_initializer,
                                  i2h_bias_initializer, h2h_bias_initializer, 'gru', None, None,
                                  None, None, False, dtype, **kwargs)

    def state_info(self, batch_size=0):
        return [self._state_shape(batch_size, self._hidden_size)]
