"""d2lzh 1.0.0's helpers on mxcompat against real MXNet with d2lzh (tests/fixtures/d2lzh_scenarios).

Each scenario of scripts/fixture_writers/d2lzh_scenarios.py calls d2lzh's public functions
on generated data; the arrays it returns and the numbers d2lzh prints must be MXNet's.
Skipped unless d2lzh is installed next to mxcompat (``pip install --no-deps d2lzh==1.0.0``
and its other requirements, matplotlib and IPython; see the README).
"""
import os

import numpy as np
import pytest

import mxcompat

mxcompat.install()
pytest.importorskip('d2lzh', reason='d2lzh is not installed')

import mxnet as mx  # noqa: E402  (mxcompat, through the alias)
from scripts.fixture_writers.d2lzh_scenarios import SCENARIOS, run  # noqa: E402

from conftest import FIXTURES, assert_same_results  # noqa: E402

DIR = os.path.join(FIXTURES, 'd2lzh_scenarios')


@pytest.mark.parametrize('name', sorted(SCENARIOS))
def test_scenario(name):
    assert_same_results(run(mx, name), np.load(os.path.join(DIR, name + '.npz')), name)
