"""Data iterators: DataDesc, DataBatch, DataIter and the Python iterators of ``mx.io``."""
from collections import deque, namedtuple
import logging
import threading

import numpy as np
import torch

from ..base import mx_real_t
from ..ndarray import NDArray, array, concat, from_numpy, tile
from ..ndarray.sparse import CSRNDArray
from .utils import _init_data, _getdata_by_idx, _slice_along_batch_axis, _has_instance

__all__ = ['DataDesc', 'DataBatch', 'DataIter', 'ResizeIter', 'PrefetchingIter', 'NDArrayIter',
           'MXDataIter']


class DataDesc(namedtuple('DataDesc', ['name', 'shape'])):
    """Name, shape, type and layout of one data or label input.

    Parameters
    ----------
    name : str
        Data name.
    shape : tuple of int
        Data shape.
    dtype : np.dtype, optional
        Data type.
    layout : str, optional
        Data layout; ``'N'`` marks the batch axis (``NCHW`` for images, ``NTC`` for sequences).
    """
    def __new__(cls, name, shape, dtype=mx_real_t, layout='NCHW'):
        ret = super(DataDesc, cls).__new__(cls, name, shape)
        ret.dtype = dtype
        ret.layout = layout
        return ret

    def __repr__(self):
        return 'DataDesc[%s,%s,%s,%s]' % (self.name, self.shape, self.dtype, self.layout)

    @staticmethod
    def get_batch_axis(layout):
        """The axis of the batch dimension in ``layout`` (0 when ``layout`` is None, -1 when
        it has no ``'N'``)."""
        if layout is None:
            return 0
        return layout.find('N')

    @staticmethod
    def get_list(shapes, types):
        """DataDesc list from ``[(name, shape)]`` and optional ``[(name, dtype)]``."""
        if types is None:
            return [DataDesc(name, shape) for name, shape in shapes]
        type_of = dict(types)
        return [DataDesc(name, shape, type_of[name]) for name, shape in shapes]


_CONTIGUOUS = torch.contiguous_format


def _batch_slice(arr, s, axis):
    """``arr[s]`` along ``axis`` as a new contiguous array (MXNet's slice_axis copies)."""
    t = arr._t
    if 0 <= s.start <= s.stop <= t.shape[axis]:
        return arr._like((t[s] if axis == 0 else t.narrow(axis, s.start, s.stop - s.start))
                         .clone(memory_format=_CONTIGUOUS))
    return _slice_along_batch_axis(arr, s, axis)


def _whole_batch(source, start, end, axis):
    """``_batch_slice`` of every array of ``source`` (None where one is not an NDArray or
    ``start:end`` leaves it)."""
    out = []
    for _, arr in source:
        if type(arr) is not NDArray:
            return None
        t = arr._t
        if axis < 0 or end > t.shape[axis]:
            return None
        out.append(arr._like(t.narrow(axis, start, end - start).clone(
            memory_format=_CONTIGUOUS)))
    return out


class DataBatch(object):
    """A batch of data returned by a data iterator.

    Parameters
    ----------
    data : list of NDArray
        The input data, each array holding ``batch_size`` examples.
    label : list of NDArray, optional
        The labels.
    pad : int, optional
        Number of examples padded at the end of the batch (ignored in prediction).
    index : numpy.array, optional
        The indices of the examples in the batch.
    bucket_key : int, optional
        The bucket key, for the bucketing module.
    provide_data : list of DataDesc, optional
        Description of ``data``.
    provide_label : list of DataDesc, optional
        Description of ``label``.
    """
    def __init__(self, data, label=None, pad=None, index=None,
                 bucket_key=None, provide_data=None, provide_label=None):
        if data is not None:
            assert isinstance(data, (list, tuple)), 'Data must be list of NDArrays'
        if label is not None:
            assert isinstance(label, (list, tuple)), 'Label must be list of NDArrays'
        self.data = data
        self.label = label
        self.pad = pad
        self.index = index
        self.bucket_key = bucket_key
        self.provide_data = provide_data
        self.provide_label = provide_label

    def __str__(self):
        label_shapes = [l.shape for l in self.label] if self.label else None
        return '%s: data shapes: %s label shapes: %s' % (
            type(self).__name__, [d.shape for d in self.data], label_shapes)


class DataIter(object):
    """Base class of MXNet data iterators.

    ``next()`` returns a DataBatch and raises StopIteration at the end of the data; subclasses
    implement ``iter_next``, ``getdata``, ``getlabel``, ``getpad`` (and ``getindex``).

    Parameters
    ----------
    batch_size : int, optional
        The number of examples in a batch.
    """
    def __init__(self, batch_size=0):
        self.batch_size = batch_size

    def __iter__(self):
        return self

    def reset(self):
        """Resets the iterator to the beginning of the data."""

    def next(self):
        """Returns the next DataBatch, or raises StopIteration at the end of the data."""
        if not self.iter_next():
            raise StopIteration
        return DataBatch(data=self.getdata(), label=self.getlabel(),
                         pad=self.getpad(), index=self.getindex())

    def __next__(self):
        return self.next()

    def iter_next(self):
        """Moves to the next batch; returns whether there was one."""

    def getdata(self):
        """The data (list of NDArray) of the current batch."""

    def getlabel(self):
        """The label (list of NDArray) of the current batch."""

    def getindex(self):
        """The indices (numpy.array) of the examples of the current batch, or None."""
        return None

    def getpad(self):
        """The number of padding examples in the current batch."""


class ResizeIter(DataIter):
    """Makes a data iterator yield exactly ``size`` batches per epoch, restarting it as needed.

    Parameters
    ----------
    data_iter : DataIter
        The iterator to resize.
    size : int
        Batches per epoch.
    reset_internal : bool
        Whether ``reset()`` also resets ``data_iter``.
    """
    def __init__(self, data_iter, size, reset_internal=True):
        super(ResizeIter, self).__init__()
        self.data_iter = data_iter
        self.size = size
        self.reset_internal = reset_internal
        self.cur = 0
        self.current_batch = None
        self.provide_data = data_iter.provide_data
        self.provide_label = data_iter.provide_label
        self.batch_size = data_iter.batch_size
        if hasattr(data_iter, 'default_bucket_key'):
            self.default_bucket_key = data_iter.default_bucket_key

    def reset(self):
        self.cur = 0
        if self.reset_internal:
            self.data_iter.reset()

    def iter_next(self):
        if self.cur == self.size:
            return False
        try:
            self.current_batch = self.data_iter.next()
        except StopIteration:
            self.data_iter.reset()
            self.current_batch = self.data_iter.next()
        self.cur += 1
        return True

    def getdata(self):
        return self.current_batch.data

    def getlabel(self):
        return self.current_batch.label

    def getindex(self):
        return self.current_batch.index

    def getpad(self):
        return self.current_batch.pad


def _renamed(descs, renames):
    if renames is None:
        return sum(descs, [])
    return sum([[DataDesc(r[d.name], d.shape, d.dtype) if isinstance(d, DataDesc) else DataDesc(*d)
                 for d in ds] for r, ds in zip(renames, descs)], [])


class PrefetchingIter(DataIter):
    """Reads the next batch of one or several iterators in background threads.

    Parameters
    ----------
    iters : DataIter or list of DataIter
        The iterators; their batches are concatenated (data after data, label after label).
    rename_data : None or list of dict
        For the i-th iterator, a map ``{'original_name': 'new_name'}`` over its provide_data.
    rename_label : None or list of dict
        The same for provide_label.
    """
    def __init__(self, iters, rename_data=None, rename_label=None):
        super(PrefetchingIter, self).__init__()
        if not isinstance(iters, list):
            iters = [iters]
        self.n_iter = len(iters)
        assert self.n_iter > 0
        self.iters = iters
        self.rename_data = rename_data
        self.rename_label = rename_label
        self.batch_size = self.provide_data[0][1][0]
        self.data_ready = [threading.Event() for _ in range(self.n_iter)]
        self.data_taken = [threading.Event() for _ in range(self.n_iter)]
        for e in self.data_taken:
            e.set()
        self.started = True
        self.current_batch = [None] * self.n_iter
        self.next_batch = [None] * self.n_iter
        self.prefetch_threads = [threading.Thread(target=self._prefetch, args=(i,), daemon=True)
                                 for i in range(self.n_iter)]
        for t in self.prefetch_threads:
            t.start()

    def _prefetch(self, i):
        while True:
            self.data_taken[i].wait()
            if not self.started:
                break
            try:
                self.next_batch[i] = self.iters[i].next()
            except StopIteration:
                self.next_batch[i] = None
            self.data_taken[i].clear()
            self.data_ready[i].set()

    def __del__(self):
        self.started = False
        for e in self.data_taken:
            e.set()
        for t in self.prefetch_threads:
            t.join()

    @property
    def provide_data(self):
        return _renamed([it.provide_data for it in self.iters], self.rename_data)

    @property
    def provide_label(self):
        return _renamed([it.provide_label for it in self.iters], self.rename_label)

    def reset(self):
        for e in self.data_ready:
            e.wait()
        for it in self.iters:
            it.reset()
        for e in self.data_ready:
            e.clear()
        for e in self.data_taken:
            e.set()

    def iter_next(self):
        for e in self.data_ready:
            e.wait()
        first = self.next_batch[0]
        if first is None:
            assert all(b is None for b in self.next_batch), \
                'Number of entry mismatches between iterators'
            return False
        assert all(b is not None and b.pad == first.pad for b in self.next_batch), \
            'Number of entry mismatches between iterators'
        self.current_batch = DataBatch(sum([b.data for b in self.next_batch], []),
                                       sum([b.label for b in self.next_batch], []),
                                       first.pad, first.index,
                                       provide_data=self.provide_data,
                                       provide_label=self.provide_label)
        for e in self.data_ready:
            e.clear()
        for e in self.data_taken:
            e.set()
        return True

    def next(self):
        if not self.iter_next():
            raise StopIteration
        return self.current_batch

    def getdata(self):
        return self.current_batch.data

    def getlabel(self):
        return self.current_batch.label

    def getindex(self):
        return self.current_batch.index

    def getpad(self):
        return self.current_batch.pad


class NDArrayIter(DataIter):
    """Iterates over ``mx.nd.NDArray``, ``numpy.ndarray`` or ``h5py.Dataset`` data.

    Parameters
    ----------
    data : array or list of array or dict of str to array
        The input data. Arrays are named ``data_name`` (one array), ``'_%d_<data_name>'``
        (a list) or by their keys (a dict), and provided in the sorted order of the names.
    label : array or list of array or dict of str to array, optional
        The labels, named after ``label_name`` the same way.
    batch_size : int
        Batch size.
    shuffle : bool, optional
        Shuffle the examples (with ``numpy.random``) at construction and at every reset.
    last_batch_handle : str, optional
        ``'pad'``: the last batch is completed with examples from the beginning;
        ``'discard'``: the incomplete last batch is dropped;
        ``'roll_over'``: its examples start the first batch of the next epoch.
    data_name : str, optional
        Name of a single data array.
    label_name : str, optional
        Name of a single label array.
    layout : str, optional
        Layout of the arrays; the position of ``'N'`` is the batch axis.

    CSRNDArray (or scipy.sparse) inputs need ``last_batch_handle='discard'``; their batches
    are dense, as MXNet 1.9.1's are.
    """
    def __init__(self, data, label=None, batch_size=1, shuffle=False,
                 last_batch_handle='pad', data_name='data',
                 label_name='softmax_label', layout='NCHW'):
        super(NDArrayIter, self).__init__(batch_size)
        self.data = _init_data(data, allow_empty=False, default_name=data_name)
        self.label = _init_data(label, allow_empty=True, default_name=label_name)
        if (_has_instance(self.data, CSRNDArray) or _has_instance(self.label, CSRNDArray)) and \
                last_batch_handle != 'discard':
            raise NotImplementedError("`NDArrayIter` only supports ``CSRNDArray`` with "
                                      "`last_batch_handle` set to `discard`.")
        self.idx = np.arange(self.data[0][1].shape[0])
        self.shuffle = shuffle
        self.last_batch_handle = last_batch_handle
        self.batch_size = batch_size
        self.cursor = -batch_size
        self.num_data = self.idx.shape[0]
        self.reset()
        self.data_list = [x[1] for x in self.data] + [x[1] for x in self.label]
        self.num_source = len(self.data_list)
        self._cache_data = None   # the incomplete last batch, for 'roll_over'
        self._cache_label = None
        self.layout = layout

    def _descs(self, arrays):
        axis = self.layout.find('N')
        return [DataDesc(k, tuple(v.shape[:axis]) + (self.batch_size,) + tuple(v.shape[axis + 1:]),
                         v.dtype, layout=self.layout) for k, v in arrays]

    @property
    def provide_data(self):
        """The name and shape of data provided by this iterator."""
        return self._descs(self.data)

    @property
    def provide_label(self):
        """The name and shape of label provided by this iterator."""
        return self._descs(self.label)

    def hard_reset(self):
        """Resets to the beginning, dropping the examples kept for 'roll_over'."""
        if self.shuffle:
            self._shuffle_data()
        self.cursor = -self.batch_size
        self._cache_data = None
        self._cache_label = None

    def reset(self):
        """Resets the iterator to the beginning of the data."""
        if self.shuffle:
            self._shuffle_data()
        n, bs = self.num_data, self.batch_size
        if self.last_batch_handle == 'roll_over' and n - bs < self.cursor < n:
            # a negative cursor: the cached tail of the last epoch fills the first batch
            self.cursor = self.cursor - n - bs
        else:
            self.cursor = -bs

    def iter_next(self):
        """Advances the cursor by batch_size; False past the end of the data."""
        self.cursor += self.batch_size
        return self.cursor < self.num_data

    def next(self):
        """Returns the next batch of data."""
        if not self.iter_next():
            raise StopIteration
        cur, end = self.cursor, self.cursor + self.batch_size
        if type(self) is NDArrayIter and 0 <= cur and end <= self.num_data:
            # a whole batch inside the data: nothing to pad, roll over or cache
            axis = self.layout.find('N')
            data = _whole_batch(self.data, cur, end, axis)
            label = _whole_batch(self.label, cur, end, axis)
            if data is None or label is None:
                data = self._getdata(self.data, cur, end)
                label = self._getdata(self.label, cur, end)
            return DataBatch(data=data, label=label, pad=0, index=None)
        data = self.getdata()
        label = self.getlabel()
        if data[0]._t.shape[self.layout.find('N')] != self.batch_size:
            # an incomplete last batch ends the epoch; 'roll_over' uses it next epoch
            self._cache_data = data
            self._cache_label = label
            raise StopIteration
        return DataBatch(data=data, label=label, pad=self.getpad(), index=None)

    def _getdata(self, data_source, start=None, end=None):
        """Examples ``start:end`` of every array of ``data_source``."""
        assert start is not None or end is not None, 'should at least specify start or end'
        start = start if start is not None else 0
        if end is None:
            end = data_source[0][1].shape[0] if data_source else 0
        s = slice(start, end)
        axis = self.layout.find('N')
        return [_batch_slice(v, s, axis) if type(v) is NDArray
                else self._read_h5(v, s) if not isinstance(v, NDArray)
                else _slice_along_batch_axis(v, s, axis) for _, v in data_source]

    def _read_h5(self, dataset, s):
        # h5py reads only increasing indices: read sorted, then restore the order of idx
        want = list(self.idx[s])
        order = sorted(want)
        return array(dataset[order][[order.index(i) for i in want]])

    def _concat(self, first, second):
        if not first or not second:
            return first if first else second
        assert len(first) == len(second), 'data source should contain the same size'
        axis = self.layout.find('N')
        return [concat(a, b, dim=axis) for a, b in zip(first, second)]

    @staticmethod
    def _tile(data, repeats):
        return [tile(d, reps=(repeats,) + (1,) * (d.ndim - 1)) for d in data]

    def _batchify(self, data_source):
        """The current batch of ``data_source`` under the last_batch_handle policy."""
        assert self.cursor < self.num_data, 'DataIter needs reset.'
        n, bs, cur = self.num_data, self.batch_size, self.cursor
        if self.last_batch_handle == 'roll_over' and -bs < cur < 0:
            # first batch of an epoch: the cached tail of the last epoch, then the head
            assert self._cache_data is not None or self._cache_label is not None, \
                'next epoch should have cached data'
            cached = self._cache_data if self._cache_data is not None else self._cache_label
            head = self._getdata(data_source, end=cur + bs)
            if self._cache_data is not None:
                self._cache_data = None
            else:
                self._cache_label = None
            return self._concat(cached, head)
        if self.last_batch_handle == 'pad' and cur + bs > n:
            pad = bs - n + cur
            tail = self._getdata(data_source, start=cur)
            if pad > n:
                fill = self._tile(self._getdata(data_source, end=n), pad // n)
                if pad % n:
                    fill = self._concat(fill, self._getdata(data_source, end=pad % n))
            else:
                fill = self._getdata(data_source, end=pad)
            return self._concat(tail, fill)
        return self._getdata(data_source, cur, min(cur + bs, n))

    def getdata(self):
        """The data of the current batch."""
        return self._batchify(self.data)

    def getlabel(self):
        """The label of the current batch."""
        return self._batchify(self.label)

    def getpad(self):
        """The number of padded examples in the current batch."""
        if self.last_batch_handle == 'pad' and self.cursor + self.batch_size > self.num_data:
            return self.cursor + self.batch_size - self.num_data
        if self.last_batch_handle == 'roll_over' and -self.batch_size < self.cursor < 0:
            return -self.cursor
        return 0

    def _shuffle_data(self):
        np.random.shuffle(self.idx)
        self.data = _getdata_by_idx(self.data, self.idx)
        self.label = _getdata_by_idx(self.label, self.idx)


_READ_AHEAD = 16   # batches MXNet's prefetcher thread keeps ready (kMaxPrefetchBuffer)


class MXDataIter(DataIter):
    """Base of the iterators MXNet implements natively (CSVIter, MNISTIter, ...).

    It reproduces MXNet's C++ pipeline deterministically: a producer (the subclass's
    ``_produce``) that yields ``(data, label, pad, index)`` numpy batches and is kept
    ``_READ_AHEAD`` batches ahead of the consumer, as MXNet's prefetch thread is, and the
    Python wrapper's behaviour: the first batch is read at construction (it gives
    ``provide_data``/``provide_label``), a ``(N, 1)`` label is returned as ``(N,)``, and
    ``reset()`` rewinds the producer.

    Subclasses call ``super().__init__(data_name, label_name, dtype)`` and then ``_start()``
    at the end of their ``__init__``, and implement ``_produce()`` (None at the end of the
    epoch) and ``_rewind()``; ``dtype`` (MXNet's prefetcher parameter) casts the batches.
    """
    def __init__(self, data_name='data', label_name='softmax_label', dtype=None):
        super(MXDataIter, self).__init__()
        self._out_dtype = dtype
        self._queue = deque()
        self._exhausted = False
        self._current = None
        self._debug_skip_load = False
        self._debug_at_begin = True
        self.first_batch = None
        self._data_name = data_name
        self._label_name = label_name

    def _produce(self):
        raise NotImplementedError

    def _rewind(self):
        raise NotImplementedError

    def _start(self):
        self.first_batch = self.next()
        data = self.first_batch.data[0]
        label = self.first_batch.label[0]
        self.provide_data = [DataDesc(self._data_name, data.shape, data.dtype)]
        self.provide_label = [DataDesc(self._label_name, label.shape, label.dtype)]
        self.batch_size = data.shape[0]

    def _fill(self):
        while not self._exhausted and len(self._queue) < _READ_AHEAD:
            batch = self._produce()
            if batch is None:
                self._exhausted = True
            else:
                self._queue.append(batch)

    def _advance(self):
        self._fill()
        if not self._queue:
            return False
        data, label, pad, index = self._queue.popleft()
        if self._out_dtype is not None:
            data, label = data.astype(self._out_dtype), label.astype(self._out_dtype)
        if label.ndim > 1 and label.shape[1] == 1:
            label = label.reshape(label.shape[0])
        # the producer hands over fresh arrays: wrap them without a copy
        self._current = (from_numpy(data), from_numpy(label), pad, index)
        self._fill()
        return True

    def debug_skip_load(self):
        """Always return the first batch, to time a network without the data loading."""
        self._debug_skip_load = True
        logging.info('Set debug_skip_load to be true, will simply return first batch')

    def reset(self):
        self._debug_at_begin = True
        self.first_batch = None
        self._queue.clear()
        self._exhausted = False
        self._rewind()

    def next(self):
        if self._debug_skip_load and not self._debug_at_begin:
            return DataBatch(data=[self.getdata()], label=[self.getlabel()],
                             pad=self.getpad(), index=self.getindex())
        if self.first_batch is not None:
            batch, self.first_batch = self.first_batch, None
            return batch
        self._debug_at_begin = False
        if not self._advance():
            raise StopIteration
        return DataBatch(data=[self.getdata()], label=[self.getlabel()],
                         pad=self.getpad(), index=self.getindex())

    def iter_next(self):
        if self.first_batch is not None:
            return True
        return self._advance()

    def getdata(self):
        return self._current[0]

    def getlabel(self):
        return self._current[1]

    def getindex(self):
        index = self._current[3]
        return None if index is None or not len(index) else index.copy()

    def getpad(self):
        return self._current[2]
