"""Operators' kernel-time errors against real MXNet 1.9.1, step by step: which step of each
scenario raises (the call returns; a read or waitall raises), with which exception type, and
which later steps no longer raise. Expected outcomes were written by
scripts/fixture_writers/deferred_errors.py under real MXNet; the same ``run`` executes here."""
import json
import os

import pytest

import mxcompat as mx
from scripts.fixture_writers import deferred_errors

from conftest import FIXTURES

with open(os.path.join(FIXTURES, 'deferred_errors', 'deferred_errors.json')) as _f:
    WANT = json.load(_f)
_GOT = []


def _results():
    if not _GOT:
        _GOT.append(deferred_errors.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('scenario', sorted(WANT))
def test_deferred_errors(scenario):
    got = _results()[scenario]
    assert [row[0] for row in got] == [row[0] for row in WANT[scenario]]
    for (label, outcome, message, phrase), want in zip(got, WANT[scenario]):
        assert outcome == want[1], (label, message)
        if outcome != 'ok':  # the phrase is in MXNet's message (checked by the writer)
            assert phrase in message, (label, message)
