"""mx.metric against the values real MXNet 1.9.1 computed on the same batches."""
import json
import math
import os
import re

import numpy as np
import pytest

import mxcompat as mx
import mxcompat.metric  # noqa: F401  (until mxcompat/__init__ imports it)
from scripts.fixture_writers.metric import CASES, errors, record

from conftest import FIXTURES

with open(os.path.join(FIXTURES, 'metric', 'metric.json')) as _f:
    WANT = json.load(_f)


def _close(got, want, where):
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), where
        for key in want:
            _close(got[key], want[key], '%s %s' % (where, key))
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), where
        for g, w in zip(got, want):
            _close(g, w, where)
    elif isinstance(want, float):
        assert isinstance(got, float), where
        if math.isnan(want):
            assert math.isnan(got), where
        else:
            assert got == pytest.approx(want, rel=1e-6, abs=1e-9), where
    elif isinstance(want, str) and where.endswith(' str'):
        # str(metric) prints float32 sums, which may differ from MXNet's in the last bit; numpy
        # 2 writes scalars as np.float64(x) where numpy 1 (MXNet's) writes x
        got = _NP_SCALAR.sub(r'\1', got)
        assert _NUM.sub('#', got) == _NUM.sub('#', want), where
        _close([float(x) for x in _NUM.findall(got)], [float(x) for x in _NUM.findall(want)],
               where + ' values')
    else:
        assert got == want, where


_NUM = re.compile(r'-?\d+\.\d+(?:e[-+]\d+)?|nan')
_NP_SCALAR = re.compile(r'np\.\w+\(([^()]*)\)')


@pytest.mark.parametrize('name', sorted(CASES))
def test_metric(name):
    if name == 'top2-1d' and int(np.__version__.split('.')[0]) >= 2:
        pytest.skip('TopKAccuracy on 1-D predictions compares numpy.argpartition\'s element '
                    'order with the labels, as MXNet does; numpy 2 orders the partition '
                    'differently from the numpy 1.x MXNet ran with')
    got, want = record(mx, name), WANT['cases'][name]
    assert len(got) == len(want)
    for step, (g, w) in enumerate(zip(got, want)):
        _close(g, w, '%s step %d' % (name, step))


def test_errors():
    assert errors(mx) == WANT['errors']
