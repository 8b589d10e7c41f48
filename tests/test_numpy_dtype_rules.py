"""mx.np's result types and values for each operator and operand type against real MXNet
1.9.1 (scalar casts to integer and bool arrays, bool arithmetic in int64, integer std/var/
average, nonzero, clip of integers). Expected results were written by
scripts/fixture_writers/numpy_dtype_rules.py under real MXNet; the cases where MXNet raises
are not compared (mxcompat accepts some operand types MXNet rejects)."""
import json
import os

import pytest

import mxcompat as mx
from scripts.fixture_writers import numpy_dtype_rules

from conftest import FIXTURES

with open(os.path.join(FIXTURES, 'numpy_dtype_rules', 'numpy_dtype_rules.json')) as _f:
    WANT = json.load(_f)
_GOT = []


def _results():
    if not _GOT:
        try:
            _GOT.append(numpy_dtype_rules.run(mx))
        finally:
            mx.npx.reset_np()
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(k for k, v in WANT.items() if v[0] != 'ERR'))
def test_result(key):
    got, want = _results()[key], WANT[key]
    assert got[0] == want[0], (key, got, want)
    assert got[1] == pytest.approx(want[1], rel=1e-3, abs=1e-3, nan_ok=True), (key, got, want)
