"""grad_req semantics of autograd against real MXNet 1.9.1: 'write' buffers overwritten in
place (held references, slices of a larger array, large arrays), 'add' accumulating,
unreached variables keeping their gradients, a retained graph differentiated twice. Expected
arrays were written by scripts/fixture_writers/grad_write.py under real MXNet."""
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import grad_write

from conftest import FIXTURES

WANT = dict(np.load(os.path.join(FIXTURES, 'grad_write', 'grad_write.npz')))
_GOT = []


def _results():
    if not _GOT:
        _GOT.append(grad_write.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(WANT))
def test_grad_write(key):
    got = _results()[key]
    want = WANT[key]
    assert got.shape == want.shape and got.dtype == want.dtype, key
    np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=key)
