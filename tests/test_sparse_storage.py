"""Sparse storage types against real MXNet 1.9.1: CSRNDArray and RowSparseNDArray (their
parts, values, dtypes and storage types), copies keeping the storage type, NDArrayIter over CSR
data, and a Module with ``csr`` and ``row_sparse`` variables. Expected values were written by
scripts/fixture_writers/sparse_storage.py under real MXNet."""
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import sparse_storage

from conftest import FIXTURES

WANT = dict(np.load(os.path.join(FIXTURES, 'sparse_storage', 'sparse_storage.npz')))
_GOT = []


def _results():
    if not _GOT:
        _GOT.append(sparse_storage.run(mx))
    return _GOT[0]


def test_same_cases():
    assert sorted(_results()) == sorted(WANT)


@pytest.mark.parametrize('key', sorted(WANT))
def test_sparse_storage(key):
    got, want = _results()[key], WANT[key]
    assert got.shape == want.shape and got.dtype == want.dtype, (key, got, want)
    np.testing.assert_array_equal(got, want, err_msg=key)
