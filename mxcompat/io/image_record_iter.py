"""MXNet's C++ image RecordIO iterators: ImageRecordIter, ImageRecordUInt8Iter and
ImageRecordInt8Iter.

Records are decoded (PNG/JPEG as OpenCV does, see mx.image), resized, cropped, mirrored and
normalized as MXNet's default augmenter and ImageRecordIOParser2 do. Each batch is split into
``preprocess_threads`` chunks decoded by a thread pool (libjpeg and torch release the GIL)
while the previous batch is handed out, as MXNet's prefetcher does. The hot path is
batch-level: the .rec file is memory-mapped, JFIF JPEGs are decoded by one libjpeg call
straight into a staging buffer (or into the batch), a resize followed by a crop computes only
the cropped window, and the HWC -> CHW, mean/std and mirror steps are a few torch ops per
chunk. Batch buffers are recycled once nothing references them (MXNet recycles them too).

Batching follows MXNet: with ``round_batch`` the last batch is completed from the start of the
data (and ``pad`` says how many examples were added, the next epoch continuing after them);
without it the last batch is filled with zeros and, as in MXNet, ``pad`` is 0. Random
augmentations draw from numpy's generator (seeded by ``seed``/``seed_aug``), so they differ
from MXNet's draws.
"""
import math
import mmap
import os
import struct
import sys
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np
import torch

from ..base import MXNetError, to_bool, to_float, to_int, to_shape
from ..image import _codec, _hls, _resize, _warp
from .io import MXDataIter, _READ_AHEAD
from .native import _REQUIRED, _KIND, _no_positional

__all__ = ['ImageRecordIter', 'ImageRecordUInt8Iter', 'ImageRecordInt8Iter',
           'ImageRecordIter_v1', 'ImageRecordUInt8Iter_v1']

_KINDS = dict(_KIND)
_KINDS[to_float] = 'float'
_MAGIC = 0xced7230a
_HEAD = struct.Struct('<II')
_IR = struct.Struct('<IfQQ')   # flag, label, id, id2 of an image record
_LEN_MASK = (1 << 29) - 1
_DRAWS = 80                    # random numbers per example: more than any augmenter draws

_COMMON = {
    'path_imglist': (str, ''), 'path_imgrec': (str, ''), 'path_imgidx': (str, ''),
    'aug_seq': (str, 'aug_default'), 'label_width': (to_int, 1),
    'data_shape': (to_shape, _REQUIRED), 'preprocess_threads': (to_int, 4),
    'verbose': (to_bool, True), 'num_parts': (to_int, 1), 'part_index': (to_int, 0),
    'shuffle_chunk_size': (to_int, 0), 'shuffle_chunk_seed': (to_int, 0),
    'seed_aug': (to_int, None), 'batch_size': (to_int, _REQUIRED), 'round_batch': (to_bool, True),
    'shuffle': (to_bool, False), 'seed': (to_int, 0), 'mirror': (to_bool, False),
    'rand_mirror': (to_bool, False), 'mean_img': (str, ''),
    'mean_r': (to_float, 0.0), 'mean_g': (to_float, 0.0), 'mean_b': (to_float, 0.0),
    'mean_a': (to_float, 0.0), 'std_r': (to_float, 1.0), 'std_g': (to_float, 1.0),
    'std_b': (to_float, 1.0), 'std_a': (to_float, 1.0), 'scale': (to_float, 1.0),
    'max_random_contrast': (to_float, 0.0), 'max_random_illumination': (to_float, 0.0),
    # the default augmenter
    'resize': (to_int, -1), 'rand_crop': (to_bool, False),
    'random_resized_crop': (to_bool, False), 'max_rotate_angle': (to_float, 0.0),
    'max_aspect_ratio': (to_float, 0.0), 'min_aspect_ratio': (to_float, None),
    'max_shear_ratio': (to_float, 0.0), 'max_crop_size': (to_int, -1),
    'min_crop_size': (to_int, -1), 'max_random_scale': (to_float, 1.0),
    'min_random_scale': (to_float, 1.0), 'max_random_area': (to_float, 1.0),
    'min_random_area': (to_float, 1.0), 'max_img_size': (to_float, 1e10),
    'min_img_size': (to_float, 0.0), 'brightness': (to_float, 0.0),
    'contrast': (to_float, 0.0), 'saturation': (to_float, 0.0), 'pca_noise': (to_float, 0.0),
    'random_h': (to_int, 0), 'random_s': (to_int, 0), 'random_l': (to_int, 0),
    'rotate': (to_float, -1.0), 'fill_value': (to_int, 255), 'inter_method': (to_int, 1),
    'pad': (to_int, 0),
}

# augmentations mxcompat does not implement yet, with their "off" values
# MXNet's PCA-noise basis: ImageNet's RGB eigenvectors scaled by their eigenvalues
_PCA_EIGVEC = (np.array([55.46, 4.794, 1.148], np.float32)
               * np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140],
                           [-0.5836, -0.6948, 0.4203]], np.float32))


def _params(name, kwargs):
    out = {}
    for key, (conv, default) in _COMMON.items():
        if key not in kwargs or kwargs[key] is None:
            if default is _REQUIRED:
                raise MXNetError('%s: Required parameter %s of %s is not presented'
                                 % (name, key, _KINDS[conv]))
            out[key] = default
            continue
        try:
            out[key] = conv(kwargs[key])
        except (TypeError, ValueError):
            raise MXNetError("%s: Invalid Parameter format for %s expect %s but value='%s'"
                             % (name, key, _KINDS[conv], kwargs[key])) from None
    return out


def _scan(path):
    """Byte offsets of the logical records of a .rec file, checking every header."""
    if not os.path.isfile(path):
        raise MXNetError('ImageRecordIter: cannot open path_imgrec %r: No such file' % path)
    size = os.path.getsize(path)
    offsets, pos, start = [], 0, None
    with open(path, 'rb') as f:
        while pos < size:
            f.seek(pos)
            head = f.read(8)
            if len(head) < 8:
                raise MXNetError('ImageRecordIter: invalid RecordIO file %r: truncated record '
                                 'header at byte %d' % (path, pos))
            magic, lrec = _HEAD.unpack(head)
            if magic != _MAGIC:
                raise MXNetError('ImageRecordIter: invalid RecordIO file %r: bad magic number '
                                 '0x%08x at byte %d; the file is corrupt or not a .rec file'
                                 % (path, magic, pos))
            cflag, length = lrec >> 29, lrec & ((1 << 29) - 1)
            end = pos + 8 + ((length + 3) & ~3)
            if end > size:
                raise MXNetError('ImageRecordIter: invalid RecordIO file %r: the record at byte '
                                 '%d declares %d bytes but the file ends before them (truncated '
                                 'file)' % (path, pos, length))
            if cflag in (0, 1):
                start = pos
            if cflag in (0, 3):
                offsets.append(start)
            pos = end
    return offsets


def _read_index(path):
    offsets = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) != 2:
                raise MXNetError('ImageRecordIter: malformed line %d of path_imgidx %r: %r'
                                 % (n, path, line))
            offsets.append(int(parts[1]))
    return sorted(offsets)


def _read_record(f, offset, path):
    """The payload of the logical record at ``offset``."""
    f.seek(offset)
    parts = []
    while True:
        head = f.read(8)
        if len(head) < 8:
            raise MXNetError('ImageRecordIter: invalid RecordIO file %r: truncated record at '
                             'byte %d' % (path, offset))
        magic, lrec = _HEAD.unpack(head)
        if magic != _MAGIC:
            raise MXNetError('ImageRecordIter: invalid RecordIO file %r: bad magic number at '
                             'byte %d (a wrong path_imgidx offset?)' % (path, offset))
        cflag, length = lrec >> 29, lrec & ((1 << 29) - 1)
        data = f.read((length + 3) & ~3)
        if len(data) < length:
            raise MXNetError('ImageRecordIter: invalid RecordIO file %r: truncated record at '
                             'byte %d' % (path, offset))
        parts.append(data[:length])
        if cflag in (0, 3):
            return struct.pack('<I', _MAGIC).join(parts)


def _partition(offsets, path, num_parts, part_index, indexed):
    """The records of part ``part_index``: dmlc splits an indexed file by record count and a
    plain one by bytes (a record belongs to the part its header starts in)."""
    if not 0 <= part_index < num_parts:
        raise MXNetError('ImageRecordIter: part_index=%d must be in [0, num_parts=%d)'
                         % (part_index, num_parts))
    if num_parts == 1:
        return offsets
    if indexed:
        step = (len(offsets) + num_parts - 1) // num_parts
        return offsets[part_index * step:(part_index + 1) * step]
    size = os.path.getsize(path)
    step = ((size + num_parts - 1) // num_parts + 3) // 4 * 4
    lo, hi = step * part_index, min(size, step * (part_index + 1))
    return [o for o in offsets if lo <= o < hi]


def _read_imglist(path, label_width):
    """image index -> labels, from an image list file ("index\\tlabel(s)\\tpath")."""
    table = {}
    with open(path) as f:
        for line in f:
            parts = line.strip().split('\t')
            if len(parts) < label_width + 2:
                continue
            table[int(float(parts[0]))] = np.array(parts[1:1 + label_width], np.float32)
    return table


def _resize_hwc(img, w, h, interp):
    t = torch.from_numpy(img)
    return _resize.resize(t, w, h, interp).numpy()


class _Augmenter:
    """MXNet's default image augmenter (the parts mxcompat supports), on (H, W, C) uint8."""

    def __init__(self, p):
        self.p = p
        self.shape = p['data_shape']
        if p['min_aspect_ratio'] is not None:
            self.ratio = (p['min_aspect_ratio'], p['max_aspect_ratio'])
        else:
            self.ratio = (1 - p['max_aspect_ratio'], 1 + p['max_aspect_ratio'])
        self.hsl = bool(p['random_h'] or p['random_s'] or p['random_l'])
        # rotation, shear, scale and aspect jitter and the size limits: one affine warp
        self.affine = (p['max_rotate_angle'] > 0 or p['max_shear_ratio'] > 0 or p['rotate'] > 0
                       or p['max_random_scale'] != 1 or p['min_random_scale'] != 1
                       or (not p['random_resized_crop'] and self.ratio != (1.0, 1.0))
                       or p['max_img_size'] != 1e10 or p['min_img_size'] != 0)
        if self.affine and p['inter_method'] == 0:
            raise MXNetError('ImageRecordIter: invalid inter_method: valid value 0,1,2,3,9,10 '
                             '(the affine augmentations need 1, 2, 3, 4, 9 or 10)')
        if self.affine and p['inter_method'] in (2, 4, 10):
            raise NotImplementedError('mx.io.ImageRecordIter: rotation/shear/scale/aspect '
                                      'augmentations with inter_method=%d (bicubic or Lanczos '
                                      'warps) are not supported by mxcompat; use inter_method=1'
                                      % p['inter_method'])
        if not (0 <= p['inter_method'] <= 4 or 9 <= p['inter_method'] <= 10):
            raise MXNetError('ImageRecordIter: invalid inter_method: valid value 0,1,2,3,9,10')
        if p['random_resized_crop'] and (p['max_crop_size'] != -1 or p['min_crop_size'] != -1
                                         or p['rand_crop']):
            raise MXNetError('ImageRecordIter: setting random_resized_crop to true conflicts '
                             'with min_random_scale, max_random_scale, min_crop_size, '
                             'max_crop_size, and rand_crop.')

    def _interp(self, ow, oh, nw, nh, rng):
        m = self.p['inter_method']
        if m == 9:
            if nw > ow and nh > oh:
                return 2
            return 3 if nw < ow and nh < oh else 1
        if m == 10:
            return int(rng.randint(0, 5))
        return m

    def __call__(self, img, rng):
        return self._pca(self._hsl(self._jitter(self._geometry(img, rng), rng), rng), rng)

    def _fill(self, channels):
        """The border colour: cv::Scalar(v, v, v), so an alpha channel gets 0."""
        return ([self.p['fill_value']] * 3 + [0])[:channels] if channels != 1 \
            else [self.p['fill_value']]

    def _geometry(self, img, rng):
        p = self.p
        if p['resize'] != -1:
            h, w = img.shape[:2]
            r = p['resize']
            nh, nw = (r * h // w, r) if h > w else (r, r * w // h)
            img = _resize_hwc(img, nw, nh, self._interp(w, h, nw, nh, rng))
        if self.affine:
            img = self._warp(img, rng)
        if p['pad'] > 0:
            k, (h, w, c) = p['pad'], img.shape
            out = np.empty((h + 2 * k, w + 2 * k, c), np.uint8)
            out[:] = np.asarray(self._fill(c), np.uint8)
            out[k:k + h, k:k + w] = img
            img = out
        if p['random_resized_crop'] and (p['max_random_area'] != 1 or p['min_random_area'] != 1
                                         or self.ratio != (1.0, 1.0)):
            out = self._random_resized_crop(img, rng)
            if out is not None:
                return out
        elif p['max_crop_size'] != -1 or p['min_crop_size'] != -1:
            return self._random_size_crop(img, rng)
        return self._center_crop(img, rng)

    def _hsl(self, img, rng):
        """MXNet's HSL jitter: integer shifts of OpenCV's 8-bit hue (0..180), lightness and
        saturation, each drawn as (u1 + 4 u2) / 5 scaled to [-random_x, random_x]."""
        p = self.p
        if not (p['random_h'] or p['random_s'] or p['random_l']):
            return img
        if img.shape[2] != 3:
            raise MXNetError('ImageRecordIter: random_h/random_s/random_l need 3-channel '
                             'images (data_shape[0] == 3)')
        shift = {}
        for key in ('random_h', 'random_s', 'random_l'):
            r = (np.float32(rng.uniform()) + np.float32(4) * np.float32(rng.uniform())) \
                / np.float32(5)
            shift[key] = int(r * np.float32(p[key]) * np.float32(2) - np.float32(p[key]))
        return _hls.hls_shift(img, shift['random_h'], shift['random_l'], shift['random_s'])

    def _pca(self, img, rng):
        """MXNet's PCA lighting noise: one random shift per channel along the ImageNet
        eigenvectors, added to the uint8 pixels (truncated toward zero, then clipped)."""
        sigma = self.p['pca_noise']
        if sigma <= 0:
            return img
        if img.shape[2] != 3:
            raise MXNetError('ImageRecordIter: pca_noise needs 3-channel images '
                             '(data_shape[0] == 3)')
        alpha = []
        for _ in range(3):  # normal(0, sigma) by Box-Muller
            u1, u2 = 1.0 - rng.uniform(), rng.uniform()
            alpha.append(np.float32(sigma * math.sqrt(-2.0 * math.log(u1))
                                    * math.cos(2.0 * math.pi * u2)))
        shift = _PCA_EIGVEC.dot(np.array(alpha, np.float32))  # (r, g, b)
        out = np.trunc(img.astype(np.float32) + shift.astype(np.float32))
        return np.clip(out, 0, 255).astype(np.uint8)

    def _warp(self, img, rng):
        """MXNet's affine augmentation: shear, rotation, scale and aspect ratio, in float32,
        onto a canvas of the scaled size (clamped to min/max_img_size)."""
        p, f32 = self.p, np.float32
        shear = f32(rng.uniform() * p['max_shear_ratio'] * 2 - p['max_shear_ratio'])
        angle = rng.randint(-int(p['max_rotate_angle']), int(p['max_rotate_angle']) + 1)
        if p['rotate'] > 0:
            angle = int(p['rotate'])
        a, b = f32(math.cos(angle / 180.0 * math.pi)), f32(math.sin(angle / 180.0 * math.pi))
        scale = ratio = f32(1)
        if not p['random_resized_crop']:
            lo, hi = f32(p['min_random_scale']), f32(p['max_random_scale'])
            scale = f32(rng.uniform()) * (hi - lo) + lo
            lo, hi = f32(self.ratio[0]), f32(self.ratio[1])
            ratio = f32(rng.uniform()) * (hi - lo) + lo
        hs = f32(2) * scale / (f32(1) + ratio)
        ws = ratio * hs
        h, w = img.shape[:2]
        lo, hi = f32(p['min_img_size']), f32(p['max_img_size'])
        new_w = max(lo, min(hi, scale * f32(w)))
        new_h = max(lo, min(hi, scale * f32(h)))
        m00, m01 = hs * a - shear * b * ws, hs * b + shear * a * ws
        m10, m11 = -b * ws, a * ws
        m02 = (new_w - (m00 * f32(w) + m01 * f32(h))) / f32(2)
        m12 = (new_h - (m10 * f32(w) + m11 * f32(h))) / f32(2)
        ow, oh = int(new_w), int(new_h)
        interp = self._interp(w, h, ow, oh, rng)
        if interp not in (1, 3):  # OpenCV warps with INTER_AREA bilinearly
            raise NotImplementedError('mx.io.ImageRecordIter: inter_method=9 resolved to a '
                                      'bicubic warp, which mxcompat does not support; use '
                                      'inter_method=1')
        return _warp.warp_affine(img, [m00, m01, m02, m10, m11, m12], ow, oh,
                                 self._fill(img.shape[2]))

    def _jitter(self, img, rng):
        """Brightness, contrast and saturation jitter in random order, on uint8 pixels."""
        p = self.p
        if not (p['brightness'] > 0 or p['contrast'] > 0 or p['saturation'] > 0):
            return img
        if img.shape[2] != 3:
            raise MXNetError('ImageRecordIter: brightness/contrast/saturation need 3-channel '
                             'images (data_shape[0] == 3)')
        alphas = [1 + rng.uniform(-p[k], p[k]) for k in ('brightness', 'contrast', 'saturation')]
        out = img.astype(np.float32)
        for step in rng.permutation(3):
            a = np.float32(alphas[step])
            if step == 0:
                out = out * a
            else:
                gray = self._gray(out)
                other = np.float32(gray.mean()) if step == 1 else gray[:, :, None]
                out = out * a + other * (1 - a)
            out = np.clip(np.rint(out), 0, 255)
        return out.astype(np.uint8)

    @staticmethod
    def _gray(rgb):
        # MXNet applies OpenCV's RGB2GRAY to its BGR data: the 0.299 weight goes to blue
        u = rgb.astype(np.uint32)
        return ((u[..., 2] * 4899 + u[..., 1] * 9617 + u[..., 0] * 1868 + 8192) >> 14) \
            .astype(np.float32)

    def _random_resized_crop(self, img, rng):
        h, w = img.shape[:2]
        (_, dh, dw), p = self.shape, self.p
        for _ in range(10):
            area = h * w * rng.uniform(p['min_random_area'], p['max_random_area'])
            ratio = rng.uniform(*self.ratio)
            ch, cw = int(round(math.sqrt(area / ratio))), int(round(math.sqrt(area * ratio)))
            if rng.uniform() > 0.5:
                ch, cw = cw, ch
            if ch <= h and cw <= w:
                y, x = rng.randint(0, h - ch + 1), rng.randint(0, w - cw + 1)
                crop = np.ascontiguousarray(img[y:y + ch, x:x + cw])
                return _resize_hwc(crop, dw, dh, self._interp(cw, ch, dw, dh, rng))
        return None

    def _random_size_crop(self, img, rng):
        h, w = img.shape[:2]
        (_, dh, dw), p = self.shape, self.p
        if not (w >= p['max_crop_size'] and h >= p['max_crop_size']
                and p['max_crop_size'] >= p['min_crop_size']):
            raise MXNetError('ImageRecordIter: input image size smaller than max_crop_size')
        size = rng.randint(p['min_crop_size'], p['max_crop_size'] + 1)
        y, x = h - size, w - size
        if p['rand_crop']:
            y, x = rng.randint(0, y + 1), rng.randint(0, x + 1)
        else:
            y, x = y // 2, x // 2
        crop = np.ascontiguousarray(img[y:y + size, x:x + size])
        return _resize_hwc(crop, dw, dh, self._interp(size, size, dw, dh, rng))

    def _center_crop(self, img, rng):
        (_, dh, dw), p = self.shape, self.p
        h, w = img.shape[:2]
        interp = self._interp(w, h, dw, dh, rng)
        if h < dh:
            img = _resize_hwc(img, int(np.float32(dh) / np.float32(h) * np.float32(w)), dh,
                              interp)
            h, w = img.shape[:2]
        if w < dw:
            img = _resize_hwc(img, dw, int(np.float32(dw) / np.float32(w) * np.float32(h)),
                              interp)
            h, w = img.shape[:2]
        if h < dh or w < dw:
            raise MXNetError('ImageRecordIter: input image size smaller than input shape')
        y, x = h - dh, w - dw
        if p['rand_crop']:
            y, x = rng.randint(0, y + 1), rng.randint(0, x + 1)
        else:
            y, x = y // 2, x // 2
        return img[y:y + dh, x:x + dw]


def _mirror_hwc(img):
    """Mirror an (H, W, C) uint8 array left-right in place (4-byte pixels moved as words)."""
    if img.shape[2] == 4:
        img = img.view(np.uint32)
    img[:] = img[:, ::-1].copy()


def _unstage(stage, pix):
    """(n, H, W, S) uint8 staged pixels -> the (n, C, H, W) planes of ``pix``. RGBX/RGBA
    pixels are split as 32-bit words, much faster than a strided transposing copy."""
    n, h, w, s = stage.shape
    if s == 4 and sys.byteorder == 'little':
        words = torch.from_numpy(stage.view(np.int32)).view(n, h, w)
        tmp = _resize._scratch('unstage', (n, h, w), torch.int32)
        for c in range(pix.shape[1]):
            if c:
                torch.bitwise_right_shift(words, 8 * c, out=tmp).bitwise_and_(255)
            else:
                torch.bitwise_and(words, 255, out=tmp)
            pix[:, c].copy_(tmp)
    else:
        pix.copy_(torch.from_numpy(stage).permute(0, 3, 1, 2)[:, :pix.shape[1]])


class _Draws:
    """The random numbers of one example, drawn for the whole batch up front so that the
    augmentations do not depend on which thread handles the example; the interface of the
    numpy generator calls the augmenter makes."""
    __slots__ = ('u', 'k')

    def __init__(self, u):
        self.u = u
        self.k = 0

    def uniform(self, lo=0.0, hi=1.0):
        k = self.k
        self.k = k + 1
        return lo + (hi - lo) * self.u[k % _DRAWS]

    def randint(self, lo, hi):
        return min(lo + int(self.uniform() * (hi - lo)), hi - 1)

    def permutation(self, n):
        keys = [self.uniform() for _ in range(n)]
        return sorted(range(n), key=keys.__getitem__)


class _Job:
    """One batch in flight: the encoded images, per-example random numbers, the uint8 staging
    buffer the workers decode and crop into, and the output the workers normalize into."""
    __slots__ = ('bufs', 'ids', 'draws', 'stage', 'out', 'label', 'pad', 'real', 'futures',
                 'mult', 'bias', 'mirror', 'direct')


class _ImageRecordBase(MXDataIter):
    _NAME = 'ImageRecordIter'
    _OUT, _OUT_NP = torch.float32, np.float32
    _PIX = torch.float32   # the dtype the pixel values are gathered in before _finish
    # the _v1 iterators report the padding of a last batch without round_batch and leave the
    # previous batch's examples in its padded rows; the others report 0 and MXNet leaves the
    # rows uninitialised (mxcompat: zeros)
    _V1 = False

    def __init__(self, *args, **kwargs):
        _no_positional(self._NAME, args)
        p = _params(self._NAME, kwargs)
        self._p = p
        if len(p['data_shape']) != 3 or p['data_shape'][0] not in (1, 3, 4):
            raise MXNetError('%s: Invalid output shape %s: data_shape must be (channels, '
                             'height, width) with 1, 3 or 4 channels'
                             % (self._NAME, p['data_shape']))
        if p['batch_size'] < 1:
            raise MXNetError('%s: batch_size must be positive' % self._NAME)
        if not p['path_imgrec']:
            raise MXNetError('%s: path_imgrec must be specified (image lists without a .rec '
                             'file are not supported)' % self._NAME)
        self._aug = _Augmenter(p)
        self._path = p['path_imgrec']
        indexed = bool(p['path_imgidx'])
        offsets = (_read_index(p['path_imgidx']) if indexed else _scan(self._path))
        self._offsets = _partition(offsets, self._path, p['num_parts'], p['part_index'],
                                   indexed)
        self._labels = (_read_imglist(p['path_imglist'], p['label_width'])
                        if p['path_imglist'] else None)
        self._file = open(self._path, 'rb')
        self._size = os.path.getsize(self._path)
        self._map = (mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ)
                     if self._size else b'')
        self._threads = max(1, p['preprocess_threads'])
        self._pool = ThreadPoolExecutor(self._threads)
        self._inflight = None
        self._outs, self._stages = [], []   # batch buffers, recycled (see _recycle)
        self._shuffle_rng = np.random.RandomState(p['seed'])
        seed = p['seed_aug'] if p['seed_aug'] is not None else p['seed']
        self._aug_rng = np.random.RandomState(seed)
        self._random = (p['rand_crop'] or p['rand_mirror'] or p['random_resized_crop']
                        or self._aug.affine or p['pca_noise'] > 0 or self._aug.hsl
                        or p['inter_method'] == 10 or p['max_crop_size'] != -1
                        or p['min_crop_size'] != -1 or p['brightness'] > 0
                        or p['contrast'] > 0 or p['saturation'] > 0
                        or p['max_random_contrast'] > 0 or p['max_random_illumination'] > 0)
        self._jitter = p['max_random_contrast'] > 0 or p['max_random_illumination'] > 0
        # the augmenter only resizes and crops: images already data_shape-sized are decoded
        # straight into the batch, resized ones get only their crop window computed
        crop_only = p['pad'] == 0 and not (
            self._aug.affine or self._aug.hsl or p['pca_noise'] > 0 or p['random_resized_crop']
            or p['max_crop_size'] != -1 or p['min_crop_size'] != -1 or p['brightness'] > 0
            or p['contrast'] > 0 or p['saturation'] > 0)
        self._plain = crop_only and p['resize'] == -1
        self._window = crop_only and p['resize'] != -1 and p['inter_method'] == 1
        c, h, w = p['data_shape']
        self._stage_shape = (h, w, 4 if c != 1 else 1)
        if c == 1:
            self._mean = np.float32(p['mean_r'])
            self._mult = np.float32(p['scale'] / p['std_r'])
        else:
            keys = 'rgba'[:c]
            self._mean = np.array([p['mean_' + k] for k in keys], np.float32)[:, None, None]
            self._mult = np.array([p['scale'] / p['std_' + k] for k in keys],
                                  np.float32)[:, None, None]
        self._mean_t = torch.from_numpy(np.asarray(self._mean).reshape(-1, 1, 1))
        self._mult_t = torch.from_numpy(np.asarray(self._mult).reshape(-1, 1, 1))
        self._identity = (not np.any(self._mean) and np.all(self._mult == 1))
        self._mean_img = None
        if p['mean_img'] and self._OUT is not torch.uint8:
            self._mean_img = self._load_mean_img(p['mean_img'])
        self._chunk_rng = np.random.RandomState(p['shuffle_chunk_seed'])
        self._chunks = self._split_chunks() if p['shuffle_chunk_size'] > 0 else None
        self._order = self._epoch_order()
        self._pos = 0
        self._overflow = 0
        self._last = None
        super(_ImageRecordBase, self).__init__(kwargs.get('data_name', 'data'),
                                               kwargs.get('label_name', 'softmax_label'))
        self._start()

    def __del__(self):
        self._drain()
        pool = getattr(self, '_pool', None)
        if pool is not None:
            pool.shutdown(wait=False)
        if isinstance(getattr(self, '_map', None), mmap.mmap):
            self._map.close()
        f = getattr(self, '_file', None)
        if f is not None:
            f.close()

    def _epoch_order(self):
        p = self._p
        if p['shuffle']:
            order = list(self._offsets)
            self._shuffle_rng.shuffle(order)
            return order
        if p['shuffle_chunk_size'] > 0:
            # dmlc's InputSplitShuffle: the part is read as chunks of about
            # shuffle_chunk_size MB, visited in a new random order every epoch
            chunks = self._chunks
            return [o for k in self._chunk_rng.permutation(len(chunks)) for o in chunks[k]]
        return list(self._offsets)

    def _split_chunks(self):
        """The records of this part grouped into chunks of ~shuffle_chunk_size MB."""
        offs = self._offsets
        if not offs:
            return []
        span = offs[-1] + 1 - offs[0]
        count = max(1, -(-span // (self._p['shuffle_chunk_size'] << 20)))
        step = -(-span // count)
        chunks = [[] for _ in range(count)]
        for o in offs:
            chunks[min(count - 1, (o - offs[0]) // step)].append(o)
        return [c for c in chunks if c]

    # -- records -----------------------------------------------------------------------------
    def _payload(self, offset):
        """The bytes of the logical record at ``offset`` (one slice of the mapped file)."""
        if offset + 8 <= self._size:
            magic, lrec = _HEAD.unpack_from(self._map, offset)
            length = lrec & _LEN_MASK
            if magic == _MAGIC and lrec >> 29 == 0 and offset + 8 + length <= self._size:
                return self._map[offset + 8:offset + 8 + length]
        return _read_record(self._file, offset, self._path)  # split record, or the error

    def _record(self, offset):
        """(image id, label array, encoded image) of the record at ``offset``."""
        raw = self._payload(offset)
        if len(raw) < _IR.size:
            raise MXNetError('%s: invalid record at byte %d of %r: %d bytes, shorter than the '
                             'image record header' % (self._NAME, offset, self._path, len(raw)))
        flag, label, image_id, _ = _IR.unpack_from(raw, 0)
        lw = self._p['label_width']
        if self._labels is not None:
            if image_id not in self._labels:
                raise MXNetError('%s: image index %d is not in path_imglist'
                                 % (self._NAME, image_id))
            label = self._labels[image_id]
        elif flag > 0:
            if lw != flag:
                raise MXNetError('%s: rec file provide %d-dimensional label but label_width is '
                                 'set to %d' % (self._NAME, flag, lw))
            label = np.frombuffer(raw, np.float32, flag, _IR.size)
        elif lw != 1:
            raise MXNetError('%s: label_width must be 1 unless an imglist is provided or the '
                             'rec file is packed with multi dimensional label' % self._NAME)
        start = _IR.size + 4 * flag
        return image_id, label, raw[start:] if start else raw

    # -- one example (in a worker thread) -----------------------------------------------------
    def _decode(self, buf, image_id, stage):
        """The decoded image, (H, W, C) uint8, where C = 4 can also be RGBX pixels of a
        colour output (the 4th value unused); None when it went straight into ``stage``."""
        c = self._p['data_shape'][0]
        if c == 4:
            img = _codec.cv_imdecode(buf, -1)
            if img.ndim != 3 or img.shape[2] != 4:
                raise MXNetError('%s: Invalid image with index %d. Expected 4 channels, got %d'
                                 % (self._NAME, image_id, 1 if img.ndim == 2 else img.shape[2]))
            return img[:, :, [2, 1, 0, 3]]
        head = _codec.jpeg_header(buf)
        if head is not None:
            h, w = head[0], head[1]
            if self._plain and (h, w) == stage.shape[:2]:
                if _codec.decode_jpeg_into(buf, stage if c == 3 else stage[:, :, 0]):
                    return None
            else:
                img = np.empty((h, w, 4) if c == 3 else (h, w, 1), np.uint8)
                if _codec.decode_jpeg_into(buf, img if c == 3 else img[:, :, 0]):
                    return img
        return _codec.decode(buf, 1 if c == 3 else 0, True)

    def _resized_window(self, img, rng, pix, flip):
        """``resize`` then the crop (and mirror), computing only the cropped pixels, straight
        into ``pix`` (C, H, W): the default bilinear resize of an image at least data_shape
        large. False where the augmenter must run instead."""
        h, w = img.shape[:2]
        r = self._p['resize']
        nh, nw = (r * h // w, r) if h > w else (r, r * w // h)
        c, dh, dw = self._p['data_shape']
        if nh < dh or nw < dw or not _resize.window_is_exact(h, w, nh, nw, 1):
            return False
        y, x = nh - dh, nw - dw
        if self._p['rand_crop']:
            y, x = rng.randint(0, y + 1), rng.randint(0, x + 1)
        else:
            y, x = y // 2, x // 2
        flip = flip() if flip else False
        pix.copy_(_resize.resize_window(torch.from_numpy(img), nw, nh, y, x, dh, dw, c, flip))
        return True

    def _flip(self, rng):
        p = self._p
        return (p['rand_mirror'] and rng.uniform() < 0.5) or p['mirror']

    def _example(self, job, i, pix):
        """Decode and augment example ``i`` into the staging buffer, or straight into its
        pixel row ``pix`` (then ``job.direct[i]``)."""
        p = self._p
        rng = _Draws(job.draws[i]) if job.draws is not None else None
        stage = job.stage[i]
        img = self._decode(job.bufs[i], job.ids[i], stage)
        # per-channel normalization commutes with mirroring: mirror the pixels unless a mean
        # image is subtracted first
        early = self._mean_img is None
        flip = False
        if img is None:
            flip = self._flip(rng)
            if flip and early:
                _mirror_hwc(stage)
                flip = False
        elif self._window and self._resized_window(
                img, rng, pix, (lambda: self._flip(rng)) if early else None):
            job.direct[i] = True
            if not early:
                flip = self._flip(rng)
        else:
            if img.shape[2] == 4 and p['data_shape'][0] == 3:
                img = img[:, :, :3]
            out = self._aug(img, rng)
            flip = self._flip(rng)
            stage[:, :, :out.shape[2]] = out
            if flip and early:
                _mirror_hwc(stage)
                flip = False
        job.mirror[i] = flip
        if self._jitter:
            ct, il, s = p['max_random_contrast'], p['max_random_illumination'], p['scale']
            contrast = np.float32((rng.uniform() * ct * 2 - ct + 1) * s)
            job.mult[i] = (self._mult * (contrast / np.float32(s))).reshape(-1)
            job.bias[i] = (np.float32((rng.uniform() * il * 2 - il) * s)
                           * (self._mult / np.float32(s))).reshape(-1)

    def _work(self, job, lo, hi):
        out = job.out[lo:hi]
        pix = out if self._PIX is self._OUT else torch.empty(out.shape, dtype=self._PIX)
        for i in range(lo, hi):
            self._example(job, i, pix[i - lo])
        start = lo
        for i in range(lo, hi + 1):  # runs of rows still in the staging buffer
            if i == hi or job.direct[i]:
                if i > start:
                    _unstage(job.stage[start:i], pix[start - lo:i - lo])
                start = i + 1
        self._finish(job, pix, out, lo, hi)
        for i in range(lo, hi):
            if job.mirror[i]:  # after the mean image, as MXNet mirrors
                out[i - lo] = out[i - lo].flip(2)

    def _finish(self, job, pix, out, lo, hi):
        """Normalize the (n, C, H, W) pixels ``pix`` (``out`` itself for float output)."""
        mean = self._mean_t if self._mean_img is None else self._mean_img
        if self._jitter:
            n = hi - lo
            out.sub_(mean).mul_(torch.from_numpy(job.mult[lo:hi]).view(n, -1, 1, 1)) \
                .add_(torch.from_numpy(job.bias[lo:hi]).view(n, -1, 1, 1))
        elif self._mean_img is not None or not self._identity:
            out.sub_(mean).mul_(self._mult_t)

    # -- batches -----------------------------------------------------------------------------
    def _submit(self, offsets, bs):
        """Start decoding the records at ``offsets`` into a batch of ``bs`` rows."""
        job = _Job()
        n = len(offsets)
        records = [self._record(o) for o in offsets]
        job.ids = [r[0] for r in records]
        job.bufs = [r[2] for r in records]
        job.label = np.zeros((bs, self._p['label_width']), np.float32)
        for i, r in enumerate(records):
            job.label[i] = r[1]
        job.draws = (self._aug_rng.random_sample((n, _DRAWS)).tolist() if self._random
                     else None)
        job.stage = self._recycle(self._stages, (bs,) + self._stage_shape, np.uint8, 4)[:n]
        job.out = torch.from_numpy(self._recycle(
            self._outs, (bs,) + tuple(self._p['data_shape']), self._OUT_NP, _READ_AHEAD + 4))
        job.mirror = [False] * n
        job.direct = [False] * n
        if self._jitter:
            c = self._p['data_shape'][0]
            job.mult = np.empty((n, c), np.float32)
            job.bias = np.empty((n, c), np.float32)
        chunks = min(self._threads, n)
        bounds = [n * k // chunks for k in range(chunks + 1)]
        job.futures = [self._pool.submit(self._work, job, bounds[k], bounds[k + 1])
                       for k in range(chunks)]
        return job

    @staticmethod
    def _recycle(pool, shape, dtype, keep):
        """A buffer of ``pool`` that nothing references any more (the batches handed out keep
        theirs alive), else a new one. Fresh large buffers cost a page fault per 4 KiB on
        first touch, about as much as decoding: MXNet recycles its batch buffers too."""
        for buf in pool:
            # references: the pool, this loop and getrefcount's argument; every tensor or
            # array made from it holds one more (through the storage or the array base)
            if sys.getrefcount(buf) == 3 and buf.shape == shape:
                return buf
        buf = np.empty(shape, dtype)
        if len(pool) < keep:
            pool.append(buf)
        return buf

    @staticmethod
    def _wait(job):
        for f in job.futures:
            f.result()
        return job

    def _drain(self):
        """Drop the batch in flight: its chunks not started are cancelled; running ones
        finish into the job's own buffers, which stay out of recycling until then."""
        job, self._inflight = getattr(self, '_inflight', None), None
        if job is not None:
            for f in job.futures:
                f.cancel()

    def _examples(self, offsets):
        """(data, label) of examples ``offsets``, normalized, as one (n, C, H, W) batch."""
        job = self._wait(self._submit(offsets, len(offsets)))
        return job.out, job.label

    def _next_take(self):
        """The records of the next batch, its padding and the number of real examples (None
        at the end of the epoch); advances the epoch position as MXNet's BatchLoader."""
        if self._overflow:
            return None
        bs = self._batch_size()
        take = self._order[self._pos:self._pos + bs]
        if not take:
            return None
        self._pos += len(take)
        pad = 0
        real = len(take)
        if len(take) < bs:
            if self._p['round_batch']:
                missing = bs - len(take)
                if missing > len(self._order):
                    raise MXNetError('%s: number of input images must be bigger than the batch '
                                     'size' % self._NAME)
                self._order = self._epoch_order()
                take = take + self._order[:missing]
                self._pos = missing
                self._overflow = pad = missing
                real = bs
            elif self._V1:
                pad = bs - len(take)
        return take, pad, real

    def _start_next(self):
        nxt = self._next_take()
        if nxt is None:
            return None
        take, pad, real = nxt
        job = self._submit(take[:real], self._batch_size())
        job.pad, job.real = pad, real
        return job

    def _produce(self):
        job, self._inflight = self._inflight, None
        if job is None:
            job = self._start_next()
            if job is None:
                return None
        self._wait(job)
        # the next batch decodes in the pool while this one is handed out (MXNet prefetches);
        # an error reading its records is raised with that batch
        try:
            self._inflight = self._start_next()
        except MXNetError as err:
            self._inflight = _Job()
            self._inflight.futures = [Future()]
            self._inflight.futures[0].set_exception(err)
        data, label, real = job.out, job.label, job.real
        if real < len(data):
            if self._V1 and self._last is not None:
                data[real:] = self._last[0][real:]
                label[real:] = self._last[1][real:]
            else:
                data[real:] = 0
        self._last = (data, label)
        return [data.numpy(), label, job.pad, np.zeros(len(data), np.uint64)]

    def _batch_size(self):
        return self._p['batch_size']

    def _rewind(self):
        self._drain()
        if self._overflow:
            self._overflow = 0
        else:
            self._order = self._epoch_order()
            self._pos = 0

    def _load_mean_img(self, path):
        """The mean image file; when it does not exist, MXNet averages the (augmented)
        examples of the data set and saves that as ``{'mean_img': mean}``."""
        from .. import ndarray as nd
        if os.path.exists(path):
            loaded = nd.load(path)
            data = list(loaded.values()) if isinstance(loaded, dict) else list(loaded)
            if len(data) != 1 or data[0].ndim != 3:
                raise MXNetError('%s: Invalid mean image file format: %s' % (self._NAME, path))
            return torch.from_numpy(data[0].asnumpy().astype(np.float32))
        if not self._offsets:
            raise MXNetError('%s: cannot create mean image %s from an empty data set'
                             % (self._NAME, path))
        total = torch.zeros(tuple(self._p['data_shape']), dtype=torch.float64)
        step = self._p['batch_size']
        for k in range(0, len(self._offsets), step):
            total += self._examples(self._offsets[k:k + step])[0].sum(0, dtype=torch.float64)
        mean = (total / len(self._offsets)).to(torch.float32)
        nd.save(path, {'mean_img': nd.array(mean.numpy())})
        return mean


class ImageRecordIter(_ImageRecordBase):
    """Iterates over image RecordIO files (.rec, made by im2rec), decoding and augmenting
    images into float32 batches of shape (batch_size,) + data_shape.

    Parameters
    ----------
    path_imgrec : str
        The .rec file.
    path_imgidx : str, optional
        Its .idx file (splits by record for num_parts).
    path_imglist : str, optional
        An image list whose labels replace those in the records.
    data_shape : tuple of int
        (channels, height, width); channels 1 (gray), 3 (RGB) or 4 (RGBA).
    batch_size : int
    label_width : int, optional
        Labels per image (default 1).
    shuffle : bool, optional
        Shuffle the records every epoch (with numpy's generator, seeded by ``seed``).
    resize : int, optional
        Resize the shorter edge to this size before cropping.
    rand_crop, rand_mirror, mirror : bool, optional
        Random crop (else centre crop), random and forced left-right flip.
    random_resized_crop, min_random_area, max_random_area, min_aspect_ratio,
    max_aspect_ratio, max_crop_size, min_crop_size, pad, fill_value, inter_method : optional
        MXNet's default augmenter options.
    mean_r, mean_g, mean_b, mean_a, std_r, std_g, std_b, std_a, scale : float, optional
        ``out = (pixel - mean) * scale / std`` per channel.
    max_random_contrast, max_random_illumination : float, optional
        Random contrast/illumination jitter of the normalization.
    preprocess_threads : int, optional
        Decoding threads (default 4).
    round_batch : bool, optional
        Complete the last batch from the start (default True).
    num_parts, part_index : int, optional
        Read only one part of the file (distributed training).
    seed, seed_aug : int, optional
        Seeds of the shuffle and of the augmentations.
    data_name, label_name : str, optional
        Names in provide_data / provide_label.

    brightness, contrast, saturation : float, optional
        Colour jitter amounts (applied in random order).
    mean_img : str, optional
        A mean image file (``mx.nd.save`` format) subtracted instead of mean_r/g/b; created
        from the data set when it does not exist.

    max_rotate_angle, rotate, max_shear_ratio, min_random_scale, max_random_scale,
    min_img_size, max_img_size : optional
        MXNet's affine augmentation (also used for max/min_aspect_ratio without
        random_resized_crop): one bilinear warp with OpenCV's fixed-point arithmetic, the
        border filled with ``fill_value``.

    random_h, random_s, random_l, pca_noise : optional
        HSL jitter (OpenCV's 8-bit HLS conversion) and PCA lighting noise.
    shuffle_chunk_size, shuffle_chunk_seed : int, optional
        Without ``shuffle``, read the part as chunks of about this many MB in a random order
        every epoch (records keep their order inside a chunk).

    Bicubic and Lanczos warps (affine augmentations with inter_method 2, 4 or 10) raise
    NotImplementedError.
    """


class ImageRecordUInt8Iter(ImageRecordIter):
    """ImageRecordIter that outputs the augmented pixels as uint8, without normalization."""
    _NAME = 'ImageRecordUInt8Iter'
    _OUT, _OUT_NP = torch.uint8, np.uint8
    _PIX = torch.uint8

    def _finish(self, job, pix, out, lo, hi):
        pass


class ImageRecordInt8Iter(ImageRecordIter):
    """ImageRecordIter that outputs ``saturate(pixel - round(mean))`` as int8."""
    _NAME = 'ImageRecordInt8Iter'
    _OUT, _OUT_NP = torch.int8, np.int8
    _PIX = torch.int16

    def _finish(self, job, pix, out, lo, hi):
        mean = torch.round(self._mean_t).to(torch.int16)
        out.copy_((pix - mean).clamp_(-128, 127))


class ImageRecordIter_v1(ImageRecordIter):  # pylint: disable=invalid-name
    """MXNet's first ImageRecordIter: the same images and labels; without ``round_batch`` the
    last batch reports its padding (and repeats the previous batch's examples there)."""
    _NAME = 'ImageRecordIter_v1'
    _V1 = True


class ImageRecordUInt8Iter_v1(ImageRecordUInt8Iter):  # pylint: disable=invalid-name
    """ImageRecordIter_v1 with uint8 output, without normalization."""
    _NAME = 'ImageRecordUInt8Iter_v1'
    _V1 = True
