"""MXNet 1.9.1's example scripts and Python tutorials, run unchanged under mxcompat on small
generated data, print MXNet's numbers.

``scripts/run_examples.py`` reads the scripts from a git directory of apache/mxnet (tag 1.9.1)
named by ``$MXNET_GIT``; the expected numbers in ``tests/fixtures/examples/`` were printed by real
MXNet 1.9.1 (``scripts/run_examples.py --oracle ~/mxnet-oracle/bin/python``). Slow: each case
starts an interpreter and trains for a few epochs.
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
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, 'scripts', 'run_examples.py'), '--mxnet-git', GIT,
         '--python', sys.executable, '--cases', name, '--verbose'],
        capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
