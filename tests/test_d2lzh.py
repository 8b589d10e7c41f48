"""d2lzh 1.0.0's helpers on mxcompat against real MXNet with d2lzh (tests/fixtures/d2lzh_scenarios).

Each scenario of scripts/fixture_writers/d2lzh_scenarios.py calls d2lzh's public functions
on generated data; the arrays it returns and the numbers d2lzh prints must be MXNet's.
Skipped unless d2lzh is installed next to mxcompat (``pip install --no-deps d2lzh==1.0.0``
and its other requirements, matplotlib and IPython; see the README).
"""
import os
import re

import numpy as np
import pytest

import mxcompat

mxcompat.install()
pytest.importorskip('d2lzh', reason='d2lzh is not installed')

import mxnet as mx  # noqa: E402  (mxcompat, through the alias)
from scripts.fixture_writers.d2lzh_scenarios import SCENARIOS, run  # noqa: E402

from conftest import FIXTURES  # noqa: E402

DIR = os.path.join(FIXTURES, 'd2lzh_scenarios')
_NUMBER = re.compile(r'-?\d+(?:\.\d+)?(?:e[-+]?\d+)?')


def assert_same_printout(got, want, name):
    """The same text, and the same numbers to rtol 1e-4 or one unit of the last digit
    printed (d2lzh rounds with '%.3f' and the like)."""
    assert _NUMBER.sub('#', got) == _NUMBER.sub('#', want), '%s printed\n%s\nnot\n%s' % (
        name, got, want)
    for g, w in zip(_NUMBER.findall(got), _NUMBER.findall(want)):
        digits = len(w.split('.')[1].split('e')[0]) if '.' in w else 0
        assert abs(float(g) - float(w)) <= 1e-4 * abs(float(w)) + 1.01 * 10.0 ** -digits, \
            '%s printed %s where MXNet printed %s' % (name, g, w)


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
    want = np.load(os.path.join(DIR, name + '.npz'))
    got = run(mx, name)
    assert sorted(got) == sorted(want.files)
    for key in want.files:
        if key == 'stdout':
            assert_same_printout(str(got[key]), str(want[key]), name)
        elif want[key].dtype.kind == 'U':
            assert str(got[key]) == str(want[key]), '%s %s' % (name, key)
        else:
            np.testing.assert_allclose(got[key], want[key], rtol=1e-4, atol=1e-5,
                                       err_msg='%s %s' % (name, key))
