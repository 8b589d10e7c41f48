"""Contrib recurrent cells: VariationalDropoutCell, LSTMPCell, and ``dynamic_unroll``."""
from ...parameter import tensor_types
from ...rnn import BidirectionalCell, SequentialRNNCell, ModifierCell, HybridRecurrentCell
from ...rnn.rnn_cell import (_format_sequence, _get_begin_state,
                             _mask_sequence_variable_length)

__all__ = ['VariationalDropoutCell', 'LSTMPCell']


class VariationalDropoutCell(ModifierCell):
    """Applies Variational Dropout on base cell (https://arxiv.org/pdf/1512.05287.pdf): the
    same dropout mask is used for every time step of the inputs, states and outputs.

    Parameters
    ----------
    base_cell : RecurrentCell
        The cell on which to perform variational dropout.
    drop_inputs : float, default 0.
        The dropout rate for inputs. Won't apply dropout if it equals 0.
    drop_states : float, default 0.
        The dropout rate for state inputs on the first state channel.
        Won't apply dropout if it equals 0.
    drop_outputs : float, default 0.
        The dropout rate for outputs. Won't apply dropout if it equals 0.
    """
    def __init__(self, base_cell, drop_inputs=0., drop_states=0., drop_outputs=0.):
        assert not drop_states or not isinstance(base_cell, BidirectionalCell), \
            "BidirectionalCell doesn't support variational state dropout. " \
            'Please add VariationalDropoutCell to the cells underneath instead.'
        assert not drop_states or not isinstance(base_cell, SequentialRNNCell) or \
            not getattr(base_cell, '_bidirectional', False), \
            "Bidirectional SequentialRNNCell doesn't support variational state dropout. " \
            'Please add VariationalDropoutCell to the cells underneath instead.'
        super(VariationalDropoutCell, self).__init__(base_cell)
        self.drop_inputs = drop_inputs
        self.drop_states = drop_states
        self.drop_outputs = drop_outputs
        self.drop_inputs_mask = None
        self.drop_states_mask = None
        self.drop_outputs_mask = None

    def _alias(self):
        return 'vardrop'

    def reset(self):
        super(VariationalDropoutCell, self).reset()
        self.drop_inputs_mask = None
        self.drop_states_mask = None
        self.drop_outputs_mask = None

    @staticmethod
    def _mask(F, like, p):
        return F.Dropout(F.ones_like(like), p=p)

    def hybrid_forward(self, F, inputs, states):
        if self.drop_states and self.drop_states_mask is None:
            self.drop_states_mask = self._mask(F, states[0], self.drop_states)
        if self.drop_inputs and self.drop_inputs_mask is None:
            self.drop_inputs_mask = self._mask(F, inputs, self.drop_inputs)
        if self.drop_states:
            states = list(states)
            states[0] = states[0] * self.drop_states_mask
        if self.drop_inputs:
            inputs = inputs * self.drop_inputs_mask
        next_output, next_states = self.base_cell(inputs, states)
        if self.drop_outputs and self.drop_outputs_mask is None:
            self.drop_outputs_mask = self._mask(F, next_output, self.drop_outputs)
        if self.drop_outputs:
            next_output = next_output * self.drop_outputs_mask
        return next_output, next_states

    def __repr__(self):
        return '{name}(p_out = {o}, p_state = {s})'.format(
            name=self.__class__.__name__, o=self.drop_outputs, s=self.drop_states)

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None,
               valid_length=None):
        """Unrolls the cell across time steps (see ``RecurrentCell.unroll``). Without state
        dropout the input and output masks are applied to whole sequences at once."""
        if self.drop_states:
            return super(VariationalDropoutCell, self).unroll(
                length, inputs, begin_state, layout, merge_outputs, valid_length=valid_length)
        self.reset()
        inputs, axis, F, batch_size = _format_sequence(length, inputs, layout, True)
        states = _get_begin_state(self, F, begin_state, inputs, batch_size, layout)
        if self.drop_inputs:
            inputs = F.Dropout(inputs, p=self.drop_inputs, axes=(axis,))
        outputs, states = self.base_cell.unroll(length, inputs, states, layout,
                                                merge_outputs=True, valid_length=valid_length)
        if self.drop_outputs:
            outputs = F.Dropout(outputs, p=self.drop_outputs, axes=(axis,))
        if merge_outputs is None:
            merge_outputs = isinstance(outputs, tensor_types)
        outputs, _, _, _ = _format_sequence(length, outputs, layout, merge_outputs)
        if valid_length is not None:
            outputs = _mask_sequence_variable_length(F, outputs, length, valid_length, axis,
                                                     merge_outputs)
        return outputs, states


class LSTMPCell(HybridRecurrentCell):
    r"""Long-Short Term Memory Projected (LSTMP) network cell
    (https://arxiv.org/abs/1402.1128): an LSTM cell whose hidden state is projected to
    ``projection_size`` by ``h2r_weight`` (no bias) before it is output and fed back.

    Parameters
    ----------
    hidden_size : int
        Number of units in cell state symbol.
    projection_size : int
        Number of units in output symbol.
    i2h_weight_initializer, h2h_weight_initializer, h2r_weight_initializer : str or
        Initializer
    i2h_bias_initializer, h2h_bias_initializer : str or Initializer, default 'zeros'
    input_size : int, default 0 (inferred at the first forward)
    prefix : str, default ``'lstmp_'``
    params : Parameter or None
    """
    def __init__(self, hidden_size, projection_size, i2h_weight_initializer=None,
                 h2h_weight_initializer=None, h2r_weight_initializer=None,
                 i2h_bias_initializer='zeros', h2h_bias_initializer='zeros', input_size=0,
                 prefix=None, params=None):
        super(LSTMPCell, self).__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._input_size = input_size
        self._projection_size = projection_size
        rows = 4 * hidden_size
        get = self.params.get
        self.i2h_weight = get('i2h_weight', shape=(rows, input_size),
                              init=i2h_weight_initializer, allow_deferred_init=True)
        self.h2h_weight = get('h2h_weight', shape=(rows, projection_size),
                              init=h2h_weight_initializer, allow_deferred_init=True)
        self.h2r_weight = get('h2r_weight', shape=(projection_size, hidden_size),
                              init=h2r_weight_initializer, allow_deferred_init=True)
        self.i2h_bias = get('i2h_bias', shape=(rows,), init=i2h_bias_initializer,
                            allow_deferred_init=True)
        self.h2h_bias = get('h2h_bias', shape=(rows,), init=h2h_bias_initializer,
                            allow_deferred_init=True)

    def state_info(self, batch_size=0):
        return [{'shape': (batch_size, self._projection_size), '__layout__': 'NC'},
                {'shape': (batch_size, self._hidden_size), '__layout__': 'NC'}]

    def _alias(self):
        return 'lstmp'

    def __repr__(self):
        shape = self.i2h_weight.shape
        return '{name}({a} -> {b} -> {c})'.format(
            name=self.__class__.__name__, a=shape[1] if shape[1] else None, b=shape[0],
            c=self.h2r_weight.shape[0])

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, h2r_weight, i2h_bias,
                       h2h_bias):
        tag = 't%d_' % self._counter
        n = self._hidden_size * 4
        i2h = F.FullyConnected(data=inputs, weight=i2h_weight, bias=i2h_bias, num_hidden=n,
                               name=tag + 'i2h')
        h2h = F.FullyConnected(data=states[0], weight=h2h_weight, bias=h2h_bias, num_hidden=n,
                               name=tag + 'h2h')
        gates = F.SliceChannel(i2h + h2h, num_outputs=4, name=tag + 'slice')
        in_gate = F.Activation(gates[0], act_type='sigmoid', name=tag + 'i')
        forget_gate = F.Activation(gates[1], act_type='sigmoid', name=tag + 'f')
        in_transform = F.Activation(gates[2], act_type='tanh', name=tag + 'c')
        out_gate = F.Activation(gates[3], act_type='sigmoid', name=tag + 'o')
        next_c = F.elemwise_add(forget_gate * states[1], in_gate * in_transform,
                                name=tag + 'state')
        hidden = F.elemwise_mul(out_gate, F.Activation(next_c, act_type='tanh'),
                                name=tag + 'hidden')
        next_r = F.FullyConnected(data=hidden, num_hidden=self._projection_size,
                                  weight=h2r_weight, no_bias=True, name=tag + 'out')
        return next_r, [next_r, next_c]


def dynamic_unroll(cell, inputs, begin_state, drop_inputs=0, drop_outputs=0, layout='TNC',
                   valid_length=None):
    """Unrolls an RNN cell across time steps with ``contrib.foreach`` (the loop is part of
    the graph when hybridized).

    Parameters
    ----------
    cell : an object whose base class is RNNCell.
        The RNN cell to run on the input sequence.
    inputs : Symbol or NDArray
        The input sequence, in ``layout``.
    begin_state : nested list of Symbol or NDArray
        The initial states of the RNN sequence.
    drop_inputs : float, default 0.
        The dropout rate for inputs (one mask for every step).
    drop_outputs : float, default 0.
        The dropout rate for outputs (one mask for every step).
    layout : str, optional
        `layout` of input symbol: 'TNC' or 'NTC'.
    valid_length : Symbol, NDArray or None
        The length of each sequence; outputs beyond it are 0 and its states are those of
        its last valid step.

    Returns
    -------
    outputs : Symbol or NDArray
        the output of the RNN from this unrolling.
    states : list of Symbol or NDArray
        The new state of this RNN after this unrolling.
    """
    inputs, axis, F, _ = _format_sequence(0, inputs, layout, True)
    axes = None
    if axis != 0:
        axes = list(range(len(layout)))
        axes[0], axes[axis] = axes[axis], axes[0]
        inputs = F.transpose(inputs, axes=axes)
    states = begin_state
    if drop_inputs:
        inputs = F.Dropout(inputs, p=drop_inputs, axes=(axis,))
    if valid_length is None:
        def loop_body(step, states):
            return cell(step, states)
    else:
        states = list(states) if isinstance(states, (list, tuple)) else [states]
        states.append(F.zeros((1,)))

        def loop_body(step, states):
            cell_states, iter_no = states[:-1], states[-1]
            out, new_states = cell(step, cell_states)
            running = F.broadcast_greater(valid_length, iter_no)
            new_states = [F.where(running, new, old)
                          for new, old in zip(new_states, cell_states)]
            return out, new_states + [iter_no + 1]
    outputs, states = F.contrib.foreach(loop_body, inputs, states)
    if drop_outputs:
        outputs = F.Dropout(outputs, p=drop_outputs, axes=(axis,))
    if axes is not None:
        outputs = F.transpose(outputs, axes)
    if valid_length is None:
        return outputs, states
    outputs = F.SequenceMask(outputs, sequence_length=valid_length, use_sequence_length=True,
                             axis=axis)
    return outputs, states[:-1]
