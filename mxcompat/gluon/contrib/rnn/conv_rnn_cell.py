"""Convolutional recurrent cells: the i2h and h2h projections of RNN, LSTM and GRU cells are
convolutions (Shi et al. 2015, "Convolutional LSTM Network")."""
from ....base import numeric_types
from ...rnn import HybridRecurrentCell

__all__ = ['Conv1DRNNCell', 'Conv2DRNNCell', 'Conv3DRNNCell',
           'Conv1DLSTMCell', 'Conv2DLSTMCell', 'Conv3DLSTMCell',
           'Conv1DGRUCell', 'Conv2DGRUCell', 'Conv3DGRUCell']


def _spec(value, dims):
    return (value,) * dims if isinstance(value, numeric_types) else tuple(value)


class _BaseConvRNNCell(HybridRecurrentCell):
    """Abstract base class for convolutional RNNs."""
    _gates = 1
    _num_states = 1

    def __init__(self, input_shape, hidden_channels, i2h_kernel, h2h_kernel, i2h_pad,
                 i2h_dilate, h2h_dilate, i2h_weight_initializer, h2h_weight_initializer,
                 i2h_bias_initializer, h2h_bias_initializer, dims, conv_layout, activation,
                 prefix=None, params=None):
        super(_BaseConvRNNCell, self).__init__(prefix=prefix, params=params)
        self._hidden_channels = hidden_channels
        self._input_shape = input_shape
        self._conv_layout = conv_layout
        self._activation = activation
        assert all(isinstance(s, int) or len(s) == dims
                   for s in [i2h_kernel, i2h_pad, i2h_dilate, h2h_kernel, h2h_dilate]), \
            'For {dims}D convolution, the convolution settings can only be either int or ' \
            'list/tuple of length {dims}'.format(dims=dims)
        self._i2h_kernel = _spec(i2h_kernel, dims)
        self._stride = (1,) * dims
        self._i2h_pad = _spec(i2h_pad, dims)
        self._i2h_dilate = _spec(i2h_dilate, dims)
        self._h2h_kernel = _spec(h2h_kernel, dims)
        assert all(k % 2 == 1 for k in self._h2h_kernel), \
            'Only support odd number, get h2h_kernel= %s' % str(h2h_kernel)
        self._h2h_dilate = _spec(h2h_dilate, dims)
        # h2h keeps the state's spatial size ("same" padding)
        self._h2h_pad = tuple(d * (k - 1) // 2 for d, k in zip(self._h2h_dilate,
                                                               self._h2h_kernel))
        self._channel_axis = conv_layout.find('C')
        channels_first = self._channel_axis == 1
        self._in_channels = input_shape[self._channel_axis - 1]
        spatial = input_shape[1:] if channels_first else input_shape[:-1]
        out_size = tuple(x + 2 * p - d * (k - 1) if x else 0 for x, k, p, d in
                         zip(spatial, self._i2h_kernel, self._i2h_pad, self._i2h_dilate))
        total = hidden_channels * self._gates
        if channels_first:
            i2h_shape = (total, self._in_channels) + self._i2h_kernel
            h2h_shape = (total, hidden_channels) + self._h2h_kernel
            self._state_shape = (hidden_channels,) + out_size
        else:
            i2h_shape = (total,) + self._i2h_kernel + (self._in_channels,)
            h2h_shape = (total,) + self._h2h_kernel + (hidden_channels,)
            self._state_shape = out_size + (hidden_channels,)
        get = self.params.get
        self.i2h_weight = get('i2h_weight', shape=i2h_shape, init=i2h_weight_initializer,
                              allow_deferred_init=True)
        self.h2h_weight = get('h2h_weight', shape=h2h_shape, init=h2h_weight_initializer,
                              allow_deferred_init=True)
        self.i2h_bias = get('i2h_bias', shape=(total,), init=i2h_bias_initializer,
                            allow_deferred_init=True)
        self.h2h_bias = get('h2h_bias', shape=(total,), init=h2h_bias_initializer,
                            allow_deferred_init=True)

    def __repr__(self):
        shape = self.i2h_weight.shape
        in_channels = shape[1 if self._channel_axis == 1 else -1]
        return '{name}({a} -> {b}, {act}, {layout})'.format(
            name=self.__class__.__name__, a=in_channels if in_channels else None, b=shape[0],
            act=self._activation, layout=self._conv_layout)

    def state_info(self, batch_size=0):
        return [{'shape': (batch_size,) + self._state_shape, '__layout__': self._conv_layout}
                for _ in range(self._num_states)]

    def _conv_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias,
                      tag):
        n = self._hidden_channels * self._gates
        i2h = F.Convolution(data=inputs, num_filter=n, kernel=self._i2h_kernel,
                            stride=self._stride, pad=self._i2h_pad, dilate=self._i2h_dilate,
                            weight=i2h_weight, bias=i2h_bias, layout=self._conv_layout,
                            name=tag + 'i2h')
        h2h = F.Convolution(data=states[0], num_filter=n, kernel=self._h2h_kernel,
                            dilate=self._h2h_dilate, pad=self._h2h_pad, stride=self._stride,
                            weight=h2h_weight, bias=h2h_bias, layout=self._conv_layout,
                            name=tag + 'h2h')
        return i2h, h2h


class _ConvRNNCell(_BaseConvRNNCell):
    def _alias(self):
        return 'conv_rnn'

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        tag = 't%d_' % self._counter
        i2h, h2h = self._conv_forward(F, inputs, states, i2h_weight, h2h_weight, i2h_bias,
                                      h2h_bias, tag)
        out = self._get_activation(F, i2h + h2h, self._activation, name=tag + 'out')
        return out, [out]


class _ConvLSTMCell(_BaseConvRNNCell):
    _gates = 4
    _num_states = 2

    def _alias(self):
        return 'conv_lstm'

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        tag = 't%d_' % self._counter
        i2h, h2h = self._conv_forward(F, inputs, states, i2h_weight, h2h_weight, i2h_bias,
                                      h2h_bias, tag)
        gates = F.SliceChannel(i2h + h2h, num_outputs=4, name=tag + 'slice',
                               axis=self._channel_axis)
        in_gate = F.Activation(gates[0], act_type='sigmoid', name=tag + 'i')
        forget_gate = F.Activation(gates[1], act_type='sigmoid', name=tag + 'f')
        in_transform = self._get_activation(F, gates[2], self._activation, name=tag + 'c')
        out_gate = F.Activation(gates[3], act_type='sigmoid', name=tag + 'o')
        next_c = F.elemwise_add(forget_gate * states[1], in_gate * in_transform,
                                name=tag + 'state')
        next_h = F.elemwise_mul(out_gate, self._get_activation(F, next_c, self._activation),
                                name=tag + 'out')
        return next_h, [next_h, next_c]


class _ConvGRUCell(_BaseConvRNNCell):
    _gates = 3

    def _alias(self):
        return 'conv_gru'

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        tag = 't%d_' % self._counter
        i2h, h2h = self._conv_forward(F, inputs, states, i2h_weight, h2h_weight, i2h_bias,
                                      h2h_bias, tag)
        i_r, i_z, i_n = F.SliceChannel(i2h, num_outputs=3, name=tag + 'i2h_slice',
                                       axis=self._channel_axis)
        h_r, h_z, h_n = F.SliceChannel(h2h, num_outputs=3, name=tag + 'h2h_slice',
                                       axis=self._channel_axis)
        reset = F.Activation(i_r + h_r, act_type='sigmoid', name=tag + 'r_act')
        update = F.Activation(i_z + h_z, act_type='sigmoid', name=tag + 'z_act')
        cand = self._get_activation(F, i_n + reset * h_n, self._activation, name=tag + 'h_act')
        next_h = F.elemwise_add((1. - update) * cand, update * states[0], name=tag + 'out')
        return next_h, [next_h]


_DOC = """{dims}D Convolutional {kind} network cell.

    Parameters
    ----------
    input_shape : tuple of int
        Input tensor shape at each time step for each sample, excluding dimension of the
        batch size and sequence length. Must be consistent with `conv_layout`.
    hidden_channels : int
        Number of output channels.
    i2h_kernel, h2h_kernel : int or tuple of int
        Input and recurrent convolution kernels (h2h kernel sizes must be odd).
    i2h_pad : int or tuple of int, default {zeros}
    i2h_dilate, h2h_dilate : int or tuple of int, default {ones}
    i2h_weight_initializer, h2h_weight_initializer : str or Initializer
    i2h_bias_initializer, h2h_bias_initializer : str or Initializer, default zeros
    conv_layout : str, default '{layout}'
        Layout for all convolution inputs, outputs and weights.
    activation : str or gluon.Block, default 'tanh'
        Type of activation function.
    prefix : str, default ``'conv_{alias}_'``
    params : RNNParams, default None
"""


def _make(base, dims, kind):
    layout = {1: 'NCW', 2: 'NCHW', 3: 'NCDHW'}[dims]
    zeros, ones = (0,) * dims, (1,) * dims

    def __init__(self, input_shape, hidden_channels, i2h_kernel, h2h_kernel, i2h_pad=zeros,
                 i2h_dilate=ones, h2h_dilate=ones, i2h_weight_initializer=None,
                 h2h_weight_initializer=None, i2h_bias_initializer='zeros',
                 h2h_bias_initializer='zeros', conv_layout=layout, activation='tanh',
                 prefix=None, params=None):
        base.__init__(self, input_shape=input_shape, hidden_channels=hidden_channels,
                      i2h_kernel=i2h_kernel, h2h_kernel=h2h_kernel, i2h_pad=i2h_pad,
                      i2h_dilate=i2h_dilate, h2h_dilate=h2h_dilate,
                      i2h_weight_initializer=i2h_weight_initializer,
                      h2h_weight_initializer=h2h_weight_initializer,
                      i2h_bias_initializer=i2h_bias_initializer,
                      h2h_bias_initializer=h2h_bias_initializer, dims=dims,
                      conv_layout=conv_layout, activation=activation, prefix=prefix,
                      params=params)

    name = 'Conv%dD%sCell' % (dims, kind)
    doc = _DOC.format(dims=dims, kind=kind, zeros=zeros, ones=ones, layout=layout,
                      alias=kind.lower())
    return type(name, (base,), {'__init__': __init__, '__doc__': doc,
                                '__module__': __name__})


Conv1DRNNCell, Conv2DRNNCell, Conv3DRNNCell = [_make(_ConvRNNCell, d, 'RNN') for d in (1, 2, 3)]
Conv1DLSTMCell, Conv2DLSTMCell, Conv3DLSTMCell = [_make(_ConvLSTMCell, d, 'LSTM')
                                                  for d in (1, 2, 3)]
Conv1DGRUCell, Conv2DGRUCell, Conv3DGRUCell = [_make(_ConvGRUCell, d, 'GRU') for d in (1, 2, 3)]
