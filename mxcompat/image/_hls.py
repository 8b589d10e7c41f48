"""MXNet's HSL jitter (ImageRecordIter ``random_h/s/l``): OpenCV 3.4's 8-bit BGR -> HLS
conversion, integer shifts of H, L and S, and the conversion back, in numpy float32.

OpenCV converts each row in blocks of 256 pixels; in a block, groups of 8 pixels go through
its SSE2 kernel and the rest through scalar code, which computes the saturation's denominator
for light pixels in another order (``2 - (max + min)`` against ``(2 - max) - min``). Both are
reproduced, so the pixels are OpenCV's.
"""
import numpy as np

__all__ = ['hls_shift']

_F = np.float32
_INV255 = _F(1) / _F(255)
_EPS = np.finfo(np.float32).eps
_BLOCK = 256
# output channel (b, g, r) -> index into (p2, p1, rising, falling), per hue sector
_SECTORS = np.array([[1, 3, 0], [1, 0, 2], [3, 0, 1], [0, 2, 1], [0, 1, 3], [2, 1, 0]])


def _simd_columns(width):
    """Which columns of a row OpenCV's SSE2 RGB->HLS kernel handles."""
    x = np.arange(width)
    start = x // _BLOCK * _BLOCK
    dn = np.minimum(width - start, _BLOCK)
    return (x - start) < dn // 8 * 8


def _round_u8(v):
    return np.clip(np.rint(v), 0, 255).astype(np.int32)


def hls_shift(rgb, dh, dl, ds):
    """``rgb`` (H, W, 3) uint8 -> HLS (hue 0..180), hue/lightness/saturation shifted by the
    integers ``dh, dl, ds`` (clipped to 180/255/255) and converted back, as uint8 RGB."""
    f = rgb.astype(_F) * _INV255
    r, g, b = f[..., 0], f[..., 1], f[..., 2]
    vmax = np.maximum(np.maximum(b, g), r)
    vmin = np.minimum(np.minimum(b, g), r)
    diff = vmax - vmin
    total = vmax + vmin
    light = total * _F(0.5)
    simd = _simd_columns(rgb.shape[1])[None, :]
    with np.errstate(divide='ignore', invalid='ignore'):
        denom = np.where(light < _F(0.5), total,
                         np.where(simd, _F(2) - total, (_F(2) - vmax) - vmin))
        sat = diff / denom
        scale = _F(60) / diff
        hue = np.where(vmax == r, (g - b) * scale,
                       np.where(vmax == g, (b - r) * scale + _F(120),
                                (r - g) * scale + _F(240)))
    hue = np.where(hue < 0, hue + _F(360), hue)
    valid = diff > _EPS
    hue = np.where(valid, hue, _F(0)) * _F(0.5)
    sat = np.where(valid, sat, _F(0))
    hh = np.clip(_round_u8(hue) + dh, 0, 180)
    ll = np.clip(_round_u8(light * _F(255)) + dl, 0, 255)
    ss = np.clip(_round_u8(sat * _F(255)) + ds, 0, 255)
    # back to RGB
    h = hh.astype(_F) * (_F(6) / _F(180))
    l = ll.astype(_F) * _INV255
    s = ss.astype(_F) * _INV255
    p2 = np.where(l <= _F(0.5), l * (_F(1) + s), (l + s) - l * s)
    p1 = _F(2) * l - p2
    whole = np.trunc(h)
    frac = h - whole
    sector = (whole - np.trunc(whole / _F(6)) * _F(6)).astype(np.int64)
    tab = np.stack([p2, p1, p1 + (p2 - p1) * (_F(1) - frac), p1 + (p2 - p1) * frac], axis=-1)
    pick = _SECTORS[sector]  # (H, W, 3): b, g, r
    bgr = np.take_along_axis(tab, pick, axis=-1)
    out = _round_u8(bgr[..., ::-1] * _F(255))
    return out.astype(np.uint8)
