"""MXNet 1.9.1's int8 inference graphs (oneDNN) against real MXNet: a network quantized by
MXNet's ``quantize_net`` (``_contrib_quantize_v2``, ``_sg_mkldnn_conv`` with folded BatchNorm,
ReLU and residual sum, ``_contrib_quantized_pooling``, ``_contrib_dequantize``) loaded from
MXNet's symbol file, every node's outputs compared; the float32 graph of MXNet's oneDNN fusion
pass; ``combine_histogram``; the quantization flow itself raising NotImplementedError.
Expected values were written by scripts/fixture_writers/quantization.py under real MXNet."""
import os

import numpy as np
import pytest

import mxcompat as mx
from mxcompat.contrib import quantization
from scripts.fixture_writers import quantization as writer

from conftest import FIXTURES

DIR = os.path.join(FIXTURES, 'quantization')
WANT = dict(np.load(os.path.join(DIR, 'quantization.npz')))
NODES = sorted(k for k in WANT if not k.startswith(('hist/', 'float/')))
_GOT = {}


def _nodes(graph='qnet'):
    if graph not in _GOT:
        with open(os.path.join(DIR, graph + '-symbol.json')) as f:
            _GOT[graph] = writer.run(mx, f.read())
    return _GOT[graph]


@pytest.mark.parametrize('key', NODES)
def test_int8_graph_node(key):
    got, want = _nodes()[key], WANT[key]
    assert got.dtype == want.dtype and got.shape == want.shape, key
    if want.dtype in (np.int8, np.uint8):
        # oneDNN's convolutions round a few products differently: at most one quantization
        # step on a few percent of the outputs (two where a residual sum adds a second one)
        diff = np.abs(got.astype(np.int32) - want.astype(np.int32))
        assert diff.max() <= 2 and (diff > 0).mean() < 0.2, (key, diff.max(), (diff > 0).mean())
    elif want.size == 1:  # the ranges that travel with int8 data are exact
        np.testing.assert_array_equal(got, want, err_msg=key)
    else:  # the dequantized output: within one quantization step of MXNet's
        step = np.abs(WANT['quantized_qnet_pool1_fwd_max_output']).max() / 255.5
        np.testing.assert_allclose(got, want, rtol=0, atol=step * 1.01, err_msg=key)
        assert (got != want).mean() < 0.2


def test_int8_graph_output_types():
    # int8 after a convolution, uint8 after its ReLU, uint8 bytes within 0..127 after an int8
    # residual sum (oneDNN writes into the sum's int8 buffer)
    got = _nodes()
    assert got['quantized_sg_mkldnn_conv_bn_act_0_output'].dtype == np.uint8
    assert got['quantized_sg_mkldnn_conv_bn_1_output'].dtype == np.int8
    summed = got['quantized_sg_mkldnn_conv_bn_add_act_2_output']
    assert summed.dtype == np.uint8 and summed.max() <= 127
    assert WANT['quantized_sg_mkldnn_conv_bn_add_act_2_output'].max() == 127


@pytest.mark.parametrize('key', sorted(k[len('float/'):] for k in WANT
                                        if k.startswith('float/')))
def test_fused_float_graph_node(key):
    # MXNet's oneDNN fusion of the same network in float32 (BatchNorm folded into the weights)
    np.testing.assert_allclose(_nodes('fused')[key], WANT['float/' + key], rtol=1e-4,
                               atol=1e-5, err_msg=key)


@pytest.mark.parametrize('key', sorted(k for k in WANT if k.startswith('hist/')))
def test_combine_histogram(key):
    got = writer.histograms(mx)[key]
    np.testing.assert_allclose(got, WANT[key], rtol=1e-12, err_msg=key)


@pytest.mark.parametrize('name', ['quantize_model', 'quantize_model_mkldnn', 'quantize_graph',
                                  'calib_graph', 'quantize_net', 'quantize_net_v2'])
def test_quantization_flow_not_supported(name):
    fn = getattr(quantization, name)
    with pytest.raises(NotImplementedError, match='quantization.%s ' % name):
        fn(*([None] * (4 if name == 'calib_graph' else 3 if 'model' in name or 'graph' in name
                       else 1)))
    assert mx.contrib.quant is quantization
