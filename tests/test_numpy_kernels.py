"""mx.np calls that the generated functions' kernels (the torch function an entry registers)
leave to the entry: a number beyond the array type's range, ``axis=None``, a negative axis, and
products of other than two matrices, against real MXNet 1.9.1 (the numpy_kernels fixture)."""
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import numpy_kernels as FW

from conftest import FIXTURES

WANT = np.load(os.path.join(FIXTURES, 'numpy_kernels', 'numpy_kernels.npz'))


@pytest.fixture(autouse=True)
def np_mode():
    mx.npx.set_np()
    yield
    mx.npx.reset_np()


def test_cases_are_the_fixtures():
    assert sorted(FW.calls(mx)) == sorted(WANT.files)


@pytest.mark.parametrize('case', sorted(WANT.files))
def test_matches_mxnet(case):
    got = FW.calls(mx)[case]().asnumpy()
    want = WANT[case]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
