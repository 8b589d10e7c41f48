"""Dense and convolution layers: FullyConnected, Convolution(_v1), Deconvolution, Embedding.

MXNet's weight layouts are torch's: FullyConnected (num_hidden, in), Convolution
(num_filter, in/num_group, k...), Deconvolution (in, num_filter/num_group, k...). Channel-last
layouts (NHWC, NDHWC; MXNet computes them on GPU only) permute to channel-first views and
back; the weight then has its channel axis last as well, as MXNet lays it out.
"""
import torch.nn.functional as F

from ..base import MXNetError, dtype_name
from . import param_shapes
from .registry import register, REQUIRED, Int, Bool, Shape, Enum, DType, AtLeast

_linear = F.linear
_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_DECONV = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}
_SPATIAL_NAMES = {1: '(batch, channel, width)', 2: '(batch, channel, height, width)',
                  3: '(batch, channel, depth, height, width)'}
# channel-last layout -> (permutation to channel-first, permutation back)
_TO_FIRST = {'NHWC': (0, 3, 1, 2), 'NDHWC': (0, 4, 1, 2, 3)}
_TO_LAST = {'NHWC': (0, 2, 3, 1), 'NDHWC': (0, 2, 3, 4, 1)}


def _shape_error(op, arg, given, expected, why=''):
    return MXNetError('%s: shape of %s is %s but %s expected%s'
                      % (op, arg, tuple(given), tuple(expected), why))


def _no_bias_rule(p):
    return ['data', 'weight'] + ([] if p['no_bias'] else ['bias'])


# ------------------------------------------------------------------------------ FullyConnected
@register('FullyConnected', aliases=('_npx_fully_connected',), named_outputs=True, inputs=('data', 'weight', 'bias'),
          infer_shape=param_shapes.fully_connected,
          params={'num_hidden': (AtLeast(Int, 1), REQUIRED), 'no_bias': (Bool, False),
                  'flatten': (Bool, True)},
          input_rule=_no_bias_rule)
def fully_connected(data, weight, bias, num_hidden, no_bias, flatten):
    """Applies a linear transformation: :math:`Y = XW^T + b`.

    If ``flatten`` is set to be true, then the shapes are:

    - **data**: `(batch_size, x1, x2, ..., xn)`
    - **weight**: `(num_hidden, x1 * x2 * ... * xn)`
    - **bias**: `(num_hidden,)`
    - **out**: `(batch_size, num_hidden)`

    If ``flatten`` is set to be false, then the shapes are:

    - **data**: `(x1, x2, ..., xn, input_dim)`
    - **weight**: `(num_hidden, input_dim)`
    - **bias**: `(num_hidden,)`
    - **out**: `(x1, x2, ..., xn, num_hidden)`
    """
    if bias is not None and not no_bias and data.ndim == 2:
        # the common case: torch checks the input features; MXNet's other shape checks (on
        # meta tensors torch's linear broadcasts a bias of another width)
        ws = weight.shape
        if len(ws) == 2 and ws[0] == num_hidden and bias.shape == (num_hidden,):
            try:
                return _linear(data, weight, bias)
            except RuntimeError:
                pass  # the checks below raise MXNet's error
    if flatten and data.dim() != 2:
        if data.dim() < 1:
            raise MXNetError('FullyConnected: data must have at least one axis, got shape ()')
        data = data.reshape(data.shape[0], -1)
    in_dim = data.shape[-1] if data.dim() else 1
    if weight.shape != (num_hidden, in_dim):
        raise _shape_error('FullyConnected', 'weight', weight.shape, (num_hidden, in_dim),
                           ' (num_hidden, input features%s)'
                           % (' flattened' if flatten else ''))
    if no_bias:
        bias = None
    elif bias is None:
        raise MXNetError('FullyConnected: input bias is missing; pass bias or set no_bias=True')
    elif bias.shape != (num_hidden,):
        raise _shape_error('FullyConnected', 'bias', bias.shape, (num_hidden,))
    try:
        return F.linear(data, weight, bias)
    except RuntimeError:
        for name, t in (('weight', weight), ('bias', bias)):
            if t is not None and t.dtype is not data.dtype:
                raise MXNetError('FullyConnected: %s has dtype %s but data has dtype %s; cast '
                                 'one with astype()' % (name, dtype_name(t.dtype),
                                                        dtype_name(data.dtype))) from None
        raise


# ------------------------------------------------------------------------------ Convolution
def _spatial_params(op, kernel, stride, dilate, pad):
    nd = len(kernel)
    if nd not in (1, 2, 3):
        raise MXNetError('%s: kernel must have 1, 2 or 3 dimensions, got kernel=%s'
                         % (op, kernel))
    stride = stride or (1,) * nd
    dilate = dilate or (1,) * nd
    pad = pad or (0,) * nd
    for name, v in (('stride', stride), ('dilate', dilate), ('pad', pad)):
        if len(v) != nd:
            raise MXNetError('%s: %s must have the same number of dimensions as kernel, but '
                             'kernel is %s while %s is %s' % (op, name, kernel, name, v))
    return nd, stride, dilate, pad


def _check_layout(op, layout, nd, allowed):
    if layout is None:
        return None
    if layout not in allowed or len(layout) != nd + 2:
        raise MXNetError('%s: layout %s does not match a %d-D kernel; use one of %s'
                         % (op, layout, nd, ', '.join(l for l in allowed if len(l) == nd + 2)))
    return layout if layout in _TO_FIRST else None


def _check_data(op, data, nd, last):
    if data.dim() != nd + 2:
        raise MXNetError('%s: data should be %dD in %s for a %d-D kernel, got shape %s'
                         % (op, nd + 2, _SPATIAL_NAMES[nd] if not last
                            else 'channel-last layout %s' % last, nd, tuple(data.shape)))


def _conv(op, data, weight, bias, kernel, stride, dilate, pad, num_filter, num_group, no_bias,
          layout, allowed_layouts):
    nd, stride, dilate, pad = _spatial_params(op, kernel, stride, dilate, pad)
    last = _check_layout(op, layout, nd, allowed_layouts)
    _check_data(op, data, nd, last)
    if last is not None:
        data = data.permute(_TO_FIRST[last])
        weight = weight.permute(_TO_FIRST[last])
    shape = data.shape
    channels = shape[1]
    if channels % num_group or num_filter % num_group:
        raise MXNetError('%s: input channels (%d) and num_filter (%d) must be divisible by '
                         'num_group (%d)' % (op, channels, num_filter, num_group))
    wshape = (num_filter, channels // num_group) + tuple(kernel)
    if weight.shape != wshape:
        given = tuple(weight.shape)
        if last is not None:
            given = tuple(weight.permute(_TO_LAST[last]).shape)
            wshape = tuple(wshape[i] for i in _TO_LAST[last])
        raise _shape_error(op, 'weight', given, wshape,
                           ' (num_filter, in_channels/num_group, *kernel) for data of shape %s'
                           % (tuple(data.shape),))
    if no_bias:
        bias = None
    elif bias is None:
        raise MXNetError('%s: input bias is missing; pass bias or set no_bias=True' % op)
    elif bias.shape != (num_filter,):
        raise _shape_error(op, 'bias', bias.shape, (num_filter,))
    sizes = shape[2:]
    for n, k, d, p in zip(sizes, kernel, dilate, pad):
        if (k - 1) * d + 1 > n + 2 * p:
            raise MXNetError('%s: kernel size %s (dilated by %s) exceeds the padded input %s'
                             % (op, kernel, dilate, tuple(sizes)))
    if num_group == 1 and not data.is_cuda and _one_window(sizes, kernel, stride, dilate, pad) \
            and data.is_floating_point():
        out = _window_product(data, weight, bias, pad)
    else:
        out = _CONV[nd](data, weight, bias, stride, pad, dilate, num_group)
    if last is not None:
        out = out.permute(_TO_LAST[last])
    return out


def _one_window(sizes, kernel, stride, dilate, pad):
    """Whether an undilated kernel fits the padded input at exactly one position per axis,
    with part of it on the input (not only on padding)."""
    for n, k, s, d, p in zip(sizes, kernel, stride, dilate, pad):
        if n + 2 * p - k >= s or d != 1 or p >= k:  # (the usual convolution fails the first)
            return False
    return True


def _window_product(data, weight, bias, pad):
    """The convolution of ``data`` where the kernel has one position (``_one_window``): one
    matrix product of the input pixels under the kernel with the kernel taps that cover them.
    The same sums as the convolution kernels', which on the CPU take several times longer for
    such shapes, backward above all (ResNet-18's last stage on 32x32 images: 3x3 kernels on
    1x1 inputs)."""
    k = weight.shape[2:]
    used = [min(n, kk - p) for n, kk, p in zip(data.shape[2:], k, pad)]
    pixels = data[(Ellipsis,) + tuple(slice(0, u) for u in used)]
    taps = weight[(Ellipsis,) + tuple(slice(p, p + u) for p, u in zip(pad, used))]
    out = _linear(pixels.flatten(1), taps.flatten(1), bias)
    return out.reshape(out.shape + (1,) * len(k))


_CONV_PARAMS = {
    'kernel': (AtLeast(Shape, 1), REQUIRED), 'stride': (AtLeast(Shape, 1), ()),
    'dilate': (AtLeast(Shape, 1), ()), 'pad': (AtLeast(Shape, 0), ()),
    'num_filter': (AtLeast(Int, 1), REQUIRED), 'num_group': (AtLeast(Int, 1), 1),
    'workspace': (Int, 1024), 'no_bias': (Bool, False),
    'cudnn_tune': (Enum(None, 'off', 'limited_workspace', 'fastest'), None),
    'cudnn_off': (Bool, False),
}
_CONV_LAYOUTS = ('NCW', 'NCHW', 'NCDHW', 'NHWC', 'NDHWC')
_CONV_V1_LAYOUTS = ('NCHW', 'NHWC', 'NCDHW', 'NDHWC')


@register('Convolution', aliases=('_npx_convolution',), named_outputs=True, inputs=('data', 'weight', 'bias'),
          infer_shape=param_shapes.convolution,
          params=dict(_CONV_PARAMS, layout=(Enum(None, *_CONV_LAYOUTS), None)),
          input_rule=_no_bias_rule)
def convolution(data, weight, bias=None, *, kernel, stride, dilate, pad, num_filter, num_group,
                workspace, no_bias, cudnn_tune, cudnn_off, layout):
    """Compute *N*-D convolution on *(N+2)*-D input.

    data: (batch_size, channel, height, width); weight: (num_filter, channel/num_group,
    kernel[0], kernel[1]); bias: (num_filter,); out: (batch_size, num_filter, out_height,
    out_width) with ``out_height = floor((height + 2*pad[0] - dilate[0]*(kernel[0]-1) - 1)
    / stride[0]) + 1``. 1-D and 3-D kernels work the same way.
    """
    return _conv('Convolution', data, weight, bias, kernel, stride, dilate, pad, num_filter,
                 num_group, no_bias, layout, _CONV_LAYOUTS)


@register('Convolution_v1', named_outputs=True, merges=False, inputs=('data', 'weight', 'bias'),
          infer_shape=param_shapes.convolution,
          params=dict(_CONV_PARAMS, layout=(Enum(None, *_CONV_V1_LAYOUTS), None)),
          input_rule=_no_bias_rule)
def convolution_v1(data, weight, bias=None, *, kernel, stride, dilate, pad, num_filter, num_group,
                   workspace, no_bias, cudnn_tune, cudnn_off, layout):
    """This operator is DEPRECATED. Apply convolution to input then add a bias."""
    if len(kernel) not in (2, 3):
        raise MXNetError('Convolution_v1: kernel must be (h, w) or (d, h, w), got %s'
                         % (kernel,))
    return _conv('Convolution_v1', data, weight, bias, kernel, stride, dilate, pad,
                 num_filter, num_group, no_bias, layout, _CONV_V1_LAYOUTS)


# ------------------------------------------------------------------------------ Deconvolution
@register('Deconvolution', aliases=('_npx_deconvolution',), named_outputs=True, inputs=('data', 'weight', 'bias'),
          infer_shape=param_shapes.deconvolution,
          params={'kernel': (AtLeast(Shape, 1), REQUIRED), 'stride': (AtLeast(Shape, 1), ()),
                  'dilate': (AtLeast(Shape, 1), ()), 'pad': (AtLeast(Shape, 0), ()),
                  'adj': (AtLeast(Shape, 0), ()), 'target_shape': (AtLeast(Shape, 0), ()),
                  'num_filter': (AtLeast(Int, 1), REQUIRED), 'num_group': (AtLeast(Int, 1), 1),
                  'workspace': (Int, 512), 'no_bias': (Bool, True),
                  'cudnn_tune': (Enum(None, 'off', 'limited_workspace', 'fastest'), None),
                  'cudnn_off': (Bool, False),
                  'layout': (Enum(None, *_CONV_LAYOUTS), None)},
          input_rule=_no_bias_rule)
def deconvolution(data, weight, bias=None, *, kernel, stride, dilate, pad, adj, target_shape,
                  num_filter, num_group, workspace, no_bias, cudnn_tune, cudnn_off, layout):
    """Computes 1D, 2D or 3D transposed convolution (aka fractionally strided convolution) of
    the input tensor.

    weight: (channel, num_filter/num_group, kernel...). The output size along each spatial
    axis is ``stride*(in-1) + dilate*(kernel-1) + 1 - 2*pad + adj``; when ``target_shape`` is
    set, ``pad`` and ``adj`` are derived so that the output has that size.
    """
    op = 'Deconvolution'
    nd, stride, dilate, pad = _spatial_params(op, kernel, stride, dilate, pad)
    adj = adj or (0,) * nd
    if len(adj) != nd:
        raise MXNetError('%s: adj must have the same number of dimensions as kernel, but '
                         'kernel is %s while adj is %s' % (op, kernel, adj))
    last = _check_layout(op, layout, nd, _CONV_LAYOUTS)
    _check_data(op, data, nd, last)
    if last is not None:
        data = data.permute(_TO_FIRST[last])
        weight = weight.permute(_TO_FIRST[last])
    channels = data.shape[1]
    if channels % num_group or num_filter % num_group:
        raise MXNetError('%s: input channels (%d) and num_filter (%d) must be divisible by '
                         'num_group (%d)' % (op, channels, num_filter, num_group))
    wshape = (channels, num_filter // num_group) + tuple(kernel)
    if weight.shape != wshape:
        raise _shape_error(op, 'weight', weight.shape if last is None
                           else weight.permute(_TO_LAST[last]).shape,
                           wshape if last is None else [wshape[i] for i in _TO_LAST[last]],
                           ' (in_channels, num_filter/num_group, *kernel) for data of shape %s'
                           % (tuple(data.shape),))
    if no_bias:
        bias = None
    elif bias is None:
        raise MXNetError('%s: input bias is missing; pass bias or set no_bias=False' % op)
    elif bias.shape != (num_filter,):
        raise _shape_error(op, 'bias', bias.shape, (num_filter,))
    if any(target_shape):
        if len(target_shape) != nd:
            raise MXNetError('%s: target_shape %s must have as many dimensions as kernel %s'
                             % (op, target_shape, kernel))
        pads, adjs = [], []
        for i in range(nd):
            full = stride[i] * (data.shape[2 + i] - 1) + dilate[i] * (kernel[i] - 1) + 1
            if full < target_shape[i]:
                raise MXNetError('%s: target_shape %s is too big for input %s'
                                 % (op, target_shape, tuple(data.shape[2:])))
            extra = full - target_shape[i]
            adjs.append(extra % 2)
            pads.append((extra + 1) // 2)
        pad, adj = tuple(pads), tuple(adjs)
    for i in range(nd):
        if adj[i] > stride[i] - 1:
            raise MXNetError('%s: adj %s must be smaller than stride %s' % (op, adj, stride))
    out = _DECONV[nd](data, weight, bias, stride, pad, adj, num_group, dilate)
    if last is not None:
        out = out.permute(_TO_LAST[last])
    return out


# ------------------------------------------------------------------------------ Embedding
@register('Embedding', aliases=('_npx_embedding',), inputs=('data', 'weight'),
          infer_shape=param_shapes.embedding,
          params={'input_dim': (AtLeast(Int, 1), REQUIRED),
                  'output_dim': (AtLeast(Int, 1), REQUIRED),
                  'dtype': (DType, 'float32'), 'sparse_grad': (Bool, False)})
def embedding(data, weight, *, input_dim, output_dim, dtype, sparse_grad):
    """Maps integer indices to vector representations (embeddings).

    ``data`` holds indices (usually as floats, truncated to integers); indices outside
    ``[0, input_dim)`` are clipped into that range. weight: (input_dim, output_dim);
    out: data.shape + (output_dim,).
    """
    if sparse_grad:
        raise NotImplementedError('Embedding(sparse_grad=True): row_sparse gradients are not '
                                  'supported by mxcompat; use sparse_grad=False')
    if weight.shape != (input_dim, output_dim):
        raise _shape_error('Embedding', 'weight', weight.shape, (input_dim, output_dim),
                           ' (input_dim, output_dim)')
    return F.embedding(data.long().clamp(0, input_dim - 1), weight)
