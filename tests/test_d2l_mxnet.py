"""d2l 0.17.6's ``d2l.mxnet`` (the d2l book's second edition, on mx.np / npx) on mxcompat
against real MXNet with d2l (tests/fixtures/d2l_mxnet).

Each scenario of scripts/fixture_writers/d2l_mxnet.py trains with d2l's helpers for a few
steps, in NumPy mode, from name-seeded weights on generated data; the losses, outputs and
parameters it returns and the numbers d2l prints must be MXNet's (rtol 1e-4). Skipped unless
d2l is installed next to mxcompat (``pip install --no-deps d2l==0.17.6`` and what
``d2l.mxnet`` imports: matplotlib, matplotlib-inline, IPython, pandas, requests; see the
README).
"""
import os

import numpy as np
import pytest

import mxcompat

mxcompat.install()
pytest.importorskip('d2l', reason='d2l is not installed')

import mxnet as mx  # noqa: E402  (mxcompat, through the alias)
from scripts.fixture_writers.d2l_mxnet import SCENARIOS, run  # noqa: E402

from conftest import FIXTURES, assert_same_results  # noqa: E402

DIR = os.path.join(FIXTURES, 'd2l_mxnet')


@pytest.mark.parametrize('name', sorted(SCENARIOS))
def test_scenario(name):
    assert_same_results(run(mx, name), np.load(os.path.join(DIR, name + '.npz')), name)
