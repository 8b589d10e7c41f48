"""mx.init against real MXNet 1.9.1 (scripts/fixture_writers/initializer.py): deterministic
fills by value, dumps()/create()/error texts exactly, random fills by their distribution."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
import mxcompat.initializer  # noqa: F401  (until mxcompat/__init__ imports it)
from scripts.fixture_writers import initializer as cases

from conftest import FIXTURES

_DIR = os.path.join(FIXTURES, 'initializer')


@pytest.fixture(scope='module')
def values():
    path = os.path.join(_DIR, 'values.npz')
    if not os.path.exists(path):
        pytest.fail('no MXNet fixture: run scripts/make_fixtures.py --only initializer under '
                    'real MXNet')
    return dict(np.load(path))


@pytest.fixture(scope='module')
def texts():
    with open(os.path.join(_DIR, 'texts.json')) as f:
        return json.load(f)


@pytest.mark.parametrize('cid', sorted(cases.VALUES))
def test_values(cid, values):
    got = cases.VALUES[cid](mx)
    want = {k.split('/', 1)[1]: v for k, v in values.items() if k.split('/', 1)[0] == cid}
    assert sorted(got) == sorted(want)
    for name, value in got.items():
        assert value.dtype == want[name].dtype, name
        np.testing.assert_array_equal(value, want[name], err_msg='%s/%s' % (cid, name))


# mxcompat names the parameter where MXNet's message leaves a literal '%s'
_BETTER_MESSAGES = {('errors', 6): 'Parameter name conv_weight did not match any pattern.'}


@pytest.mark.parametrize('cid', sorted(cases.TEXTS))
def test_texts(cid, texts):
    got = json.loads(json.dumps(cases.TEXTS[cid](mx)))
    want = texts[cid]
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        better = _BETTER_MESSAGES.get((cid, k))
        if better:
            assert g[0] == w[0] and g[1].startswith(better), g
        else:
            assert g == w, (cid, k)


@pytest.mark.parametrize('sid', sorted(cases.STAT_SPECS))
def test_distribution(sid, values):
    got = cases.stat(mx, sid)
    mean, std, lo, hi = got['moments']
    w_mean, w_std, w_lo, w_hi = values['stat:%s/moments' % sid]
    spread = max(abs(w_lo), abs(w_hi))
    assert abs(mean - w_mean) <= 0.02 * spread, (mean, w_mean)
    assert std == pytest.approx(w_std, rel=0.02, abs=1e-12)
    if sid.startswith(('uniform', 'xavier-default', 'xavier-in')):
        # uniform in [-scale, scale]: with >= 30000 draws the extremes pin MXNet's scale to
        # about 1e-4
        assert lo == pytest.approx(w_lo, rel=1e-3) and hi == pytest.approx(w_hi, rel=1e-3)
    if 'gram' in got:
        np.testing.assert_allclose(got['gram'], values['stat:%s/gram' % sid], atol=1e-5)


def test_quantized_weight_fill():
    arr = mx.nd.zeros((3, 4), dtype='int8')
    mx.init.Uniform()(mx.init.InitDesc('fc_weight_quantize'), arr)
    a = arr.asnumpy()
    assert (a == a.flat[0]).all() and -127 <= a.flat[0] < 127


def test_verbose(caplog):
    import logging
    init = mx.init.One().set_verbosity(True)
    with caplog.at_level(logging.INFO):
        init(mx.init.InitDesc('fc_weight'), mx.nd.zeros((2, 2)))
    assert 'Initialized fc_weight as weight: 1.0' in caplog.text


def test_register_custom_and_alias():
    @mx.init.register
    @mx.init.alias('myinit_for_test')
    class CustomInitForTest(mx.init.Initializer):
        def _init_weight(self, _, arr):
            arr[:] = 0.1

    arr = mx.nd.zeros((2,))
    mx.init.create('myinit_for_test')(mx.init.InitDesc('x_weight'), arr)
    np.testing.assert_allclose(arr.asnumpy(), 0.1, rtol=1e-7)
    assert isinstance(mx.init.create('custominitfortest'), CustomInitForTest)


def test_legacy_call_warns():
    with pytest.warns(DeprecationWarning):
        mx.init.One()('fc_weight', mx.nd.zeros((1,)))


def test_unhashable_like_mxnet():
    # MXNet defines __eq__ without __hash__
    with pytest.raises(TypeError):
        hash(mx.init.One())
