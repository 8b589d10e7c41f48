"""mxcompat keeps freed CPU tensor memory for reuse (glibc only), as mxcompat.cpu_memory says."""
import os
import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith('linux') or platform.libc_ver()[0] != 'glibc',
    reason='the malloc settings apply to glibc only')

# Frees and reallocates four 8 MiB tensors, as a training step does with its gradients, and
# prints the page faults of the last reallocation.
_PROBE = '''
import resource, torch, mxcompat
print(mxcompat.cpu_memory.keep_freed_memory())
for _ in range(3):
    ts = [torch.ones(1 << 21) for _ in range(4)]
    del ts
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
ts = [torch.ones(1 << 21) for _ in range(4)]
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
mxcompat.cpu().empty_cache()
'''


def _probe(**env):
    full = dict(os.environ)
    for k in ('MXCOMPAT_KEEP_CPU_MEMORY', 'MALLOC_TRIM_THRESHOLD_', 'MALLOC_MMAP_THRESHOLD_'):
        full.pop(k, None)
    full.update(env)
    out = subprocess.run([sys.executable, '-c', _PROBE], env=full, capture_output=True,
                         text=True, check=True).stdout.split()
    return out[0] == 'True', int(out[1])


def test_freed_tensor_memory_is_reused_without_page_faults():
    applied, faults = _probe()
    assert applied
    assert faults < 256  # the 8192 pages come back without faulting


def test_opt_out_keeps_glibc_defaults():
    applied, faults = _probe(MXCOMPAT_KEEP_CPU_MEMORY='0')
    assert not applied
    assert faults > 4096  # glibc returned the memory: its pages fault in again


def test_user_malloc_settings_win():
    applied, _ = _probe(MALLOC_TRIM_THRESHOLD_='131072')
    assert not applied
