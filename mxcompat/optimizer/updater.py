"""Updater (the closure a KVStore or Trainer calls per weight) and its state files.

``Updater.get_states`` writes the pickle MXNet 1.9.1 writes, and ``Updater.set_states`` reads
files of either origin without running anything they name (see :mod:`.state_file`).
"""
from ..ndarray import NDArray
from .state_file import dumps, loads

__all__ = ['Updater', 'get_updater']


def _group_by_dtype(indices, weights, grads):
    """[(indices, weights, grads)] per dtype of the weights, in first-seen order."""
    if not weights:
        return []
    dtype = weights[0]._t.dtype
    for w in weights:
        if w._t.dtype is not dtype:
            break
    else:  # the usual case: one dtype
        return [(tuple(indices), tuple(weights), tuple(grads))]
    groups = {}
    for item in zip(indices, weights, grads):
        groups.setdefault(item[1]._t.dtype, []).append(item)
    return [tuple(zip(*group)) for group in groups.values()]


def apply_updates(optimizer, states, indices, weights, grads):
    """Update ``weights`` with ``grads`` through ``optimizer`` as MXNet's Updater does: one
    weight at a time, or, when the optimizer aggregates, in lists of up to ``aggregate_num``
    weights of one dtype. ``states[index]`` must exist."""
    if optimizer.aggregate_num <= 0:
        for i, w, g in zip(indices, weights, grads):
            optimizer.update_multi_precision(i, w, g, states[i])
        return
    step = optimizer.aggregate_num
    # an optimizer may update a whole group at once, with the bookkeeping of the chunked calls
    fused = getattr(optimizer, '_update_fused', None)
    for idx, ws, gs in _group_by_dtype(indices, weights, grads):
        sts = [states[i] for i in idx]
        if fused is not None and fused(idx, ws, gs, sts, step):
            continue
        for s in range(0, len(idx), step):
            optimizer.update_multi_precision(idx[s:s + step], ws[s:s + step], gs[s:s + step],
                                             sts[s:s + step])


class Updater(object):
    """Updater for kvstore."""
    def __init__(self, optimizer):
        self.optimizer = optimizer
        self.states = {}
        self.states_synced = {}
        self.aggregate_updates = optimizer.aggregate_num > 0

    def __call__(self, index, grad, weight):
        """Updates weight given gradient and index."""
        if not isinstance(index, (list, tuple)):
            indices, grads, weights = [index], [grad], [weight]
        else:
            indices, grads, weights = list(index), grad, weight
        if weights:
            self.optimizer._set_current_context(weights[0].context.device_id)
        synced = self.states_synced
        for i, idx in enumerate(indices):
            if synced.get(idx):
                continue  # the usual case: a state on the weight's context
            if isinstance(idx, bytes):
                idx = indices[i] = idx.decode('utf-8')
            if idx not in self.states:
                self.states[idx] = self.optimizer.create_state_multi_precision(idx, weights[i])
                synced[idx] = True
            elif not synced[idx]:
                self.states[idx] = self.sync_state_context(self.states[idx], weights[i].context)
                synced[idx] = True
        if self.aggregate_updates:
            apply_updates(self.optimizer, self.states, indices, weights, grads)
        else:
            for i, w, g in zip(indices, weights, grads):
                self.optimizer.update_multi_precision(i, w, g, self.states[i])

    def sync_state_context(self, state, context):
        """sync state context."""
        if isinstance(state, NDArray):
            return state.as_in_context(context)
        if isinstance(state, (tuple, list)):
            synced = [self.sync_state_context(s, context) for s in state]
            return tuple(synced) if isinstance(state, tuple) else synced
        return state

    def set_states(self, states):
        """Sets updater states from bytes written by :meth:`get_states` (of mxcompat or of real
        MXNet). Only NDArrays, optimizers, schedulers and plain values are accepted; anything
        else raises MXNetError."""
        self._set_states_from(states, 'Updater.set_states(states)')

    def _load_states_file(self, fname):
        """Sets the states from the file ``fname`` (errors name the file)."""
        with open(fname, 'rb') as f:
            self._set_states_from(f.read(), fname)

    def _set_states_from(self, data, source):
        states = loads(data, source)
        if isinstance(states, tuple) and len(states) == 2:
            self.states, self.optimizer = states
        else:
            self.states = states
        self.states_synced = dict.fromkeys(self.states.keys(), False)

    def get_states(self, dump_optimizer=False):
        """Gets updater states.

        Parameters
        ----------
        dump_optimizer : bool, default False
            Whether to also save the optimizer itself. This would also save optimizer
            information such as learning rate and weight decay schedules.
        """
        return dumps((self.states, self.optimizer) if dump_optimizer else self.states)


def get_updater(optimizer):
    """Returns a closure of the updater needed for kvstore.

    Parameters
    ----------
    optimizer: Optimizer
         The optimizer.

    Returns
    -------
    updater: function
         The closure of the updater.
    """
    return Updater(optimizer)
