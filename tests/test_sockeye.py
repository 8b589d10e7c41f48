"""Sockeye 2.3.24 through ``mxcompat run -m sockeye.train`` / ``sockeye.translate`` against
real MXNet with Sockeye (tests/fixtures/sockeye_cli).

Skipped unless sockeye is installed next to mxcompat (``pip install --no-deps
sockeye==2.3.24`` plus portalocker, sacrebleu==1.4.14 and pyyaml; see the README), and
skipped with numpy >= 1.24, which Sockeye 2.3.24 does not work with.
"""
import json
import os

import numpy as np
import pytest

import mxcompat

mxcompat.install()


def _numpy_takes_ragged_lists():
    try:
        np.asanyarray([np.zeros(1), np.zeros(2)])
    except ValueError:
        return False
    return True


if not _numpy_takes_ragged_lists():
    pytest.skip('Sockeye 2.3.24 saves its data iterator state as a ragged list of arrays '
                '(np.save), which numpy %s refuses (numpy >= 1.24): install "numpy<1.24", as '
                'for MXNet 1.9.1' % np.__version__, allow_module_level=True)
pytest.importorskip('sockeye', reason='sockeye is not installed')

import mxnet as mx  # noqa: E402  (mxcompat, through the alias)
from scripts.fixture_writers.sockeye_cli import run  # noqa: E402

from conftest import FIXTURES  # noqa: E402

DIR = os.path.join(FIXTURES, 'sockeye_cli')


def test_train_translate_cli():
    with open(os.path.join(DIR, 'param_shapes.json')) as fh:
        shapes = json.load(fh)
    want = np.load(os.path.join(DIR, 'run.npz'))
    got = run(mx, shapes)
    assert sorted(got) == sorted(want.files)  # same checkpoints, metrics and parameter names
    np.testing.assert_array_equal(got['translations'], want['translations'])
    for key in want.files:
        if key.startswith('param/'):
            # after 40 Adam updates (lr 0.02): Adam's normalised step turns the rounding
            # differences of tiny gradients (torch and MXNet sum in other orders) into up to
            # 3e-5, 0.15% of one step, in 8 of the 6030 weights; real MXNet with 1 or 2 OMP
            # threads agrees with itself to 1e-6
            np.testing.assert_allclose(got[key], want[key], rtol=1e-4, atol=5e-5, err_msg=key)
        elif key != 'translations':  # perplexities, learning rates, translation scores
            np.testing.assert_allclose(got[key], want[key], rtol=1e-4, atol=1e-5, err_msg=key)
