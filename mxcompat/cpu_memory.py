"""How mxcompat keeps freed CPU tensor memory for reuse instead of returning it to the OS.

A training step frees and reallocates the same gradients and activations on every iteration.
With glibc's default settings, blocks above a moving threshold are mapped and unmapped one by one
and the heap is trimmed whenever enough of its top is free, so every step faults the same pages
in again: thousands of page faults per ResNet-18 step, several percent of its time. MXNet avoids
this by planning an executor's memory once and reusing it. mxcompat tells glibc at import to
serve blocks of up to 32 MiB from the heap and to keep up to 1 GiB of free heap, so a step reuses
what the previous step freed. ``Context.empty_cache()`` on a CPU context hands the free memory
back (``malloc_trim``).

The setting is skipped where the C library is not glibc, where the user set glibc's own
``MALLOC_TRIM_THRESHOLD_`` or ``MALLOC_MMAP_THRESHOLD_``, and when ``MXCOMPAT_KEEP_CPU_MEMORY=0``.
"""
import ctypes
import os
import platform
import sys

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_MMAP_THRESHOLD = 32 << 20  # glibc's upper limit for this setting on 64-bit systems
_TRIM_THRESHOLD = 1 << 30

_libc = None


def _glibc():
    global _libc
    if _libc is None:
        _libc = False
        if sys.platform.startswith('linux') and platform.libc_ver()[0] == 'glibc':
            try:
                lib = ctypes.CDLL(None)
                if hasattr(lib, 'mallopt') and hasattr(lib, 'malloc_trim'):
                    _libc = lib
            except OSError:
                pass
    return _libc


def keep_freed_memory():
    """Make glibc keep freed tensor memory in the heap for reuse (see the module docstring).
    Returns True where the setting was applied."""
    if os.environ.get('MXCOMPAT_KEEP_CPU_MEMORY', '1').strip().lower() in ('0', 'false', 'no'):
        return False
    if 'MALLOC_TRIM_THRESHOLD_' in os.environ or 'MALLOC_MMAP_THRESHOLD_' in os.environ:
        return False
    libc = _glibc()
    if not libc:
        return False
    return bool(libc.mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD)) and \
        bool(libc.mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD))


def release_freed_memory():
    """Return the free heap memory to the OS (glibc's ``malloc_trim(0)``); a no-op elsewhere."""
    libc = _glibc()
    if libc:
        libc.malloc_trim(0)
