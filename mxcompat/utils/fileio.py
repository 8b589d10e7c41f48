"""Atomic file writes: a crash or an error never leaves a truncated file behind.

Every file is written to a temporary file next to its target, named
``.<target name>.<pid>.<random>.tmp``, which is flushed, synced and renamed over the target.
A process killed while writing leaves that temporary file behind; the next write to the same
target removes such leftovers of processes that no longer run (a temporary file of a live
process is left alone, as it may still be writing).

Several files that belong together (a checkpoint's symbol, parameters and optimizer states) are
written inside :class:`atomic_group`: all of them are completed as temporary files first, then a
marker ``.<name>.saving`` is created, the files are renamed into place and the marker is
removed. A marker that outlives a crash tells :func:`check_group` (called by the checkpoint
loaders) that the files may come from different saves.
"""
import os
import tempfile
import threading

__all__ = ['atomic_write_bytes', 'atomic_write_text', 'atomic_writer', 'atomic_group',
           'check_group', 'open_aside', 'commit', 'discard', 'remove_stale']

_LOCAL = threading.local()  # .group: the (temporary, target) pairs of the open atomic_group
_ACTIVE = set()  # temporary files this process is writing now


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. EPERM: it exists
        return True
    return True


def remove_stale(path):
    """Remove the temporary files of earlier writes to ``path`` by processes that are gone."""
    directory = os.path.dirname(os.path.abspath(path))
    prefix = '.' + os.path.basename(path) + '.'
    try:
        names = os.listdir(directory)
    except OSError:
        return
    me = os.getpid()
    for name in names:
        if not (name.startswith(prefix) and name.endswith('.tmp')):
            continue
        pid = name[len(prefix):-4].split('.', 1)[0]
        if not pid.isdigit():
            continue
        full = os.path.join(directory, name)
        pid = int(pid)
        if (pid == me and full not in _ACTIVE) or (pid != me and not _pid_alive(pid)):
            try:
                os.remove(full)
            except OSError:
                pass


def open_aside(path):
    """(fd, name) of a new temporary file next to ``path`` (mode 0666 less the umask), after
    removing stale temporary files of ``path``."""
    remove_stale(path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix='.%s.%d.' % (os.path.basename(path), os.getpid()),
                               suffix='.tmp', dir=directory)
    _ACTIVE.add(tmp)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp's 0600 would leak into the final file
    return fd, tmp


def discard(tmp):
    """Remove the temporary file ``tmp`` (of open_aside) if it exists."""
    _ACTIVE.discard(tmp)
    if os.path.exists(tmp):
        os.remove(tmp)


def commit(tmp, path):
    """Move the completed temporary file ``tmp`` over ``path`` (or, inside an atomic_group,
    leave that to the group)."""
    group = getattr(_LOCAL, 'group', None)
    if group is not None:
        group.append((tmp, path))
        return
    try:
        os.replace(tmp, path)
    finally:
        discard(tmp)


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
        fd, self._tmp = open_aside(self.path)
        self._file = os.fdopen(fd, 'wb')
        return self._file

    def __exit__(self, ptype, value, trace):
        try:
            if ptype is None:
                self._file.flush()
                os.fsync(self._file.fileno())
            self._file.close()
            if ptype is None:
                commit(self._tmp, self.path)
        finally:
            if ptype is not None:
                discard(self._tmp)
        return False


class atomic_group:
    """Context manager: the atomic writes inside it replace their targets together, after all
    of them succeeded, with a marker named after ``name`` present while they are moved (see
    the module docstring); on an error no target changes."""

    def __init__(self, name):
        name = os.fspath(name)
        self.marker = os.path.join(os.path.dirname(os.path.abspath(name)),
                                   '.%s.saving' % os.path.basename(name))

    def __enter__(self):
        if getattr(_LOCAL, 'group', None) is not None:
            raise RuntimeError('atomic_group does not nest')
        _LOCAL.group = []
        return self

    def __exit__(self, ptype, value, trace):
        pending, _LOCAL.group = _LOCAL.group, None
        try:
            if ptype is None:
                with atomic_writer(self.marker) as f:
                    f.write('\n'.join(path for _, path in pending).encode('utf-8'))
                for tmp, path in pending:
                    os.replace(tmp, path)
                os.remove(self.marker)
        finally:
            for tmp, _ in pending:
                discard(tmp)
        return False


def check_group(name, what):
    """Raise MXNetError when the atomic_group ``name`` was interrupted while moving its files
    into place (they may come from different saves)."""
    from ..base import MXNetError
    marker = atomic_group(name).marker
    if os.path.exists(marker):
        with open(marker, 'rb') as f:
            files = f.read().decode('utf-8', 'replace').split('\n')
        raise MXNetError('%s: the save that wrote %s was interrupted while replacing them, so '
                         'they may come from different saves; save again (which removes %s) '
                         'or remove %s to use them anyway'
                         % (what, ', '.join(files), marker, marker))


def atomic_write_bytes(path, data):
    """Write ``data`` (bytes) to ``path`` atomically."""
    with atomic_writer(path) as f:
        f.write(data)


def atomic_write_text(path, text, encoding='utf-8'):
    """Write ``text`` to ``path`` atomically."""
    atomic_write_bytes(path, text.encode(encoding))
