"""``cv::resize`` as MXNet's OpenCV 3.4 build computes it, in torch.

Each axis is resampled separately (columns first, then rows) with OpenCV's source positions,
tap counts, border clamping and coefficients: nearest (0), bilinear (1), bicubic (2, A=-0.75),
area (3) and Lanczos-4 (4). For uint8 images the coefficients are OpenCV's 11-bit fixed-point
values and the arithmetic is integer, so results equal OpenCV's scalar code; OpenCV's SSE
paths round some bilinear/bicubic pixels differently, by at most one intensity level. Float
images use float arithmetic in OpenCV's order.
"""
import functools
import sys
import threading

import numpy as np
import torch

from ..base import MXNetError
from ..deferred_errors import raise_at_read

__all__ = ['resize', 'resize_window']

_COEF_BITS = 11
_COEF_SCALE = 1 << _COEF_BITS
_SUPPORTED = (torch.uint8, torch.float32, torch.float64)
_LITTLE = sys.byteorder == 'little'


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
    if interp not in (0, 1, 2, 3, 4):  # (OpenCV's error, in MXNet's kernel: raised at the read)
        return raise_at_read(MXNetError('imresize: Unknown interpolation method %r (use 0-4)'
                                        % (interp,)), t.new_empty((h, w, t.shape[2])))
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


@functools.lru_cache(maxsize=1024)
def _linear_fixed_taps(ssize, dsize, columns):
    """Bilinear taps along one axis: (index0, index1, weight0, weight1) int64/int32 tensors."""
    idx, coeffs = _taps(ssize, dsize, 1, False, columns)
    wts = np.rint(coeffs * _COEF_SCALE).astype(np.int32)
    return tuple(torch.from_numpy(np.ascontiguousarray(a))
                 for a in (idx[:, 0], idx[:, 1], wts[:, 0], wts[:, 1]))


def _column_gather(sw, w, x, cw, flip):
    """Source pixel indices of both bilinear taps of output columns x:x+cw (in reverse order
    for a mirrored window), and their weights."""
    c0, c1, a0, a1 = _linear_fixed_taps(sw, w, True)
    if flip:
        c0, c1, a0, a1 = _reversed_taps(sw, w)
        x = w - x - cw
    end = x + cw
    return torch.cat([c0[x:end], c1[x:end]]), torch.cat([a0[x:end], a1[x:end]])


@functools.lru_cache(maxsize=1024)
def _reversed_taps(sw, w):
    return tuple(a.flip(0) for a in _linear_fixed_taps(sw, w, True))


_SCRATCH = threading.local()


def _scratch(name, shape, dtype):
    """A per-thread work buffer (reused: fresh large allocations page-fault on every call)."""
    n = 1
    for d in shape:
        n *= d
    buf = getattr(_SCRATCH, name, None)
    if buf is None or buf.numel() < n or buf.dtype != dtype:
        buf = torch.empty(max(n, 1 << 16), dtype=dtype)
        setattr(_SCRATCH, name, buf)
    return buf[:n].view(shape)


def window_is_exact(sh, sw, h, w, interp):
    """Whether :func:`resize_window` computes ``resize``'s pixels for this resize (uint8
    bilinear, not the exact halving OpenCV turns into an area average)."""
    return interp == 1 and not (sw == 2 * w and sh == 2 * h)


def resize_window(t, w, h, y, x, ch, cw, channels=None, flip=False):
    """Rows ``y:y+ch`` and columns ``x:x+cw`` of ``resize(t[..., :channels], w, h, 1)`` for a
    C-contiguous (H, W, C) uint8 tensor, left-right mirrored when ``flip``, as a planar
    (channels, ch, cw) int32 tensor. Only that window is computed (``window_is_exact`` must
    hold), with OpenCV's fixed-point horizontal pass and its SSE vertical rounding. The result
    is a per-thread buffer, overwritten by the next call of this thread."""
    sh, sw, stride = t.shape
    channels = channels or stride
    r0, r1, b0, b1 = (a[y:y + ch] for a in _linear_fixed_taps(sh, h, False))
    lo = int(r0[0])
    src = t[lo:int(r1[-1]) + 1]
    nrows = src.shape[0]
    idx, wts = _column_gather(sw, w, x, cw, flip)
    prod = _scratch('prod', (channels, nrows, 2 * cw), torch.int32)
    if stride == 4 and _LITTLE:
        # gather whole 4-byte pixels as int32 words, then split the channels into planes
        words = _scratch('gather', (nrows, 2 * cw), torch.int32)
        torch.gather(src.reshape(nrows, -1).view(torch.int32), 1, idx.expand(nrows, -1),
                     out=words)
        for c in range(channels):
            if c:
                torch.bitwise_right_shift(words, 8 * c, out=prod[c]).bitwise_and_(255)
            else:
                torch.bitwise_and(words, 255, out=prod[c])
    else:
        both = _scratch('gather8', (nrows, 2 * cw, stride), torch.uint8)
        torch.index_select(src, 1, idx, out=both)
        for c in range(channels):
            prod[c].copy_(both[:, :, c])
    prod.mul_(wts)
    rows = _scratch('rows', (channels, nrows, cw), torch.int32)
    torch.add(prod[:, :, :cw], prod[:, :, cw:], out=rows)
    rows >>= 4
    top = _scratch('top', (channels, ch, cw), torch.int32)
    bottom = _scratch('bottom', (channels, ch, cw), torch.int32)
    torch.index_select(rows, 1, r0 - lo, out=top)
    torch.index_select(rows, 1, r1 - lo, out=bottom)
    top.mul_(b0.view(-1, 1)).__irshift__(16)
    bottom.mul_(b1.view(-1, 1)).__irshift__(16)
    # nonnegative weights summing to 2048 on both axes keep this within [0, 255]: no clamp
    return top.add_(bottom).add_(2).__irshift__(2)
