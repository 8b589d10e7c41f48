"""A short, fixed run (20,000 cases) of the mutation fuzzer (scripts/fuzz.py) over the nine
readers of untrusted bytes, seeded with files written by real MXNet 1.9.1: every case must load
or raise MXNetError, within 5 s and without allocating 1 GiB. The run happens in a child process
(it lowers its own address-space limit). ``python scripts/fuzz.py --cases 1000000`` is the long
run."""
import json
import os
import subprocess
import sys

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
