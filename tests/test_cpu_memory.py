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
# prints the page faults of the reallocation; then again after ``empty_cache()``.
_PROBE = '''
import resource, torch, mxcompat

def faults_of_reallocation(release):
    ts = [torch.ones(1 << 21) for _ in range(4)]
    del ts
    if release:
        mxcompat.cpu().empty_cache()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    ts = [torch.ones(1 << 21) for _ in range(4)]
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before

print(mxcompat.cpu_memory.keep_freed_memory())
faults_of_reallocation(False)
print(faults_of_reallocation(False), faults_of_reallocation(True))
'''


def _probe(**env):
    full = dict(os.environ)
    for k in ('MXCOMPAT_KEEP_CPU_MEMORY', 'MALLOC_TRIM_THRESHOLD_', 'MALLOC_MMAP_THRESHOLD_'):
        full.pop(k, None)
    full.update(env)
    out = subprocess.run([sys.executable, '-c', _PROBE], env=full, capture_output=True,
                         text=True, check=True).stdout.split()
    return out[0] == 'True', int(out[1]), int(out[2])


def test_freed_tensor_memory_is_kept_until_empty_cache():
    applied, kept, released = _probe()
    assert applied
    assert kept < 256  # the 8192 pages come back without faulting
    assert released > 4096  # empty_cache() returned them: they fault in again


def test_opt_out_keeps_glibc_defaults():
    applied, _, _ = _probe(MXCOMPAT_KEEP_CPU_MEMORY='0')
    assert not applied


def test_user_malloc_settings_win():
    applied, _, _ = _probe(MALLOC_TRIM_THRESHOLD_='131072')
    assert not applied
