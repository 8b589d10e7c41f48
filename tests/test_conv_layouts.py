"""Channel-last Convolution/Deconvolution (NHWC, NDHWC) against real MXNet's channel-first
results on transposed arrays (scripts/fixture_writers/conv_layouts.py)."""
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers.conv_layouts import CONFIGS, inputs, _with_bias

from conftest import FIXTURES

PATH = os.path.join(FIXTURES, 'conv_layouts', 'conv_layouts.npz')


@pytest.mark.parametrize('name', sorted(CONFIGS))
def test_channel_last_convolution(name):
    want = np.load(PATH)
    cfg = CONFIGS[name]
    data, weight, bias, _ = inputs(name)
    args = [mx.nd.array(data), mx.nd.array(weight)]
    if _with_bias(cfg):
        args.append(mx.nd.array(bias))
    for a in args:
        a.attach_grad()
    with mx.autograd.record():
        y = getattr(mx.nd, cfg['op'])(*args, layout=cfg['layout'], **cfg['params'])
    np.testing.assert_allclose(y.asnumpy(), want[name + '/out'], rtol=1e-4, atol=1e-5)
    y.backward(mx.nd.array(want[name + '/head']))
    for a, what in zip(args, ('data', 'weight', 'bias')):
        np.testing.assert_allclose(a.grad.asnumpy(), want['%s/grad_%s' % (name, what)],
                                   rtol=1e-4, atol=1e-5, err_msg=what)
