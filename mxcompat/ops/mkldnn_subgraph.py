"""Fused operators of MXNet's oneDNN (MKL-DNN) subgraph backend, as its CPU build writes them
into graphs (``sym.get_backend_symbol('MKLDNN')``, the int8 graphs of
``mx.contrib.quantization`` and GluonCV's ``*_int8`` model zoo).

``_sg_mkldnn_conv`` is a Convolution with, as its subgraph says, a BatchNorm folded into its
weights, an activation, a residual sum and an activation after the sum. Quantized, it takes
int8 or uint8 data and computes as oneDNN does: weights and bias folded in float32, quantized
per output channel (int8 weights, int32 bias), integer products accumulated exactly, scaled to
the calibrated output range, the sum input rescaled into it, rounded half to even and
saturated to int8 (uint8 after a ReLU).
"""
import torch

from ..base import MXNetError
from . import param_shapes
from .contrib_misc import _INT8_RANGE, _UINT8_RANGE, _saturate_round
from .registry import register, Bool, Float, Opt

_F32 = torch.float32
_INT32_MAX = float(2 ** 31 - 1)
_ACTS = ('Activation', 'LeakyReLU', 'clip')
# activations after which oneDNN's quantized convolution writes uint8 (MXNet's IsOutputUInt8;
# clip is its bounded ReLU)
_UINT8_ACTS = ('relu', 'sigmoid', 'softrelu')


def _uint8_after(node):
    return node is not None and (node.op.name == 'clip' or
                                 node.params.get('act_type') in _UINT8_ACTS)


def _fused(params):
    """(Convolution node, BatchNorm node or None, activations in order) of the subgraph."""
    subgraphs = params.get('subgraphs')
    if not subgraphs or len(subgraphs) != 1:
        raise MXNetError('_sg_mkldnn_conv needs one subgraph (the fused Convolution and what '
                         'follows it), as MXNet\'s MKLDNN subgraph pass writes it')
    conv, bn, acts = None, None, []
    for node in subgraphs[0]._nodes():
        if node.is_variable:
            continue
        name = node.op.name
        if name == 'Convolution':
            conv = node
        elif name == 'BatchNorm':
            bn = node
        elif name in _ACTS:
            acts.append(node)
        elif name not in ('elemwise_add', '_plus', '_Plus', 'broadcast_add'):
            raise MXNetError('_sg_mkldnn_conv: operator %s cannot be fused into a convolution'
                             % name)
    if conv is None:
        raise MXNetError('_sg_mkldnn_conv: its subgraph has no Convolution')
    return conv, bn, acts


def _inputs(p):
    conv = _fused(p)[0].params
    names = ['data', 'weight'] + ([] if conv['no_bias'] else ['bias'])
    if p['with_bn']:
        names += ['gamma', 'beta', 'mean', 'var']
    if p['with_sum']:
        names.append('sum')
    if p['quantized']:
        names += ['data_min', 'data_max'] + (['sum_min', 'sum_max'] if p['with_sum'] else [])
    return names


def _outputs(p):
    return 3 if p['quantized'] else 1


def _shapes(shapes, p):
    """Weight and bias from the data as Convolution's rule gives them; BatchNorm's four
    per-channel inputs; ranges of one element."""
    conv = _fused(p)[0].params
    names = _inputs(p)
    base = param_shapes.convolution([shapes[0], shapes[1], shapes[2] if 'bias' in names else None], conv)
    out = list(shapes)
    for i, name in enumerate(names):
        if out[i] is not None and 0 not in out[i]:
            continue
        if name in ('weight', 'bias'):
            out[i] = base[1 if name == 'weight' else 2] or out[i]
        elif name in ('gamma', 'beta', 'mean', 'var'):
            out[i] = (conv['num_filter'],)
        elif name.endswith(('_min', '_max')):
            out[i] = (1,)
    return out


def _act(node, x):
    return node.op.fn(x, **{k: v for k, v in node.params.items() if k != 'subgraphs'})


def _fold_bn(weight, bias, gamma, beta, mean, var, bn):
    """MXNet's UpdateConvWeightBias: ``alpha = gamma / sqrt(var + eps)`` per channel,
    ``w * alpha`` and ``beta + alpha * (bias - mean)``, in float32."""
    g = torch.ones_like(gamma) if bn['fix_gamma'] else gamma
    alpha = (g.double() / torch.sqrt(var.double() + bn['eps'])).float()
    shape = (-1,) + (1,) * (weight.dim() - 1)
    weight = weight.float() * alpha.reshape(shape)
    bias = beta + alpha * ((bias.float() if bias is not None else 0.) - mean)
    return weight, bias


def _scale(dtype, lo, hi):
    """MXNet's GetQuantizeScale: quantized range over ``max(|lo|, |hi|)``."""
    real = torch.maximum(lo.abs(), hi.abs()).float().reshape(())
    q = _UINT8_RANGE if dtype is torch.uint8 else _INT8_RANGE
    return torch.where(real > 0, q / real, torch.tensor(_INT32_MAX, device=real.device))


def _weight_scales(weight, bias, data_scale):
    """Per-channel int8 scales of the weights, lowered where the bias would overflow int32
    (oneDNN mishandles INT_MAX in a bias, so MXNet keeps it under INT_MAX / 2)."""
    flat = weight.reshape(weight.shape[0], -1)
    real = torch.maximum(flat.min(1).values.abs(), flat.max(1).values.abs())
    scales = torch.where(real > 0, _INT8_RANGE / real, torch.full_like(real, _INT32_MAX))
    if bias is not None:
        limit = torch.where(bias > 0, 2.0 ** 31, -2.0 ** 31) / 2 / bias / data_scale
        scales = torch.where(bias != 0, torch.minimum(scales, limit), scales)
    return scales


def _conv(conv, data, weight, bias):
    from .nn_dense_conv import convolution
    p = {k: v for k, v in conv.params.items() if k != 'subgraphs'}
    return convolution(data, weight, bias, **dict(p, no_bias=bias is None))


@register('_sg_mkldnn_conv', merges=False, differentiable=False,
          inputs=('data', 'weight', 'bias', 'gamma', 'beta', 'mean', 'var', 'sum', 'data_min',
                  'data_max', 'sum_min', 'sum_max'),
          aux=('mean', 'var'), input_rule=_inputs, infer_shape=_shapes, num_outputs=_outputs,
          output_names=lambda p: ('output', 'output_min', 'output_max') if p['quantized']
          else ('output',),
          params={'with_bn': (Bool, False), 'with_act': (Bool, False),
                  'with_sum': (Bool, False), 'with_postsum_act': (Bool, False),
                  'quantized': (Bool, False), 'min_calib_range': (Opt(Float), None),
                  'max_calib_range': (Opt(Float), None),
                  # the names of MXNet before 1.6, which its parser renames
                  'with_relu': (Bool, False), 'with_postsum_relu': (Bool, False)})
def sg_mkldnn_conv(data, weight, bias=None, gamma=None, beta=None, mean=None, var=None,
                   sum=None, data_min=None, data_max=None, sum_min=None, sum_max=None, *,
                   with_bn, with_act, with_sum, with_postsum_act, quantized, min_calib_range,
                   max_calib_range, with_relu, with_postsum_relu, subgraphs=None):
    """A Convolution fused with what follows it in its subgraph (BatchNorm, an activation, a
    residual sum, an activation after the sum) by MXNet's oneDNN subgraph backend.

    Quantized (``quantized=True``), data is int8 or uint8 with its range ``data_min`` /
    ``data_max`` (and the sum input likewise); the output is int8, or uint8 after a ReLU,
    scaled to ``min_calib_range`` / ``max_calib_range``, with that range as two more outputs.
    """
    p = {'subgraphs': subgraphs}
    conv, bn, acts = _fused(p)
    with_act, with_postsum_act = with_act or with_relu, with_postsum_act or with_postsum_relu
    act = acts[0] if with_act and acts else None
    post = acts[-1] if with_postsum_act and acts else None
    if with_bn:
        weight, bias = _fold_bn(weight, bias, gamma, beta, mean, var, bn.params)
    if not quantized:
        out = _conv(conv, data, weight, bias)
        if act is not None:
            out = _act(act, out)
        if with_sum:
            out = out + sum
        return _act(post, out) if post is not None else out
    op = '_sg_mkldnn_conv'
    if data.dtype not in (torch.int8, torch.uint8):
        raise MXNetError('%s: quantized data must be int8 or uint8, got %s'
                         % (op, str(data.dtype)[6:]))
    if min_calib_range is None or max_calib_range is None:
        raise NotImplementedError('%s without min_calib_range / max_calib_range (an int32 '
                                  'output) is not supported by mxcompat: calibrate the model'
                                  % op)
    dev = data.device
    data_scale = _scale(data.dtype, data_min, data_max).to(dev)
    weight = weight.float()
    w_scales = _weight_scales(weight, bias, data_scale)
    shape = (-1,) + (1,) * (weight.dim() - 1)
    qw = _saturate_round(weight * w_scales.reshape(shape), torch.int8)
    qb = None if bias is None else \
        _saturate_round(bias.float() * (w_scales * data_scale), torch.int32)
    # integer products accumulate exactly in float64 (|acc| < 2**53)
    acc = _conv(conv, data.double(), qw.double(), None if qb is None else qb.double())
    out_dtype = torch.uint8 if _uint8_after(post if with_sum else act) else torch.int8
    lo = torch.tensor(min_calib_range, dtype=_F32, device=dev)
    hi = torch.tensor(max_calib_range, dtype=_F32, device=dev)
    out_scale = _scale(out_dtype, lo, hi)
    requant = (out_scale / data_scale) / w_scales
    out = acc.float() * requant.reshape((1, -1) + (1,) * (acc.dim() - 2))
    if act is not None:
        out = _act(act, out)
    if with_sum:
        sum_scale = out_scale / _scale(sum.dtype, sum_min, sum_max).to(dev)
        out = out + sum_scale * sum.float()
    if post is not None:
        out = _act(post, out)
    if with_sum:
        # oneDNN writes into the sum input's buffer, saturating to its type; MXNet then
        # labels those bytes with the output type (a uint8 output after an int8 sum stays
        # within 0..127)
        return _saturate_round(out, sum.dtype).view(out_dtype), lo.reshape(1), hi.reshape(1)
    return _saturate_round(out, out_dtype), lo.reshape(1), hi.reshape(1)
