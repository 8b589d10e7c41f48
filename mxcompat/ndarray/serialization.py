"""MXNet's NDArray file format: ``mx.nd.save`` / ``load`` / ``load_frombuffer``.

Files are read and written byte for byte as MXNet 1.9.1 does. Everything is little endian::

    file    := u64 0x112, u64 0, u64 n, array * n, u64 k, (u64 len, utf-8 bytes) * k   (k is 0 or n)
    array   := V2 | V3 | V1 | legacy
    V2, V3  := u32 magic, i32 stype, [sshape if sparse], shape, ctx, i32 type_flag,
               [(i32 aux_type, shape) * naux], data, [aux data * naux]
    V1      := u32 0xF993FAC8, shape, ctx, i32 type_flag, data
    legacy  := u32 ndim, u32 dim * ndim, ctx, i32 type_flag, data          (before V1)
    shape   := i32 ndim, i64 dim * ndim
    ctx     := i32 dev_type, i32 dev_id

V2 (0xF993FAC9) is what MXNet (and mxcompat) writes outside NumPy-shape mode. Its
``ndim == 0`` means "no array" when MXNet reads, yet MXNet writes a 0-d array exactly so,
followed by its context, type and value (and then cannot read the file back); mxcompat reads
such a 0-d array back. V3 (0xF993FACA) is written in NumPy-shape mode, where ``ndim == 0`` is a
scalar and a dimension of -1 means "no array". A "no array" entry loads as an empty float32
array of shape (0,). Files of every version load; mxcompat writes V2, and V3 in NumPy-shape
mode (``npx.set_np()``), as MXNet does. Sparse arrays
(row_sparse, csr) load as dense arrays with the same values: mxcompat stores only dense arrays.

Nothing is unpickled, and every length read from a file is checked against the bytes that remain
before anything is allocated, so corrupt or truncated input raises MXNetError naming the source
and the array. Limits: at most :data:`MAX_NDIM` dimensions, no negative dimension, at most
:data:`MAX_ELEMENTS` elements in any shape (zero-size arrays included), and a sparse array is
expanded to dense only up to ``MXCOMPAT_MAX_SPARSE_DENSE_BYTES`` bytes (default 256 MiB; set the
environment variable to load larger ones).
"""
import math
import mmap
import os
import struct
import sys

import numpy as np
import torch

from ..utils.fileio import atomic_writer
from ..base import MXNetError, BFLOAT16_NP, dtype_from_flag, string_types

__all__ = ['save', 'load', 'load_frombuffer', 'dumps', 'loads', 'ParamsFile', 'iter_params',
           'save_raw_bytes', 'load_raw_bytes']

LIST_MAGIC = 0x112
V1_MAGIC = 0xF993FAC8
V2_MAGIC = 0xF993FAC9
V3_MAGIC = 0xF993FACA
_STYPE_NAUX = {0: 0, 1: 1, 2: 2}  # default, row_sparse (indices), csr (indptr, indices)
_DEV_TYPES = (1, 2, 3, 5)  # cpu, gpu, cpu_pinned, cpu_shared

_U32 = struct.Struct('<I')
_I32 = struct.Struct('<i')
_U64 = struct.Struct('<Q')
_I32X2 = struct.Struct('<ii')
_U64X2 = struct.Struct('<QQ')
_LIST_HEADER = _U64X2.pack(LIST_MAGIC, 0)

MAX_NDIM = 32
"""The most dimensions an array in a file may have (numpy's limit)."""
MAX_ELEMENTS = 2 ** 40
"""The most elements any shape in a file may describe."""


def _max_sparse_dense_bytes():
    """How many bytes a sparse array read from a file may expand to (dense)."""
    value = os.environ.get('MXCOMPAT_MAX_SPARSE_DENSE_BYTES', '')
    try:
        return int(value) if value.strip() else 256 * 2 ** 20
    except ValueError:
        raise MXNetError('MXCOMPAT_MAX_SPARSE_DENSE_BYTES must be a number of bytes, not %r'
                         % value) from None
_DEFAULT_ARRAY_HEAD = struct.pack('<Ii', V2_MAGIC, 0)
_NP_SHAPE_ARRAY_HEAD = struct.pack('<Ii', V3_MAGIC, 0)  # written in NumPy-shape mode


def _array_head():
    from ..util import is_np_shape
    return _NP_SHAPE_ARRAY_HEAD if is_np_shape() else _DEFAULT_ARRAY_HEAD

# numpy dtype (little endian) used to read the bytes of each type flag; bfloat16 reads as uint16
_READ_DTYPE = {}
for _flag in range(13):
    _dt = dtype_from_flag(_flag)
    _READ_DTYPE[_flag] = np.dtype('<u2') if _dt is BFLOAT16_NP else _dt.newbyteorder('<')
_TORCH_FLAG = {torch.float32: 0, torch.float64: 1, torch.float16: 2, torch.uint8: 3,
               torch.int32: 4, torch.int8: 5, torch.int64: 6, torch.bool: 7, torch.int16: 8,
               torch.uint16: 9, torch.uint32: 10, torch.uint64: 11, torch.bfloat16: 12}
_FLAG_TORCH = {flag: dtype for dtype, flag in _TORCH_FLAG.items()}


class _Corrupt(Exception):
    """Raised inside the parser; turned into MXNetError naming the source."""


# --------------------------------------------------------------------------------- reading
class _Reader:
    __slots__ = ('buf', 'pos', 'end', 'zero_d', 'saw_zero_d', 'deferred')

    def __init__(self, buf, zero_d, deferred=False):
        self.buf = buf
        self.pos = 0
        self.end = len(buf)
        self.zero_d = zero_d  # read V1/V2 ndim == 0 as a 0-d array (else as "no array")
        self.saw_zero_d = False
        # dense arrays as _Data (where their bytes are) rather than tensors, to be read from
        # the file by _read_data (buf is then the file mapped into memory)
        self.deferred = deferred

    def need(self, n, what):
        if n < 0 or self.end - self.pos < n:
            raise _Corrupt('%s needs %d bytes at offset %d but only %d remain'
                           % (what, n, self.pos, self.end - self.pos))

    def unpack(self, st, what):
        self.need(st.size, what)
        vals = st.unpack_from(self.buf, self.pos)
        self.pos += st.size
        return vals

    def u32(self, what):
        return self.unpack(_U32, what)[0]

    def i32(self, what):
        return self.unpack(_I32, what)[0]

    def u64(self, what):
        return self.unpack(_U64, what)[0]

    def dims(self, ndim, itemsize, what):
        self.need(ndim * itemsize, what)
        out = struct.unpack_from('<%d%s' % (ndim, 'q' if itemsize == 8 else 'I'),
                                 self.buf, self.pos)
        self.pos += ndim * itemsize
        return out

    def shape(self, what, unknown_ok=False):
        """An i32 ndim and i64 dims; with ``unknown_ok`` (NumPy-shape files) a -1 dimension
        (an empty entry) passes."""
        ndim = self.i32(what + ' ndim')
        if ndim < 0 or ndim > MAX_NDIM:  # MXNet cannot write an array of unknown ndim
            raise _Corrupt('%s has invalid ndim %d' % (what, ndim))
        return _checked_shape(self.dims(ndim, 8, what), what, unknown_ok)

    def ctx(self):
        return self.unpack(_I32X2, 'context')

    def tensor(self, flag, shape, what, deferred=False):
        """The array of type ``flag`` and ``shape`` whose bytes start here: a tensor holding a
        copy of them, or with ``deferred`` a _Data saying where they are."""
        dt = _READ_DTYPE.get(flag)
        if dt is None:
            raise _Corrupt('%s has unknown type flag %d' % (what, flag))
        count = 1
        for d in shape:
            count *= d
        nbytes = count * dt.itemsize
        self.need(nbytes, what + ' data')
        if deferred:
            data = _Data(self.pos, flag, shape)
        else:
            a = np.frombuffer(self.buf, dtype=dt, count=count, offset=self.pos).reshape(shape)
            data = _tensor(a.astype(dt.newbyteorder('='), copy=True), flag)
        self.pos += nbytes
        return data

    def array(self, index):
        what = 'array %d' % index
        magic = self.u32(what + ' magic')
        if magic in (V2_MAGIC, V3_MAGIC):
            return self._array_v2(magic == V3_MAGIC, what)
        if magic == V1_MAGIC:
            shape = self.shape(what + ' shape', unknown_ok=True)
            if -1 in shape:  # unknown dimension: an empty entry, nothing more is stored
                return _none_array()
        else:  # before V1 the first word is ndim and dims are uint32
            if magic > MAX_NDIM or magic * 4 > self.end - self.pos:
                raise _Corrupt('%s: unknown magic 0x%08X' % (what, magic))
            shape = _checked_shape(self.dims(magic, 4, what + ' shape'), what, False)
        return self._dense_body(shape, what, legacy_shape=False)

    def _array_v2(self, np_shape, what):
        stype = self.i32(what + ' storage type')
        if stype not in _STYPE_NAUX:
            raise _Corrupt('%s has unknown storage type %d' % (what, stype))
        naux = _STYPE_NAUX[stype]
        if naux:
            sshape = self.shape(what + ' storage shape')
        shape = self.shape(what + ' shape', unknown_ok=np_shape)
        if np_shape and -1 in shape:  # unknown dimension: an empty entry
            return _none_array()
        if not naux:
            return self._dense_body(shape, what, legacy_shape=not np_shape)
        if not shape:
            return _none_array()
        self.ctx()
        flag = self.i32(what + ' type flag')
        aux = []
        for _ in range(naux):
            aux_flag = self.i32(what + ' aux type')
            aux.append((aux_flag, self.shape(what + ' aux shape')))
        values = self.tensor(flag, sshape, what)
        aux = [self.tensor(f, s, what + ' aux') for f, s in aux]
        return _densify(stype, shape, values, aux, what)

    def _dense_body(self, shape, what, legacy_shape):
        if legacy_shape and not shape:
            # MXNet reads "no array" here, but writes a 0-d array this way
            if not self.zero_d:
                return _none_array()
            self.saw_zero_d = True
        dev_type, _ = self.ctx()
        if legacy_shape and not shape and dev_type not in _DEV_TYPES:
            raise _Corrupt('%s has an invalid context' % what)
        flag = self.i32(what + ' type flag')
        return self.tensor(flag, shape, what, self.deferred)

    def names(self, n):
        count = self.u64('key count')
        if count not in (0, n):
            raise _Corrupt('%d keys for %d arrays' % (count, n))
        keys = []
        for i in range(count):
            length = self.u64('key %d length' % i)
            self.need(length, 'key %d' % i)
            raw = bytes(self.buf[self.pos:self.pos + length])
            self.pos += length
            try:
                keys.append(raw.decode('utf-8'))
            except UnicodeDecodeError:
                raise _Corrupt('key %d is not valid UTF-8' % i) from None
        return keys


class _Data:
    """Where the bytes of a dense array are in a file: its offset, type flag and shape."""
    __slots__ = ('offset', 'flag', 'shape')

    def __init__(self, offset, flag, shape):
        self.offset, self.flag, self.shape = offset, flag, shape


def _tensor(a, flag):
    """The tensor of numpy array ``a`` in native byte order (no copy) holding type ``flag``."""
    t = torch.from_numpy(a)
    if flag == 12:
        t = t.view(torch.int16).view(torch.bfloat16)
    return t


def _read_data(f, data, source, out=None):
    """The tensor of ``data`` (a _Data) read from file ``f`` straight into its memory: into
    ``out`` where given (a contiguous CPU tensor of its shape and type), else into a new
    tensor (torch's allocation: numpy's asks the kernel for huge pages, which makes the first
    write of every page several times slower)."""
    if out is None:
        out = torch.empty(data.shape, dtype=_FLAG_TORCH[data.flag])
    raw = out.detach().reshape(-1).view(torch.uint8).numpy()
    if raw.nbytes:
        f.seek(data.offset)
        view = memoryview(raw)
        pos = 0
        while pos < raw.nbytes:  # readinto may return less than asked
            n = f.readinto(view[pos:])
            if not n:
                raise MXNetError('Invalid NDArray file format (%s): the file ended while '
                                 'its arrays were read (did it change?)' % source)
            pos += n
        view.release()
        size = _READ_DTYPE[data.flag].itemsize
        if sys.byteorder == 'big' and size > 1:  # the file is little endian
            raw.view('<u%d' % size).byteswap(inplace=True)
    return out


def _mapped_data(view, data, source):
    """The tensor of ``data`` (a _Data of at least one element) over memory map ``view`` of
    its file."""
    count = math.prod(data.shape)
    if data.offset + count * _READ_DTYPE[data.flag].itemsize > len(view):
        raise MXNetError('Invalid NDArray file format (%s): the file ended before its '
                         'arrays (did it change?)' % source)
    return torch.frombuffer(view, dtype=_FLAG_TORCH[data.flag], count=count,
                            offset=data.offset).view(data.shape)


def _checked_shape(shape, what, unknown_ok):
    """``shape`` if no dimension is negative (-1 passes with ``unknown_ok``) and it describes
    at most MAX_ELEMENTS elements, else _Corrupt."""
    count = 1
    for d in shape:
        if d < 0 and not (unknown_ok and d == -1):
            raise _Corrupt('%s %s has a negative dimension' % (what, shape))
        if d > 0:
            count *= d
    if count > MAX_ELEMENTS:
        raise _Corrupt('%s %s has more than %d elements' % (what, shape, MAX_ELEMENTS))
    return shape


def _none_array():
    return torch.empty((0,), dtype=torch.float32)


def _densify(stype, shape, values, aux, what):
    count = 1
    for d in shape:
        count *= d
    limit = _max_sparse_dense_bytes()
    if count * values.element_size() > limit:
        raise _Corrupt('%s is a sparse array of shape %s, which mxcompat would expand to %d '
                       'bytes (dense); the limit is %d bytes: raise it with the environment '
                       'variable MXCOMPAT_MAX_SPARSE_DENSE_BYTES'
                       % (what, shape, count * values.element_size(), limit))
    dense = torch.zeros(shape, dtype=values.dtype)
    if stype == 1:
        idx = aux[0].to(torch.int64)
        if idx.dim() != 1 or values.shape[:1] != idx.shape or values.shape[1:] != tuple(shape[1:]) \
                or (idx.numel() and (idx.min() < 0 or idx.max() >= shape[0])):
            raise _Corrupt('%s has inconsistent row_sparse data' % what)
        dense[idx] = values
        return dense
    indptr, indices = aux[0].to(torch.int64), aux[1].to(torch.int64)
    rows = shape[0] if len(shape) == 2 else -1
    if len(shape) != 2 or indptr.shape != (rows + 1,) or indices.shape != values.shape \
            or values.dim() != 1:
        raise _Corrupt('%s has inconsistent csr data' % what)
    counts = indptr[1:] - indptr[:-1]
    if indptr[0] != 0 or indptr[-1] != values.numel() or (counts < 0).any() \
            or (indices.numel() and (indices.min() < 0 or indices.max() >= shape[1])):
        raise _Corrupt('%s has inconsistent csr data' % what)
    row_of = torch.repeat_interleave(torch.arange(rows), counts)
    dense[row_of, indices] = values
    return dense


def _parse(buf, zero_d, deferred):
    r = _Reader(buf, zero_d, deferred)
    magic, _ = r.unpack(_U64X2, 'header')
    if magic != LIST_MAGIC:
        raise _Corrupt('bad header 0x%X (expected 0x%X)' % (magic, LIST_MAGIC))
    n = r.u64('array count')
    tensors = []
    for i in range(n):  # each array consumes at least 4 bytes, so a huge n fails fast
        tensors.append(r.array(i))
    keys = r.names(len(tensors))
    return tensors, keys, r.saw_zero_d


def loads(buf, source='buffer', deferred=False):
    """Parse MXNet NDArray-file bytes into ``(list of torch.Tensor, list of str keys)``; with
    ``deferred`` the dense arrays come as _Data, for _read_data."""
    try:
        try:
            tensors, keys, _ = _parse(buf, True, deferred)
        except _Corrupt:
            # a V1/V2 ndim of 0 may also be a "no array" entry written by MXNet's C++ API
            tensors, keys, _ = _parse(buf, False, deferred)
    except _Corrupt as err:
        raise MXNetError('Invalid NDArray file format (%s): %s' % (source, err)) from None
    return tensors, keys


class ParamsFile(object):
    """An MXNet NDArray file (``.params``, ``mx.nd.save``) opened for reading one array at a
    time.

    Opening reads and checks the file's whole structure (every header, length and name, as
    ``mx.nd.load`` checks it) through a read-only memory map, touching only the pages that
    hold them; ``arrays`` then reads the arrays in file order, each straight from the file
    into the memory of its tensor. Use it as a context manager (or call ``close``).

    Parameters
    ----------
    fname : str or os.PathLike
        The file.

    Attributes
    ----------
    keys : list of str, or None
        The arrays' keys, in file order; None for a file of unnamed arrays (``mx.nd.save`` of
        a list).

    Raises
    ------
    MXNetError
        When the file cannot be read or is not a valid NDArray file, naming it and the
        problem.
    """

    def __init__(self, fname):
        if not isinstance(fname, string_types + (os.PathLike,)):
            raise TypeError('fname required to be a string')
        self.source = os.fspath(fname)
        try:
            self._file = open(self.source, 'rb')
        except OSError as err:
            raise MXNetError('mx.nd.load: cannot open "%s": %s'
                             % (self.source, err.strerror or err)) from None
        try:
            self._items, keys = self._index()
        except BaseException:
            self._file.close()
            raise
        self.keys = keys or None

    def _index(self):
        """The arrays (as _Data where dense) and keys of the file: read through a memory map,
        or where the file cannot be mapped (a pipe, ...) from a copy of it."""
        f = self._file
        try:
            size = os.fstat(f.fileno()).st_size
            view = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if size else b''
        except (OSError, ValueError):
            try:
                return loads(f.read(), self.source)
            except OSError as err:
                raise MXNetError('mx.nd.load: cannot read "%s": %s'
                                 % (self.source, err.strerror or err)) from None
        try:
            return loads(view, self.source, deferred=True)
        finally:
            if size:
                view.close()

    def __len__(self):
        return len(self._items)

    def arrays(self, into=None, mapped=False):
        """Reads the arrays in file order, holding none after it was yielded.

        Parameters
        ----------
        into : callable, optional
            ``into(index, key, shape, dtype)`` (``key`` None in a file of unnamed arrays,
            ``dtype`` a torch dtype) may return a contiguous CPU tensor of that shape and
            dtype: the array is then read straight into it (e.g. a parameter's memory), and it
            is the tensor yielded. Otherwise (None) a new tensor is made.
        mapped : bool, default False
            Instead of reading them, give the dense arrays (other than those ``into`` takes)
            as tensors over a private memory map of the file (copy on write), for converters
            that hand them to a writer: nothing is copied and only the pages written out are
            read. The tensors read the file as it is when they are used: the file must not
            change while they live. On a big-endian host the arrays are read.

        Yields
        ------
        (str or None, torch.Tensor)
            The array's key and the array, on the CPU. Sparse arrays come as dense tensors.
        """
        items, keys = self._items, self.keys
        view = None
        if mapped and sys.byteorder == 'little' and \
                any(isinstance(d, _Data) and math.prod(d.shape) for d in items):
            view = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_COPY)
        for i, data in enumerate(items):
            key = keys[i] if keys else None
            if isinstance(data, _Data):
                out = None
                if into is not None:
                    out = into(i, key, data.shape, _FLAG_TORCH[data.flag])
                    if out is not None and not (
                            out.device.type == 'cpu' and out.is_contiguous() and
                            tuple(out.shape) == data.shape and
                            out.dtype == _FLAG_TORCH[data.flag]):
                        raise MXNetError('ParamsFile.arrays: into() returned a tensor of '
                                         'shape %s, %s for array %d (%s, shape %s): return a '
                                         'contiguous CPU tensor of its shape and dtype, or None'
                                         % (tuple(out.shape), out.dtype, i, key, data.shape))
                if out is None and view is not None and math.prod(data.shape):
                    data = _mapped_data(view, data, self.source)
                else:
                    data = _read_data(self._file, data, self.source, out)
            yield key, data

    def close(self):
        """Closes the file."""
        self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def iter_params(fname):
    """Reads an MXNet NDArray file (``.params``, ``mx.nd.save``) one array at a time, for
    converters: the file's structure is read and checked first (a bad file raises MXNetError
    naming it and the problem before anything is yielded), then each array is read straight
    from the file into its own tensor and yielded before the next is read, so that streaming
    a file takes memory for one array at a time (see ``ParamsFile``).

    Parameters
    ----------
    fname : str or os.PathLike
        The file.

    Yields
    ------
    (str or None, torch.Tensor)
        The array's key (None in a file of unnamed arrays) and the array, on the CPU.

    Examples
    --------
    >>> from safetensors.torch import save_file
    >>> save_file(dict(iter_params('net-0000.params')), 'net.safetensors')
    """
    with ParamsFile(fname) as pf:
        yield from pf.arrays()


def _result(tensors, keys):
    from .ndarray import wrap
    arrays = [wrap(t) for t in tensors]
    if keys:
        return dict(zip(keys, arrays))
    return arrays


def load(fname):
    """Loads an array from file.

    See more details in ``save``.

    Parameters
    ----------
    fname : str
        The filename.

    Returns
    -------
    list of NDArray, or dict of str to NDArray
        Loaded data, on the CPU.
    """
    with ParamsFile(fname) as pf:
        return _result([t for _, t in pf.arrays()], pf.keys)


def load_frombuffer(buf):
    """Loads an array dictionary or list from a buffer

    See more details in ``save``.

    Parameters
    ----------
    buf : bytes
        Buffer containing contents of a file as bytes (or a str of byte values).

    Returns
    -------
    list of NDArray, or dict of str to NDArray
        Loaded data, on the CPU.
    """
    if isinstance(buf, str):
        buf = buf.encode('latin-1')
    elif not isinstance(buf, (bytes, bytearray, memoryview)):
        raise TypeError('buf required to be a string or bytes')
    return _result(*loads(buf))


# --------------------------------------------------------------------------------- writing
def _checked_items(data):
    """(keys or None, list of NDArray) for save's ``data``, with MXNet's errors."""
    from .ndarray import NDArray
    if isinstance(data, NDArray):
        return None, [data]
    if isinstance(data, dict):
        if any(not isinstance(k, string_types) for k in data) or \
                any(not isinstance(v, NDArray) for v in data.values()):
            raise TypeError('save only accept dict str->NDArray or list of NDArray')
        return list(data.keys()), list(data.values())
    if isinstance(data, list):
        if any(not isinstance(v, NDArray) for v in data):
            raise TypeError('save only accept dict str->NDArray or list of NDArray')
        return None, data
    raise ValueError('data needs to either be a NDArray, dict of str, NDArray pairs '
                     'or a list of NDarrays.')


def _array_chunks(x, magic_head):
    """The byte chunks of one NDArray as NDArray::Save writes them (V2 or V3 by
    ``magic_head``, dense)."""
    t = x._t.detach()
    flag = _TORCH_FLAG.get(t.dtype)
    if flag is None:
        raise MXNetError('mx.nd.save: cannot save dtype %s' % t.dtype)
    if t.device.type != 'cpu':
        t = t.cpu()
    t = t.contiguous()
    ctx = x.context
    head = magic_head + _I32.pack(t.dim()) + struct.pack('<%dq' % t.dim(), *t.shape) \
        + _I32X2.pack(ctx.device_typeid, ctx.device_id) + _I32.pack(flag)
    if flag == 12:
        t = t.view(torch.int16)
    a = t.numpy()
    return head, (a.reshape(-1).view(np.uint8) if a.size else b'')


def _chunks(keys, arrays):
    yield _LIST_HEADER + _U64.pack(len(arrays))
    magic_head = _array_head()
    for x in arrays:
        yield from _array_chunks(x, magic_head)
    if keys is None:
        yield _U64.pack(0)
        return
    parts = [_U64.pack(len(keys))]
    for k in keys:
        b = k.encode('utf-8')
        parts.append(_U64.pack(len(b)))
        parts.append(b)
    yield b''.join(parts)


def dumps(data):
    """The bytes ``save`` would write for ``data``."""
    keys, arrays = _checked_items(data)
    return b''.join(bytes(c) for c in _chunks(keys, arrays))


def save(fname, data):
    """Saves a list of arrays or a dict of str->array to file.

    The file is written next to its destination under a temporary name and then renamed over
    it, so an interrupted save never leaves a truncated file.

    Parameters
    ----------
    fname : str
        The filename.
    data : NDArray, or list of NDArray, or dict of str to NDArray
        The data to save.

    Examples
    --------
    >>> x = mx.nd.zeros((2,3))
    >>> y = mx.nd.ones((1,4))
    >>> mx.nd.save('my_list', [x,y])
    >>> mx.nd.save('my_dict', {'x':x, 'y':y})
    >>> mx.nd.load('my_list')
    [<NDArray 2x3 @cpu(0)>, <NDArray 1x4 @cpu(0)>]
    >>> mx.nd.load('my_dict')
    {'y': <NDArray 1x4 @cpu(0)>, 'x': <NDArray 2x3 @cpu(0)>}
    """
    if not isinstance(fname, string_types + (os.PathLike,)):
        raise TypeError('fname required to be a string')
    keys, arrays = _checked_items(data)
    atomic_write(os.fspath(fname), _chunks(keys, arrays))


def atomic_write(fname, chunks):
    """Write the byte chunks to ``fname`` atomically (mxcompat.utils.fileio), reporting an
    unwritable destination as MXNetError."""
    try:
        with atomic_writer(fname) as f:
            for c in chunks:
                f.write(c)
    except OSError as err:
        raise MXNetError('mx.nd.save: cannot write "%s": %s'
                         % (fname, err.strerror or err)) from None


# --------------------------------------------------------------------------------- one array
def save_raw_bytes(x):
    """One NDArray as MXNDArraySaveRawBytes serialises it (the 'handle' of its pickled state)."""
    head, data = _array_chunks(x, _array_head())
    return head + bytes(data)


def load_raw_bytes(buf):
    """The torch.Tensor of MXNDArrayLoadFromRawBytes bytes (an NDArray's pickled 'handle')."""
    for zero_d in (True, False):
        r = _Reader(memoryview(bytes(buf)), zero_d)
        try:
            return r.array(0)
        except _Corrupt as err:
            last = err
    raise MXNetError('Invalid NDArray serialization format: %s' % last)
