"""Arrays of a freed graph are constants to later recordings, as in real MXNet 1.9.1: a
carried RNN state, a freed intermediate reused with new and old variables, and losses
recorded together and differentiated one by one. Expected arrays were written by
scripts/fixture_writers/autograd_freed.py under real MXNet."""
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import autograd_freed

from conftest import FIXTURES

WANT = dict(np.load(os.path.join(FIXTURES, 'autograd_freed', 'autograd_freed.npz')))
_GOT = []


def _results():
    if not _GOT:
        _GOT.append(autograd_freed.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(WANT))
def test_autograd_freed(key):
    got = _results()[key]
    want = WANT[key]
    assert got.shape == want.shape and got.dtype == want.dtype, key
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7, err_msg=key)
