"""Optimizer update operators over several steps: the final weights and every state array
(updated in place) against real MXNet 1.9.1 (scripts/fixture_writers/optimizer_ops.py)."""
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers.optimizer_ops import SCENARIOS, run

from conftest import FIXTURES

_PATH = os.path.join(FIXTURES, 'optimizer_ops', 'final_states.npz')


@pytest.fixture(scope='module')
def expected():
    if not os.path.exists(_PATH):
        pytest.fail('no MXNet fixture: run scripts/make_fixtures.py --only optimizer_ops under '
                    'real MXNet')
    return dict(np.load(_PATH))


@pytest.mark.parametrize('sid', sorted(SCENARIOS))
def test_optimizer_scenario(sid, expected):
    tol = SCENARIOS[sid][2]
    got = run(mx, sid)
    want = {k.split('/', 1)[1]: v for k, v in expected.items() if k.split('/', 1)[0] == sid}
    assert sorted(got) == sorted(want)
    for name, value in got.items():
        assert value.dtype == want[name].dtype, name
        np.testing.assert_allclose(value.astype(np.float64), want[name].astype(np.float64),
                                   rtol=tol, atol=tol, err_msg='%s/%s' % (sid, name))
