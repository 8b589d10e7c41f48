"""Quantization module for generating quantized (INT8) models from FP32 models
(``mx.contrib.quantization``, also ``mx.contrib.quant``).

mxcompat runs the int8 graphs MXNet 1.9.1's CPU build (oneDNN) writes -- ``_contrib_quantize_v2``,
``_sg_mkldnn_conv``, ``_contrib_quantized_pooling``, ``_contrib_dequantize``, ... in a
``-symbol.json`` loaded with ``mx.sym.load`` or ``gluon.SymbolBlock.imports``, such as GluonCV's
``*_int8`` models -- and ``combine_histogram`` of the calibration tools. Making such a graph from
a float32 model (``quantize_model``, ``quantize_model_mkldnn``, ``quantize_graph``,
``calib_graph``, ``quantize_net``, ``quantize_net_v2``) runs MXNet's C++ quantization and
subgraph-fusion passes, which mxcompat does not have: these raise NotImplementedError naming
themselves. Quantize with MXNet once and load its graph, or use ``torch.ao.quantization`` on
the model's parameters.
"""
import numpy as np


__all__ = ['combine_histogram', 'quantize_model', 'quantize_model_mkldnn', 'quantize_graph',
           'calib_graph', 'quantize_net_v2', 'quantize_net']


def combine_histogram(old_hist, arr, new_min, new_max, new_th):
    """Collect layer histogram for arr and combine it with old histogram.

    Parameters
    ----------
    old_hist : tuple
        ``(hist, hist_edges, min, max, threshold)`` of the histogram so far, symmetric around 0
        over ``[-threshold, threshold]``.
    arr : numpy.ndarray
        New values of the layer.
    new_min, new_max : float
        Their minimum and maximum.
    new_th : float
        Their threshold (largest absolute value).

    Returns
    -------
    tuple
        The combined ``(hist, hist_edges, min, max, threshold)``: the old bins where
        ``new_th`` fits in them, else bins of the same width added on both sides until it does.
    """
    hist, edges, old_min, old_max, old_th = old_hist
    lo, hi = min(old_min, new_min), max(old_max, new_max)
    if new_th <= old_th:
        counts = np.histogram(arr, bins=len(hist), range=(-old_th, old_th))[0]
        return hist + counts, edges, lo, hi, old_th
    step = 2 * old_th / len(hist)
    extra = int((new_th - old_th) // step + 1)
    th = extra * step + old_th
    counts, edges = np.histogram(arr, bins=len(hist) + 2 * extra, range=(-th, th))
    counts[extra:extra + len(hist)] += hist
    return counts, edges, lo, hi, th


def _needs_mxnet(name):
    return ('mxnet.contrib.quantization.%s is not supported by mxcompat: it runs MXNet\'s C++ '
            'quantization and oneDNN fusion passes. Quantize the model with MXNet 1.9.1 and '
            'load its -symbol.json (mxcompat runs int8 graphs), or quantize with '
            'torch.ao.quantization' % name)


def quantize_model(*args, **kwargs):
    """User-level API for generating a quantized model from a FP32 model w/ or w/o
    calibration (not supported by mxcompat: raises NotImplementedError)."""
    raise NotImplementedError(_needs_mxnet('quantize_model'))


def quantize_model_mkldnn(*args, **kwargs):
    """User-level API for generating a fusion + quantized model from a FP32 model w/ or w/o
    calibration with Intel MKL-DNN (not supported by mxcompat: raises
    NotImplementedError)."""
    raise NotImplementedError(_needs_mxnet('quantize_model_mkldnn'))


def quantize_graph(*args, **kwargs):
    """User-level API for generating a quantized model from a FP32 model w/o calibration
    and a collector for naive or entropy calibration (not supported by mxcompat: raises
    NotImplementedError)."""
    raise NotImplementedError(_needs_mxnet('quantize_graph'))


def calib_graph(*args, **kwargs):
    """User-level API for calibrating a quantized model using a filled collector (not
    supported by mxcompat: raises NotImplementedError)."""
    raise NotImplementedError(_needs_mxnet('calib_graph'))


def quantize_net_v2(*args, **kwargs):
    """User-level API for Gluon users to generate a quantized SymbolBlock from a FP32
    HybridBlock w/ or w/o calibration (not supported by mxcompat: raises
    NotImplementedError)."""
    raise NotImplementedError(_needs_mxnet('quantize_net_v2'))


def quantize_net(*args, **kwargs):
    """User-level API for Gluon users to generate a quantized SymbolBlock from a FP32
    HybridBlock w/ or w/o calibration (not supported by mxcompat: raises
    NotImplementedError)."""
    raise NotImplementedError(_needs_mxnet('quantize_net'))
