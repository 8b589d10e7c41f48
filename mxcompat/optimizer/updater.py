"""Updater (the closure a KVStore or Trainer calls per weight) and its state files.

``Updater.get_states`` writes the pickle MXNet 1.9.1 writes: NDArrays as
``mxnet.ndarray.ndarray.NDArray`` with MXNet's raw-bytes ``handle``, optimizers and schedulers
under their ``mxnet.*`` names, so real MXNet loads it. ``Updater.set_states`` reads files of
either origin with a restricted unpickler that only builds NDArrays, optimizers, learning-rate
schedulers and plain values: a file naming any other global is refused before anything runs.
"""
import io
import pickle

import numpy
import torch

from ..ndarray import NDArray
from ..ndarray.ndarray import wrap
from ..ndarray.serialization import save_raw_bytes
from .. import lr_scheduler as _lr_scheduler
from .optimizer import Optimizer

__all__ = ['Updater', 'get_updater']

_PROTOCOL = 4  # what MXNet's Python 3 writes; readable by every Python 3 MXNet runs on


def _subclasses(base):
    """``base`` and all its subclasses, recursively."""
    out, todo = [], [base]
    while todo:
        klass = todo.pop()
        out.append(klass)
        todo.extend(klass.__subclasses__())
    return out


def _mxnet_name(obj):
    """(module, name) under which real MXNet knows the mxcompat class ``obj``, or None."""
    if not isinstance(obj, type):
        return None
    module = getattr(obj, '__module__', '')
    if obj is NDArray:
        return 'mxnet.ndarray.ndarray', 'NDArray'
    if module == 'mxcompat.optimizer.contrib':
        return 'mxnet.optimizer.contrib', obj.__name__
    if module.startswith('mxcompat.optimizer.'):
        return 'mxnet.optimizer.optimizer', obj.__name__
    if module == 'mxcompat.lr_scheduler':
        return 'mxnet.lr_scheduler', obj.__name__
    return None


class _StatePickler(pickle._Pickler):  # the Python pickler: it lets save_global be renamed
    """Pickles as MXNet does: NDArray -> NDArray(None) + {'handle': raw bytes}, mxcompat
    classes under MXNet's module names."""

    def reducer_override(self, obj):  # pylint: disable=method-hidden
        if isinstance(obj, NDArray):
            return NDArray, (None,), {'handle': bytearray(save_raw_bytes(obj))}
        return NotImplemented

    def save_global(self, obj, name=None):
        target = _mxnet_name(obj)
        if target is None:
            super().save_global(obj, name)
            return
        module, qualname = target
        self.save(module)
        self.save(qualname)
        self.write(pickle.STACK_GLOBAL)
        self.memoize(obj)


def dumps(obj):
    """Pickle ``obj`` (states, optionally with their optimizer) in MXNet's form."""
    buf = io.BytesIO()
    _StatePickler(buf, protocol=_PROTOCOL).dump(obj)
    return buf.getvalue()


def _empty_ndarray(*_):
    """What ``NDArray(None)`` makes while unpickling; ``__setstate__`` then fills it."""
    return wrap(torch.empty(0))


_SAFE_BUILTINS = frozenset(['bytearray', 'bytes', 'set', 'frozenset', 'complex', 'object', 'int',
                            'float', 'str', 'list', 'dict', 'tuple', 'bool', 'slice', 'range'])
_NUMPY_MODULES = ('numpy', 'numpy.core.multiarray', 'numpy._core.multiarray')
_NUMPY_NAMES = frozenset(['scalar', 'dtype', '_reconstruct', 'ndarray'])


def _np_multiarray():
    core = getattr(numpy, '_core', None)
    return core.multiarray if core is not None else numpy.core.multiarray


def _find_subclass(base, module, name, aliases):
    """The subclass of ``base`` that a pickle names ``module.name``: mxcompat's own class for
    MXNet's module names in ``aliases``, else one defined at exactly ``module.name``."""
    for klass in _subclasses(base):
        if klass.__qualname__ != name:
            continue
        own = getattr(klass, '__module__', '')
        if own == module or (module in aliases and own.startswith(aliases[module])):
            return klass
    return None


_OPT_ALIASES = {'mxnet.optimizer.optimizer': 'mxcompat.optimizer.',
                'mxnet.optimizer.contrib': 'mxcompat.optimizer.',
                'mxnet.optimizer': 'mxcompat.optimizer.'}
_SCHED_ALIASES = {'mxnet.lr_scheduler': 'mxcompat.lr_scheduler'}


class _StateUnpickler(pickle.Unpickler):
    """Builds only NDArrays, optimizers, lr schedulers, numpy scalars/arrays and builtins."""

    def find_class(self, module, name):
        if (module, name) in (('mxnet.ndarray.ndarray', 'NDArray'),
                              ('mxcompat.ndarray.ndarray', 'NDArray')):
            return _empty_ndarray
        if module == 'mxcompat.ndarray.ndarray' and name == '_rebuild':
            from ..ndarray.ndarray import _rebuild
            return _rebuild
        if module == 'builtins' and name in _SAFE_BUILTINS:
            return getattr(__import__('builtins'), name)
        if module == 'copyreg' and name == '_reconstructor':
            import copyreg
            return copyreg._reconstructor  # pylint: disable=protected-access
        if module in _NUMPY_MODULES and name in _NUMPY_NAMES:
            return numpy.dtype if name == 'dtype' else getattr(_np_multiarray(), name)
        klass = _find_subclass(Optimizer, module, name, _OPT_ALIASES) or \
            _find_subclass(_lr_scheduler.LRScheduler, module, name, _SCHED_ALIASES)
        if klass is not None:
            return klass
        raise pickle.UnpicklingError(
            'refusing to load global %s.%s from an optimizer state file: such files may only '
            'hold NDArrays, optimizers, learning-rate schedulers and plain Python values. '
            'Register a custom optimizer (mx.optimizer.register) or define the custom '
            'scheduler before loading.' % (module, name))


def loads(data):
    """Unpickle optimizer states written by MXNet or mxcompat, refusing other objects."""
    return _StateUnpickler(io.BytesIO(data)).load()


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
        MXNet). Only NDArrays, optimizers, schedulers and plain values are accepted."""
        states = loads(states)
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
