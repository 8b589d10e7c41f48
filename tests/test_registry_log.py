"""mx.registry and mx.log against real MXNet 1.9.1 (tests/fixtures/registry_log)."""
import json
import os

import pytest

import mxcompat as mx
from scripts.fixture_writers.registry_log import record_log, record_registry

from conftest import FIXTURES

with open(os.path.join(FIXTURES, 'registry_log', 'registry_log.json')) as _f:
    EXPECTED = json.load(_f)


@pytest.mark.parametrize('part', sorted(EXPECTED['registry']))
def test_registry(part):
    assert json.loads(json.dumps(record_registry(mx)[part])) == EXPECTED['registry'][part]


@pytest.mark.parametrize('part', sorted(EXPECTED['log']))
def test_log(part):
    assert json.loads(json.dumps(record_log(mx)[part])) == EXPECTED['log'][part]
