"""The iterators MXNet implements in C++: CSVIter, MNISTIter (and LibSVMIter, unsupported).

They read their files with numpy and reproduce MXNet's batching exactly (round_batch, padding,
the order of MNISTIter's shuffle); see MXDataIter for the prefetching and reset behaviour.
"""
import gzip
import os
import sys

import numpy as np

from ..base import MXNetError, to_bool, to_int, to_shape
from .io import MXDataIter

__all__ = ['CSVIter', 'MNISTIter', 'LibSVMIter']

_REQUIRED = object()
_KIND = {to_int: 'int', to_bool: 'boolean', to_shape: 'Shape(tuple)', str: 'string'}


def _params(kwargs, spec):
    """Parameters of a native iterator: MXNet ignores unknown names and checks required ones."""
    out = {}
    for name, (conv, default) in spec.items():
        if name not in kwargs:
            if default is _REQUIRED:
                raise MXNetError('Required parameter %s of %s is not presented'
                                 % (name, _KIND[conv]))
            out[name] = default
            continue
        try:
            out[name] = conv(kwargs[name])
        except (TypeError, ValueError):
            raise MXNetError("Invalid Parameter format for %s expect %s but value='%s'"
                             % (name, _KIND[conv], kwargs[name])) from None
    return out


def _no_positional(name, args):
    if args:
        raise TypeError('%s can only accept keyword arguments' % name)


def _open(path):
    if not os.path.exists(path):
        raise MXNetError('LocalFileSystem: Open "%s": No such file or directory' % path)
    with open(path, 'rb') as f:
        gz = f.read(2) == b'\x1f\x8b'
    return gzip.open(path, 'rb') if gz else open(path, 'rb')


# --------------------------------------------------------------------------------------------
# CSVIter
# --------------------------------------------------------------------------------------------
_CSV_DTYPES = {'float32': np.float32, 'int32': np.int32, 'int64': np.int64}


def _csv_files(path):
    if os.path.isdir(path):
        return [os.path.join(path, f) for f in sorted(os.listdir(path))
                if os.path.isfile(os.path.join(path, f))]
    if not os.path.exists(path):
        raise MXNetError('LocalFileSystem.GetPathInfo: %s error: No such file or directory' % path)
    return [path]


def _read_csv(path, shape, dtype):
    """All rows of a CSV file (or directory of files) as an (N, prod(shape)) array."""
    size = int(np.prod(shape))
    rows = []
    for name in _csv_files(path):
        with open(name) as f:
            lines = [l for l in f.read().splitlines() if l.strip()]
        for line in lines:
            n = line.count(',') + 1
            if n != size:
                raise MXNetError('Check failed: row.length == shape.Size() (%d vs. %d) : The data '
                                 'size in CSV do not match size of shape: specified shape=%s, the '
                                 'csv row-length=%d' % (n, size, list(shape), n))
        if lines:
            try:
                rows.append(np.loadtxt(lines, delimiter=',', dtype=dtype, ndmin=2))
            except ValueError as err:
                raise MXNetError('CSVIter: cannot parse %s as %s: %s'
                                 % (name, np.dtype(dtype).name, err)) from None
    if not rows:
        return np.zeros((0, size), dtype=dtype)
    return np.concatenate(rows).reshape(-1, size)


class _BatchLoader:
    """MXNet's BatchLoader over in-memory examples: fixed-size batches, with ``round_batch``
    completing the last batch from the start of the data (and starting the next epoch where
    that left off), otherwise padding it with whatever the batch buffer held before."""

    def __init__(self, arrays, batch_size, round_batch):
        self.arrays = arrays
        self.num = arrays[0].shape[0]
        self.batch_size = batch_size
        self.round_batch = round_batch
        self.buffers = [np.zeros((batch_size,) + a.shape[1:], a.dtype) for a in arrays]
        self.index = np.zeros(batch_size, np.uint64)
        self.pos = 0            # next example of the underlying per-example iterator
        self.num_overflow = 0   # examples of the next epoch already used to complete a batch

    def rewind(self):
        if not self.round_batch or self.num_overflow == 0:
            self.pos = 0
        else:
            self.num_overflow = 0

    def _take(self, top, count):
        rows = slice(self.pos, self.pos + count)
        for buf, a in zip(self.buffers, self.arrays):
            buf[top:top + count] = a[rows]
        self.index[top:top + count] = np.arange(rows.start, rows.stop, dtype=np.uint64)
        self.pos += count

    def produce(self):
        if self.num_overflow:
            return None
        bs = self.batch_size
        top = min(bs, self.num - self.pos)
        self._take(0, top)
        if top == 0:
            return None
        pad = 0
        if top < bs:
            if self.round_batch:
                missing = bs - top
                if missing > self.num:
                    raise MXNetError('Check failed: base_->Next(): number of input must be '
                                     'bigger than batch size')
                self.pos = 0
                self._take(top, missing)
                self.num_overflow = pad = missing
            else:
                pad = bs - top
        return [b.copy() for b in self.buffers] + [pad, self.index.copy()]


class CSVIter(MXDataIter):
    """Iterates over CSV files, one example per row.

    Parameters
    ----------
    data_csv : str
        The input CSV file or a directory of CSV files.
    data_shape : tuple of int
        The shape of one example (a row is reshaped to it).
    label_csv : str, optional
        The label CSV file or directory; all labels are 0 when 'NULL' (default).
    label_shape : tuple of int, optional
        The shape of one label, default (1,).
    batch_size : int
        Batch size.
    round_batch : bool, optional
        Complete the last batch with examples from the beginning (default True); the next
        epoch then starts after them. Otherwise the last batch is padded.
    dtype : {'float32', 'int32', 'int64'}, optional
        The type the entries are parsed as (default float32).
    data_name, label_name : str, optional
        Names in provide_data / provide_label.
    """
    def __init__(self, *args, **kwargs):
        _no_positional('CSVIter', args)
        p = _params(kwargs, {'data_csv': (str, _REQUIRED), 'data_shape': (to_shape, _REQUIRED),
                             'label_csv': (str, 'NULL'), 'label_shape': (to_shape, (1,)),
                             'batch_size': (to_int, _REQUIRED), 'round_batch': (to_bool, True)})
        dtype = str(kwargs.get('dtype', 'float32'))
        if dtype not in _CSV_DTYPES:
            raise MXNetError('Check failed: false: %s is not supported for CSVIter' % dtype)
        dtype = _CSV_DTYPES[dtype]
        data = _read_csv(p['data_csv'], p['data_shape'], dtype)
        if p['label_csv'] != 'NULL':
            label = _read_csv(p['label_csv'], p['label_shape'], dtype)
            if label.shape[0] < data.shape[0]:
                raise MXNetError("Data CSV's row is smaller than the number of rows in label_csv")
            label = label[:data.shape[0]].reshape((-1,) + p['label_shape'])
        else:
            label = np.zeros((data.shape[0], 1), dtype)
        data = data.reshape((-1,) + p['data_shape'])
        super(CSVIter, self).__init__(kwargs.get('data_name', 'data'),
                                      kwargs.get('label_name', 'softmax_label'))
        self._loader = _BatchLoader([data, label], p['batch_size'], p['round_batch'])
        self._start()

    def _produce(self):
        return self._loader.produce()

    def _rewind(self):
        self._loader.rewind()


# --------------------------------------------------------------------------------------------
# MNISTIter
# --------------------------------------------------------------------------------------------
def _read_idx(path, ndim):
    """The header counts and the uint8 payload of an MNIST idx file."""
    with _open(path) as f:
        raw = f.read()
    if len(raw) < 4 * (ndim + 1):
        raise MXNetError('invalid mnist format: %s' % path)
    dims = np.frombuffer(raw, '>i4', count=ndim + 1, offset=0)[1:]
    return [int(d) for d in dims], np.frombuffer(raw, np.uint8, offset=4 * (ndim + 1))


def _part(count, num_parts, part_index):
    if not 0 <= part_index < num_parts:
        raise MXNetError('MNISTIter: part_index=%d must be in [0, num_parts=%d)'
                         % (part_index, num_parts))
    return (int(float(count) / num_parts * part_index),
            int(float(count) / num_parts * (part_index + 1)))


def _mt19937_words(seed):
    """std::mt19937(seed)'s outputs, 624 at a time (numpy's legacy seeding is the same)."""
    rs = np.random.RandomState(seed & 0xFFFFFFFF)
    while True:
        for w in rs.randint(0, 1 << 32, size=624, dtype=np.uint32).tolist():
            yield w


def _std_shuffle_order(n, seed):
    """The permutation libstdc++'s std::shuffle(v, v+n, std::mt19937(seed)) applies."""
    words = _mt19937_words(seed)
    order = list(range(n))
    for i in range(1, n):
        # uniform_int_distribution(0, i): rejection sampling with a downscaled range
        scaling = 0xFFFFFFFF // (i + 1)
        past = (i + 1) * scaling
        r = next(words)
        while r >= past:
            r = next(words)
        j = r // scaling
        order[i], order[j] = order[j], order[i]
    return order


class MNISTIter(MXDataIter):
    """Iterates over the MNIST idx files (images scaled to [0, 1) by 1/256).

    Parameters
    ----------
    image : str, optional
        Image idx file (default './train-images-idx3-ubyte'); gzip files are read too.
    label : str, optional
        Label idx file (default './train-labels-idx1-ubyte').
    batch_size : int, optional
        Batch size (default 128); an incomplete last batch is dropped.
    shuffle : bool, optional
        Shuffle the examples once, in MXNet's order for ``seed`` (default True).
    flat : bool, optional
        Batches of shape (batch_size, rows*cols) instead of (batch_size, 1, rows, cols).
    seed : int, optional
        Shuffle seed (default 0).
    silent : bool, optional
        Do not print the summary line.
    num_parts, part_index : int, optional
        Read only part ``part_index`` of ``num_parts`` equal parts of the files.
    """
    def __init__(self, *args, **kwargs):
        _no_positional('MNISTIter', args)
        p = _params(kwargs, {
            'image': (str, './train-images-idx3-ubyte'),
            'label': (str, './train-labels-idx1-ubyte'),
            'batch_size': (to_int, 128), 'shuffle': (to_bool, True), 'flat': (to_bool, False),
            'seed': (to_int, 0), 'silent': (to_bool, False), 'num_parts': (to_int, 1),
            'part_index': (to_int, 0)})
        if p['batch_size'] < 1:
            raise MXNetError('value %d for Parameter batch_size should be greater equal to 1'
                             % p['batch_size'])
        (count, rows, cols), pixels = _read_idx(p['image'], 3)
        start, end = _part(count, p['num_parts'], p['part_index'])
        images = pixels[start * rows * cols:end * rows * cols].reshape(end - start, rows, cols)
        (lcount,), lab = _read_idx(p['label'], 1)
        lstart, lend = _part(lcount, p['num_parts'], p['part_index'])
        labels = lab[lstart:lend].astype(np.float32)
        images = images.astype(np.float32) * np.float32(1.0 / 256.0)
        if p['shuffle']:
            order = _std_shuffle_order(len(labels), p['seed'])
            images, labels = images[order], labels[order]
        bs = p['batch_size']
        self._images = images.reshape(-1, 1, rows, cols) if not p['flat'] else \
            images.reshape(-1, rows * cols)
        self._labels = labels.reshape(-1, 1)
        self._batch_size = bs
        self._loc = 0
        if not p['silent']:
            shape = ('(%d,%d)' % (bs, rows * cols) if p['flat']
                     else '[%d,1,%d,%d]' % (bs, rows, cols))
            print('MNISTIter: load %d images, shuffle=%d, shape=%s'
                  % (images.shape[0], p['shuffle'], shape), file=sys.stderr)
        dtype = kwargs.get('dtype')
        super(MNISTIter, self).__init__(kwargs.get('data_name', 'data'),
                                        kwargs.get('label_name', 'softmax_label'),
                                        None if dtype in (None, 'None') else np.dtype(dtype))
        self._start()

    def _produce(self):
        loc, bs = self._loc, self._batch_size
        if loc + bs > self._images.shape[0]:
            return None
        self._loc = loc + bs
        return [self._images[loc:loc + bs].copy(), self._labels[loc:loc + bs].copy(), 0,
                np.zeros(bs, np.uint64)]

    def _rewind(self):
        self._loc = 0


class LibSVMIter(MXDataIter):
    """LibSVM files produce sparse (CSR) batches, which mxcompat does not support."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError('mx.io.LibSVMIter: it yields CSRNDArray batches and sparse '
                                  'storage is not supported by mxcompat; load the file with '
                                  'e.g. sklearn.datasets.load_svmlight_file and use NDArrayIter '
                                  'on the dense arrays')
