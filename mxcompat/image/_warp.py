"""``cv::warpAffine`` with bilinear interpolation and a constant border, as MXNet's OpenCV 3.4
build computes it on 8-bit images, in numpy/torch.

OpenCV inverts the (float32) matrix in double precision, maps every destination pixel to a
source position in fixed point (10 fractional bits, rounded to 5: a 32x32 table of bilinear
weights scaled to 2^15), and reads border pixels as the fill value. Each step is reproduced
with the same integer arithmetic, so the pixels are OpenCV's.
"""
import numpy as np
import torch

__all__ = ['warp_affine']

_AB_BITS, _INTER_BITS = 10, 5
_AB_SCALE = 1 << _AB_BITS
_TAB = 1 << _INTER_BITS
_ROUND_DELTA = _AB_SCALE // _TAB // 2
_COEF_BITS = 15


def _inverse(m):
    """OpenCV's inversion of a 2x3 affine matrix (``warpAffine`` without WARP_INVERSE_MAP)."""
    m = [float(v) for v in np.asarray(m, np.float32).reshape(6)]
    det = m[0] * m[4] - m[1] * m[3]
    det = 1.0 / det if det != 0 else 0.0
    m0, m4 = m[4] * det, m[0] * det
    m1, m3 = m[1] * -det, m[3] * -det
    return m0, m1, -m0 * m[2] - m1 * m[5], m3, m4, -m3 * m[2] - m4 * m[5]


def warp_affine(img, m, w, h, fill):
    """``cv2.warpAffine(img, m, (w, h), INTER_LINEAR, BORDER_CONSTANT, fill)`` of an (H, W, C)
    uint8 array; ``fill`` holds one value per channel."""
    src_h, src_w, c = img.shape
    m0, m1, m2, m3, m4, m5 = _inverse(m)
    xs, ys = np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64)
    adelta = np.rint(m0 * xs * _AB_SCALE).astype(np.int64)
    bdelta = np.rint(m3 * xs * _AB_SCALE).astype(np.int64)
    x0 = np.rint((m1 * ys + m2) * _AB_SCALE).astype(np.int64) + _ROUND_DELTA
    y0 = np.rint((m4 * ys + m5) * _AB_SCALE).astype(np.int64) + _ROUND_DELTA
    fx_all = (x0[:, None] + adelta[None, :]) >> (_AB_BITS - _INTER_BITS)
    fy_all = (y0[:, None] + bdelta[None, :]) >> (_AB_BITS - _INTER_BITS)
    sx, fx = fx_all >> _INTER_BITS, fx_all & (_TAB - 1)
    sy, fy = fy_all >> _INTER_BITS, fy_all & (_TAB - 1)
    # a one-pixel ring of the fill value: clamped indices outside the image land on it
    padded = np.empty((src_h + 2, src_w + 2, c), np.uint8)
    padded[:] = np.asarray(fill, np.uint8).reshape(1, 1, c)
    padded[1:-1, 1:-1] = img
    flat = torch.from_numpy(padded.reshape(-1, c)).to(torch.int32)
    row = src_w + 2
    ix0, ix1 = np.clip(sx + 1, 0, src_w + 1), np.clip(sx + 2, 0, src_w + 1)
    iy0, iy1 = np.clip(sy + 1, 0, src_h + 1), np.clip(sy + 2, 0, src_h + 1)
    wx1, wy1 = fx, fy
    wx0, wy0 = _TAB - fx, _TAB - fy
    scale = (1 << _COEF_BITS) // (_TAB * _TAB)
    acc = None
    for iy, wy in ((iy0, wy0), (iy1, wy1)):
        for ix, wx in ((ix0, wx0), (ix1, wx1)):
            vals = flat.index_select(0, torch.from_numpy((iy * row + ix).reshape(-1)))
            wts = torch.from_numpy((wy * wx * scale).reshape(-1, 1).astype(np.int32))
            term = vals * wts
            acc = term if acc is None else acc + term
    out = (acc + (1 << (_COEF_BITS - 1))) >> _COEF_BITS
    return out.clamp_(0, 255).to(torch.uint8).numpy().reshape(h, w, c)
