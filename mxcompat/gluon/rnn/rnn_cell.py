"""Recurrent cells (``mx.gluon.rnn``): one time step per call, ``unroll`` for a sequence."""
from ... import ndarray, symbol
from ...base import numeric_types, string_types
from ..block import Block, HybridBlock
from ..parameter import tensor_types
from ..utils import _indent

__all__ = ['RecurrentCell', 'HybridRecurrentCell', 'RNNCell', 'LSTMCell', 'GRUCell',
           'SequentialRNNCell', 'HybridSequentialRNNCell', 'DropoutCell', 'ModifierCell',
           'ZoneoutCell', 'ResidualCell', 'BidirectionalCell']

_MODIFIED_MSG = ('After applying modifier cells (e.g. ZoneoutCell) the base cell cannot be '
                 'called directly. Call the modifier cell instead.')


def _as_list(obj):
    if isinstance(obj, (list, tuple)):
        return list(obj)
    return list(obj) if isinstance(obj, symbol.Symbol) else [obj]


def _symbol_zeros(like, like_axis, state_axis):
    """A ``begin_state`` func for symbols: zero states whose batch dimension (``state_axis``)
    is taken from axis ``like_axis`` of the symbol ``like`` when the graph runs (mxcompat's
    symbols cannot leave a dimension unknown the way MXNet's ``zeros(shape=(0, n))`` does)."""
    def zeros(name, shape, **kwargs):
        kwargs.pop('__layout__', None)
        one = tuple(1 if i == state_axis else d for i, d in enumerate(shape))
        return symbol.broadcast_like(symbol.zeros(shape=one, **kwargs), like,
                                     lhs_axes=(state_axis,), rhs_axes=(like_axis,), name=name)
    return zeros


def _frontend(x):
    """``symbol`` or ``ndarray``, whichever ``x`` (or its first element) belongs to."""
    first = x if isinstance(x, tensor_types) else x[0]
    return symbol if isinstance(first, symbol.Symbol) else ndarray


def _format_sequence(length, inputs, layout, merge, in_layout=None):
    """Bring ``inputs`` (one tensor or a list of per-step tensors) to the requested form:
    a list of steps when ``merge`` is False, one tensor in ``layout`` when True, unchanged
    when None. Returns (inputs, time axis, F, batch size)."""
    assert inputs is not None, ('unroll(inputs=None) has been deprecated. Please create input '
                                'variables outside unroll.')
    axis, batch_axis = layout.find('T'), layout.find('N')
    in_axis = in_layout.find('T') if in_layout is not None else axis
    F = _frontend(inputs)
    batch_size = 0
    if isinstance(inputs, tensor_types):
        if F is ndarray:
            batch_size = inputs.shape[batch_axis]
        if merge is False:
            if F is ndarray:
                assert length is None or length == inputs.shape[in_axis]
                length = inputs.shape[in_axis]
            else:
                assert len(inputs.list_outputs()) == 1, (
                    "unroll doesn't allow grouped symbol as input. Please convert to list "
                    'with list(inputs) first or let unroll handle splitting.')
            inputs = _as_list(F.split(inputs, axis=in_axis, num_outputs=length,
                                      squeeze_axis=1))
    else:
        assert length is None or len(inputs) == length
        if F is ndarray:
            batch_size = inputs[0].shape[0]
        if merge is True:
            inputs = F.stack(*inputs, axis=axis)
            in_axis = axis
    if isinstance(inputs, tensor_types) and axis != in_axis:
        inputs = F.swapaxes(inputs, dim1=axis, dim2=in_axis)
    return inputs, axis, F, batch_size


def _mask_sequence_variable_length(F, data, length, valid_length, time_axis, merge):
    """Zero the steps of ``data`` beyond each sequence's ``valid_length``."""
    if not isinstance(data, tensor_types):
        data = F.stack(*data, axis=time_axis)
    out = F.SequenceMask(data, sequence_length=valid_length, use_sequence_length=True,
                         axis=time_axis)
    if merge:
        return out
    return _as_list(F.split(out, num_outputs=length, axis=time_axis, squeeze_axis=True))


def _reverse_sequences(sequences, unroll_step, valid_length=None):
    """Reverse a list of steps, each sequence within its own ``valid_length``."""
    if valid_length is None:
        return list(reversed(sequences))
    F = _frontend(sequences)
    rev = F.SequenceReverse(F.stack(*sequences, axis=0), sequence_length=valid_length,
                            use_sequence_length=True)
    if unroll_step > 1 or F is symbol:
        return _as_list(F.split(rev, axis=0, num_outputs=unroll_step, squeeze_axis=True))
    return [rev[0]]


def _get_begin_state(cell, F, begin_state, inputs, batch_size, layout='NTC'):
    if begin_state is not None:
        return begin_state
    if F is ndarray:
        ctx = inputs.context if isinstance(inputs, tensor_types) else inputs[0].context
        with ctx:
            return cell.begin_state(func=F.zeros, batch_size=batch_size)
    if isinstance(inputs, tensor_types):  # one symbol in ``layout``
        return cell.begin_state(func=_symbol_zeros(inputs, layout.find('N'), 0),
                                batch_size=batch_size)
    return cell.begin_state(func=_symbol_zeros(inputs[0], 0, 0), batch_size=batch_size)


class RecurrentCell(Block):
    """Abstract base class for RNN cells.

    Parameters
    ----------
    prefix : str, optional
        Prefix for names of `Block`s (this prefix is also used for names of weights if
        `params` is `None` i.e. if `params` are being created and not reused)
    params : Parameter or None, default None
        Container for weight sharing between cells. A new Parameter container is created
        if `params` is `None`.
    """
    def __init__(self, prefix=None, params=None):
        super(RecurrentCell, self).__init__(prefix=prefix, params=params)
        self._modified = False
        self.reset()

    def reset(self):
        """Reset before re-using the cell for another graph."""
        self._init_counter = -1
        self._counter = -1
        for cell in self._children.values():
            cell.reset()

    def state_info(self, batch_size=0):
        """shape and layout information of states"""
        raise NotImplementedError()

    def begin_state(self, batch_size=0, func=ndarray.zeros, **kwargs):
        """Initial state for this cell.

        Parameters
        ----------
        func : callable, default symbol.zeros
            Function for creating initial state (``ndarray.zeros``, ``symbol.var``, ...).
        batch_size: int, default 0
            Only required for NDArray API. Size of the batch ('N' in layout).
        **kwargs :
            Additional keyword arguments passed to func. For example `mean`, `std`,
            `dtype`, etc.

        Returns
        -------
        states : nested list of Symbol
            Starting states for the first RNN step.
        """
        assert not self._modified, _MODIFIED_MSG
        states = []
        for info in self.state_info(batch_size):
            self._init_counter += 1
            args = dict(info) if info is not None else {}
            args.update(kwargs)
            states.append(func(name='%sbegin_state_%d' % (self._prefix, self._init_counter),
                               **args))
        return states

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None,
               valid_length=None):
        """Unrolls an RNN cell across time steps.

        Parameters
        ----------
        length : int
            Number of steps to unroll.
        inputs : Symbol, list of Symbol, or None
            If `inputs` is a single Symbol (usually the output of Embedding symbol), it
            should have shape (batch_size, length, ...) if `layout` is 'NTC', or
            (length, batch_size, ...) if `layout` is 'TNC'. If `inputs` is a list of
            symbols (usually output of previous unroll), they should all have shape
            (batch_size, ...).
        begin_state : nested list of Symbol, optional
            Input states created by `begin_state()` or output state of another cell.
            Created from `begin_state()` if `None`.
        layout : str, optional
            `layout` of input symbol. Only used if inputs is a single Symbol.
        merge_outputs : bool, optional
            If `False`, returns outputs as a list of Symbols. If `True`, concatenates
            output across time steps and returns a single symbol with shape
            (batch_size, length, ...) if layout is 'NTC', or (length, batch_size, ...) if
            layout is 'TNC'. If `None`, output whatever is faster.
        valid_length : Symbol, NDArray or None
            `valid_length` specifies the length of the sequences in the batch without
            padding. This option is especially useful for building sequence-to-sequence
            models where the input and output sequences would potentially be padded.

        Returns
        -------
        outputs : list of Symbol or Symbol
        states : list of Symbol
            The new state of this RNN after this unrolling.
        """
        self.reset()
        inputs, axis, F, batch_size = _format_sequence(length, inputs, layout, False)
        states = _get_begin_state(self, F, begin_state, inputs, batch_size)
        outputs, history = [], []
        for step in range(length):
            out, states = self(inputs[step], states)
            outputs.append(out)
            if valid_length is not None:
                history.append(states)
        if valid_length is not None:
            states = [F.SequenceLast(F.stack(*per_step, axis=0), sequence_length=valid_length,
                                     use_sequence_length=True, axis=0)
                      for per_step in zip(*history)]
            outputs = _mask_sequence_variable_length(F, outputs, length, valid_length, axis,
                                                     True)
        outputs, _, _, _ = _format_sequence(length, outputs, layout, merge_outputs)
        return outputs, states

    def _get_activation(self, F, inputs, activation, **kwargs):
        """Apply ``activation`` (a name, a LeakyReLU block or a callable) to ``inputs``."""
        named = {'tanh': F.tanh, 'relu': F.relu, 'sigmoid': F.sigmoid,
                 'softsign': F.softsign}.get(activation)
        if named is not None:
            return named(inputs, **kwargs)
        if isinstance(activation, string_types):
            return F.Activation(inputs, act_type=activation, **kwargs)
        alpha = getattr(activation, '_alpha', None)
        if alpha is not None and type(activation).__name__ == 'LeakyReLU':
            return F.LeakyReLU(inputs, act_type='leaky', slope=alpha, **kwargs)
        return activation(inputs, **kwargs)

    def forward(self, inputs, states):
        """Unrolls the recurrent cell for one time step.

        Parameters
        ----------
        inputs : sym.Variable
            Input symbol, 2D, of shape (batch_size * num_units).
        states : list of sym.Variable
            RNN state from previous step or the output of begin_state().

        Returns
        -------
        output : Symbol
            Symbol corresponding to the output from the RNN when unrolling
            for a single time step.
        states : list of Symbol
            The new state of this RNN after this unrolling.
        """
        self._counter += 1
        return super(RecurrentCell, self).forward(inputs, states)


class HybridRecurrentCell(RecurrentCell, HybridBlock):
    """HybridRecurrentCell supports hybridize."""
    def __init__(self, prefix=None, params=None):
        super(HybridRecurrentCell, self).__init__(prefix=prefix, params=params)

    def hybrid_forward(self, F, x, *args, **kwargs):
        raise NotImplementedError


class _GatedCell(HybridRecurrentCell):
    """Shared parts of RNNCell, LSTMCell and GRUCell: ``gates`` stacked i2h/h2h projections."""
    _gates = 1

    def __init__(self, hidden_size, i2h_weight_initializer, h2h_weight_initializer,
                 i2h_bias_initializer, h2h_bias_initializer, input_size, prefix, params):
        super(_GatedCell, self).__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._input_size = input_size
        rows = self._gates * hidden_size
        get = self.params.get
        self.i2h_weight = get('i2h_weight', shape=(rows, input_size),
                              init=i2h_weight_initializer, allow_deferred_init=True)
        self.h2h_weight = get('h2h_weight', shape=(rows, hidden_size),
                              init=h2h_weight_initializer, allow_deferred_init=True)
        self.i2h_bias = get('i2h_bias', shape=(rows,), init=i2h_bias_initializer,
                            allow_deferred_init=True)
        self.h2h_bias = get('h2h_bias', shape=(rows,), init=h2h_bias_initializer,
                            allow_deferred_init=True)

    def state_info(self, batch_size=0):
        return [{'shape': (batch_size, self._hidden_size), '__layout__': 'NC'}
                for _ in range(self._num_states)]

    _num_states = 1

    def _mapping(self):
        shape = self.i2h_weight.shape
        return '{0} -> {1}'.format(shape[1] if shape[1] else None, shape[0])

    def __repr__(self):
        return '{name}({mapping})'.format(name=self.__class__.__name__,
                                          mapping=self._mapping())

    def _projections(self, F, inputs, hidden, i2h_weight, h2h_weight, i2h_bias, h2h_bias, tag):
        n = self._hidden_size * self._gates
        i2h = F.FullyConnected(data=inputs, weight=i2h_weight, bias=i2h_bias, num_hidden=n,
                               name=tag + 'i2h')
        h2h = F.FullyConnected(data=hidden, weight=h2h_weight, bias=h2h_bias, num_hidden=n,
                               name=tag + 'h2h')
        return i2h, h2h


class RNNCell(_GatedCell):
    r"""Elman RNN recurrent neural network cell.

    Each call computes the following function:

    .. math::

        h_t = \tanh(w_{ih} * x_t + b_{ih}  +  w_{hh} * h_{(t-1)} + b_{hh})

    Parameters
    ----------
    hidden_size : int
        Number of units in output symbol
    activation : str or Symbol, default 'tanh'
        Type of activation function.
    i2h_weight_initializer, h2h_weight_initializer : str or Initializer
    i2h_bias_initializer, h2h_bias_initializer : str or Initializer, default 'zeros'
    input_size : int, default 0 (inferred at the first forward)
    prefix : str, default ``'rnn_'``
    params : Parameter or None
    """
    def __init__(self, hidden_size, activation='tanh', i2h_weight_initializer=None,
                 h2h_weight_initializer=None, i2h_bias_initializer='zeros',
                 h2h_bias_initializer='zeros', input_size=0, prefix=None, params=None):
        super(RNNCell, self).__init__(hidden_size, i2h_weight_initializer,
                                      h2h_weight_initializer, i2h_bias_initializer,
                                      h2h_bias_initializer, input_size, prefix, params)
        self._activation = activation

    def _alias(self):
        return 'rnn'

    def __repr__(self):
        return '{name}({mapping}, {act})'.format(name=self.__class__.__name__,
                                                 mapping=self._mapping(), act=self._activation)

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        tag = 't%d_' % self._counter
        i2h, h2h = self._projections(F, inputs, states[0], i2h_weight, h2h_weight, i2h_bias,
                                     h2h_bias, tag)
        out = self._get_activation(F, F.elemwise_add(i2h, h2h, name=tag + 'plus0'),
                                   self._activation, name=tag + 'out')
        return out, [out]


class LSTMCell(_GatedCell):
    r"""Long-Short Term Memory (LSTM) network cell.

    Each call computes (gates in the order input, forget, cell, output)::

        i_t = sigmoid(W_ii x_t + b_ii + W_hi h_(t-1) + b_hi)
        f_t = sigmoid(W_if x_t + b_if + W_hf h_(t-1) + b_hf)
        g_t = tanh(W_ig x_t + b_ig + W_hc h_(t-1) + b_hg)
        o_t = sigmoid(W_io x_t + b_io + W_ho h_(t-1) + b_ho)
        c_t = f_t * c_(t-1) + i_t * g_t
        h_t = o_t * tanh(c_t)

    Parameters
    ----------
    hidden_size : int
        Number of units in output symbol.
    i2h_weight_initializer, h2h_weight_initializer : str or Initializer
    i2h_bias_initializer, h2h_bias_initializer : str or Initializer, default 'zeros'
    input_size : int, default 0 (inferred at the first forward)
    prefix : str, default ``'lstm_'``
    params : Parameter or None
    activation : str, default 'tanh'
    recurrent_activation : str, default 'sigmoid'
    """
    _gates = 4
    _num_states = 2

    def __init__(self, hidden_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer='zeros', h2h_bias_initializer='zeros', input_size=0,
                 prefix=None, params=None, activation='tanh', recurrent_activation='sigmoid'):
        super(LSTMCell, self).__init__(hidden_size, i2h_weight_initializer,
                                       h2h_weight_initializer, i2h_bias_initializer,
                                       h2h_bias_initializer, input_size, prefix, params)
        self._activation = activation
        self._recurrent_activation = recurrent_activation

    def _alias(self):
        return 'lstm'

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        tag = 't%d_' % self._counter
        i2h, h2h = self._projections(F, inputs, states[0], i2h_weight, h2h_weight, i2h_bias,
                                     h2h_bias, tag)
        gates = F.SliceChannel(F.elemwise_add(i2h, h2h, name=tag + 'plus0'), num_outputs=4,
                               name=tag + 'slice')
        act, ract = self._activation, self._recurrent_activation
        in_gate = self._get_activation(F, gates[0], ract, name=tag + 'i')
        forget_gate = self._get_activation(F, gates[1], ract, name=tag + 'f')
        in_transform = self._get_activation(F, gates[2], act, name=tag + 'c')
        out_gate = self._get_activation(F, gates[3], ract, name=tag + 'o')
        next_c = F.elemwise_add(F.elemwise_mul(forget_gate, states[1], name=tag + 'mul0'),
                                F.elemwise_mul(in_gate, in_transform, name=tag + 'mul1'),
                                name=tag + 'state')
        next_h = F.elemwise_mul(out_gate, F.Activation(next_c, act_type=act,
                                                       name=tag + 'activation0'),
                                name=tag + 'out')
        return next_h, [next_h, next_c]


class GRUCell(_GatedCell):
    r"""Gated Rectified Unit (GRU) network cell, cuDNN's variant (the reset gate is applied
    after the matrix multiplication)::

        r_t = sigmoid(W_ir x_t + b_ir + W_hr h_(t-1) + b_hr)
        i_t = sigmoid(W_ii x_t + b_ii + W_hi h_(t-1) + b_hi)
        n_t = tanh(W_in x_t + b_in + r_t * (W_hn h_(t-1) + b_hn))
        h_t = (1 - i_t) * n_t + i_t * h_(t-1)

    Parameters
    ----------
    hidden_size : int
        Number of units in output symbol.
    i2h_weight_initializer, h2h_weight_initializer : str or Initializer
    i2h_bias_initializer, h2h_bias_initializer : str or Initializer, default 'zeros'
    input_size : int, default 0 (inferred at the first forward)
    prefix : str, default ``'gru_'``
    params : Parameter or None
    """
    _gates = 3

    def __init__(self, hidden_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer='zeros', h2h_bias_initializer='zeros', input_size=0,
                 prefix=None, params=None):
        super(GRUCell, self).__init__(hidden_size, i2h_weight_initializer,
                                      h2h_weight_initializer, i2h_bias_initializer,
                                      h2h_bias_initializer, input_size, prefix, params)

    def _alias(self):
        return 'gru'

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        tag = 't%d_' % self._counter
        prev = states[0]
        i2h, h2h = self._projections(F, inputs, prev, i2h_weight, h2h_weight, i2h_bias,
                                     h2h_bias, tag)
        i_r, i_z, i_n = F.SliceChannel(i2h, num_outputs=3, name=tag + 'i2h_slice')
        h_r, h_z, h_n = F.SliceChannel(h2h, num_outputs=3, name=tag + 'h2h_slice')
        reset = F.Activation(F.elemwise_add(i_r, h_r, name=tag + 'plus0'), act_type='sigmoid',
                             name=tag + 'r_act')
        update = F.Activation(F.elemwise_add(i_z, h_z, name=tag + 'plus1'),
                              act_type='sigmoid', name=tag + 'z_act')
        cand = F.Activation(F.elemwise_add(i_n, F.elemwise_mul(reset, h_n, name=tag + 'mul0'),
                                           name=tag + 'plus2'),
                            act_type='tanh', name=tag + 'h_act')
        keep = F.elemwise_sub(F.ones_like(update, name=tag + 'ones_like0'), update,
                              name=tag + 'minus0')
        next_h = F.elemwise_add(F.elemwise_mul(keep, cand, name=tag + 'mul1'),
                                F.elemwise_mul(update, prev, name=tag + 'mul20'),
                                name=tag + 'out')
        return next_h, [next_h]


class _StackMixin(object):
    """Stacking behaviour shared by SequentialRNNCell and HybridSequentialRNNCell."""

    def __repr__(self):
        body = '\n'.join('({i}): {m}'.format(i=i, m=_indent(m.__repr__(), 2))
                         for i, m in self._children.items())
        return '{name}(\n{body}\n)'.format(name=self.__class__.__name__, body=body)

    def add(self, cell):
        """Appends a cell into the stack.

        Parameters
        ----------
        cell : RecurrentCell
            The cell to add.
        """
        self.register_child(cell)

    def state_info(self, batch_size=0):
        return sum([c.state_info(batch_size) for c in self._children.values()], [])

    def begin_state(self, **kwargs):
        assert not self._modified, _MODIFIED_MSG
        return sum([c.begin_state(**kwargs) for c in self._children.values()], [])

    def __call__(self, inputs, states):
        self._counter += 1
        collected, pos = [], 0
        for cell in self._children.values():
            assert not isinstance(cell, BidirectionalCell)
            n = len(cell.state_info())
            inputs, new = cell(inputs, states[pos:pos + n])
            pos += n
            collected.extend(new)
        return inputs, collected

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None,
               valid_length=None):
        self.reset()
        inputs, _, F, batch_size = _format_sequence(length, inputs, layout, None)
        begin_state = _get_begin_state(self, F, begin_state, inputs, batch_size, layout)
        cells = list(self._children.values())
        collected, pos = [], 0
        for i, cell in enumerate(cells):
            n = len(cell.state_info())
            inputs, states = cell.unroll(
                length, inputs=inputs, begin_state=begin_state[pos:pos + n], layout=layout,
                merge_outputs=merge_outputs if i == len(cells) - 1 else None,
                valid_length=valid_length)
            pos += n
            collected.extend(states)
        return inputs, collected

    def __getitem__(self, i):
        return self._children[str(i)]

    def __len__(self):
        return len(self._children)


class SequentialRNNCell(_StackMixin, RecurrentCell):
    """Sequentially stacking multiple RNN cells."""
    def __init__(self, prefix=None, params=None):
        super(SequentialRNNCell, self).__init__(prefix=prefix, params=params)

    def hybrid_forward(self, *args, **kwargs):
        raise NotImplementedError


class HybridSequentialRNNCell(_StackMixin, HybridRecurrentCell):
    """Sequentially stacking multiple HybridRNN cells."""
    def __init__(self, prefix=None, params=None):
        super(HybridSequentialRNNCell, self).__init__(prefix=prefix, params=params)

    def hybrid_forward(self, F, inputs, states):
        return self.__call__(inputs, states)


class DropoutCell(HybridRecurrentCell):
    """Applies dropout on input.

    Parameters
    ----------
    rate : float
        Percentage of elements to drop out, which is 1 - percentage to retain.
    axes : tuple of int, default ()
        The axes on which dropout mask is shared. If empty, regular dropout is applied.
    """
    def __init__(self, rate, axes=(), prefix=None, params=None):
        super(DropoutCell, self).__init__(prefix, params)
        assert isinstance(rate, numeric_types), 'rate must be a number'
        self._rate = rate
        self._axes = axes

    def __repr__(self):
        return '{name}(rate={r}, axes={a})'.format(name=self.__class__.__name__, r=self._rate,
                                                   a=self._axes)

    def state_info(self, batch_size=0):
        return []

    def _alias(self):
        return 'dropout'

    def hybrid_forward(self, F, inputs, states):
        if self._rate > 0:
            inputs = F.Dropout(data=inputs, p=self._rate, axes=self._axes,
                               name='t%d_fwd' % self._counter)
        return inputs, states

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None,
               valid_length=None):
        self.reset()
        inputs, _, F, _ = _format_sequence(length, inputs, layout, merge_outputs)
        if isinstance(inputs, tensor_types):
            return self.hybrid_forward(F, inputs, begin_state if begin_state else [])
        return super(DropoutCell, self).unroll(length, inputs, begin_state=begin_state,
                                               layout=layout, merge_outputs=merge_outputs,
                                               valid_length=None)


class ModifierCell(HybridRecurrentCell):
    """Base class for modifier cells. A modifier cell takes a base cell, applies
    modifications on it (e.g. Zoneout), and returns a new cell. After applying modifiers
    the base cell should no longer be called directly; the modifier cell should be used
    instead."""
    def __init__(self, base_cell):
        assert not base_cell._modified, ('Cell %s is already modified. One cell cannot be '
                                         'modified twice' % base_cell.name)
        base_cell._modified = True
        super(ModifierCell, self).__init__(prefix=base_cell.prefix + self._alias(),
                                           params=None)
        self.base_cell = base_cell

    @property
    def params(self):
        return self.base_cell.params

    def state_info(self, batch_size=0):
        return self.base_cell.state_info(batch_size)

    def begin_state(self, func=symbol.zeros, **kwargs):
        assert not self._modified, _MODIFIED_MSG
        self.base_cell._modified = False
        try:
            return self.base_cell.begin_state(func=func, **kwargs)
        finally:
            self.base_cell._modified = True

    def hybrid_forward(self, F, inputs, states):
        raise NotImplementedError

    def __repr__(self):
        return '{name}({base})'.format(name=self.__class__.__name__, base=self.base_cell)


class ZoneoutCell(ModifierCell):
    """Applies Zoneout on base cell: in training, each output / state keeps its previous
    value with probability ``zoneout_outputs`` / ``zoneout_states``."""
    def __init__(self, base_cell, zoneout_outputs=0., zoneout_states=0.):
        assert not isinstance(base_cell, BidirectionalCell), (
            "BidirectionalCell doesn't support zoneout since it doesn't support step. "
            'Please add ZoneoutCell to the cells underneath instead.')
        assert not isinstance(base_cell, SequentialRNNCell) or \
            not getattr(base_cell, '_bidirectional', False), (
                "Bidirectional SequentialRNNCell doesn't support zoneout. Please add "
                'ZoneoutCell to the cells underneath instead.')
        super(ZoneoutCell, self).__init__(base_cell)
        self.zoneout_outputs = zoneout_outputs
        self.zoneout_states = zoneout_states
        self._prev_output = None

    def __repr__(self):
        return '{name}(p_out={o}, p_state={s}, {base})'.format(
            name=self.__class__.__name__, o=self.zoneout_outputs, s=self.zoneout_states,
            base=self.base_cell)

    def _alias(self):
        return 'zoneout'

    def reset(self):
        super(ZoneoutCell, self).reset()
        self._prev_output = None

    def hybrid_forward(self, F, inputs, states):
        next_output, next_states = self.base_cell(inputs, states)

        def keep_new(p, like):  # 1 where the new value is kept (0 everywhere but training)
            return F.Dropout(F.ones_like(like), p=p)

        prev_output = self._prev_output
        if prev_output is None:
            prev_output = F.zeros_like(next_output)
        p_out, p_state = self.zoneout_outputs, self.zoneout_states
        output = next_output if p_out == 0. else \
            F.where(keep_new(p_out, next_output), next_output, prev_output)
        if p_state != 0.:
            next_states = [F.where(keep_new(p_state, new), new, old)
                           for new, old in zip(next_states, states)]
        self._prev_output = output
        return output, next_states


class ResidualCell(ModifierCell):
    """Adds residual connection as described in Wu et al, 2016
    (https://arxiv.org/abs/1609.08144). Output of the cell is output of the base cell plus
    input."""
    def __init__(self, base_cell):
        super(ResidualCell, self).__init__(base_cell)

    def hybrid_forward(self, F, inputs, states):
        output, states = self.base_cell(inputs, states)
        return F.elemwise_add(output, inputs, name='t%d_fwd' % self._counter), states

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None,
               valid_length=None):
        self.reset()
        self.base_cell._modified = False
        try:
            outputs, states = self.base_cell.unroll(
                length, inputs=inputs, begin_state=begin_state, layout=layout,
                merge_outputs=merge_outputs, valid_length=valid_length)
        finally:
            self.base_cell._modified = True
        if merge_outputs is None:
            merge_outputs = isinstance(outputs, tensor_types)
        inputs, axis, F, _ = _format_sequence(length, inputs, layout, merge_outputs)
        if valid_length is not None:
            inputs = _mask_sequence_variable_length(F, inputs, length, valid_length, axis,
                                                    merge_outputs)
        if merge_outputs:
            return F.elemwise_add(outputs, inputs), states
        return [F.elemwise_add(o, i) for o, i in zip(outputs, inputs)], states


class BidirectionalCell(HybridRecurrentCell):
    """Bidirectional RNN cell.

    Parameters
    ----------
    l_cell : RecurrentCell
        Cell for forward unrolling
    r_cell : RecurrentCell
        Cell for backward unrolling
    """
    def __init__(self, l_cell, r_cell, output_prefix='bi_'):
        super(BidirectionalCell, self).__init__(prefix='', params=None)
        self.register_child(l_cell, 'l_cell')
        self.register_child(r_cell, 'r_cell')
        self._output_prefix = output_prefix

    def __call__(self, inputs, states):
        raise NotImplementedError('Bidirectional cannot be stepped. Please use unroll')

    def __repr__(self):
        return '{name}(forward={l}, backward={r})'.format(
            name=self.__class__.__name__, l=self._children['l_cell'],
            r=self._children['r_cell'])

    def state_info(self, batch_size=0):
        return sum([c.state_info(batch_size) for c in self._children.values()], [])

    def begin_state(self, **kwargs):
        assert not self._modified, _MODIFIED_MSG
        return sum([c.begin_state(**kwargs) for c in self._children.values()], [])

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None,
               valid_length=None):
        self.reset()
        inputs, axis, F, batch_size = _format_sequence(length, inputs, layout, False)
        reversed_inputs = _reverse_sequences(inputs, length, valid_length)
        states = _get_begin_state(self, F, begin_state, inputs, batch_size)
        l_cell, r_cell = self._children.values()
        n_left = len(l_cell.state_info(batch_size))
        l_outputs, l_states = l_cell.unroll(length, inputs=inputs, begin_state=states[:n_left],
                                            layout=layout, merge_outputs=merge_outputs,
                                            valid_length=valid_length)
        r_outputs, r_states = r_cell.unroll(length, inputs=reversed_inputs,
                                            begin_state=states[n_left:], layout=layout,
                                            merge_outputs=False, valid_length=valid_length)
        r_outputs = _reverse_sequences(r_outputs, length, valid_length)
        if merge_outputs is None:
            merge_outputs = isinstance(l_outputs, tensor_types)
            l_outputs, _, _, _ = _format_sequence(None, l_outputs, layout, merge_outputs)
            r_outputs, _, _, _ = _format_sequence(None, r_outputs, layout, merge_outputs)
        if merge_outputs:
            r_outputs = F.stack(*r_outputs, axis=axis)
            outputs = F.concat(l_outputs, r_outputs, dim=2, name='%sout' % self._output_prefix)
        else:
            outputs = [F.concat(lo, ro, dim=1, name='%st%d' % (self._output_prefix, i))
                       for i, (lo, ro) in enumerate(zip(l_outputs, r_outputs))]
        if valid_length is not None:
            outputs = _mask_sequence_variable_length(F, outputs, length, valid_length, axis,
                                                     merge_outputs)
        return outputs, l_states + r_states
