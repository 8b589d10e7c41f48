"""DataLoader: mini-batches from a Dataset, in the main process, threads or worker processes.

Worker processes are started when the DataLoader is made (as MXNet's process pool is) and serve
every iterator over it. Batches come back through shared memory: an NDArray pickled with
``multiprocessing``'s ForkingPickler (registered here, as MXNet does) travels as its torch
tensor, whose storage torch moves into shared memory, and is rebuilt as an NDArray whose context
is ``cpu_shared(0)``, as in MXNet.

Failures never hang: a worker that raises re-raises its exception (same type, with the worker's
traceback) in the iterating process; a worker that dies raises :class:`MXNetError` naming its
pid and exit status within a fraction of a second; a batch that takes longer than ``timeout``
seconds raises :class:`DataLoaderTimeoutError` (an ``MXNetError`` that is also a
``multiprocessing.TimeoutError``, which MXNet raises).
"""
import io
import itertools
import multiprocessing
import multiprocessing.pool
import os
import pickle
import queue
import signal
import threading
import time
import traceback
from multiprocessing.reduction import ForkingPickler

import numpy as np
import torch

from . import sampler as _sampler
from ...base import MXNetError
from ...context import Context, current_context
from ...ndarray import NDArray
from ...ndarray.ndarray import _on_ctx, array, wrap
from ...numpy import ndarray as _np_ndarray
from ...util import is_np_array, is_np_shape, set_np

__all__ = ['DataLoader']

_CPU_SHARED = Context('cpu_shared', 0)
_POLL_S = 0.1  # how often a waiting iterator checks that its workers are alive


class DataLoaderTimeoutError(MXNetError, multiprocessing.TimeoutError):
    """A DataLoader worker did not deliver a batch within ``timeout`` seconds."""


# ---------------------------------------------------------------- NDArrays across processes
def _rebuild_ndarray(t, np_array=False):
    out = wrap(t)
    out._ctx = _CPU_SHARED
    return out.as_np_ndarray() if np_array else out


def _reduce_ndarray(data):
    t = data.to_torch().detach()
    if t.device.type != 'cpu':
        t = t.cpu()
    return _rebuild_ndarray, (t, type(data) is _np_ndarray)


ForkingPickler.register(NDArray, _reduce_ndarray)
ForkingPickler.register(_np_ndarray, _reduce_ndarray)


# ---------------------------------------------------------------- batchify
def _stack(data, shared):
    tensors = [d.to_torch().detach() for d in data]
    try:
        if shared:
            first = tensors[0]
            storage = first._typed_storage()._new_shared(len(tensors) * first.numel(),
                                                         device=first.device)
            out = first.new(storage).resize_(len(tensors), *first.shape)
            return torch.stack(tensors, out=out)
        return torch.stack(tensors)
    except RuntimeError as err:
        raise MXNetError('DataLoader: default batchify_fn cannot stack samples of shapes %s '
                         '(%s); pad them to one shape or pass a batchify_fn'
                         % (sorted(set(tuple(t.shape) for t in tensors)), err)) from None


def _from_numpy(data, ctx):
    """``data`` as an NDArray on ``ctx`` (a host context shares its memory)."""
    try:
        t = torch.from_numpy(data)
    except TypeError:  # numpy dtypes torch lacks (e.g. object): let nd.array report it
        return array(data, dtype=data.dtype, ctx=ctx)
    return _on_ctx(t.to(ctx.torch_device), ctx)


def _np_mode(batch):
    """``batch`` as an ``mx.np.ndarray`` in NumPy mode (``npx.set_np()``), as MXNet gives."""
    return batch.as_np_ndarray() if is_np_array() else batch


def default_batchify_fn(data):
    """Collate data into batch: stack NDArrays (on their context), recurse into tuples,
    convert the rest with ``numpy.asarray`` (keeping its dtype) onto the current context, as
    MXNet's ``nd.array`` does."""
    first = data[0]
    if isinstance(first, NDArray):
        out = wrap(_stack(data, False))
        out._ctx = first._ctx
        return _np_mode(out)
    if isinstance(first, tuple):
        return [default_batchify_fn(i) for i in zip(*data)]
    return _np_mode(_from_numpy(np.asarray(data), current_context()))


def default_mp_batchify_fn(data):
    """Collate data into batch, in shared memory when running in a worker process."""
    first = data[0]
    if isinstance(first, NDArray):
        out = wrap(_stack(data, _IN_WORKER[0]))
        out._ctx = _CPU_SHARED
    elif isinstance(first, tuple):
        return [default_mp_batchify_fn(i) for i in zip(*data)]
    else:
        out = _from_numpy(np.asarray(data), _CPU_SHARED)
    return _np_mode(out)


def _as_in_context(data, ctx):
    """``data`` (NDArrays, nested in lists/tuples) on ``ctx``; to ``cpu_pinned`` without a copy
    where torch cannot pin (no CUDA)."""
    if isinstance(data, NDArray):
        if ctx.device_type != 'cpu_pinned':
            return data.as_in_context(ctx)
        t = data.to_torch()
        if torch.cuda.is_available():
            t = t.pin_memory()
        out = wrap(t)
        out._ctx = ctx
        return out
    if isinstance(data, (list, tuple)):
        return [_as_in_context(d, ctx) for d in data]
    return data


# ---------------------------------------------------------------- worker processes
_IN_WORKER = [False]


class _KeyErrorMessage(str):
    """KeyError prints the repr of its message: keep the traceback readable."""
    def __repr__(self):
        return self


class _WorkerError(object):
    """An exception raised in a worker, carried to the main process as type + traceback."""
    def __init__(self, exc, pid):
        self.exc_type = type(exc)
        try:
            pickle.dumps(self.exc_type)
        except Exception:  # e.g. a class defined in a function: report it as MXNetError
            self.exc_type = MXNetError
        trace = ''.join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        self.text = 'Caught %s in DataLoader worker process (pid %d). Original traceback:\n%s' \
            % (type(exc).__name__, pid, trace)

    def reraise(self):
        text = _KeyErrorMessage(self.text) if self.exc_type is KeyError else self.text
        try:
            err = self.exc_type(text)
        except Exception:
            err = MXNetError(self.text)
        raise err


_worker_dataset = None


def _worker_initializer(dataset, active_shape, active_array):
    """Initializer for processing pool: the dataset of the worker process, and the NumPy
    semantics of the process that started it."""
    global _worker_dataset
    _worker_dataset = dataset
    set_np(shape=active_shape, array=active_array)


def _worker_fn(samples, batchify_fn, dataset=None):
    """Function for processing data in worker process: the batch of ``samples`` of the
    worker's dataset, pickled with ForkingPickler (its NDArrays travel in shared memory).
    ``dataset`` is not used (MXNet's signature)."""
    batch = batchify_fn([_worker_dataset[i] for i in samples])
    buf = io.BytesIO()
    ForkingPickler(buf, pickle.HIGHEST_PROTOCOL).dump(batch)
    return buf.getvalue()


def _thread_worker_initializer(active_shape, active_array):
    """Initializer for ThreadPool: the NumPy semantics of the thread that started it."""
    set_np(shape=active_shape, array=active_array)


def _thread_worker_fn(samples, batchify_fn, dataset):
    """Threadpool worker function for processing data."""
    return batchify_fn([dataset[i] for i in samples])


def _worker_loop(dataset, batchify_fn, np_semantics, tasks, results, parent_pid):
    """Body of a worker process: take (key, indices) tasks, send back (key, ok, payload, pid)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    torch.set_num_threads(1)
    _IN_WORKER[0] = True
    _worker_initializer(dataset, *np_semantics)
    while True:
        try:
            task = tasks.get(timeout=1.0)
        except queue.Empty:
            if os.getppid() != parent_pid:  # the main process is gone
                return
            continue
        if task is None:
            return
        key, indices = task
        try:
            out = (key, True, _worker_fn(indices, batchify_fn), os.getpid())
        except Exception as exc:  # pylint: disable=broad-except
            out = (key, False, _WorkerError(exc, os.getpid()), os.getpid())
        results.put(out)


def _np_semantics():
    return is_np_shape(), is_np_array()


class _Pending(object):
    """The batch that :class:`_ProcessWorkers` compute for one task, as an ``AsyncResult``
    of a process pool gives it (``get(timeout)``). Dropped unread, its batch is dropped."""
    __slots__ = ('_pool', '_key')

    def __init__(self, pool, key):
        self._pool = pool
        self._key = key

    def get(self, timeout):
        return self._pool.get(self._key, timeout)

    def __del__(self):
        self._pool.release(self._key)


class _ProcessWorkers(object):
    """``num_workers`` processes sharing one task queue; results are routed by key. The
    processes hold the dataset and ``batchify_fn`` from their start and run ``_worker_fn``
    (MXNet's process pool, without pickling either for every batch)."""
    def __init__(self, num_workers, dataset, batchify_fn):
        ctx = multiprocessing.get_context()
        self._batchify_fn = batchify_fn
        self._tasks = ctx.Queue()
        self._results = ctx.Queue()
        self._keys = itertools.count()
        self._done = {}
        self._live = set()
        self._lock = threading.Lock()
        self.broken = None
        self._workers = []
        for _ in range(num_workers):
            w = ctx.Process(target=_worker_loop, daemon=True,
                            args=(dataset, batchify_fn, _np_semantics(), self._tasks,
                                  self._results, os.getpid()))
            w.start()
            self._workers.append(w)

    def apply_async(self, fn, args):
        """Compute ``fn(*args)`` (``_worker_fn(samples, batchify_fn, dataset)``) in a worker;
        its result, rebuilt from shared memory, comes from the returned object's ``get``."""
        if fn is not _worker_fn or args[1] is not self._batchify_fn:
            raise MXNetError('DataLoader worker processes run _worker_fn with the batchify_fn '
                             'they were started with; got %r with %r. Use a '
                             'multiprocessing.Pool for other functions.' % (fn, args[1]))
        key = next(self._keys)
        self._live.add(key)
        self._tasks.put((key, args[0]))
        return _Pending(self, key)

    def release(self, key):
        self._live.discard(key)
        with self._lock:
            self._done.pop(key, None)

    def _check_alive(self):
        dead = [w for w in self._workers if w.exitcode is not None]
        if dead:
            w = dead[0]
            if w.exitcode < 0:
                try:
                    how = 'killed by signal %s' % signal.Signals(-w.exitcode).name
                except ValueError:
                    how = 'killed by signal %d' % -w.exitcode
            else:
                how = 'exited with code %d' % w.exitcode
            self.broken = 'DataLoader worker (pid %d) %s' % (w.pid, how)
            self.terminate()
            raise MXNetError('%s while loading a batch; the worker processes were shut down. '
                             'Check the dataset and batchify_fn for crashes (run with '
                             'num_workers=0 to see the error in this process).' % self.broken)

    def _receive(self, payload, pid):
        """Rebuild a batch at once, while its worker (which serves the shared memory) lives."""
        try:
            return pickle.loads(payload)
        except (OSError, EOFError) as err:
            for w in self._workers:
                if w.pid == pid:
                    w.join(timeout=2)  # a worker that just died: let its exit status arrive
            self._check_alive()
            raise MXNetError('DataLoader: could not receive a batch from a worker process '
                             '(%s: %s)' % (type(err).__name__, err)) from None

    def get(self, key, timeout):
        """The batch of task ``key``: waits at most ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                item = self._done.pop(key, None)
            if item is not None:
                self._live.discard(key)
                ok, payload = item
                if not ok:
                    payload.reraise()
                return payload
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise DataLoaderTimeoutError(
                    'DataLoader worker timed out after %s seconds. The transform or dataset '
                    'may be too slow (increase `timeout`), a worker may hang, or shared '
                    'memory may be exhausted (reduce `num_workers` or `prefetch`).' % timeout)
            try:
                rkey, ok, payload, pid = self._results.get(timeout=min(remaining, _POLL_S))
            except queue.Empty:
                self._check_alive()
                continue
            if ok:
                payload = self._receive(payload, pid)
            if rkey in self._live:
                with self._lock:
                    self._done[rkey] = (ok, payload)

    def terminate(self):
        for w in self._workers:
            if w.exitcode is None:
                w.terminate()
        for w in self._workers:
            w.join(timeout=5)
        for q in (self._tasks, self._results):
            q.cancel_join_thread()
            q.close()
        self._workers = []


class _ThreadWorkers(object):
    """A pool of daemon threads (MXNet's ``thread_pool=True``)."""
    broken = None

    def __init__(self, num_workers, dataset, batchify_fn):
        self._pool = multiprocessing.pool.ThreadPool(
            num_workers, initializer=_thread_worker_initializer, initargs=_np_semantics())

    def apply_async(self, fn, args):
        return self._pool.apply_async(fn, args)

    def terminate(self):
        self._pool.terminate()


class _MultiWorkerIter(object):
    """Internal multi-worker iterator for DataLoader: the batches of ``batch_sampler``,
    computed by ``worker_pool.apply_async(worker_fn, (samples, batchify_fn, dataset))`` (up to
    ``prefetch`` ahead), in order. With ``dataset`` None the workers return pickled batches
    (``_worker_fn`` of a ``multiprocessing.Pool``). As in MXNet, subclasses may override
    ``_push_next``, which fills ``_data_buffer[_sent_idx]`` from ``_iter``."""
    def __init__(self, worker_pool, batchify_fn, batch_sampler, pin_memory=False,
                 pin_device_id=0, worker_fn=_worker_fn, prefetch=0, dataset=None,
                 data_loader=None, timeout=120):
        self._worker_pool = worker_pool
        self._batchify_fn = batchify_fn
        self._batch_sampler = batch_sampler
        self._data_buffer = {}
        self._rcvd_idx = 0
        self._sent_idx = 0
        self._iter = iter(self._batch_sampler)
        self._worker_fn = worker_fn
        self._pin_memory = pin_memory
        self._pin_device_id = pin_device_id
        self._dataset = dataset
        self._data_loader = data_loader
        self._timeout = timeout
        for _ in range(prefetch):
            self._push_next()

    def __len__(self):
        return len(self._batch_sampler)

    def _push_next(self):
        """Assign next batch workload to workers."""
        r = next(self._iter, None)
        if r is None:
            return
        self._data_buffer[self._sent_idx] = self._worker_pool.apply_async(
            self._worker_fn, (r, self._batchify_fn, self._dataset))
        self._sent_idx += 1

    def __next__(self):
        self._push_next()
        if self._rcvd_idx == self._sent_idx:
            raise StopIteration
        ret = self._data_buffer.pop(self._rcvd_idx)
        try:
            batch = ret.get(self._timeout)
        except DataLoaderTimeoutError:
            raise
        except multiprocessing.TimeoutError:
            raise DataLoaderTimeoutError(
                'DataLoader worker timed out after %s seconds; the transform or dataset may be '
                'too slow (increase `timeout`) or hang.' % self._timeout) from None
        if self._dataset is None:
            batch = pickle.loads(batch)
        self._rcvd_idx += 1
        if self._pin_memory:
            batch = _as_in_context(batch, Context('cpu_pinned', self._pin_device_id))
        return batch

    next = __next__

    def __iter__(self):
        return self


class DataLoader(object):
    """Loads data from a dataset and returns mini-batches of data.

    Parameters
    ----------
    dataset : Dataset
        Source dataset. Note that numpy and mxnet arrays can be directly used as a Dataset.
    batch_size : int
        Size of mini-batch.
    shuffle : bool
        Whether to shuffle the samples.
    sampler : Sampler
        The sampler to use. Either specify sampler or shuffle, not both.
    last_batch : {'keep', 'discard', 'rollover'}
        How to handle the last batch if batch_size does not evenly divide `len(dataset)`:
        'keep' returns a short batch, 'discard' drops it, 'rollover' carries its samples into
        the next epoch.
    batch_sampler : Sampler
        A sampler that returns mini-batches. Do not specify batch_size, shuffle, sampler, and
        last_batch if batch_sampler is specified.
    batchify_fn : callable
        Merges a list of samples into a batch. Defaults to `default_batchify_fn` (stack
        NDArrays, recurse into tuples, ``nd.array(numpy.asarray(samples))`` otherwise).
    num_workers : int, default 0
        The number of multiprocessing workers to use for data preprocessing.
    pin_memory : boolean, default False
        If ``True``, the dataloader will copy NDArrays into pinned memory before returning
        them (context ``cpu_pinned``; real page-locking needs CUDA).
    pin_device_id : int, default 0
        The device id to use for allocating pinned memory if pin_memory is ``True``.
    prefetch : int, default is `num_workers * 2`
        The number of batches workers compute ahead of the consumer (when `num_workers` > 0).
    thread_pool : bool, default False
        If ``True``, use a pool of threads instead of processes.
    timeout : int, default is 120
        Seconds to wait for a worker to deliver a batch before raising an error.
    auto_reload : bool, default is False
        Whether to start prefetching the next epoch as soon as an epoch ends (and at
        construction).
    try_nopython : bool or None
        Accepted for MXNet 2.x compatibility; ignored.
    """
    def __init__(self, dataset, batch_size=None, shuffle=False, sampler=None,
                 last_batch=None, batch_sampler=None, batchify_fn=None,
                 num_workers=0, pin_memory=False, pin_device_id=0,
                 prefetch=None, thread_pool=False, timeout=120, auto_reload=False,
                 try_nopython=None):
        self._dataset = dataset
        self._pin_memory = pin_memory
        self._pin_device_id = pin_device_id
        self._thread_pool = thread_pool
        self._timeout = timeout
        self._worker_pool = None
        assert timeout > 0, 'timeout must be positive, given {}'.format(timeout)

        if batch_sampler is None:
            if batch_size is None:
                raise ValueError('batch_size must be specified unless '
                                 'batch_sampler is specified')
            if sampler is None:
                if shuffle:
                    sampler = _sampler.RandomSampler(len(dataset))
                else:
                    sampler = _sampler.SequentialSampler(len(dataset))
            elif shuffle:
                raise ValueError('shuffle must not be specified if sampler is specified')
            batch_sampler = _sampler.BatchSampler(
                sampler, batch_size, last_batch if last_batch else 'keep')
        elif batch_size is not None or shuffle or sampler is not None or \
                last_batch is not None:
            raise ValueError('batch_size, shuffle, sampler and last_batch must '
                             'not be specified if batch_sampler is specified.')

        self._batch_sampler = batch_sampler
        self._num_workers = num_workers if num_workers >= 0 else 0
        self._prefetch = max(0, int(prefetch) if prefetch is not None
                             else 2 * self._num_workers)
        if batchify_fn is None:
            batchify_fn = default_mp_batchify_fn if num_workers > 0 else default_batchify_fn
        self._batchify_fn = batchify_fn
        if self._num_workers > 0:
            self._worker_pool = self._start_workers()
        self.auto_reload = auto_reload
        self._iter = None
        if self.auto_reload:
            self.refresh()

    def _start_workers(self):
        cls = _ThreadWorkers if self._thread_pool else _ProcessWorkers
        return cls(self._num_workers, self._dataset, self._batchify_fn)

    def __iter__(self):
        if self._iter is None:
            self.refresh()
        t = self._iter
        self._iter = None  # an iterator is consumed once
        for item in t:
            yield item
        if self._iter is None and self.auto_reload:
            self.refresh()

    def _same_process_iter(self):
        for batch in self._batch_sampler:
            ret = self._batchify_fn([self._dataset[idx] for idx in batch])
            if self._pin_memory:
                ret = _as_in_context(ret, Context('cpu_pinned', self._pin_device_id))
            yield ret

    def _prefetch_iter(self):
        if self._num_workers == 0:
            return self._same_process_iter()
        if self._worker_pool.broken:  # a worker died: start a fresh pool
            self._worker_pool = self._start_workers()
        # the dataset goes along for both pools: mxcompat's worker processes return batches
        # already rebuilt from shared memory, not pickles
        return _MultiWorkerIter(self._worker_pool, self._batchify_fn, self._batch_sampler,
                                pin_memory=self._pin_memory, pin_device_id=self._pin_device_id,
                                worker_fn=_thread_worker_fn if self._thread_pool else _worker_fn,
                                prefetch=self._prefetch, dataset=self._dataset,
                                data_loader=self, timeout=self._timeout)

    def __len__(self):
        return len(self._batch_sampler)

    def __del__(self):
        pool = getattr(self, '_worker_pool', None)
        if pool is not None:
            pool.terminate()

    def refresh(self):
        """Refresh its iter, fetch data again from its dataset."""
        self._iter = self._prefetch_iter()

    def clean(self):
        """Remove its prefetched iter; prefetching starts again when it is iterated."""
        self._iter = None
