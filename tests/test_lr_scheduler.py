"""mx.lr_scheduler against real MXNet 1.9.1: the learning rate for each num_update of a call
sequence (rising, jumping, going back) and constructor errors
(scripts/fixture_writers/lr_scheduler.py)."""
import json
import os

import pytest

import mxcompat as mx
import mxcompat.lr_scheduler  # noqa: F401  (until mxcompat/__init__ imports it)
import mxcompat.optimizer  # noqa: F401
from scripts.fixture_writers.lr_scheduler import CASES, run

from conftest import FIXTURES

_PATH = os.path.join(FIXTURES, 'lr_scheduler', 'cases.json')


@pytest.fixture(scope='module')
def expected():
    if not os.path.exists(_PATH):
        pytest.fail('no MXNet fixture: run scripts/make_fixtures.py --only lr_scheduler under '
                    'real MXNet')
    with open(_PATH) as f:
        return json.load(f)


@pytest.mark.parametrize('cid', sorted(CASES))
def test_schedule(cid, expected):
    got, want = run(mx, cid), expected[cid]
    assert set(got) == set(want)
    if 'error' in want:
        assert got['error'] == want['error']
        return
    assert got['base_lr'] == pytest.approx(want['base_lr'], rel=1e-12, abs=1e-15)
    assert got['lrs'] == pytest.approx(want['lrs'], rel=1e-12, abs=1e-15)


def test_optimizer_uses_schedule(expected):
    """Optimizer.learning_rate follows the scheduler at the optimizer's num_update."""
    sched = mx.lr_scheduler.FactorScheduler(step=5, factor=0.5)
    opt = mx.optimizer.SGD(lr_scheduler=sched)
    want = expected['factor']['lrs']
    for n in range(12):
        opt.num_update = n
        assert opt.learning_rate == pytest.approx(want[n], rel=1e-12)
