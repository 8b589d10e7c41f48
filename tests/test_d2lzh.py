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


def _numpy_formats_1d_arrays():
    try:
        '%f' % np.zeros(1)
    except TypeError:
        return False
    return True


# the book prints ``'%f' % loss.mean().asnumpy()``, an array of shape (1,) as MXNet's mean
# gives it, which numpy 2.x no longer converts to a float
_FORMATS_1D = ('linreg_scratch',)


@pytest.mark.parametrize('name', sorted(SCENARIOS))
def test_scenario(name):
    if name in _FORMATS_1D and not _numpy_formats_1d_arrays():
        pytest.skip('the d2l book\'s "%%f" %% nd.mean().asnumpy() needs a numpy that formats a '
                    'one-element 1-d array as a float; numpy %s refuses: install "numpy<1.24", '
                    'as for MXNet 1.9.1' % np.__version__)
    assert_same_results(run(mx, name), np.load(os.path.join(DIR, name + '.npz')), name)
