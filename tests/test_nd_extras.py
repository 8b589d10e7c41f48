"""DLPack round trips and CachedOp against results real MXNet 1.9.1 produced
(scripts/fixture_writers/nd_extras.py runs the same calls there)."""
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers.nd_extras import run

from conftest import FIXTURES

WANT = dict(np.load(os.path.join(FIXTURES, 'nd_extras', 'nd_extras.npz')))
GOT = run(mx)


@pytest.mark.parametrize('key', sorted(WANT))
def test_matches_mxnet(key):
    got, want = GOT[key], WANT[key]
    assert got.dtype == want.dtype and got.shape == want.shape, key
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=key)

