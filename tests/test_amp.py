"""Automatic mixed precision (mx.contrib.amp) against real MXNet 1.9.1 on the CPU: the list_*
outputs; operator output dtypes and values after amp.init('bfloat16') (low precision, float32,
conditional and widest-type operators, NDArray arithmetic, a loss output's scaled gradient);
the output dtypes of a symbol built after amp.init('float16') and widest-type NDArray
operators there; convert_symbol / convert_model /
convert_hybrid_block (the casts added, parameter types, a converted block's outputs); the
dynamic loss scale over steps with injected overflow (skipped steps), amp.unscale; a small
MLP trained 6 steps with the GluonCV-style loop in bfloat16, imperative and hybridized (losses
and final weights, within bfloat16 tolerance). Expected values were written by scripts/fixture_writers/amp.py under real
MXNet; amp.init cannot be undone, so each mode runs in a process of its own, as there."""
import json
import os
import sys

import numpy as np
import pytest

from scripts.fixture_writers import amp as amp_writer

from conftest import FIXTURES, ROOT

WANT = dict(np.load(os.path.join(FIXTURES, 'amp', 'amp.npz')))
_GOT = {}


def _results(mode, tmp_path_factory):
    if mode not in _GOT:
        path = str(tmp_path_factory.mktemp('amp') / ('%s.npz' % mode))
        env = dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS='1')
        _GOT[mode] = amp_writer.run_in_process(sys.executable, 'mxcompat', mode, path, env)
    return _GOT[mode]


def _keys(mode_prefix):
    return sorted(k for k in WANT if k.startswith(mode_prefix))


def test_lists(tmp_path_factory):
    got = json.loads(str(_results('lists', tmp_path_factory)['lists']))
    want = json.loads(str(WANT['lists']))
    for dtype in ('float16', 'bfloat16'):
        for name in want[dtype]:
            assert got[dtype][name] == want[dtype][name], (dtype, name)


@pytest.mark.parametrize('key', _keys('ops/'))
def test_ops_bfloat16(key, tmp_path_factory):
    got, want = _results('ops_bf16', tmp_path_factory)[key], WANT[key]
    if key.endswith('/dtype'):
        assert str(got) == str(want), key
    else:  # bfloat16 keeps 8 bits of mantissa
        np.testing.assert_allclose(got, want, rtol=1e-2, atol=1e-2, err_msg=key)


def test_symbol_float16_dtypes(tmp_path_factory):
    got = _results('sym_fp16', tmp_path_factory)
    assert list(got['sym/names']) == list(WANT['sym/names'])
    assert list(got['sym/dtypes']) == list(WANT['sym/dtypes'])


@pytest.mark.parametrize('key', _keys('widest/'))
def test_widest_type_float16(key, tmp_path_factory):
    """concat and stack of float16 and float32 NDArrays after amp.init('float16'): the
    widest input type, along axis 0 and another."""
    got, want = _results('sym_fp16', tmp_path_factory)[key], WANT[key]
    if key.endswith('/dtype'):
        assert str(got) == str(want), key
    else:
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-3, err_msg=key)


@pytest.mark.parametrize('key', _keys('convert'))
def test_convert(key, tmp_path_factory):
    """convert_symbol's graph (each amp_cast / amp_multicast node, its name, inputs and
    type; the inputs' __dtype__), convert_model's parameter types, tojson without the casts,
    and a hybridized block converted to bfloat16 run on the CPU."""
    got, want = _results('convert', tmp_path_factory)[key], WANT[key]
    if want.dtype.kind == 'U':
        assert list(got.ravel()) == list(want.ravel()), key
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=key)


@pytest.mark.parametrize('key', _keys('scaler/'))
def test_loss_scaler(key, tmp_path_factory):
    got, want = _results('scaler', tmp_path_factory)[key], WANT[key]
    assert got.shape == want.shape, key
    # gradients of a bfloat16 layer: bfloat16 tolerance; scales exactly
    np.testing.assert_allclose(got, want, rtol=1e-2 if 'grad' in key else 1e-6,
                               atol=1e-3 if 'grad' in key else 1e-6, err_msg=key)


@pytest.mark.parametrize('mode', ['mlp_bf16', 'mlp_bf16_hybrid'])
def test_mlp_training(mode, tmp_path_factory):
    got = _results(mode, tmp_path_factory)
    for key in _keys(mode + '/'):
        if key.endswith('/dtypes'):
            assert list(got[key]) == list(WANT[key]), key
        elif key.endswith('/scale'):
            np.testing.assert_array_equal(got[key], WANT[key], err_msg=key)
        else:  # bfloat16 rounds to 2**-8 relative; six momentum steps accumulate it
            np.testing.assert_allclose(got[key], WANT[key], rtol=1e-2, atol=1e-2, err_msg=key)
