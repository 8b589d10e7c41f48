"""``cv::resize`` as MXNet's OpenCV 3.4 build computes it, in torch.

Each axis is resampled separately (columns first, then rows) with OpenCV's source positions,
tap counts, border clamping and coefficients: nearest (0), bilinear (1), bicubic (2, A=-0.75),
area (3) and Lanczos-4 (4). For uint8 images the coefficients are OpenCV's 11-bit fixed-point
values and the arithmetic is integer, so results equal OpenCV's scalar code; OpenCV's SSE
paths round some bilinear/bicubic pixels differently, by at most one intensity level. Float
images use float arithmetic in OpenCV's order.
"""
import numpy as np
import torch

from ..base import MXNetError

__all__ = ['resize']

_COEF_BITS = 11
_COEF_SCALE = 1 << _COEF_BITS
_SUPPORTED = (torch.uint8, torch.float32, torch.float64)


def _cubic_coeffs(x):
    """OpenCV's interpolateCubic, in float32 (``x``: float32 array of fractions)."""
    a = np.float32(-0.75)
    one = np.float32(1)
    c0 = ((a * (x + one) - np.float32(5) * a) * (x + one) + np.float32(8) * a) * (x + one) \
        - np.float32(4) * a
    c1 = ((a + np.float32(2)) * x - (a + np.float32(3))) * x * x + one
    y = one - x
    c2 = ((a + np.float32(2)) * y - (a + np.float32(3))) * y * y + one
    c3 = one - c0 - c1 - c2
    return np.stack([c0, c1, c2, c3], axis=1)


_S45 = 0.70710678118654752440084436210485
_LANCZOS_CS = np.array([[1, 0], [-_S45, -_S45], [0, 1], [_S45, -_S45], [-1, 0], [_S45, _S45],
                        [0, -1], [-_S45, _S45]])


def _lanczos4_coeffs(x):
    """OpenCV's interpolateLanczos4 (``x``: float32 array of fractions)."""
    out = np.zeros((len(x), 8), dtype=np.float32)
    for n, xv in enumerate(x):
        if xv < np.finfo(np.float32).eps:
            out[n, 3] = 1
            continue
        y0 = -(float(xv) + 3) * np.pi * 0.25
        s0, c0 = np.sin(y0), np.cos(y0)
        total = np.float32(0)
        for i in range(8):
            y = -(float(xv) + 3 - i) * np.pi * 0.25
            out[n, i] = np.float32((_LANCZOS_CS[i, 0] * s0 + _LANCZOS_CS[i, 1] * c0) / (y * y))
            total = np.float32(total + out[n, i])
        out[n] *= np.float32(1) / total
    return out


def _taps(ssize, dsize, interp, area_mode, columns):
    """(indices (dsize, k), coefficients (dsize, k) float32) along one axis.

    OpenCV clamps out-of-range bilinear positions to the border pixel for columns only; rows
    keep their fraction and just read the border row twice.
    """
    inv_scale = dsize / ssize
    scale = 1.0 / inv_scale
    d = np.arange(dsize, dtype=np.float64)
    if area_mode:
        sx = np.floor(d * scale).astype(np.int64)
        fx = ((d + 1) - (sx + 1) * inv_scale).astype(np.float32)
        fx = np.where(fx <= 0, np.float32(0), fx - np.floor(fx)).astype(np.float32)
    else:
        fx = ((d + 0.5) * scale - 0.5).astype(np.float32)
        sx = np.floor(fx).astype(np.int64)
        fx = (fx - sx.astype(np.float32)).astype(np.float32)
    if interp == 1 and columns:
        low, high = sx < 0, sx >= ssize - 1
        fx = np.where(low | high, np.float32(0), fx).astype(np.float32)
        sx = np.where(low, 0, np.where(high, ssize - 1, sx))
    if interp == 1:
        coeffs = np.stack([np.float32(1) - fx, fx], axis=1)
    elif interp == 2:
        coeffs = _cubic_coeffs(fx)
    else:
        coeffs = _lanczos4_coeffs(fx)
    k = coeffs.shape[1]
    idx = sx[:, None] - (k // 2 - 1) + np.arange(k)[None, :]
    return np.clip(idx, 0, ssize - 1), coeffs


def _area_taps(ssize, dsize):
    """OpenCV's computeResizeAreaTab as dense (indices, weights) padded with zero weights."""
    scale = ssize / dsize
    rows = []
    for dx in range(dsize):
        f1 = dx * scale
        f2 = f1 + scale
        cell = min(scale, ssize - f1)
        s2 = min(int(np.floor(f2)), ssize - 1)
        s1 = min(int(np.ceil(f1)), s2)
        taps = []
        if s1 - f1 > 1e-3:
            taps.append((s1 - 1, np.float32((s1 - f1) / cell)))
        taps.extend((s, np.float32(1.0 / cell)) for s in range(s1, s2))
        if f2 - s2 > 1e-3:
            taps.append((s2, np.float32(min(min(f2 - s2, 1.0), cell) / cell)))
        rows.append(taps)
    k = max(len(t) for t in rows)
    idx = np.zeros((dsize, k), dtype=np.int64)
    w = np.zeros((dsize, k), dtype=np.float32)
    for dx, taps in enumerate(rows):
        for j, (s, a) in enumerate(taps):
            idx[dx, j], w[dx, j] = s, a
    return idx, w


def _apply(t, axis, idx, w):
    """Sum over taps of ``t`` gathered along ``axis`` times ``w`` (sequentially, as OpenCV)."""
    idx_t = torch.from_numpy(idx)
    shape = [1] * t.dim()
    shape[axis] = -1
    acc = None
    for j in range(idx.shape[1]):
        term = t.index_select(axis, idx_t[:, j]) * w[:, j].view(shape)
        acc = term if acc is None else acc + term
    return acc


def _weights(coeffs, fixed, dtype):
    if fixed:
        return torch.from_numpy(np.rint(coeffs * _COEF_SCALE).astype(np.int64))
    return torch.from_numpy(coeffs).to(dtype)


def _simd_end(width, taps):
    """How many leading elements of an output row OpenCV's SSE vertical pass computes."""
    if taps == 2:  # observed: the whole row, its tail included, rounds as the SSE code
        return width
    x = 0
    if taps == 4:
        while x <= width - 8:
            x += 8
    return x


def _vertical_fixed(rows, idx, beta):
    """OpenCV's 8-bit vertical pass: scalar fixed point, and its SSE variants' rounding."""
    taps = [rows.index_select(0, torch.from_numpy(idx[:, k])) for k in range(idx.shape[1])]
    b = [torch.from_numpy(beta[:, k]).view(-1, 1, 1) for k in range(idx.shape[1])]
    acc = taps[0] * b[0]
    for s, bk in zip(taps[1:], b[1:]):
        acc = acc + s * bk
    out = (acc + (1 << (2 * _COEF_BITS - 1))) >> (2 * _COEF_BITS)
    end = _simd_end(out.shape[1] * out.shape[2], len(taps))
    if end:
        if len(taps) == 2:
            vec = (((b[0] * (taps[0] >> 4)) >> 16) + ((b[1] * (taps[1] >> 4)) >> 16) + 2) >> 2
        else:
            scale = np.float32(1.0 / (_COEF_SCALE * _COEF_SCALE))
            f = None
            for s, bk in zip(taps, b):
                term = s.to(torch.float32) * (bk.to(torch.float32) * scale)
                f = term if f is None else f + term
            vec = torch.round(f).to(torch.int64)
        flat, vflat = out.view(out.shape[0], -1), vec.reshape(out.shape[0], -1)
        flat[:, :end] = vflat[:, :end]
    return out.clamp_(0, 255).to(torch.uint8)


def _separable(t, idx_w, idx_h, fixed):
    """Columns then rows; uint8 in OpenCV's fixed point, floats in their own precision."""
    if fixed:
        rows = _apply(t.to(torch.int64), 1, idx_w[0], _weights(idx_w[1], True, None))
        return _vertical_fixed(rows, idx_h[0], np.rint(idx_h[1] * _COEF_SCALE).astype(np.int64))
    rows = _apply(t, 1, idx_w[0], _weights(idx_w[1], False, t.dtype))
    return _apply(rows, 0, idx_h[0], _weights(idx_h[1], False, t.dtype))


def _area(t, sh, sw, dh, dw):
    """INTER_AREA for shrinking: exact box means for integer factors, weighted cells else."""
    fixed = t.dtype == torch.uint8
    if sh % dh == 0 and sw % dw == 0:
        fy, fx = sh // dh, sw // dw
        if fixed:
            s = t.to(torch.int32).reshape(dh, fy, dw, fx, -1).sum(dim=(1, 3))
            if fy == 2 and fx == 2:
                return ((s + 2) >> 2).to(torch.uint8)
            mean = s.to(torch.float32) * np.float32(1.0 / (fy * fx))
            return torch.round(mean).clamp_(0, 255).to(torch.uint8)
        s = t.reshape(dh, fy, dw, fx, -1).sum(dim=(1, 3))
        return s * (0.25 if fy == fx == 2 else 1.0 / (fy * fx))
    work = t.to(torch.float32) if fixed else t
    ix, wx = _area_taps(sw, dw)
    iy, wy = _area_taps(sh, dh)
    rows = _apply(work, 1, ix, torch.from_numpy(wx).to(work.dtype))
    out = _apply(rows, 0, iy, torch.from_numpy(wy).to(work.dtype))
    if fixed:
        return torch.round(out).clamp_(0, 255).to(torch.uint8)
    return out


def resize(t, w, h, interp):
    """Resize an (H, W, C) tensor to (h, w, C) as ``cv2.resize(src, (w, h), interpolation)``."""
    if t.dim() != 3:
        raise MXNetError('imresize: expected an (H, W, C) image, got shape %s' % (tuple(t.shape),))
    if t.dtype not in _SUPPORTED:
        raise MXNetError('imresize: dtype %s is not supported (OpenCV resizes uint8, float32 '
                         'and float64 images); cast with .astype()' % str(t.dtype).split('.')[-1])
    if w < 1 or h < 1:
        raise MXNetError('imresize: width and height must be positive, got w=%d h=%d' % (w, h))
    if interp not in (0, 1, 2, 3, 4):
        raise MXNetError('imresize: unknown interpolation method %r (use 0-4)' % (interp,))
    sh, sw = t.shape[0], t.shape[1]
    if (sh, sw) == (h, w):
        return t.clone()
    t = t.contiguous()
    if interp == 0:
        ys = np.minimum(np.floor(np.arange(h) * (1.0 / (h / sh))).astype(np.int64), sh - 1)
        xs = np.minimum(np.floor(np.arange(w) * (1.0 / (w / sw))).astype(np.int64), sw - 1)
        return t.index_select(0, torch.from_numpy(ys)).index_select(1, torch.from_numpy(xs))
    scale_x, scale_y = 1.0 / (w / sw), 1.0 / (h / sh)
    if interp == 1 and scale_x == 2 and scale_y == 2:
        interp = 3  # OpenCV averages 2x2 blocks for an exact halving
    if interp == 3 and scale_x >= 1 and scale_y >= 1:
        return _area(t, sh, sw, h, w)
    area_mode = interp == 3
    kind = 1 if area_mode else interp
    return _separable(t, _taps(sw, w, kind, area_mode, True), _taps(sh, h, kind, area_mode, False),
                      t.dtype == torch.uint8)
