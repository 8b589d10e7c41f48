"""KVStore across processes on torch.distributed: MXNet's 'dist_sync', 'dist_device_sync',
'dist_async' (and 'horovod' in a distributed run).

Every worker keeps a replica of the stored values. ``init`` broadcasts rank 0's value, as
MXNet's servers keep only rank 0's. A synchronous push sums the values over the local devices,
then over the workers (all_reduce), and every worker applies the same update to its replica:
the result is what MXNet's parameter server computes and sends back on pull. An asynchronous
push applies each worker's sum in turn, in rank order: one of the orders MXNet's server may see.

Faults: a worker that dies closes its sockets, and the others fail at once. A worker that stops
answering (stopped, deadlocked, a host gone without closing its connections) makes every
collective operation and the start of the process group wait at most ``MXNET_KVSTORE_TIMEOUT``
seconds (default 600; read when the process group starts, which mxcompat does unless the program
started it itself). Then each surviving worker raises MXNetError naming the ranks that did not
answer: the survivors mark themselves in the rendezvous store and wait a few seconds
(``MXNET_KVSTORE_TIMEOUT_GRACE``, default 5) for one another; the ranks not marked are named.
"""
import datetime
import os
import time

import torch
import torch.distributed as dist

from ..base import MXNetError, env_seconds
from ..context import Context
from .kvstore import KVStore, _HOME, _quantize_2bit, _wrap_on

__all__ = ['DistKVStore']


def _init_process_group(name):
    """Initialises torch.distributed from the launcher's environment, unless it is running."""
    if not dist.is_available():
        raise MXNetError("kvstore '%s' needs torch.distributed, which this torch build lacks"
                         % name)
    if dist.is_initialized():
        return
    if 'WORLD_SIZE' not in os.environ:
        raise MXNetError("kvstore '%s' runs across processes: launch the workers with torchrun "
                         '(it sets WORLD_SIZE, RANK, MASTER_ADDR and MASTER_PORT) or call '
                         'torch.distributed.init_process_group before mx.kv.create' % name)
    use_nccl = torch.cuda.is_available() and dist.is_nccl_available()
    if use_nccl:
        torch.cuda.set_device(int(os.environ.get('LOCAL_RANK', '0')))
    timeout = env_seconds('MXNET_KVSTORE_TIMEOUT', 600.0)
    try:
        dist.init_process_group('nccl' if use_nccl else 'gloo', init_method='env://',
                                timeout=datetime.timedelta(seconds=timeout))
    except RuntimeError as err:  # DistStoreError, DistNetworkError, ...
        raise MXNetError("kvstore '%s': the process group did not start within %g s "
                         '(MXNET_KVSTORE_TIMEOUT): rank %s of %s, rendezvous at %s:%s: %s'
                         % (name, timeout, os.environ.get('RANK'), os.environ.get('WORLD_SIZE'),
                            os.environ.get('MASTER_ADDR'), os.environ.get('MASTER_PORT'),
                            err)) from None


def _silent_ranks(store, rank, world, grace):
    """The ranks that do not mark themselves in ``store`` within ``grace`` seconds after this
    one did (None when the store itself does not answer)."""
    try:
        store.set('mxcompat/kvstore/failed/%d' % rank, '1')
        keys = ['mxcompat/kvstore/failed/%d' % r for r in range(world)]
        end = time.monotonic() + grace
        while True:
            silent = [r for r, k in enumerate(keys) if not store.check([k])]
            if not silent or time.monotonic() > end:
                return silent
            time.sleep(0.1)
    except RuntimeError:
        return None


def _collective(op, *args, **kwargs):
    """Run the torch.distributed collective ``op``; a failure (a timeout, a lost peer) raises
    MXNetError naming the ranks that did not answer."""
    try:
        return op(*args, **kwargs)
    except RuntimeError as err:
        rank, world = dist.get_rank(), dist.get_world_size()
        store = dist.distributed_c10d._get_default_store()  # pylint: disable=protected-access
        store.set_timeout(datetime.timedelta(seconds=5))
        silent = _silent_ranks(store, rank, world, env_seconds('MXNET_KVSTORE_TIMEOUT_GRACE', 5.0))
        if silent is None:
            who = 'the rendezvous store does not answer either (its host may be the one)'
        elif silent:
            who = 'rank%s %s did not answer' % ('s' if len(silent) > 1 else '',
                                                 ', '.join(str(r) for r in silent))
        else:
            who = 'every rank is still running; the operation itself failed'
        raise MXNetError('kvstore %s on rank %d of %d failed: %s (%s). A worker that stops '
                         'answering fails the others after MXNET_KVSTORE_TIMEOUT seconds.'
                         % (op.__name__, rank, world, who, str(err).split('\n')[0][:300])) \
            from None


class DistKVStore(KVStore):
    """A key-value store shared by the processes of a torch.distributed group."""

    def __init__(self, name='dist_sync'):
        super().__init__(name)
        _init_process_group(name)
        self._async = 'async' in name
        if dist.get_backend() == 'nccl':
            index = torch.cuda.current_device()
            self._comm_ctx = Context('gpu', index)
        else:
            self._comm_ctx = _HOME
        self._comm_bufs = {}

    def _init_one(self, key, value):
        super()._init_one(key, value)
        stored = self._store[key]._t
        t = stored.to(self._comm_ctx.torch_device)
        _collective(dist.broadcast, t, src=0)
        if t is not stored:
            stored.copy_(t)

    def _comm_buffer(self, key, local):
        buf = self._comm_bufs.get(key)
        if buf is None or buf.shape != local.shape:
            buf = self._comm_bufs[key] = _wrap_on(
                torch.empty(local.shape, dtype=local._t.dtype,
                            device=self._comm_ctx.torch_device), self._comm_ctx)
        return buf

    def push(self, key, value, priority=0):
        """Pushes values: summed over the local devices and over all workers, then stored or
        applied through the updater (see :meth:`KVStore.push`)."""
        for k, vals in self._grouped(key, value):
            local = self._stored(k)
            buf = self._comm_buffer(k, local)
            buf._t.copy_(self._sum(k, vals, local)._t.detach())
            if self._threshold is not None:
                res = self._residuals.get(k)
                if res is None:
                    res = self._residuals[k] = torch.zeros_like(buf._t)
                buf._t.copy_(_quantize_2bit(buf._t.clone(), res, self._threshold))
            if not self._async:
                _collective(dist.all_reduce, buf._t)
                self._apply(k, buf, local)
                continue
            if self._updater is None:
                raise MXNetError("kvstore '%s': asynchronous pushes need an optimizer; call "
                                 'set_optimizer first' % self.type)
            parts = [torch.empty_like(buf._t) for _ in range(dist.get_world_size())]
            _collective(dist.all_gather, parts, buf._t)
            for part in parts:
                self._apply(k, _wrap_on(part, self._comm_ctx), self._store[k])

    @property
    def rank(self):
        """The rank of this worker, in ``[0, num_workers)``."""
        return dist.get_rank()

    @property
    def num_workers(self):
        """The number of workers in the process group."""
        return dist.get_world_size()

    def _barrier(self):
        """Waits until every worker reaches the barrier."""
        _collective(dist.barrier)
