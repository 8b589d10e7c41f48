"""Read and write MXNet's RecordIO files (``.rec``) and their index files (``.idx``).

The format is dmlc-core's: every record is one or more chunks, each chunk a little-endian
``uint32`` magic ``0xced7230a``, a ``uint32`` ``lrecord`` holding a continuation flag in its
upper 3 bits (0: whole record, 1: first chunk, 2: middle chunk, 3: last chunk) and the chunk
length in its lower 29 bits, then the data padded with zeros to a multiple of 4 bytes. A record
whose data holds the magic number at a 4-byte aligned offset is split there (the magic itself is
not stored, the reader puts it back). Files written here are byte-identical to MXNet's.

Differences from MXNet, all on the safe side:

* a writer writes into a temporary file next to the target and moves it into place on
  ``close()`` (also called by ``__del__`` and at interpreter exit), so a crash never leaves a
  truncated ``.rec``/``.idx`` behind;
* a truncated or corrupt file raises :class:`~mxcompat.base.MXNetError` naming the file and
  the byte offset, and never allocates more than the bytes the file holds;
* pickling a record object does not close it.

``pack_img``/``unpack_img`` use OpenCV when ``cv2`` is importable, Pillow otherwise (JPEG bytes
then differ from OpenCV's encoder; decoded pixels are within the differences documented in
:mod:`mxcompat.image`).
"""
from collections import namedtuple
from multiprocessing import current_process
import atexit
import numbers
import os
import struct
import weakref

import numpy as np

from .base import MXNetError
from .utils import fileio

__all__ = ['MXRecordIO', 'MXIndexedRecordIO', 'IRHeader', 'pack', 'unpack', 'pack_img',
           'unpack_img']

_MAGIC = 0xced7230a
_MAGIC_BYTES = struct.pack('<I', _MAGIC)
_LEN_MASK = (1 << 29) - 1
_CHUNK = struct.Struct('<II')
_PAD = (b'', b'\0\0\0', b'\0\0', b'\0')

# writers still open at interpreter exit are closed (committed) then, as MXNet's C++ streams are
_OPEN_WRITERS = weakref.WeakSet()


@atexit.register
def _close_open_writers():
    for rec in list(_OPEN_WRITERS):
        rec.close()


def _encode_record(buf):
    """The bytes MXNet's RecordIOWriter writes for one record."""
    size = len(buf)
    if size > _LEN_MASK:
        raise MXNetError('RecordIO only accepts records of less than 2^29 bytes, got %d' % size)
    pos = buf.find(_MAGIC_BYTES)
    if pos < 0:  # the common case: one chunk
        return _CHUNK.pack(_MAGIC, size) + bytes(buf) + _PAD[size & 3]
    out = []
    start = 0
    while pos >= 0:
        if pos & 3 == 0:  # only aligned occurrences split the record
            out.append(_CHUNK.pack(_MAGIC, ((1 if start == 0 else 2) << 29) | (pos - start)))
            out.append(bytes(buf[start:pos]))
            start = pos + 4
        pos = buf.find(_MAGIC_BYTES, pos + 1)
    rest = size - start
    out.append(_CHUNK.pack(_MAGIC, ((3 if start else 0) << 29) | rest))
    out.append(bytes(buf[start:]))
    out.append(_PAD[rest & 3])
    return b''.join(out)


def _decode_record(f, uri):
    """Read one record from file ``f``; None at the end of the file."""
    parts = None
    while True:
        offset = f.tell()
        head = f.read(8)
        if len(head) < 8:
            if not head and parts is None:
                return None
            raise MXNetError('Invalid RecordIO file %r: truncated record at byte %d (%s)'
                             % (uri, offset, 'missing the rest of a multi-part record'
                                if not head else 'incomplete record header'))
        magic, lrec = _CHUNK.unpack(head)
        if magic != _MAGIC:
            raise MXNetError('Invalid RecordIO file %r: bad magic number 0x%08x at byte %d '
                             '(expected 0x%08x); the file is corrupt or not a .rec file, or an '
                             '.idx offset is wrong' % (uri, magic, offset, _MAGIC))
        cflag, length = lrec >> 29, lrec & _LEN_MASK
        padded = (length + 3) & ~3
        if padded and os.fstat(f.fileno()).st_size - offset - 8 < padded:
            raise MXNetError('Invalid RecordIO file %r: record at byte %d declares %d bytes but '
                             'the file ends before them (truncated file)' % (uri, offset, length))
        data = f.read(padded)
        if len(data) != padded:
            raise MXNetError('Invalid RecordIO file %r: truncated record at byte %d'
                             % (uri, offset))
        if padded != length:
            data = data[:length]
        if cflag == 0 and parts is None:
            return data
        if parts is None:
            parts = []
        parts.append(data)
        if cflag in (0, 3):
            return _MAGIC_BYTES.join(parts)


class MXRecordIO(object):
    """Reads/writes `RecordIO` data format, supporting sequential read and write.

    Parameters
    ----------
    uri : string
        Path to the record file.
    flag : string
        'w' for write or 'r' for read.

    Examples
    --------
    >>> record = mx.recordio.MXRecordIO('tmp.rec', 'w')
    >>> for i in range(5):
    ...     record.write(b'record_%d' % i)
    >>> record.close()
    >>> record = mx.recordio.MXRecordIO('tmp.rec', 'r')
    >>> record.read()
    b'record_0'
    """
    def __init__(self, uri, flag):
        self.uri = os.fspath(uri)
        self.flag = flag
        self.pid = None
        self.is_open = False
        self.writable = None
        self._file = None
        self._tmp = None
        self.open()

    def open(self):
        """Opens the record file."""
        if self.flag == 'w':
            self.writable = True
            fd, self._tmp = self._open_aside(self.uri)
            # unbuffered: each record is one write, and a forked child holds no buffered data
            # that closing its copy would flush into the parent's file
            self._file = os.fdopen(fd, 'wb', buffering=0)
            _OPEN_WRITERS.add(self)
        elif self.flag == 'r':
            self.writable = False
            try:
                self._file = open(self.uri, 'rb')
            except OSError as err:
                raise MXNetError('MXRecordIO: cannot open %r for reading: %s'
                                 % (self.uri, err.strerror or err)) from None
        else:
            raise ValueError('Invalid flag %s' % self.flag)
        self.pid = current_process().pid
        self.is_open = True

    @staticmethod
    def _open_aside(path):
        """(fd, name) of a temporary file next to ``path`` that ``close`` moves over it."""
        try:
            return fileio.open_aside(path)
        except OSError as err:
            raise MXNetError('MXRecordIO: cannot open %r for writing: %s'
                             % (path, err.strerror or err)) from None

    @staticmethod
    def _commit(f, tmp, path):
        try:
            f.flush()
            os.fsync(f.fileno())
            f.close()
            fileio.commit(tmp, path)
        except BaseException:
            f.close()
            fileio.discard(tmp)
            raise

    def __del__(self):
        if getattr(self, 'is_open', False):
            self.close()

    def __getstate__(self):
        d = dict(self.__dict__)
        for k in ('_file', '_tmp', '_fidx', '_idx_tmp'):
            d.pop(k, None)
        return d

    def __setstate__(self, d):
        self.__dict__ = d
        is_open = d['is_open']
        self.is_open = False
        self._file = self._tmp = self._fidx = self._idx_tmp = None
        if is_open:
            self.open()

    def _check_pid(self, allow_reset=False):
        """Check process id to ensure integrity, reset if in new process."""
        if self.pid != current_process().pid:
            if allow_reset:
                self.reset()
            else:
                raise RuntimeError('Forbidden operation in multiple processes')

    def close(self):
        """Closes the record file (a writer's file appears at ``uri`` now)."""
        if not self.is_open:
            return
        owner = self.pid == current_process().pid
        self.is_open = False
        self.pid = None
        f, self._file = self._file, None
        if self.writable:
            _OPEN_WRITERS.discard(self)
            if owner:
                self._commit(f, self._tmp, self.uri)
                return
        f.close()  # a forked child never commits its parent's file

    def reset(self):
        """Resets the pointer to first item.

        If the record is opened with 'w', this function will truncate the file to empty.
        """
        self.close()
        self.open()

    def write(self, buf):
        """Inserts a string buffer as a record.

        Parameters
        ----------
        buf : bytes
            Buffer to write.
        """
        assert self.writable
        self._check_pid(allow_reset=False)
        if not isinstance(buf, (bytes, bytearray, memoryview)):
            raise TypeError('MXRecordIO.write: expected bytes, got %s (encode str with '
                            '.encode())' % type(buf).__name__)
        self._file.write(_encode_record(bytes(buf) if isinstance(buf, memoryview) else buf))

    def read(self):
        """Returns the next record as bytes, or None at the end of the file."""
        assert not self.writable
        self._check_pid(allow_reset=False)
        return _decode_record(self._file, self.uri)


class MXIndexedRecordIO(MXRecordIO):
    """Reads/writes `RecordIO` data format, supporting random access.

    Parameters
    ----------
    idx_path : str
        Path to the index file.
    uri : str
        Path to the record file. Only supports seekable file types.
    flag : str
        'w' for write or 'r' for read.
    key_type : type
        Data type for keys.

    Examples
    --------
    >>> record = mx.recordio.MXIndexedRecordIO('tmp.idx', 'tmp.rec', 'w')
    >>> for i in range(5):
    ...     record.write_idx(i, b'record_%d' % i)
    >>> record.close()
    >>> record = mx.recordio.MXIndexedRecordIO('tmp.idx', 'tmp.rec', 'r')
    >>> record.read_idx(3)
    b'record_3'
    """
    def __init__(self, idx_path, uri, flag, key_type=int):
        self.idx_path = os.fspath(idx_path)
        self.idx = {}
        self.keys = []
        self.key_type = key_type
        self._fidx = None
        self._idx_tmp = None
        super(MXIndexedRecordIO, self).__init__(uri, flag)

    @property
    def fidx(self):
        """The open index file (None when closed)."""
        return self._fidx

    def open(self):
        super(MXIndexedRecordIO, self).open()
        self.idx = {}
        self.keys = []
        if self.writable:
            try:
                fd, self._idx_tmp = self._open_aside(self.idx_path)
            except MXNetError:
                super(MXIndexedRecordIO, self).close()
                raise
            self._fidx = os.fdopen(fd, 'wb', buffering=0)
            return
        try:
            self._read_index()
        except MXNetError:
            super(MXIndexedRecordIO, self).close()
            raise

    def _read_index(self):
        """Fill ``idx`` and ``keys`` from the index file, checking every offset against the
        record file: each must be a 4-byte aligned position inside it (or its end)."""
        try:
            with open(self.idx_path, 'rb') as fidx:
                lines = fidx.read().decode('utf-8').splitlines()
        except OSError as err:
            raise MXNetError('MXIndexedRecordIO: cannot open index %r: %s'
                             % (self.idx_path, err.strerror or err)) from None
        except UnicodeDecodeError as err:
            raise MXNetError('MXIndexedRecordIO: index %r is not UTF-8 text (%s)'
                             % (self.idx_path, err)) from None
        for lineno, line in enumerate(lines, 1):
            fields = line.strip().split('\t')
            if fields == ['']:
                continue
            try:
                key, pos = self.key_type(fields[0]), int(fields[1])
            except (IndexError, ValueError):
                raise MXNetError('MXIndexedRecordIO: malformed line %d in index %r: %.100r '
                                 "(expected 'key<TAB>offset')"
                                 % (lineno, self.idx_path, line)) from None
            self.idx[key] = pos
            self.keys.append(key)
        size = os.fstat(self._file.fileno()).st_size
        for key, pos in self.idx.items():
            if pos < 0 or pos % 4 or pos > size:
                raise MXNetError('MXIndexedRecordIO: index %r gives key %r the offset %d, which '
                                 'is not the start of a record in %r (%d bytes)'
                                 % (self.idx_path, key, pos, self.uri, size))

    def close(self):
        """Closes the record file and the index file."""
        if not self.is_open:
            return
        fidx, self._fidx = self._fidx, None
        owner = self.pid == current_process().pid
        try:
            super(MXIndexedRecordIO, self).close()
        finally:
            if fidx is not None:
                if owner:
                    self._commit(fidx, self._idx_tmp, self.idx_path)
                else:
                    fidx.close()

    def seek(self, idx):
        """Sets the current read pointer position to the record with key ``idx``."""
        assert not self.writable
        self._check_pid(allow_reset=True)
        self._file.seek(self.idx[idx])

    def tell(self):
        """Returns the current position of write head."""
        assert self.writable
        return self._file.tell()

    def read_idx(self, idx):
        """Returns the record at given index."""
        self.seek(idx)
        return self.read()

    def write_idx(self, idx, buf):
        """Inserts input record at given index.

        Parameters
        ----------
        idx : int
            Index of a file.
        buf : bytes
            Record to write.
        """
        key = self.key_type(idx)
        pos = self.tell()
        self.write(buf)
        self._fidx.write(('%s\t%d\n' % (str(key), pos)).encode())
        self.idx[key] = pos
        self.keys.append(key)


IRHeader = namedtuple('HEADER', ['flag', 'label', 'id', 'id2'])
"""Header of an image record (``flag``, ``label``, ``id``, ``id2``).

``label`` is a float or an array of floats; when it is an array, ``pack`` stores its length in
``flag``. ``id2`` holds the higher bits of the id and is usually 0.
"""
_IR_FORMAT = '<IfQQ'
_IR_SIZE = struct.calcsize(_IR_FORMAT)


def pack(header, s):
    """Pack a string into MXImageRecord.

    Parameters
    ----------
    header : IRHeader
        Header of the image record. ``header.label`` can be a number or an array.
    s : bytes
        Raw image string to be packed.

    Returns
    -------
    bytes
        The packed string.
    """
    header = IRHeader(*header)
    if isinstance(header.label, numbers.Number):
        header = header._replace(flag=0)
    else:
        label = np.asarray(header.label, dtype=np.float32)
        header = header._replace(flag=label.size, label=0)
        s = label.tobytes() + s
    return struct.pack(_IR_FORMAT, *header) + s


def unpack(s):
    """Unpack a MXImageRecord to string.

    Parameters
    ----------
    s : bytes
        String buffer from ``MXRecordIO.read``.

    Returns
    -------
    header : IRHeader
        Header of the image record.
    s : bytes
        Unpacked string.
    """
    if len(s) < _IR_SIZE:
        raise MXNetError('recordio.unpack: record of %d bytes is shorter than the %d-byte '
                         'image record header' % (len(s), _IR_SIZE))
    header = IRHeader(*struct.unpack(_IR_FORMAT, s[:_IR_SIZE]))
    s = s[_IR_SIZE:]
    if header.flag > 0:
        if len(s) < 4 * header.flag:
            raise MXNetError('recordio.unpack: header declares %d labels but the record holds '
                             'only %d bytes after the header' % (header.flag, len(s)))
        header = header._replace(label=np.frombuffer(s, np.float32, header.flag))
        s = s[header.flag * 4:]
    return header, s


def unpack_img(s, iscolor=-1):
    """Unpack a MXImageRecord to image.

    Parameters
    ----------
    s : bytes
        String buffer from ``MXRecordIO.read``.
    iscolor : int
        Image format option for ``cv2.imdecode`` (-1 unchanged, 0 grayscale, 1 color).

    Returns
    -------
    header : IRHeader
        Header of the image record.
    img : numpy.ndarray
        Unpacked image, in OpenCV's layout (BGR channel order, 2-D when grayscale).
    """
    from .image import _codec
    header, s = unpack(s)
    return header, _codec.cv_imdecode(s, iscolor)


def pack_img(header, img, quality=95, img_fmt='.jpg'):
    """Pack an image into ``MXImageRecord``.

    Parameters
    ----------
    header : IRHeader
        Header of the image record. ``header.label`` can be a number or an array.
    img : numpy.ndarray
        Image to be packed, in OpenCV's layout (BGR channel order).
    quality : int
        Quality for JPEG encoding in range 1-100, or compression for PNG encoding in range 1-9.
    img_fmt : str
        Encoding of the image (.jpg for JPEG, .png for PNG).

    Returns
    -------
    bytes
        The packed string.
    """
    from .image import _codec
    return pack(header, _codec.cv_imencode(img, quality, img_fmt))
