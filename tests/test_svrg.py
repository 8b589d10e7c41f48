"""mx.contrib.svrg_optimization against real MXNet 1.9.1: SVRGModule trained on generated
regression data from name-seeded weights (full gradients every epoch or every other epoch,
with and without a KVStore, plain and momentum SGD, ordered and shuffled data) ends with
MXNet's weights, full-gradient averages and metric (expected values written by
scripts/fixture_writers/svrg.py under real MXNet)."""
import os

import numpy as np
import pytest

import mxcompat as mx
from mxcompat.contrib.svrg_optimization import svrg_module
from scripts.fixture_writers import svrg

from conftest import FIXTURES

WANT = dict(np.load(os.path.join(FIXTURES, 'svrg', 'svrg.npz')))
_GOT = {}


def _results(case):
    if case not in _GOT:
        _GOT[case] = svrg._run_case(mx, svrg_module, case, svrg.CASES[case])
    return _GOT[case]


@pytest.mark.parametrize('key', sorted(WANT))
def test_svrg(key):
    got = _results(key.split('/', 1)[0])[key]
    want = WANT[key]
    assert got.shape == want.shape and got.dtype == want.dtype, key
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=key)


def test_update_freq_must_be_positive_int():
    net = mx.sym.FullyConnected(mx.sym.Variable('data'), num_hidden=1)
    with pytest.raises(TypeError, match='update_freq'):
        svrg_module.SVRGModule(net, label_names=None)
    with pytest.raises(ValueError, match='positive'):
        svrg_module.SVRGModule(net, label_names=None, update_freq=0)
