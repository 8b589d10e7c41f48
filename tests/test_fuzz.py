"""A short, fixed run (20,000 cases) of the mutation fuzzer (scripts/fuzz.py) over the nine
readers of untrusted bytes, seeded with files written by real MXNet 1.9.1: every case must load
or raise MXNetError, within 5 s and without allocating 1 GiB. The run happens in a child process
(it lowers its own address-space limit). ``python scripts/fuzz.py --cases 1000000`` is the long
run."""
import json
import os
import subprocess
import sys

import pytest

from mxcompat.base import MXNetError

from conftest import ROOT


def test_short_fuzz_run(tmp_path):
    report = str(tmp_path / 'fuzz.json')
    env = dict(os.environ, OMP_NUM_THREADS='1', PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, os.path.join(ROOT, 'scripts', 'fuzz.py'),
                           '--cases', '20000', '--seconds', '60', '--seed', '7', '--json', report],
                          env=env, capture_output=True, text=True, timeout=300)
    with open(report) as f:
        result = json.load(f)
    assert set(result) == {'nd_load', 'nd_load_frombuffer', 'load_parameters',
                           'imports_params', 'imports_symbol', 'load_json',
                           'trainer_load_states', 'recordio_idx', 'unpack_img'}
    failures = {name: r['failures'][:5] for name, r in result.items() if r['failures']}
    assert not failures, proc.stdout[-3000:]
    assert all(r['cases'] >= 20 for r in result.values()), proc.stdout[-3000:]
    assert proc.returncode == 0


# cases the long runs found, each once a crash: (seed, target, case)
FOUND = [(7, 'imports_symbol', 2249),   # more inputs than the operator takes
         (11, 'imports_params', 2799),  # int32 weights for a float32 convolution
         (11, 'imports_symbol', 5335),  # an empty required shape (kernel='')
         (11, 'load_json', 5271),       # a negative size reaching shape inference
         (13, 'load_json', 32929),      # sizes whose bytes overflow (1M-case run)
         (13, 'load_json', 39625)]


@pytest.mark.parametrize('seed,target,index', FOUND)
def test_found_cases_raise_mxneterror(tmp_path, seed, target, index):
    sys.path.insert(0, os.path.join(ROOT, 'scripts'))
    try:
        import fuzz
    finally:
        sys.path.pop(0)
    targets = fuzz.Targets(str(tmp_path))
    seeds, mutate, load, _ = targets.specs()[target]
    data = fuzz._case(seed, target, index, seeds, mutate)
    with pytest.raises(MXNetError):
        load(data)
