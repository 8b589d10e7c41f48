"""Pooling, Pooling_v1 and UpSampling.

MXNet's window rules, per spatial axis of size L with kernel k, stride s, pad p:

* 'valid' convention: ``out = 1 + (L + 2p - k) // s``;
* 'full': ``out = 1 + ceil((L + 2p - k) / s)`` -- unlike torch's ceil_mode, a last window that
  starts in the right padding is kept;
* 'same': ``out = ceil((L + 2p) / s)``.

Windows are clipped to the input (max ignores padding; avg divides by the window clipped to
``L + p``, or by its valid part when ``count_include_pad=False``). A 'full' window that holds
no element averages to 0, except in 3-D, where MXNet's kernels give NaN when its divisor is 0.
When torch's pooling gives the same windows (the common case) it is called directly;
otherwise the input is padded explicitly.
"""
import math

import torch
import torch.nn.functional as F

from ..base import MXNetError
from . import param_shapes
from .elemwise_unary import _cube_root, _input_grad
from .registry import register, REQUIRED, Int, Bool, Shape, Opt, Enum, AtLeast

_MAX = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}
_AVG = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}
_CHANNEL_LAST = {'NWC': 3, 'NHWC': 4, 'NDHWC': 5}
_CHANNEL_FIRST = {'NCW': 3, 'NCHW': 4, 'NCDHW': 5}
_DATA_DESC = {3: '(batch, channel, x)', 4: '(batch, channel, y, x)',
              5: '(batch, channel, d, y, x)'}


def _sum_pool(x, kernel, stride, pad, ceil_mode=False):
    """Window sums (avg_pool with divisor 1); 1-D goes through the 2-D kernel."""
    if len(kernel) == 1:
        return F.avg_pool2d(x.unsqueeze(-2), (1, kernel[0]), (1, stride[0]), (0, pad[0]),
                            ceil_mode, True, 1).squeeze(-2)
    return _AVG[len(kernel)](x, kernel, stride, pad, ceil_mode, True, 1)


def _out_size(L, k, s, p, convention):
    if convention == 'valid':
        return 1 + (L + 2 * p - k) // s
    if convention == 'full':
        return 1 + int(math.ceil((L + 2 * p - k) / s))
    return int(math.ceil((L + 2 * p) / s))


def _torch_matches(sizes, outs, kernel, stride, pad, ceil_mode):
    """Whether torch's pooling (with ceil_mode) makes exactly MXNet's windows."""
    for L, o, k, s, p in zip(sizes, outs, kernel, stride, pad):
        if 2 * p > k:
            return False
        t = (L + 2 * p - k + (s - 1 if ceil_mode else 0)) // s + 1
        if ceil_mode and (t - 1) * s >= L + p:
            t -= 1
        if t != o:
            return False
    return True


def _window_counts(x, sizes, outs, kernel, stride, pad, include_pad):
    """Divisor of each output of MXNet's avg pooling, as a tensor broadcastable to the output:
    the product of the per-axis window sizes, which is 0 or negative only for a window that
    holds no element (whose sum is 0)."""
    nd = len(kernel)
    total = None
    for d, (L, o, k, s, p) in enumerate(zip(sizes, outs, kernel, stride, pad)):
        start = torch.arange(o, device=x.device) * s - p
        if include_pad:
            cnt = torch.clamp(start + k, max=L + p) - start
        else:
            cnt = torch.clamp(start + k, max=L) - torch.clamp(start, min=0)
        cnt = cnt.to(x.dtype).reshape((o,) + (1,) * (nd - 1 - d))
        total = cnt if total is None else total * cnt
    return total


def _pool_padded(x, pool_type, kernel, stride, pad, outs, count_include_pad, p_value):
    """MXNet pooling through explicit padding, for windows torch's pooling cannot express."""
    sizes = x.shape[2:]
    pads = []
    for L, o, k, s, p in zip(sizes, outs, kernel, stride, pad):
        pads = [p, (o - 1) * s + k - L - p] + pads  # F.pad lists the last axis first
    nd = len(kernel)
    zero = (0,) * nd
    if pool_type == 'max':
        # MXNet's empty windows (entirely in the padding) give the lowest finite value
        xp = F.pad(x, pads, value=torch.finfo(x.dtype).min)
        return _MAX[nd](xp, kernel, stride, zero)
    if pool_type == 'lp':
        x = x if p_value == 1 else x ** p_value
    sums = _sum_pool(F.pad(x, pads), kernel, stride, zero)
    if pool_type == 'avg':
        counts = _window_counts(x, sizes, outs, kernel, stride, pad, count_include_pad)
        out = sums / counts.clamp(min=1)
        if nd == 3:  # MXNet's 3-D kernels (CPU and GPU) give NaN where the divisor is 0
            out = torch.where(counts == 0, float('nan'), out)
        return out
    return sums


def _square_root_grad(g, s):
    # MXNet's lp backward gives 0 where a window's norm is 0 (a window of zeros, as after a
    # relu), where the root's derivative is infinite and torch's chain rule gives NaN
    root = torch.sqrt(s)
    return torch.where(root == 0, 0.0, g / (2 * root))


def _cube_root_grad(g, s):
    root = _cube_root(s)
    return torch.where(root == 0, 0.0, g / (3 * root * root))


_LP_ROOT = {
    2: _input_grad('_LpRoot2', torch.sqrt, _square_root_grad,
                   'Square root of lp pooling sums, with MXNet\'s gradient (0 at 0).'),
    3: _input_grad('_LpRoot3', _cube_root, _cube_root_grad,
                   'Cube root (cbrt) of lp pooling sums, with MXNet\'s gradient (0 at 0).')}


def _lp_root(s, p_value):
    return s if p_value == 1 else _LP_ROOT[p_value](s)


def _global_pool(x, pool_type, dims, p_value):
    if pool_type == 'max':
        return x.amax(dims, keepdim=True)
    if pool_type == 'avg':
        return x.mean(dims, keepdim=True)
    if pool_type == 'sum':
        return x.sum(dims, keepdim=True)
    return _lp_root((x if p_value == 1 else x ** p_value).sum(dims, keepdim=True), p_value)


@register('Pooling', aliases=('_npx_pooling',), named_outputs=True,
          params={'kernel': (Shape, ()), 'pool_type': (Enum('max', 'avg', 'sum', 'lp'), 'max'),
                  'global_pool': (Bool, False), 'cudnn_off': (Bool, False),
                  'pooling_convention': (Enum('full', 'valid', 'same'), 'valid'),
                  'stride': (AtLeast(Shape, 1), ()), 'pad': (AtLeast(Shape, 0), ()), 'p_value': (Opt(Int), None),
                  'count_include_pad': (Opt(Bool), None),
                  'layout': (Enum(None, 'NCW', 'NCHW', 'NCDHW', 'NWC', 'NHWC', 'NDHWC'), None)})
def pooling(data, *, kernel, pool_type, global_pool, cudnn_off, pooling_convention, stride, pad,
            p_value, count_include_pad, layout):
    """Performs pooling on the input.

    The shapes for 1-D pooling are data and out: (batch_size, channel, width) (NCW layout)
    or (batch_size, width, channel) (NWC layout); 2-D and 3-D pooling add height and depth.
    The output width is ``floor((x+2*p-k)/s)+1`` for ``pooling_convention='valid'`` and
    ``ceil((x+2*p-k)/s)+1`` for 'full'. ``pool_type`` is one of max, avg, sum and lp
    (``p_value`` 1, 2 or 3); ``global_pool`` pools over all spatial axes, ignoring kernel.
    """
    ndim = data.dim()
    if ndim not in (3, 4, 5):
        raise MXNetError('Pooling: data should be 3D in (batch, channel, x), 4D in (batch, '
                         'channel, y, x) or 5D in (batch, channel, d, y, x), got shape %s'
                         % (tuple(data.shape),))
    if pool_type == 'lp':
        if p_value is None:
            raise MXNetError('Pooling: pool_type=\'lp\' needs p_value (1, 2 or 3)')
        if p_value not in (1, 2, 3):
            raise MXNetError('Pooling: p value of %d is not supported, use 1, 2 or 3'
                             % p_value)
    if layout is None and kernel and not global_pool:
        layout = ('NCW', 'NCHW', 'NCDHW')[len(kernel) - 1]
    channel_last = layout in _CHANNEL_LAST
    if layout is not None and (_CHANNEL_LAST.get(layout) or _CHANNEL_FIRST[layout]) != ndim:
        raise MXNetError('Pooling: data should be %dD in layout %s, got shape %s'
                         % ((_CHANNEL_LAST.get(layout) or _CHANNEL_FIRST[layout]), layout,
                            tuple(data.shape)))
    if global_pool:
        dims = tuple(range(1, ndim - 1)) if channel_last else tuple(range(2, ndim))
        return _global_pool(data, pool_type, dims, p_value)
    nd = len(kernel)
    if nd == 0:
        raise MXNetError('Pooling: kernel must be given unless global_pool=True')
    if nd + 2 != ndim:
        raise MXNetError('Pooling: data should be %dD in %s for kernel %s, got shape %s'
                         % (nd + 2, _DATA_DESC[nd + 2], kernel, tuple(data.shape)))
    stride = stride or (1,) * nd
    pad = pad or (0,) * nd
    if len(stride) < nd or len(pad) < nd:
        raise MXNetError('Pooling: stride %s and pad %s must have as many dimensions as '
                         'kernel %s' % (stride, pad, kernel))
    if pooling_convention == 'same':
        if nd != 1 or any(pad):
            raise MXNetError("Pooling: pooling_convention='same' supports 1-D data "
                             "(batch, channel, x) without pad, got data %s and pad %s"
                             % (tuple(data.shape), pad))
    stride, pad = stride[:nd], pad[:nd]
    if data.dtype == torch.float16 and (pool_type == 'lp' or nd == 3 and pool_type != 'max'):
        # MXNet's pooling of float16 data sums in float32: lp pooling takes powers and sums in
        # float32 (float16 powers lose the gradient near zero sums, differently on each device);
        # torch's CPU avg_pool3d has no float16 kernel, and its CUDA backward adds the gradients
        # of overlapping windows with float16 atomics (MXNet's test_pooling_versions saw 0.78)
        return pooling(data.float(), kernel=kernel, pool_type=pool_type, global_pool=False,
                       cudnn_off=cudnn_off, pooling_convention=pooling_convention,
                       stride=stride, pad=pad, p_value=p_value,
                       count_include_pad=count_include_pad, layout=layout).half()
    x = data.movedim(-1, 1) if channel_last else data
    if x.is_cuda and pool_type != 'max' and any(pad) and not x.is_contiguous():
        # torch's CUDA avg_pool backward for channels-last strides ignores the padding
        # (pytorch/pytorch#188344): a transposed NWC/NHWC input got wrong gradients
        x = x.contiguous()
    sizes = x.shape[2:]
    for L, k, p in zip(sizes, kernel, pad):
        if k > L + 2 * p:
            raise MXNetError('Pooling: kernel size %s exceeds input %s padded by %s'
                             % (kernel, tuple(sizes), pad))
    outs = [_out_size(L, k, s, p, pooling_convention)
            for L, k, s, p in zip(sizes, kernel, stride, pad)]
    ceil_mode = pooling_convention != 'valid'
    include_pad = count_include_pad is None or count_include_pad
    if _torch_matches(sizes, outs, kernel, stride, pad, ceil_mode):
        if pool_type == 'max':
            out = _MAX[nd](x, kernel, stride, pad, 1, ceil_mode)
        elif pool_type == 'avg':
            out = _AVG[nd](x, kernel, stride, pad, ceil_mode, include_pad)
        elif pool_type == 'sum':
            out = _sum_pool(x, kernel, stride, pad, ceil_mode)
        else:
            out = _sum_pool(x if p_value == 1 else x ** p_value, kernel, stride, pad, ceil_mode)
    else:
        out = _pool_padded(x, pool_type, kernel, stride, pad, outs, include_pad, p_value)
    if pool_type == 'lp':
        out = _lp_root(out, p_value)
    return out.movedim(1, -1) if channel_last else out


@register('Pooling_v1', named_outputs=True, merges=False,
          params={'kernel': (Shape, ()), 'pool_type': (Enum('max', 'avg', 'sum'), 'max'),
                  'global_pool': (Bool, False),
                  'pooling_convention': (Enum('full', 'valid'), 'valid'),
                  'stride': (AtLeast(Shape, 1), ()), 'pad': (AtLeast(Shape, 0), ())})
def pooling_v1(data, *, kernel, pool_type, global_pool, pooling_convention, stride, pad):
    """This operator is DEPRECATED. Perform pooling on the input.

    Unlike Pooling, the input is zero-padded before pooling (max pooling sees the zeros) and
    avg pooling always divides by the kernel area.
    """
    if data.dim() not in (4, 5):
        raise MXNetError('Pooling_v1: data should be 4D in (batch, channel, y, x) or 5D in '
                         '(batch, channel, d, y, x), got shape %s' % (tuple(data.shape),))
    if global_pool:
        kernel = tuple(data.shape[2:])
        stride = (1,) * len(kernel)
        pad = (0,) * len(kernel)
    nd = len(kernel)
    if nd != 2:
        raise MXNetError('Pooling_v1: only 2-D kernels (y, x) are implemented, got kernel %s'
                         % (kernel,))
    if data.dim() != nd + 2:
        raise MXNetError('Pooling_v1: data should be 4D in (batch, channel, y, x) for kernel '
                         '%s, got shape %s' % (kernel, tuple(data.shape)))
    stride = stride or (1,) * nd
    pad = pad or (0,) * nd
    sizes = data.shape[2:]
    for L, k, p in zip(sizes, kernel, pad):
        if k > L + 2 * p:
            raise MXNetError('Pooling_v1: kernel size %s exceeds input %s padded by %s'
                             % (kernel, tuple(sizes), pad))
    outs = [_out_size(L, k, s, p, pooling_convention)
            for L, k, s, p in zip(sizes, kernel, stride, pad)]
    x = F.pad(data, [q for p in reversed(pad) for q in (p, p)]) if any(pad) else data
    # windows running past the padded input are clipped: pad them with a neutral value
    extra = [max(0, (o - 1) * s + k - (L + 2 * p))
             for L, o, k, s, p in zip(sizes, outs, kernel, stride, pad)]
    if any(extra):
        x = F.pad(x, [q for e in reversed(extra) for q in (0, e)],
                  value=torch.finfo(x.dtype).min if pool_type == 'max' else 0.0)
    zero = (0,) * nd
    if pool_type == 'max':
        return _MAX[nd](x, kernel, stride, zero)
    out = _sum_pool(x, kernel, stride, zero)
    if pool_type == 'avg':
        out = out / math.prod(kernel)
    return out


def _nearest(x, scale):
    if scale == 1:
        return x
    n, c, h, w = x.shape
    return x[:, :, :, None, :, None].expand(n, c, h, scale, w, scale).reshape(
        n, c, h * scale, w * scale)


@register('UpSampling', named_outputs=True,
          # MXNet gives its second input a bilinear initializer whatever the sample_type
          input_init={'weight': '["bilinear", {}]', 'arg1': '["bilinear", {}]'},
          inputs=('*data',), key_var_num_args='num_args',
          infer_shape=param_shapes.upsampling,
          params={'scale': (Int, REQUIRED), 'num_filter': (Int, 0),
                  'sample_type': (Enum('nearest', 'bilinear'), REQUIRED),
                  'multi_input_mode': (Enum('concat', 'sum'), 'concat'),
                  'num_args': (Int, REQUIRED), 'workspace': (Int, 512)},
          input_rule=lambda p: (['data', 'weight'] if p['sample_type'] == 'bilinear'
                                else ['arg%d' % i for i in range(p['num_args'])]))
def upsampling(*data, scale, num_filter, sample_type, multi_input_mode, num_args, workspace):
    """Upsamples the given input data.

    ``nearest``: each input (NCHW) is repeated to ``scale`` times the first input's height and
    width; several inputs are concatenated along the channels (or summed with
    ``multi_input_mode='sum'``). ``bilinear``: inputs are data and a weight of shape
    (channels, 1, 2*scale - scale%2, 2*scale - scale%2), applied as a depthwise
    deconvolution with stride ``scale``; ``num_filter`` must equal the number of channels.
    """
    if not data:
        raise MXNetError('UpSampling: at least one input is required')
    for i, x in enumerate(data):
        if x.dim() != 4:
            raise MXNetError('UpSampling: input %d should be 4D in (batch, channel, y, x), got '
                             'shape %s' % (i, tuple(x.shape)))
    if sample_type == 'bilinear':
        if len(data) != 2:
            raise MXNetError('UpSampling: bilinear sampling takes 2 inputs (data, weight), got '
                             '%d' % len(data))
        x, weight = data
        channels = x.shape[1]
        kernel = 2 * scale - scale % 2
        if num_filter != channels:
            raise MXNetError('UpSampling: num_filter (%d) must equal the number of channels of '
                             'data (%d) for bilinear sampling' % (num_filter, channels))
        if weight.shape != (channels, 1, kernel, kernel):
            raise MXNetError('UpSampling: shape of weight is %s but %s expected'
                             % (tuple(weight.shape), (channels, 1, kernel, kernel)))
        return F.conv_transpose2d(x, weight, None, scale, scale // 2, 0, channels)
    oh, ow = data[0].shape[2] * scale, data[0].shape[3] * scale
    outs = []
    for i, x in enumerate(data):
        s = oh // x.shape[2]
        if oh % x.shape[2] or x.shape[3] * s != ow:
            raise MXNetError('UpSampling: input %d of shape %s cannot be scaled to the output '
                             'size (%d, %d) by one integer factor' % (i, tuple(x.shape), oh, ow))
        outs.append(_nearest(x, s))
    if len(outs) == 1:
        return outs[0]
    if multi_input_mode == 'sum':
        if any(o.shape[1] != outs[0].shape[1] for o in outs):
            raise MXNetError('UpSampling: number of channels must be the same when '
                             'multi_input_mode=sum, got %s' % [tuple(x.shape) for x in data])
        return sum(outs[1:], outs[0])
    return torch.cat(outs, 1)
