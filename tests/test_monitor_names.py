"""Monitor callback names against real MXNet 1.9.1: Executor.set_monitor_callback with and
without monitor_all, and HybridBlock.register_op_hook. Expected names and shapes were written by
scripts/fixture_writers/monitor_names.py under real MXNet."""
import json
import os

import pytest

import mxcompat as mx
from scripts.fixture_writers import monitor_names

from conftest import FIXTURES

with open(os.path.join(FIXTURES, 'monitor_names', 'monitor_names.json')) as _f:
    WANT = json.load(_f)

_GOT = []


def _results():
    if not _GOT:
        _GOT.append(monitor_names.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('case', sorted(WANT['executor']))
@pytest.mark.parametrize('kind', ['all', 'outputs'])
def test_executor_monitor_names(case, kind):
    want = WANT['executor'][case]
    # mxcompat does not compute the outputs MXNet hides for its backward pass (LRN's tmp_norm,
    # BatchNorm's mean and var, Dropout's mask, max Pooling's workspace)
    expected = [entry for entry in want[kind] if entry[0] not in want['hidden']]
    assert _results()['executor'][case][kind] == expected


@pytest.mark.parametrize('case', sorted(WANT['gluon']))
def test_op_hook_names(case):
    assert _results()['gluon'][case] == WANT['gluon'][case]


def test_reshaped_executor_keeps_monitor():
    assert _results()['reshaped'] == WANT['reshaped']



_CHUNKED = []


def _chunked_results(monkeypatch):
    """The results with graphs lowered one operator per chunk (``lowering.CHUNK``)."""
    if not _CHUNKED:
        monkeypatch.setattr(mx.symbol.lowering, 'CHUNK', 1)
        _CHUNKED.append(monitor_names.run(mx))
    return _CHUNKED[0]


@pytest.mark.parametrize('case', sorted(WANT['executor']))
def test_executor_monitor_names_in_chunks(case, monkeypatch):
    """A graph lowered in chunks reports every operator of every chunk, in MXNet's order."""
    want = WANT['executor'][case]
    got = _chunked_results(monkeypatch)['executor'][case]
    for kind in ('all', 'outputs'):
        assert got[kind] == [entry for entry in want[kind] if entry[0] not in want['hidden']]


@pytest.mark.parametrize('case', sorted(WANT['gluon']))
def test_op_hook_names_in_chunks(case, monkeypatch):
    assert _chunked_results(monkeypatch)['gluon'][case] == WANT['gluon'][case]
