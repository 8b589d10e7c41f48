"""The key-value store interface (``mx.kv.KVStoreBase``), its registry and ``mx.kv.create``."""
import os
import warnings

from ..base import string_types

__all__ = ['create', 'KVStoreBase']


class KVStoreBase(object):
    """An abstract key-value store interface for data parallel training.

    A subclass registered with :meth:`register` can be made with ``mx.kv.create(name)``, where
    ``name`` is the class name in lower case.
    """

    OPTIMIZER = 'optimizer'
    kv_registry = {}

    def broadcast(self, key, value, out, priority=0):
        """Broadcasts ``value`` (of rank 0) to every rank and stores the result in ``out``.

        Parameters
        ----------
        key : str or int
            The key.
        value : NDArray
            The value to broadcast.
        out : NDArray or list of NDArray
            Arrays receiving the result.
        priority : int, optional
            The priority of the operation.
        """
        raise NotImplementedError()

    def pushpull(self, key, value, out=None, priority=0):
        """Pushes ``value`` for summation under ``key`` and pulls the result into ``out``
        (into ``value`` when ``out`` is None).

        Parameters
        ----------
        key : str or int
            The key.
        value : NDArray or list of NDArray
            Values pushed.
        out : NDArray or list of NDArray, optional
            Arrays receiving the result.
        priority : int, optional
            The priority of the operation.
        """
        raise NotImplementedError()

    def set_optimizer(self, optimizer):
        """Registers an optimizer with the store: pushed gradients then update the stored
        weights.

        Parameters
        ----------
        optimizer : Optimizer
            The optimizer.
        """
        raise NotImplementedError()

    def is_capable(self, capability):
        """Whether the store supports ``capability`` (e.g. ``KVStoreBase.OPTIMIZER``).

        Parameters
        ----------
        capability : str
            The capability to query.

        Returns
        -------
        bool
        """
        raise NotImplementedError()

    def save_optimizer_states(self, fname, dump_optimizer=False):
        """Saves the optimizer (updater) states to a file.

        Parameters
        ----------
        fname : str
            Path to the output states file.
        dump_optimizer : bool, default False
            Whether to also save the optimizer itself (learning rate, schedules, ...).
        """
        raise NotImplementedError()

    def load_optimizer_states(self, fname):
        """Loads the optimizer (updater) states from a file.

        Parameters
        ----------
        fname : str
            Path to the input states file.
        """
        raise NotImplementedError()

    @property
    def type(self):
        """The type of this store, a string."""
        raise NotImplementedError()

    @property
    def rank(self):
        """The rank of this worker, in ``[0, num_workers)``."""
        raise NotImplementedError()

    @property
    def num_workers(self):
        """The number of workers."""
        raise NotImplementedError()

    @staticmethod
    def register(klass):
        """Registers a new KVStore class; ``mx.kv.create(klass.__name__.lower())`` then makes
        one.

        Examples
        --------
        >>> @mx.kvstore.KVStoreBase.register
        ... class MyKVStore(mx.kvstore.KVStoreBase):
        ...     pass
        >>> kv = mx.kv.create('MyKVStore')
        """
        assert isinstance(klass, type)
        name = klass.__name__.lower()
        if name in KVStoreBase.kv_registry:
            old = KVStoreBase.kv_registry[name]
            warnings.warn('WARNING: New kvstore %s.%s is overriding existing kvstore %s.%s'
                          % (klass.__module__, klass.__name__, old.__module__, old.__name__))
        KVStoreBase.kv_registry[name] = klass
        return klass


@KVStoreBase.register
class TestStore(KVStoreBase):
    """A key-value store for testing: ``pushpull`` sums the values, nothing is stored."""

    def broadcast(self, key, value, out, priority=0):
        """Copies ``value`` into every array of ``out``."""
        for o in (out if isinstance(out, list) else [out]):
            o[:] = value

    def pushpull(self, key, value, out=None, priority=0):
        """Sums ``value`` (a list is summed) and writes the sum to ``out`` (or ``value``)."""
        from ..ndarray import NDArray
        if isinstance(value, NDArray):
            if out is not None:
                for o in (out if isinstance(out, list) else [out]):
                    o[:] = value
            return
        ctx = value[0].context
        reduced = sum(v.as_in_context(ctx) for v in value)
        for o in (value if out is None else (out if isinstance(out, list) else [out])):
            o[:] = reduced

    @staticmethod
    def is_capable(capability):
        """TestStore has no optimizer support."""
        if capability.lower() == KVStoreBase.OPTIMIZER:
            return False
        raise ValueError('Unknown capability: {}'.format(capability))

    @property
    def type(self):
        """'teststore'."""
        return 'teststore'

    @property
    def rank(self):
        """Always 0."""
        return 0

    @property
    def num_workers(self):
        """Always 1."""
        return 1

    def set_optimizer(self, optimizer):
        raise NotImplementedError()

    def save_optimizer_states(self, fname, dump_optimizer=False):
        raise NotImplementedError()

    def load_optimizer_states(self, fname):
        raise NotImplementedError()


def _distributed_env():
    """True when torch.distributed is running or a launcher (torchrun) set WORLD_SIZE."""
    import torch.distributed as dist
    return (dist.is_available() and dist.is_initialized()) or 'WORLD_SIZE' in os.environ


def create(name='local'):
    """Creates a new KVStore.

    For single machine training:

    - ``local``: gradients are summed and weights updated in host memory.
    - ``device``: gradients are summed and weights updated on the devices of the values.

    For several processes (launched with ``torchrun``, which sets ``WORLD_SIZE``, ``RANK``,
    ``MASTER_ADDR`` and ``MASTER_PORT``; mxcompat initialises ``torch.distributed`` from them,
    gloo on CPU, NCCL on GPU, unless a process group exists already):

    - ``dist_sync`` / ``dist_device_sync``: values pushed by all workers are summed before the
      update, as MXNet's synchronous parameter server does.
    - ``dist_async``: each worker's push updates the weights in turn (rank order).
    - ``horovod``: ``dist_sync`` in a distributed run, ``local`` otherwise.

    Other names fall back to a local store reporting that name as its type, as in MXNet.

    Parameters
    ----------
    name : {'local', 'device', 'nccl', 'dist_sync', 'dist_device_sync', 'dist_async', 'horovod'}
        The type of KVStore.

    Returns
    -------
    kv : KVStoreBase
        The created KVStore.
    """
    if not isinstance(name, string_types):
        raise TypeError('name must be a string')
    name = name.lower()
    if name in KVStoreBase.kv_registry:
        return KVStoreBase.kv_registry[name]()
    if 'dist' in name or (name == 'horovod' and _distributed_env()):
        from .dist import DistKVStore
        return DistKVStore(name)
    from .kvstore import KVStore
    return KVStore(name)
