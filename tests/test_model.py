"""mx.model (checkpoints, FeedForward) against real MXNet 1.9.1 (tests/fixtures/module/)."""
import os

import numpy as np
import pytest

import mxcompat as mx
import mxcompat.model  # noqa: F401  (until mxcompat/__init__ imports them)
import mxcompat.module  # noqa: F401
import mxcompat.kvstore  # noqa: F401
from scripts.fixture_writers import module as scenarios

from conftest import FIXTURES

HERE = os.path.join(FIXTURES, 'module')
with np.load(os.path.join(HERE, 'module.npz')) as _z:
    WANT = dict(_z)

pytestmark = pytest.mark.filterwarnings('ignore:.*FeedForward has been deprecated')


@pytest.fixture(scope='module')
def feedforward():
    return scenarios.feedforward_scenarios(mx)


@pytest.mark.parametrize('name', sorted(k for k in WANT if k.startswith('ff_')))
def test_feedforward(name, feedforward):
    np.testing.assert_allclose(feedforward[name], WANT[name], rtol=1e-5, atol=1e-6)


def test_save_checkpoint_bytes(tmp_path):
    """mx.model.save_checkpoint writes MXNet's bytes for the same parameters (arguments and
    auxiliary states) and symbol."""
    conv = scenarios.convnet(mx)
    args, aux = scenarios.initial_params(mx, conv, data=(4, 2, 6, 6), softmax_label=(4,))
    mx.model.save_checkpoint(str(tmp_path / 'conv'), 7, None, args, aux)
    mlp = scenarios.mlp(mx)
    args, aux = mx.model.load_params(os.path.join(HERE, 'mlp'), 1)
    mx.model.save_checkpoint(str(tmp_path / 'mlp'), 1, mlp, args, aux)
    for name in ('conv-0007.params', 'mlp-symbol.json', 'mlp-0001.params'):
        with open(os.path.join(HERE, name), 'rb') as f:
            assert (tmp_path / name).read_bytes() == f.read(), name
    assert sorted(os.listdir(str(tmp_path))) == ['conv-0007.params', 'mlp-0001.params',
                                                 'mlp-symbol.json']


def test_load_checkpoint():
    sym, args, aux = mx.model.load_checkpoint(os.path.join(HERE, 'conv'), 7)
    assert sym.tojson() == scenarios.convnet(mx).tojson()
    want_args, want_aux = scenarios.initial_params(mx, sym, data=(4, 2, 6, 6),
                                                   softmax_label=(4,))
    assert sorted(args) == sorted(want_args) and sorted(aux) == sorted(want_aux)
    for got, want in ((args, want_args), (aux, want_aux)):
        for k in want:
            np.testing.assert_array_equal(got[k].asnumpy(), want[k].asnumpy())
    assert mx.model.load_params(os.path.join(HERE, 'mlp'), 1)[1] == {}


def test_feedforward_save_load(tmp_path):
    sym = scenarios.mlp(mx)
    args, _ = scenarios.initial_params(mx, sym, data=(5, 5), softmax_label=(5,))
    model = mx.model.FeedForward(sym, num_epoch=3, arg_params=args, aux_params={})
    model.save(str(tmp_path / 'ff'))
    loaded = mx.model.FeedForward.load(str(tmp_path / 'ff'), 3)
    assert loaded.begin_epoch == 3
    X, _ = scenarios.dataset(7, (5,), 3, 9)
    np.testing.assert_array_equal(loaded.predict(X), model.predict(X))


def test_create_kvstore():
    params = {'w': mx.nd.zeros((4, 4))}
    assert mx.model._create_kvstore('local', 1, params) == (None, False)
    kv, update = mx.model._create_kvstore('local', 2, params)
    assert kv.type == 'local' and update
    kv, update = mx.model._create_kvstore(None, 2, params)
    assert kv is None and not update
    with pytest.raises(TypeError):
        mx.model._create_kvstore(3, 2, params)
