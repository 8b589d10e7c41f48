"""gluon.model_zoo.vision against real MXNet (scripts/fixture_writers/model_zoo.py): the
parameter names and shapes of every model ``get_model`` accepts, predict-mode outputs with
seeded parameters (imperative and hybridized), and the model store's offline behaviour."""
import gzip
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import model_zoo as W

from conftest import FIXTURES

DIR = os.path.join(FIXTURES, 'model_zoo')
with gzip.open(os.path.join(DIR, 'params.json.gz'), 'rt') as _f:
    PARAMS = json.load(_f)
OUT = np.load(os.path.join(DIR, 'forward.npz'))


def test_every_name_is_covered():
    assert sorted(PARAMS) == sorted(W.NAMES)
    assert sorted(mx.gluon.model_zoo.vision._models) == sorted(W.NAMES)


@pytest.mark.parametrize('name', W.NAMES)
def test_parameter_names_and_shapes(name):
    net = W.build(mx, name)
    assert W.shapes(mx, net, name) == PARAMS[name]


@pytest.mark.parametrize('hybridize', [False, True])
@pytest.mark.parametrize('name', sorted(W.FORWARD))
def test_forward(name, hybridize):
    net, x = W.forward_model(mx, name)
    if hybridize:
        net.hybridize()
    np.testing.assert_allclose(net(x).asnumpy(), OUT[name], rtol=1e-4, atol=1e-5)


def test_unknown_model():
    with pytest.raises(ValueError, match='Model foo is not supported'):
        mx.gluon.model_zoo.vision.get_model('foo')


def test_pretrained_file_found_and_checked(tmp_path, monkeypatch):
    store = mx.gluon.model_zoo.model_store
    net = W.build(mx, 'squeezenet1.1', classes=3)
    net.initialize()
    net(mx.nd.zeros((1, 3, 224, 224)))
    path = tmp_path / 'squeezenet1.1-0e08359c.params'
    net.save_parameters(str(path))
    import hashlib
    digest = hashlib.sha1(path.read_bytes()).hexdigest()
    monkeypatch.setitem(store._model_sha1, 'squeezenet1.1', digest)
    monkeypatch.setattr(store, 'short_hash', lambda name: '0e08359c')
    loaded = mx.gluon.model_zoo.vision.get_model('squeezenet1.1', classes=3, pretrained=True,
                                                 root=str(tmp_path))
    for (k, p), q in zip(net.collect_params().items(), loaded.collect_params().values()):
        np.testing.assert_array_equal(p.data().asnumpy(), q.data().asnumpy(), err_msg=k)
    assert store.get_model_file('squeezenet1.1', root=str(tmp_path)) == str(path)


def test_pretrained_offline_message(tmp_path, monkeypatch):
    monkeypatch.setenv('MXNET_GLUON_REPO', 'http://127.0.0.1:9/')
    with pytest.raises(RuntimeError, match='Cannot download the pretrained parameters of '
                                           'alexnet'):
        mx.gluon.model_zoo.model_store.get_model_file('alexnet', root=str(tmp_path))
    with pytest.raises(ValueError, match='not available'):
        mx.gluon.model_zoo.model_store.get_model_file('resnet9', root=str(tmp_path))
