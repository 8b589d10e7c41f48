"""``mx.nd.image`` operators (``_image_*``): to_tensor, normalize, resize, crop, flips and the
color augmentations.

Images are (height, width, channels) arrays (to_tensor's output and normalize's input are
(channels, height, width)). As in MXNet, the augmentations compute in float32 and store the
result in the image's dtype (uint8 results are clamped to [0, 255] and truncated), and their
gradient is the output gradient passed through unchanged. ``resize`` reproduces OpenCV's
``cv::resize`` (which MXNet calls): nearest, bilinear, bicubic, area and Lanczos weights with
OpenCV's pixel-center convention, and OpenCV's 11-bit fixed-point arithmetic for uint8 images.
"""
import functools
import math

import numpy as np

import torch

from ..base import MXNetError
from .registry import register, REQUIRED, Int, Float, Bool, Shape, FloatTuple

_F32 = torch.float32


def _check_image(opname, data):
    if data.dim() != 3:
        raise MXNetError('%s: Input image must have shape (height, width, channels), but got %s'
                         % (opname, tuple(data.shape)))
    if data.shape[2] not in (1, 3):
        raise MXNetError('%s: The last dimension of input image must be the channel dimension '
                         'with either 1 or 3 elements, but got input with shape %s'
                         % (opname, tuple(data.shape)))


def _store(val, like):
    """A float32 result in ``like``'s dtype: MXNet's saturate_cast (uint8 clamps)."""
    if like.dtype == torch.uint8:
        return val.clamp(0, 255).to(torch.uint8)
    return val.to(like.dtype)


class _PassGrad(torch.autograd.Function):
    """``out`` forward; the gradient of ``out`` passes to ``data`` unchanged (MXNet's
    ElemwiseGradUseNone{"_copy"} of the image augmentations)."""

    @staticmethod
    def forward(ctx, out, data):
        return out.view_as(out)

    @staticmethod
    def backward(ctx, g):
        return None, g


def _augmented(out, data):
    if data.requires_grad and torch.is_grad_enabled() and out.is_floating_point():
        return _PassGrad.apply(out.detach(), data)
    return out


def _uniform(lo, hi):
    """A float32 draw from U(lo, hi) (MXNet draws the factors as float)."""
    lo, hi = np.float32(lo), np.float32(hi)
    return np.float32(lo + (hi - lo) * np.float32(torch.rand(()).item()))


# ---------------------------------------------------------------------------------------------
# to_tensor / normalize / crop
# ---------------------------------------------------------------------------------------------

@register('_image_to_tensor', aliases=('_npx__image_to_tensor',))
def to_tensor(data):
    """Converts an image NDArray of shape (H x W x C) or (N x H x W x C) with values in the
    range [0, 255] to a tensor NDArray of shape (C x H x W) or (N x C x H x W) with values in
    the range [0, 1] (float32)."""
    if data.dim() not in (3, 4):
        raise MXNetError('_image_to_tensor: Input image must have shape (height, width, '
                         'channels), or (N, height, width, channels) but got %s'
                         % (tuple(data.shape),))
    return (data.to(_F32) / 255.0).movedim(-1, -3).contiguous()


@functools.lru_cache(maxsize=64)
def _channel_tensor(values, dtype, device):
    """Per-channel constants as a (C, 1, 1) tensor, built once per (values, dtype, device):
    transforms call normalize once per sample."""
    return torch.tensor(values, dtype=_F32, device=device).to(dtype).view(len(values), 1, 1)


def _per_channel(values, n, name, shape):
    if len(values) not in (1, n):
        raise MXNetError('_image_normalize: Invalid %s for input with shape %s. %s must have '
                         'either 1 or %d elements, but got %s'
                         % (name, shape, name, n, list(values)))
    return values * n if len(values) == 1 else values[:n]


@register('_image_normalize', aliases=('_npx__image_normalize',),
          params={'mean': (FloatTuple, (0.0, 0.0, 0.0, 0.0)),
                  'std': (FloatTuple, (1.0, 1.0, 1.0, 1.0))})
def normalize(data, *, mean, std):
    """Normalize an tensor of shape (C x H x W) or (N x C x H x W) with mean and standard
    deviation: ``output[i] = (input[i] - mean[i]) / std[i]`` per channel. `mean` and `std`
    have 1 or C (C = 1 or 3) elements."""
    if data.dim() not in (3, 4):
        raise MXNetError('_image_normalize: Input tensor must have shape (channels, height, '
                         'width), or (N, channels, height, width), but got %s'
                         % (tuple(data.shape),))
    c = data.shape[-3]
    if c not in (1, 3):
        raise MXNetError('_image_normalize: the channel dimension must have either 1 or 3 '
                         'elements, but got input with shape %s' % (tuple(data.shape),))
    shape = tuple(data.shape)
    m = _per_channel(mean, c, 'mean', shape)
    s = _per_channel(std, c, 'std', shape)
    dt = data.dtype if data.dtype == torch.float64 else _F32
    mt = _channel_tensor(tuple(m), dt, data.device)
    st = _channel_tensor(tuple(s), dt, data.device)
    out = (data.to(dt) - mt) / st
    return out if out.dtype == data.dtype else out.to(data.dtype)


@register('_image_crop', monitor_prefix='input', aliases=('_npx__image_crop',),
          params={'x': (Int, REQUIRED), 'y': (Int, REQUIRED), 'width': (Int, REQUIRED),
                  'height': (Int, REQUIRED)})
def crop(data, *, x, y, width, height):
    """Crop an image NDArray of shape (H x W x C) or (N x H x W x C) to the given size: the
    area of `width` x `height` whose top-left corner is (`x`, `y`)."""
    op = '_image_crop'
    if data.dim() not in (3, 4):
        raise MXNetError('%s: Image Crop expects inputs of 3D (h, w, c) or 4D (n, h, w, c). But '
                         'got %d' % (op, data.dim()))
    if data.shape[-1] not in (1, 3):
        raise MXNetError('%s: Expect channel of the input image is 1 or 3, but got %d'
                         % (op, data.shape[-1]))
    if width <= 0 or height <= 0:
        raise MXNetError('%s: Input height and width must be greater than 0' % op)
    if x + width > data.shape[-2]:
        raise MXNetError('%s: x + width should not be greater than input width' % op)
    if y + height > data.shape[-3]:
        raise MXNetError('%s: y + height should not be greater than input height' % op)
    return data[..., y:y + height, x:x + width, :].clone()


# ---------------------------------------------------------------------------------------------
# resize: OpenCV's cv::resize as separable weight matrices
# ---------------------------------------------------------------------------------------------

_COEF_SCALE = 2048.0          # OpenCV's INTER_RESIZE_COEF_SCALE: 11-bit fixed point


def _cubic_coeffs(x):
    a = np.float32(-0.75)
    c0 = ((a * (x + 1) - 5 * a) * (x + 1) + 8 * a) * (x + 1) - 4 * a
    c1 = ((a + 2) * x - (a + 3)) * x * x + 1
    c2 = ((a + 2) * (1 - x) - (a + 3)) * (1 - x) * (1 - x) + 1
    return np.stack([c0, c1, c2, np.float32(1) - c0 - c1 - c2], -1).astype(np.float32)


_S45 = 0.70710678118654752440084436210485
_LANCZOS_CS = np.array([[1, 0], [-_S45, -_S45], [0, 1], [_S45, -_S45], [-1, 0], [_S45, _S45],
                        [0, -1], [-_S45, _S45]])


def _lanczos4_coeffs(x):
    out = np.zeros(x.shape + (8,), np.float32)
    for n, fx in enumerate(x):
        if fx < np.finfo(np.float32).eps:
            out[n, 3] = 1
            continue
        y0 = -(float(fx) + 3) * math.pi * 0.25
        s0, c0 = math.sin(y0), math.cos(y0)
        y = -(float(fx) + 3 - np.arange(8)) * math.pi * 0.25
        cf = ((_LANCZOS_CS[:, 0] * s0 + _LANCZOS_CS[:, 1] * c0) / (y * y)).astype(np.float32)
        total = np.float32(0)
        for v in cf:                      # OpenCV sums the coefficients in order
            total = np.float32(total + v)
        out[n] = cf * (np.float32(1) / total)
    return out


def _taps(src, dst, interp, area_mode, clamp_weights):
    """OpenCV's interpolation taps of one axis: source indices (dst, k), clamped into the
    image, and their float32 weights. ``clamp_weights``: OpenCV zeroes the fraction of
    linear taps left or right of the image along x (not along y)."""
    scale = 1.0 / (dst / src)
    d = np.arange(dst)
    if area_mode:
        sx = np.floor(d * scale).astype(np.int64)
        fx = ((d + 1) - (sx + 1) * (1.0 / scale)).astype(np.float32)
        fx = np.where(fx <= 0, 0, fx - np.floor(fx)).astype(np.float32)
    else:
        fx = ((d + 0.5) * scale - 0.5).astype(np.float32)
        sx = np.floor(fx).astype(np.int64)
        fx = (fx - sx).astype(np.float32)
    ksize = {1: 2, 2: 4, 3: 2, 4: 8}[interp]
    if ksize == 2:
        if clamp_weights:
            low = sx < 0
            fx, sx = np.where(low, 0, fx).astype(np.float32), np.where(low, 0, sx)
            high = sx >= src - 1
            fx, sx = np.where(high, 0, fx).astype(np.float32), np.where(high, src - 1, sx)
        coeffs = np.stack([np.float32(1) - fx, fx], -1)
    elif ksize == 4:
        coeffs = _cubic_coeffs(fx)
    else:
        coeffs = _lanczos4_coeffs(fx)
    idx = np.clip(sx[:, None] + np.arange(ksize) - (ksize // 2 - 1), 0, src - 1)
    return idx, coeffs


def _area_taps(src, dst):
    """OpenCV's INTER_AREA downscaling taps: each output averages the source pixels it
    covers, partial pixels weighted by their covered fraction."""
    scale = 1.0 / (dst / src)
    rows = []
    for dx in range(dst):
        fsx1, fsx2 = dx * scale, (dx + 1) * scale
        sx1, sx2 = int(math.ceil(fsx1)), int(math.floor(fsx2))
        sx2 = min(sx2, src - 1)
        sx1 = min(sx1, sx2)
        cell = min(scale, src - fsx1)
        taps = []
        if sx1 - fsx1 > 1e-3:
            taps.append((sx1 - 1, (sx1 - fsx1) / cell))
        taps.extend((sx, 1.0 / cell) for sx in range(sx1, sx2))
        if fsx2 - sx2 > 1e-3:
            taps.append((sx2, min(min(fsx2 - sx2, 1.0), cell) / cell))
        rows.append(taps)
    k = max(len(t) for t in rows)
    idx = np.zeros((dst, k), np.int64)
    wts = np.zeros((dst, k), np.float32)
    for i, taps in enumerate(rows):
        for j, (sx, wt) in enumerate(taps):
            idx[i, j], wts[i, j] = sx, wt
    return idx, wts


def _nearest_taps(src, dst):
    d = np.arange(dst)
    idx = np.minimum(np.floor(d * (1.0 / (dst / src))).astype(np.int64), src - 1)
    return idx[:, None], np.ones((dst, 1), np.float32)


def _apply_taps(x, dim, idx, wts):
    """Weighted sum of the taps ``idx`` (dst, k) of ``x`` along ``dim``."""
    dst, k = idx.shape
    g = x.index_select(dim, torch.from_numpy(idx.reshape(-1)).to(x.device))
    shape = list(x.shape)
    shape[dim:dim + 1] = [dst, k]
    g = g.reshape(shape)
    wshape = [1] * len(shape)
    wshape[dim], wshape[dim + 1] = dst, k
    return (g * torch.from_numpy(wts).to(device=x.device, dtype=x.dtype).reshape(wshape)) \
        .sum(dim + 1)


def _mulhi(a, b):
    return torch.div(a * b, 65536, rounding_mode='floor')


def _resize_u8_fixed(img, oh, ow, interp, area_mode):
    """OpenCV's 8-bit resize: 11-bit weights, exact integer rows along x, then the vertical
    step of OpenCV's SSE2 kernels (linear: 16-bit ``mulhi`` arithmetic; cubic: float32
    products; Lanczos: exact integers with rounding)."""
    h, w = img.shape[-3], img.shape[-2]
    xi, xc = _taps(w, ow, interp, area_mode, True)
    yi, yc = _taps(h, oh, interp, area_mode, False)
    qx = np.round(xc * np.float32(_COEF_SCALE)).astype(np.float32)
    rows = _apply_taps(img.to(torch.float64), img.dim() - 2, xi, qx).to(torch.int64)
    by = torch.from_numpy(np.round(yc * np.float32(_COEF_SCALE)).astype(np.int64)).to(img.device)
    hdim = img.dim() - 3
    taps = [rows.index_select(hdim, torch.from_numpy(yi[:, k]).to(img.device))
            for k in range(yi.shape[1])]
    beta = [by[:, k].view(-1, 1, 1) for k in range(yi.shape[1])]
    if interp == 1 or interp == 3:
        s16 = [torch.div(t, 16, rounding_mode='floor').clamp(-32768, 32767) for t in taps]
        acc = (_mulhi(s16[0], beta[0]) + _mulhi(s16[1], beta[1])).clamp(-32768, 32767)
        out = torch.div((acc + 2).clamp(-32768, 32767), 4, rounding_mode='floor')
    elif interp == 2:
        bf = [(b.to(_F32) * np.float32(1.0 / (_COEF_SCALE * _COEF_SCALE))) for b in beta]
        acc = taps[0].to(_F32) * bf[0] + taps[1].to(_F32) * bf[1]
        acc = acc + taps[2].to(_F32) * bf[2]
        acc = acc + taps[3].to(_F32) * bf[3]
        out = torch.round(acc).to(torch.int64).clamp(-32768, 32767)
    else:
        acc = sum(t * b for t, b in zip(taps, beta))
        out = torch.div(acc + (1 << 21), 1 << 22, rounding_mode='floor')
    return out.clamp(0, 255).to(torch.uint8)


def _resize_plane(img, oh, ow, interp):
    """Resize (..., H, W, C) with OpenCV's semantics."""
    h, w = img.shape[-3], img.shape[-2]
    area_down = interp == 3 and oh <= h and ow <= w
    if img.dtype == torch.uint8 and interp != 0 and not area_down:
        return _resize_u8_fixed(img, oh, ow, interp, interp == 3)
    if interp == 0:
        ty, tx = _nearest_taps(h, oh), _nearest_taps(w, ow)
    elif area_down:
        ty, tx = _area_taps(h, oh), _area_taps(w, ow)
    else:
        ty = _taps(h, oh, interp, interp == 3, False)
        tx = _taps(w, ow, interp, interp == 3, True)
    x = img if img.dtype == _F32 else img.to(torch.float64)
    out = _apply_taps(_apply_taps(x, img.dim() - 2, *tx), img.dim() - 3, *ty)
    if img.dtype == torch.uint8:
        return torch.round(out).clamp(0, 255).to(torch.uint8)
    if not img.is_floating_point():
        return torch.round(out).to(img.dtype)
    return out.to(img.dtype)


def _resize_hw(h, w, size, keep_ratio):
    if len(size) not in (1, 2):
        raise MXNetError('_image_resize: Input size dimension must be 1 or 2, but got %d'
                         % len(size))
    if len(size) == 1:
        if size[0] <= 0:
            raise MXNetError('_image_resize: Input size should be greater than 0, but got %d'
                             % size[0])
        if not keep_ratio:
            return size[0], size[0]
        if h > w:
            return int(h * size[0] / w), size[0]
        return size[0], int(w * size[0] / h)
    if size[0] <= 0 or size[1] <= 0:
        raise MXNetError('_image_resize: Input width and height should be greater than 0, but '
                         'got %s' % (size,))
    return size[1], size[0]


@register('_image_resize', monitor_prefix='input', aliases=('_npx__image_resize',),
          params={'size': (Shape, ()), 'keep_ratio': (Bool, False), 'interp': (Int, 1)})
def resize(data, *, size, keep_ratio, interp):
    """Resize an image NDArray of shape (H x W x C) or (N x H x W x C) to the given size.

    `size` is (width, height) or one size for both (with `keep_ratio`, the short edge);
    `interp`: 0 nearest, 1 bilinear, 2 bicubic, 3 area, 4 Lanczos (OpenCV's methods)."""
    op = '_image_resize'
    if data.dim() not in (3, 4):
        raise MXNetError('%s: Input image dimension should be 3 or 4 but got %d'
                         % (op, data.dim()))
    if data.dtype == torch.float16:
        raise MXNetError("%s: opencv image mat doesn't support fp16" % op)
    if interp not in (0, 1, 2, 3, 4):
        raise MXNetError('%s: Unknown interpolation method %d' % (op, interp))
    if data.dtype not in (torch.float32, torch.float64, torch.uint8) and interp != 0:
        raise MXNetError('%s: OpenCV resize does not support %s images with interp=%d'
                         % (op, str(data.dtype)[6:], interp))
    if data.dtype not in (torch.float32, torch.float64, torch.uint8, torch.int32):
        raise MXNetError('%s: OpenCV resize does not support %s images'
                         % (op, str(data.dtype)[6:]))
    oh, ow = _resize_hw(data.shape[-3], data.shape[-2], size, keep_ratio)
    return _resize_plane(data, oh, ow, interp)


# ---------------------------------------------------------------------------------------------
# flips
# ---------------------------------------------------------------------------------------------

@register('_image_flip_left_right', monitor_prefix='input',
          aliases=('_npx__image_flip_left_right',))
def flip_left_right(data):
    """Reverses the order of elements along the width (axis 1) of an image (H x W x C)."""
    _check_image('_image_flip_left_right', data)
    return _augmented(data.flip(1), data)


@register('_image_flip_top_bottom', monitor_prefix='input',
          aliases=('_npx__image_flip_top_bottom',))
def flip_top_bottom(data):
    """Reverses the order of elements along the height (axis 0) of an image (H x W x C)."""
    _check_image('_image_flip_top_bottom', data)
    return _augmented(data.flip(0), data)


@register('_image_random_flip_left_right', monitor_prefix='input',
          aliases=('_npx__image_random_flip_left_right',))
def random_flip_left_right(data):
    """Randomly flip the input image left to right with a probability of 0.5."""
    _check_image('_image_random_flip_left_right', data)
    if torch.rand(()).item() < 0.5:
        return _augmented(data.clone(), data)
    return _augmented(data.flip(1), data)


@register('_image_random_flip_top_bottom', monitor_prefix='input',
          aliases=('_npx__image_random_flip_top_bottom',))
def random_flip_top_bottom(data):
    """Randomly flip the input image top to bottom with a probability of 0.5."""
    _check_image('_image_random_flip_top_bottom', data)
    if torch.rand(()).item() < 0.5:
        return _augmented(data.clone(), data)
    return _augmented(data.flip(0), data)


# ---------------------------------------------------------------------------------------------
# color augmentations (float32 arithmetic, as in MXNet)
# ---------------------------------------------------------------------------------------------

_GRAY = (0.299, 0.587, 0.114)


def _brightness(x, alpha):
    return x * alpha


def _contrast(x, alpha):
    if x.shape[2] > 1:
        coef = torch.tensor(_GRAY, dtype=_F32, device=x.device)
        gray_sum = (x[..., :3] * coef).sum()
    else:
        gray_sum = x.sum()
    gray_mean = gray_sum / float(x.shape[0] * x.shape[1])
    return x * alpha + np.float32(1 - alpha) * gray_mean


def _saturation(x, alpha):
    if x.shape[2] == 1:
        return x
    # MXNet's gray value is the blue channel times its coefficient (it overwrites, not sums)
    gray = x[..., 2:3] * _GRAY[2] * np.float32(1 - alpha)
    return gray + x * alpha


_HLS_SECTORS = torch.tensor([[1, 3, 0], [1, 0, 2], [3, 0, 1], [0, 2, 1], [0, 1, 3], [2, 1, 0]])


def _hue(x, alpha):
    if x.shape[2] == 1:
        return x
    r, g, b = (x[..., i] / 255.0 for i in range(3))
    vmax = torch.maximum(torch.maximum(r, g), b)
    vmin = torch.minimum(torch.minimum(r, g), b)
    diff = vmax - vmin
    light = (vmax + vmin) * 0.5
    chroma = diff > np.finfo(np.float32).eps
    zero = torch.zeros_like(r)
    sat = torch.where(light < 0.5, diff / (vmax + vmin), diff / (2.0 - vmax - vmin))
    sat = torch.where(chroma, sat, zero)
    scale = 60.0 / diff
    hue = torch.where(vmax == r, (g - b) * scale,
                      torch.where(vmax == g, (b - r) * scale + 120.0, (r - g) * scale + 240.0))
    hue = torch.where(hue < 0, hue + 360.0, hue)
    hue = torch.where(chroma, hue, zero)
    hue = (hue + np.float32(alpha * np.float32(360))) * np.float32(1.0 / 60.0)
    hue = torch.where(hue < 0, hue + 6, torch.where(hue >= 6, hue - 6, hue))
    hue = torch.where(hue < 0, hue + 6, torch.where(hue >= 6, hue - 6, hue))
    sector = hue.floor().long().clamp(0, 5)
    frac = hue - sector.to(_F32)
    p2 = torch.where(light <= 0.5, light * (1 + sat), light + sat - light * sat)
    p1 = 2 * light - p2
    tab = torch.stack([p2, p1, p1 + (p2 - p1) * (1 - frac), p1 + (p2 - p1) * frac], -1)
    pick = _HLS_SECTORS.to(x.device)[sector]                        # (H, W, 3): b, g, r
    bgr = torch.gather(tab, -1, pick)
    rgb = torch.stack([bgr[..., 2], bgr[..., 1], bgr[..., 0]], -1)
    rgb = torch.where((sat != 0).unsqueeze(-1), rgb, light.unsqueeze(-1).expand_as(rgb))
    out = rgb * 255.0
    return torch.cat([out, x[..., 3:]], -1) if x.shape[2] > 3 else out


_EIG = np.array([[55.46 * -0.5675, 4.794 * 0.7192, 1.148 * 0.4009],
                 [55.46 * -0.5808, 4.794 * -0.0045, 1.148 * -0.8140],
                 [55.46 * -0.5836, 4.794 * -0.6948, 1.148 * 0.4203]]).astype(np.float32)


def _lighting(x, alpha):
    if x.shape[2] == 1:
        return x
    a = np.asarray(alpha[:3], np.float32)
    pca = (_EIG * a).sum(1, dtype=np.float32)
    return x + torch.from_numpy(pca).to(x.device)


def _augment(opname, data, fn, *args):
    _check_image(opname, data)
    return _augmented(_store(fn(data.detach().to(_F32), *args), data), data)


_ENHANCE = {'min_factor': (Float, REQUIRED), 'max_factor': (Float, REQUIRED)}


def _check_factors(opname, lo, hi):
    if lo < 0 or hi < 0:
        raise MXNetError('%s: min_factor and max_factor must be >= 0, got %s and %s'
                         % (opname, lo, hi))


@register('_image_random_brightness', monitor_prefix='input',
          aliases=('_npx__image_random_brightness',),
          params=_ENHANCE)
def random_brightness(data, *, min_factor, max_factor):
    """Randomly scale the brightness of an image (H x W x C) by a factor drawn uniformly from
    [min_factor, max_factor]."""
    op = '_image_random_brightness'
    _check_factors(op, min_factor, max_factor)
    return _augment(op, data, _brightness, _uniform(min_factor, max_factor))


@register('_image_random_contrast', monitor_prefix='input',
          aliases=('_npx__image_random_contrast',),
          params=_ENHANCE)
def random_contrast(data, *, min_factor, max_factor):
    """Randomly change the contrast of an image (H x W x C): blend it with its mean gray level
    by a factor drawn uniformly from [min_factor, max_factor]."""
    op = '_image_random_contrast'
    _check_factors(op, min_factor, max_factor)
    return _augment(op, data, _contrast, _uniform(min_factor, max_factor))


@register('_image_random_saturation', monitor_prefix='input',
          aliases=('_npx__image_random_saturation',),
          params=_ENHANCE)
def random_saturation(data, *, min_factor, max_factor):
    """Randomly change the saturation of an image (H x W x C) by a factor drawn uniformly from
    [min_factor, max_factor]."""
    op = '_image_random_saturation'
    _check_factors(op, min_factor, max_factor)
    return _augment(op, data, _saturation, _uniform(min_factor, max_factor))


@register('_image_random_hue', monitor_prefix='input',
          aliases=('_npx__image_random_hue',), params=_ENHANCE)
def random_hue(data, *, min_factor, max_factor):
    """Randomly shift the hue of an image (H x W x 3) by a fraction of a turn drawn uniformly
    from [min_factor, max_factor] (in HLS space)."""
    op = '_image_random_hue'
    _check_factors(op, min_factor, max_factor)
    return _augment(op, data, _hue, _uniform(min_factor, max_factor))


@register('_image_random_color_jitter', monitor_prefix='input',
          aliases=('_npx__image_random_color_jitter',),
          params={'brightness': (Float, REQUIRED), 'contrast': (Float, REQUIRED),
                  'saturation': (Float, REQUIRED), 'hue': (Float, REQUIRED)})
def random_color_jitter(data, *, brightness, contrast, saturation, hue):
    """Randomly jitters image brightness, contrast, saturation and hue, in random order: each
    with a positive amount ``a`` applies its adjustment with a factor ``1 + U(-a, a)`` (hue:
    ``U(-a, a)``)."""
    op = '_image_random_color_jitter'
    _check_image(op, data)
    x = data.detach().to(_F32)
    steps = ((brightness, _brightness, 1.0), (contrast, _contrast, 1.0),
             (saturation, _saturation, 1.0), (hue, _hue, 0.0))
    for i in torch.randperm(4).tolist():
        amount, fn, base = steps[i]
        if amount > 0:
            # each step stores its result in the image dtype, as MXNet writes the output
            factor = np.float32(base + _uniform(-amount, amount))
            x = _store(fn(x, factor), data).to(_F32)
    return _augmented(_store(x, data), data)


@register('_image_adjust_lighting', monitor_prefix='input',
          aliases=('_npx__image_adjust_lighting',),
          params={'alpha': (FloatTuple, REQUIRED)})
def adjust_lighting(data, *, alpha):
    """Adjust the lighting level of the input (H x W x 3), following the AlexNet style: add
    the RGB principal components of ImageNet scaled by `alpha`."""
    op = '_image_adjust_lighting'
    if len(alpha) < 3:
        raise MXNetError('%s: alpha must have 3 elements (R, G, B), got %s' % (op, alpha))
    return _augment(op, data, _lighting, alpha)


@register('_image_random_lighting', monitor_prefix='input',
          aliases=('_npx__image_random_lighting',),
          params={'alpha_std': (Float, 0.05)})
def random_lighting(data, *, alpha_std):
    """Randomly add PCA noise, following the AlexNet style: alphas drawn from
    N(0, alpha_std)."""
    alpha = (torch.randn(3) * np.float32(alpha_std)).tolist()
    return _augment('_image_random_lighting', data, _lighting, alpha)
