"""mx.callback and mx.monitor against the log lines and statistics of real MXNet 1.9.1."""
import json
import os
import re

import pytest

import mxcompat as mx
import mxcompat.callback  # noqa: F401  (until mxcompat/__init__ imports them)
import mxcompat.metric  # noqa: F401
import mxcompat.monitor  # noqa: F401
from scripts.fixture_writers.callback import MONITORS, record_callbacks, record_monitor

from conftest import FIXTURES

with open(os.path.join(FIXTURES, 'callback', 'callback.json')) as _f:
    WANT = json.load(_f)


@pytest.fixture(scope='module')
def callbacks():
    return record_callbacks(mx)


@pytest.mark.parametrize('name', sorted(WANT['callbacks']))
def test_callback(name, callbacks):
    got, want = callbacks[name], WANT['callbacks'][name]
    assert len(got) == len(want)
    for g, w in zip(got, want):  # log lines: metric values agree to float32 rounding
        if isinstance(w, str):
            _same_text(g, w)
        else:
            assert g == w


_NUM = re.compile(r'-?\d+\.\d+(?:e[-+]\d+)?')


def _same_text(got, want):
    """Equal up to float32 rounding of the statistics in the text."""
    assert _NUM.sub('#', got) == _NUM.sub('#', want)
    assert [float(v) for v in _NUM.findall(got)] == \
        pytest.approx([float(v) for v in _NUM.findall(want)], rel=1e-5)


@pytest.mark.parametrize('name', sorted(MONITORS))
def test_monitor(name):
    got, want = record_monitor(mx, name), WANT['monitor'][name]
    assert [[row[:2] for row in step] for step in got['toc']] == \
        [[row[:2] for row in step] for step in want['toc']]
    for g_step, w_step in zip(got['toc'], want['toc']):
        for g, w in zip(g_step, w_step):
            _same_text(g[2], w[2])
    assert len(got['printed']) == len(want['printed'])
    for g, w in zip(got['printed'], want['printed']):
        _same_text(g, w)
