"""Which mx.nd results share memory with their input, against real MXNet 1.9.1: a write into
the result of an array view method (reshape, expand_dims) or a basic index reaches the source;
a write into an operator's result does not. Expected arrays were written by
scripts/fixture_writers/nd_result_memory.py under real MXNet."""
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import nd_result_memory

from conftest import FIXTURES

WANT = dict(np.load(os.path.join(FIXTURES, 'nd_result_memory', 'nd_result_memory.npz')))
_GOT = []


def _results():
    if not _GOT:
        _GOT.append(nd_result_memory.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(WANT))
def test_source_after_write(key):
    np.testing.assert_array_equal(_results()[key], WANT[key], err_msg=key)
