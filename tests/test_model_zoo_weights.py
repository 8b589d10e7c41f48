"""gluon.model_zoo.vision loads weight files written by real MXNet and computes MXNet's outputs
(scripts/fixture_writers/model_zoo_weights.py): predict mode for every model, imperative and
hybridized, and training mode (BatchNorm on batch statistics) in float64 for the part before any
Dropout."""
import lzma
import os
import shutil

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import model_zoo_weights as W

from conftest import FIXTURES

DIR = os.path.join(FIXTURES, 'model_zoo_weights')
OUT = np.load(os.path.join(DIR, 'outputs.npz'))
HEAVY = {'resnet50_v2', 'densenet121', 'inceptionv3', 'vgg11_bn'}
MODELS = [pytest.param(n, marks=pytest.mark.slow) if n in HEAVY else n for n in W.MODELS]


def test_every_model_has_a_fixture():
    assert sorted(f[:-len('.params.xz')] for f in os.listdir(DIR)
                  if f.endswith('.params.xz')) == sorted(W.MODELS)
    assert sorted(k for k in OUT.files if k.endswith('/predict')) == sorted(
        n + '/predict' for n in W.MODELS)


def _close(got, want, rtol):
    """rtol, and for entries near zero an atol of rtol/5 of the largest entry: float32 rounding
    alone moves MXNet's predict-mode outputs by up to 4e-6 of their largest entry."""
    assert np.isfinite(want).all() and want.std() > 0.05
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=rtol, atol=0.2 * rtol * np.abs(want).max())


@pytest.mark.parametrize('name', MODELS)
def test_mxnet_weights_give_mxnet_outputs(name, tmp_path):
    path = str(tmp_path / (name + '.params'))
    with lzma.open(os.path.join(DIR, name + '.params.xz'), 'rb') as f, open(path, 'wb') as g:
        shutil.copyfileobj(f, g, 1 << 24)
    net = mx.gluon.model_zoo.vision.get_model(name)
    net.load_parameters(path, ctx=mx.current_context())  # MXNet's default: cpu(0)
    os.remove(path)  # vgg11_bn's is 530 MB
    x = mx.nd.array(W.forward_input(name))
    _close(net(x).asnumpy(), OUT[name + '/predict'], 1e-4)
    net.hybridize()
    _close(net(x).asnumpy(), OUT[name + '/predict'], 1e-4)
    assert W.has_batchnorm(net) == (name + '/train64' in OUT.files)
    if W.has_batchnorm(net):
        net.cast('float64')
        got = W.train_forward(mx, net, x.astype('float64')).asnumpy()
        _close(got, OUT[name + '/train64'], 1e-9)
