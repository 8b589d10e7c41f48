"""Result types and values of mx.nd's and mx.np's operators for each operand type against
real MXNet 1.9.1: Python scalars cast to an integer array's type as MXNet's C++ casts do
(also in mx.np comparisons, and to a bool array's type there), bool arrays with Python
numbers in int64, integer std/var/average/power/reciprocal/clip/smooth_l1 as MXNet computes
them, nonzero; reductions and sorts with their result types and shapes. Expected results were
written by scripts/fixture_writers/nd_dtype_rules.py, numpy_dtype_rules.py and
reduce_rules.py under real MXNet; the cases where MXNet raises are not compared
(mxcompat accepts some operand types MXNet rejects)."""
import json
import os

import pytest

import mxcompat as mx
from scripts.fixture_writers import nd_dtype_rules, numpy_dtype_rules, reduce_rules

from conftest import FIXTURES

_WRITERS = {'nd_dtype_rules': nd_dtype_rules, 'numpy_dtype_rules': numpy_dtype_rules,
            'reduce_rules': reduce_rules}
WANT = {}
for _topic in _WRITERS:
    with open(os.path.join(FIXTURES, _topic, _topic + '.json')) as _f:
        WANT[_topic] = json.load(_f)
_GOT = {}


def _results(topic):
    if topic not in _GOT:
        try:
            _GOT[topic] = _WRITERS[topic].run(mx)
        finally:
            mx.npx.reset_np()
    return _GOT[topic]


@pytest.mark.parametrize('topic,key', [(t, k) for t in sorted(WANT) for k, v in
                                       sorted(WANT[t].items()) if v[0] != 'ERR'])
def test_result(topic, key):
    got, want = _results(topic)[key], WANT[topic][key]
    assert got[0] == want[0], (key, got, want)
    assert got[1] == pytest.approx(want[1], rel=1e-3, abs=1e-3, nan_ok=True), (key, got, want)
