"""Atomic file writes: a crash or an error never leaves a truncated file behind."""
import os
import tempfile

__all__ = ['atomic_write_bytes', 'atomic_write_text', 'atomic_writer']


class atomic_writer:
    """Context manager yielding a binary file that replaces ``path`` only on success.

    The data goes to a temporary file in the same directory, which is flushed, synced and then
    renamed over ``path`` with ``os.replace``; on any error the temporary file is removed.
    """

    def __init__(self, path):
        self.path = os.fspath(path)
        self._tmp = None
        self._file = None

    def __enter__(self):
        directory = os.path.dirname(os.path.abspath(self.path))
        fd, self._tmp = tempfile.mkstemp(prefix='.' + os.path.basename(self.path) + '.',
                                         suffix='.tmp', dir=directory)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(self._tmp, 0o666 & ~umask)  # mkstemp's 0600 would leak into the final file
        self._file = os.fdopen(fd, 'wb')
        return self._file

    def __exit__(self, ptype, value, trace):
        try:
            if ptype is None:
                self._file.flush()
                os.fsync(self._file.fileno())
            self._file.close()
            if ptype is None:
                os.replace(self._tmp, self.path)
        finally:
            if os.path.exists(self._tmp):
                os.remove(self._tmp)
        return False


def atomic_write_bytes(path, data):
    """Write ``data`` (bytes) to ``path`` atomically."""
    with atomic_writer(path) as f:
        f.write(data)


def atomic_write_text(path, text, encoding='utf-8'):
    """Write ``text`` to ``path`` atomically."""
    atomic_write_bytes(path, text.encode(encoding))
