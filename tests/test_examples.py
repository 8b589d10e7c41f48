"""MXNet 1.9.1's example scripts and Python tutorials, run unchanged under mxcompat on small
generated data, print MXNet's numbers.

``scripts/run_examples.py`` reads the scripts from a git directory of apache/mxnet (tag 1.9.1)
named by ``$MXNET_GIT``; the expected numbers in ``tests/fixtures/examples/`` were printed by real
MXNet 1.9.1 (``scripts/run_examples.py --oracle ~/mxnet-oracle/bin/python``). Slow: each case
starts an interpreter and trains for a few epochs.

``$MXEX_PYTHON`` names the interpreter the scripts run under (default: this one; legacy scripts
need numpy<1.24, e.g. ``np.fromstring`` in binary mode), ``$MXEX_PYTHONPATH`` a directory with
the optional packages some cases import (Pillow, OpenCV); cases lacking one are skipped.
"""
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from scripts.examples.manifest import CASES

GIT = os.environ.get('MXNET_GIT')

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not GIT or not os.path.isdir(GIT),
                       reason='set MXNET_GIT to a git directory of apache/mxnet with tag 1.9.1 '
                              '(e.g. /work/.mirror/apache+mxnet/repo)'),
]


@pytest.mark.parametrize('name', [c['name'] for c in CASES])
def test_example(name):
    extra = os.environ.get('MXEX_PYTHONPATH')
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, 'scripts', 'run_examples.py'), '--mxnet-git', GIT,
         '--python', os.environ.get('MXEX_PYTHON', sys.executable), '--cases', name, '--verbose']
        + (['--pythonpath', extra] if extra else []),
        capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
