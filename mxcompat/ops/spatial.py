"""Spatial operators: BilinearSampler, GridGenerator, SpatialTransformer, ROIPooling, Crop and
Correlation.

MXNet's sampling grids are normalized to [-1, 1] with -1 and 1 on the centres of the corner
pixels (torch's ``align_corners=True``), and samples that fall outside the input read zeros.
"""
import math

import torch
import torch.nn.functional as F

from ..base import MXNetError
from .registry import register, REQUIRED, Int, Float, Bool, Shape, Opt, Enum


def _sample(data, grid):
    """Bilinear sampling of NCHW ``data`` at the (x, y) positions of ``grid`` (N, 2, H, W)."""
    g = grid.permute(0, 2, 3, 1)
    if data.dtype == torch.float16 and data.device.type == 'cpu':
        return F.grid_sample(data.float(), g.float(), 'bilinear', 'zeros', True).half()
    return F.grid_sample(data, g, 'bilinear', 'zeros', True)


def _check_4d(opname, argname, t):
    if t is None or t.dim() != 4:
        raise MXNetError('%s: %s must be a 4D array (batch, channel, height, width), got %s'
                         % (opname, argname, None if t is None else tuple(t.shape)))


@register('BilinearSampler', named_outputs=True, merges=False,
          inputs=('data', 'grid'), params={'cudnn_off': (Opt(Bool), None)})
def bilinear_sampler(data, grid, *, cudnn_off):
    """Applies bilinear sampling to input feature map.

    ``grid`` (batch, 2, out_height, out_width) holds the source x and y of every output pixel,
    normalized to [-1, 1]; points outside the input are padded with zeros."""
    _check_4d('BilinearSampler', 'data', data)
    _check_4d('BilinearSampler', 'grid', grid)
    if grid.shape[1] != 2 or grid.shape[0] != data.shape[0]:
        raise MXNetError('BilinearSampler: grid must have shape (%d, 2, h, w), got %s'
                         % (data.shape[0], tuple(grid.shape)))
    return _sample(data, grid)


def _affine_target(opname, target_shape):
    if not target_shape or len(target_shape) != 2 or target_shape[0] <= 0 \
            or target_shape[1] <= 0:
        raise MXNetError('%s: target_shape must be a positive (height, width), got %s'
                         % (opname, target_shape))
    return target_shape


def _step(size):
    return 2.0 / (size - 1) if size > 1 else math.inf


@register('GridGenerator', named_outputs=True, merges=False, inputs=('data',),
          params={'transform_type': (Enum('affine', 'warp'), REQUIRED),
                  'target_shape': (Shape, (0, 0))})
def grid_generator(data, *, transform_type, target_shape):
    """Generates 2D sampling grid for bilinear sampling.

    ``affine``: ``data`` (batch, 6) holds affine matrices; the result (batch, 2, H, W) maps the
    target grid of ``target_shape`` through them. ``warp``: ``data`` (batch, 2, H, W) is an
    optical flow in pixels, added to the identity grid and normalized."""
    if transform_type == 'affine':
        h, w = _affine_target('GridGenerator', target_shape)
        if data.dim() != 2 or data.shape[1] != 6:
            raise MXNetError('GridGenerator: affine data must have shape (batch, 6), got %s'
                             % (tuple(data.shape),))
        dt, dev = data.dtype, data.device
        # MXNet rounds the step 2/(size-1) to the data type before scaling the pixel index;
        # a size of 1 makes its step infinite and the coordinates NaN (0 * inf)
        xs = torch.arange(w, dtype=dt, device=dev) * torch.tensor(_step(w), dtype=dt) - 1
        ys = torch.arange(h, dtype=dt, device=dev) * torch.tensor(_step(h), dtype=dt) - 1
        base = torch.stack([xs.repeat(h), ys.repeat_interleave(w),
                            torch.ones(h * w, dtype=dt, device=dev)])
        return torch.matmul(data.reshape(-1, 2, 3), base).reshape(data.shape[0], 2, h, w)
    _check_4d('GridGenerator', 'data', data)
    if data.shape[1] != 2:
        raise MXNetError('GridGenerator: warp data must have shape (batch, 2, h, w), got %s'
                         % (tuple(data.shape),))
    h, w = data.shape[2], data.shape[3]
    dt, dev = data.dtype, data.device
    xs = torch.arange(w, dtype=dt, device=dev).expand(h, w)
    ys = torch.arange(h, dtype=dt, device=dev).unsqueeze(1).expand(h, w)
    scale = torch.tensor([(w - 1) / 2.0, (h - 1) / 2.0], dtype=dt, device=dev).view(1, 2, 1, 1)
    return (data + torch.stack([xs, ys])) / scale - 1


@register('SpatialTransformer', named_outputs=True, merges=False, inputs=('data', 'loc'),
          params={'target_shape': (Shape, (0, 0)),
                  'transform_type': (Enum('affine'), REQUIRED),
                  'sampler_type': (Enum('bilinear'), REQUIRED),
                  'cudnn_off': (Opt(Bool), None)})
def spatial_transformer(data, loc, *, target_shape, transform_type, sampler_type, cudnn_off):
    """Applies a spatial transformer to input feature map: the affine matrices ``loc``
    (batch, 6) map a ``target_shape`` grid into ``data``, which is sampled bilinearly."""
    _check_4d('SpatialTransformer', 'data', data)
    if loc is None or loc.dim() != 2 or loc.shape[1] != 6:
        raise MXNetError('SpatialTransformer: loc must have shape (batch, 6), got %s'
                         % (None if loc is None else tuple(loc.shape),))
    h, w = _affine_target('SpatialTransformer', target_shape)
    dt, dev = data.dtype, data.device
    # MXNet computes the target grid in double precision, then stores it in the data type
    idx = torch.arange(h * w, dtype=torch.float64, device=dev)
    base = torch.stack([-1.0 + torch.remainder(idx, w) * 2.0 / (w - 1),
                        -1.0 + torch.div(idx, w, rounding_mode='floor') * 2.0 / (h - 1),
                        torch.ones_like(idx)]).to(dt)
    grid = torch.matmul(loc.reshape(-1, 2, 3), base).reshape(data.shape[0], 2, h, w)
    return _sample(data, grid)


# ---------------------------------------------------------------------------------------------
# ROIPooling
# ---------------------------------------------------------------------------------------------

def _round_half_away(t):
    return torch.sign(t) * torch.floor(t.abs() + 0.5)


def _bins(start, size, pooled, limit, dt):
    """[start, end) of every pooling bin: (rois, pooled) each, clipped to [0, limit]."""
    step = size.to(dt) / pooled
    p = torch.arange(pooled, dtype=dt, device=size.device)
    lo = torch.floor(p * step.unsqueeze(1)).long() + start.unsqueeze(1)
    hi = torch.ceil((p + 1) * step.unsqueeze(1)).long() + start.unsqueeze(1)
    return lo.clamp(0, limit), hi.clamp(0, limit)


def _window(lo, hi, limit):
    """Indices (rois, pooled, k) covering every bin, with a mask of the valid ones."""
    k = max(int((hi - lo).max()), 1) if lo.numel() else 1
    idx = lo.unsqueeze(2) + torch.arange(k, device=lo.device)
    return idx.clamp(max=limit - 1), idx < hi.unsqueeze(2)


@register('ROIPooling', aliases=('_npx_roi_pooling',), named_outputs=True, merges=False, inputs=('data', 'rois'),
          params={'pooled_size': (Shape, REQUIRED), 'spatial_scale': (Float, REQUIRED)})
def roi_pooling(data, rois, *, pooled_size, spatial_scale):
    """Performs region of interest(ROI) pooling on the input array.

    ``rois`` (num_rois, 5) holds [batch_index, x1, y1, x2, y2] in input-image coordinates,
    scaled by ``spatial_scale``; each region is max-pooled to ``pooled_size`` (h, w). Bins that
    fall outside the feature map, and rois with an invalid batch index, give 0."""
    _check_4d('ROIPooling', 'data', data)
    if rois is None or rois.dim() != 2 or rois.shape[1] != 5:
        raise MXNetError('ROIPooling: rois must have shape (num_rois, 5), got %s'
                         % (None if rois is None else tuple(rois.shape),))
    if len(pooled_size) != 2 or min(pooled_size) <= 0:
        raise MXNetError('ROIPooling: pooled_size must be a positive (h, w), got %s'
                         % (pooled_size,))
    if rois.dtype != data.dtype:
        raise MXNetError('ROIPooling: rois dtype %s differs from data dtype %s'
                         % (rois.dtype, data.dtype))
    n, c, h, w = data.shape
    ph, pw = pooled_size
    dt = data.dtype
    r = rois.detach()
    # the scale is a float32 parameter in MXNet; the product is taken in the data type
    scaled = _round_half_away(r[:, 1:] * float(torch.tensor(spatial_scale,
                                                            dtype=torch.float32))).long()
    x1, y1, x2, y2 = scaled.unbind(1)
    batch = r[:, 0].long()
    hlo, hhi = _bins(y1, (y2 - y1 + 1).clamp(min=1), ph, h, dt)
    wlo, whi = _bins(x1, (x2 - x1 + 1).clamp(min=1), pw, w, dt)
    hidx, hok = _window(hlo, hhi, h)
    widx, wok = _window(wlo, whi, w)
    num, kh, kw = rois.shape[0], hidx.shape[2], widx.shape[2]
    bsafe = batch.clamp(0, n - 1)
    # gathered: (rois, ph, kh, pw, kw, c)
    vals = data[bsafe.view(-1, 1, 1, 1, 1), :, hidx.view(num, ph, kh, 1, 1),
                widx.view(num, 1, 1, pw, kw)]
    ok = hok.view(num, ph, kh, 1, 1) & wok.view(num, 1, 1, pw, kw)
    vals = vals.masked_fill(~ok.unsqueeze(5), float('-inf'))
    vals = vals.permute(0, 5, 1, 3, 2, 4).reshape(num, c, ph, pw, kh * kw)
    # max with an index routes the gradient to the first maximum, as MXNet's argmax does
    out = vals.max(4)[0]
    empty = (hhi <= hlo).view(num, 1, ph, 1) | (whi <= wlo).view(num, 1, 1, pw) | \
        ((batch < 0) | (batch >= n)).view(num, 1, 1, 1)
    return out.masked_fill(empty, 0)


# ---------------------------------------------------------------------------------------------
# Crop
# ---------------------------------------------------------------------------------------------

@register('Crop', monitor_prefix='arg', named_outputs=True, merges=False,
          inputs=('*data',), key_var_num_args='num_args',
          params={'num_args': (Int, REQUIRED), 'offset': (Shape, (0, 0)),
                  'h_w': (Shape, (0, 0)), 'center_crop': (Bool, False)})
def crop(*data, num_args, offset, h_w, center_crop):
    """Crop the 2nd and 3rd dim of input data, with the corresponding size of h_w or with width
    and height of the second input symbol, i.e., with one input, we need h_w to specify the
    crop height and width, otherwise the second input symbol's size will be used.

    .. note:: `Crop` is deprecated. Use `slice` instead."""
    if len(data) not in (1, 2):
        raise MXNetError('Crop: takes 1 or 2 inputs (data and optionally crop_like), got %d'
                         % len(data))
    x = data[0]
    _check_4d('Crop', 'data', x)
    if x.dtype != torch.float32:
        raise MXNetError('Crop: data must be float32, got %s' % str(x.dtype)[6:])
    if len(data) == 2:
        _check_4d('Crop', 'crop_like', data[1])
        oh, ow = data[1].shape[2], data[1].shape[3]
    else:
        oh, ow = h_w
        if not (1 <= oh <= x.shape[2] and 1 <= ow <= x.shape[3]):
            raise MXNetError('Crop: h_w=%s must be at least 1 and at most the input size %s'
                             % (h_w, tuple(x.shape[2:])))
    h, w = x.shape[2], x.shape[3]
    if oh > h or ow > w:
        raise MXNetError('Crop: the crop (%d, %d) is larger than the input (%d, %d)'
                         % (oh, ow, h, w))
    if center_crop:
        y0, x0 = (h - oh) // 2, (w - ow) // 2
    else:
        y0, x0 = offset
        if not (0 <= y0 <= h - oh and 0 <= x0 <= w - ow):
            raise MXNetError('Crop: offset %s must lie in [0, %d] x [0, %d]'
                             % (offset, h - oh, w - ow))
    return x[:, :, y0:y0 + oh, x0:x0 + ow].clone(memory_format=torch.contiguous_format)


# ---------------------------------------------------------------------------------------------
# Correlation
# ---------------------------------------------------------------------------------------------

def _abs_diff(a, b):
    # MXNet's gradient of |a - b| is +1 for a where a >= b (also at a == b), -1 otherwise
    diff = a - b
    return diff * torch.where(diff >= 0, 1.0, -1.0).to(diff.dtype)


@register('Correlation', named_outputs=True, merges=False, inputs=('data1', 'data2'),
          params={'kernel_size': (Int, 1), 'max_displacement': (Int, 1), 'stride1': (Int, 1),
                  'stride2': (Int, 1), 'pad_size': (Int, 0), 'is_multiply': (Bool, True)})
def correlation(data1, data2, *, kernel_size, max_displacement, stride1, stride2, pad_size,
                is_multiply):
    """Applies correlation to inputs.

    Compares every patch of ``data1`` with the patches of ``data2`` displaced by up to
    ``max_displacement`` (in steps of ``stride2``): the product (or, with
    ``is_multiply=False``, the absolute difference) summed over the patch and the channels
    and divided by their number. Output: (batch, (2 * (max_displacement // stride2) + 1) ** 2,
    out_height, out_width)."""
    _check_4d('Correlation', 'data1', data1)
    _check_4d('Correlation', 'data2', data2)
    if data1.shape != data2.shape:
        raise MXNetError('Correlation: data1 %s and data2 %s must have the same shape'
                         % (tuple(data1.shape), tuple(data2.shape)))
    if kernel_size % 2 == 0:
        raise MXNetError('Correlation: kernel size should be odd number, got %d' % kernel_size)
    if min(kernel_size, stride1, stride2) < 1 or min(max_displacement, pad_size) < 0:
        raise MXNetError('Correlation: kernel_size, stride1 and stride2 must be positive')
    c, h, w = data1.shape[1:]
    k, md, s1 = kernel_size, max_displacement, stride1
    border = md + (k - 1) // 2
    top_h = int(math.ceil((h + 2 * pad_size - 2 * border) / float(s1)))
    top_w = int(math.ceil((w + 2 * pad_size - 2 * border) / float(s1)))
    if top_h < 1 or top_w < 1:
        raise MXNetError('Correlation cannot be done with current settings. Neighborhood and '
                         'kernel don\'t fit in blob')
    pad = (pad_size,) * 4
    p1 = F.pad(data1, pad) if pad_size else data1
    p2 = F.pad(data2, pad) if pad_size else data2
    lh, lw = (top_h - 1) * s1 + k, (top_w - 1) * s1 + k
    a = p1[:, :, md:md + lh, md:md + lw]
    radius = md // stride2
    outs = []
    for dy in range(-radius, radius + 1):
        for dx in range(-radius, radius + 1):
            y, x = md + dy * stride2, md + dx * stride2
            b = p2[:, :, y:y + lh, x:x + lw]
            s = (a * b if is_multiply else _abs_diff(a, b)).sum(1, keepdim=True)
            if k > 1:
                s = F.avg_pool2d(s, k, s1)
            elif s1 > 1:
                s = s[:, :, ::s1, ::s1]
            outs.append(s)
    return torch.cat(outs, 1) / c
