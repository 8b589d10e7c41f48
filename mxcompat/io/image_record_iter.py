"""MXNet's C++ image RecordIO iterators: ImageRecordIter, ImageRecordUInt8Iter and
ImageRecordInt8Iter.

Records are decoded (PNG/JPEG as OpenCV does, see mx.image), resized, cropped, mirrored and
normalized as MXNet's default augmenter and ImageRecordIOParser2 do, in a pool of
``preprocess_threads`` threads (the decoders and the resize release the GIL). Batching follows
MXNet: with ``round_batch`` the last batch is completed from the start of the data (and ``pad``
says how many examples were added, the next epoch continuing after them); without it the last
batch is filled with zeros and, as in MXNet, ``pad`` is 0. Random augmentations draw from
numpy's generator (seeded by ``seed``/``seed_aug``), so they differ from MXNet's draws.
"""
import math
import os
import struct
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch

from ..base import MXNetError, to_bool, to_float, to_int, to_shape
from ..image import _codec, _resize
from ..recordio import unpack
from .io import MXDataIter
from .native import _REQUIRED, _KIND, _no_positional

__all__ = ['ImageRecordIter', 'ImageRecordUInt8Iter', 'ImageRecordInt8Iter',
           'ImageRecordIter_v1', 'ImageRecordUInt8Iter_v1']

_KINDS = dict(_KIND)
_KINDS[to_float] = 'float'
_MAGIC = 0xced7230a
_HEAD = struct.Struct('<II')

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
_UNSUPPORTED = {'max_rotate_angle': 0.0, 'max_shear_ratio': 0.0, 'rotate': -1.0,
                'max_random_scale': 1.0, 'min_random_scale': 1.0, 'max_img_size': 1e10,
                'min_img_size': 0.0, 'pca_noise': 0.0, 'random_h': 0, 'random_s': 0,
                'random_l': 0, 'shuffle_chunk_size': 0}


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
        if not p['random_resized_crop'] and self.ratio != (1.0, 1.0):
            raise NotImplementedError('mx.io.ImageRecordIter: max_aspect_ratio/min_aspect_ratio '
                                      'without random_resized_crop (affine aspect jitter)')
        for key, off in _UNSUPPORTED.items():
            if p[key] != off:
                raise NotImplementedError('mx.io.ImageRecordIter: parameter %s=%r is not '
                                          'supported by mxcompat' % (key, p[key]))
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
        p, (_, dh, dw) = self.p, self.shape
        if p['resize'] != -1:
            h, w = img.shape[:2]
            r = p['resize']
            nh, nw = (r * h // w, r) if h > w else (r, r * w // h)
            img = _resize_hwc(img, nw, nh, self._interp(w, h, nw, nh, rng))
        if p['pad'] > 0:
            k = p['pad']
            img = np.pad(img, ((k, k), (k, k), (0, 0)), constant_values=p['fill_value'])
        if p['random_resized_crop'] and (p['max_random_area'] != 1 or p['min_random_area'] != 1
                                         or self.ratio != (1.0, 1.0)):
            out = self._random_resized_crop(img, rng)
            if out is not None:
                return out
        elif p['max_crop_size'] != -1 or p['min_crop_size'] != -1:
            return self._jitter(self._random_size_crop(img, rng), rng)
        return self._jitter(self._center_crop(img, rng), rng)

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


class _ImageRecordBase(MXDataIter):
    _NAME = 'ImageRecordIter'
    _OUT = np.float32
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
        self._pool = ThreadPoolExecutor(max(1, p['preprocess_threads']))
        self._shuffle_rng = np.random.RandomState(p['seed'])
        seed = p['seed_aug'] if p['seed_aug'] is not None else p['seed']
        self._aug_rng = np.random.RandomState(seed)
        c = p['data_shape'][0]
        if c == 1:
            self._mean = np.float32(p['mean_r'])
            self._mult = np.float32(p['scale'] / p['std_r'])
        else:
            keys = 'rgba'[:c]
            self._mean = np.array([p['mean_' + k] for k in keys], np.float32)[:, None, None]
            self._mult = np.array([p['scale'] / p['std_' + k] for k in keys],
                                  np.float32)[:, None, None]
        self._mean_img = None
        if p['mean_img'] and self._OUT is not np.uint8:
            self._mean_img = self._load_mean_img(p['mean_img'])
        self._order = self._epoch_order()
        self._pos = 0
        self._overflow = 0
        self._last = None
        super(_ImageRecordBase, self).__init__(kwargs.get('data_name', 'data'),
                                               kwargs.get('label_name', 'softmax_label'))
        self._start()

    def __del__(self):
        pool = getattr(self, '_pool', None)
        if pool is not None:
            pool.shutdown(wait=False)
        f = getattr(self, '_file', None)
        if f is not None:
            f.close()

    def _epoch_order(self):
        order = list(self._offsets)
        if self._p['shuffle']:
            self._shuffle_rng.shuffle(order)
        return order

    # -- one example -------------------------------------------------------------------------
    def _example(self, raw, rng_seed):
        p = self._p
        header, buf = unpack(raw)
        rng = np.random.RandomState(rng_seed)
        c = p['data_shape'][0]
        if c == 4:
            img = _codec.cv_imdecode(buf, -1)
            if img.ndim != 3 or img.shape[2] != 4:
                raise MXNetError('%s: Invalid image with index %d. Expected 4 channels, got %d'
                                 % (self._NAME, header.id, 1 if img.ndim == 2 else img.shape[2]))
            img = img[:, :, [2, 1, 0, 3]]
        else:
            img = _codec.decode(buf, 1 if c == 3 else 0, True)
        label = self._label(header)
        img = self._aug(img, rng)
        mirrored = (p['rand_mirror'] and rng.uniform() < 0.5) or p['mirror']
        data = self._normalize(np.ascontiguousarray(img.transpose(2, 0, 1)), rng)
        return (data[:, :, ::-1] if mirrored else data), label

    def _load_mean_img(self, path):
        """The mean image file; when it does not exist, MXNet averages the (augmented)
        examples of the data set and saves that as ``{'mean_img': mean}``."""
        from .. import ndarray as nd
        if os.path.exists(path):
            loaded = nd.load(path)
            data = list(loaded.values()) if isinstance(loaded, dict) else list(loaded)
            if len(data) != 1 or data[0].ndim != 3:
                raise MXNetError('%s: Invalid mean image file format: %s' % (self._NAME, path))
            return data[0].asnumpy().astype(np.float32)
        total = None
        for d, _ in self._examples(self._offsets):
            total = d.astype(np.float64) if total is None else total + d
        if total is None:
            raise MXNetError('%s: cannot create mean image %s from an empty data set'
                             % (self._NAME, path))
        mean = (total / len(self._offsets)).astype(np.float32)
        nd.save(path, {'mean_img': nd.array(mean)})
        return mean

    def _label(self, header):
        lw = self._p['label_width']
        if self._labels is not None:
            if header.id not in self._labels:
                raise MXNetError('%s: image index %d is not in path_imglist'
                                 % (self._NAME, header.id))
            return self._labels[header.id]
        lab = np.asarray(header.label, np.float32).reshape(-1)
        if header.flag > 0:
            if lw != lab.size:
                raise MXNetError('%s: rec file provide %d-dimensional label but label_width is '
                                 'set to %d' % (self._NAME, lab.size, lw))
        elif lw != 1:
            raise MXNetError('%s: label_width must be 1 unless an imglist is provided or the '
                             'rec file is packed with multi dimensional label' % self._NAME)
        return lab

    def _normalize(self, data, rng):
        p = self._p
        mult = self._mult
        bias = np.float32(0)
        if p['max_random_contrast'] > 0 or p['max_random_illumination'] > 0:
            c = p['max_random_contrast']
            i = p['max_random_illumination']
            contrast = np.float32((rng.uniform() * c * 2 - c + 1) * p['scale'])
            mult = self._mult * (contrast / np.float32(p['scale']))
            bias = np.float32((rng.uniform() * i * 2 - i) * p['scale']) * \
                (self._mult / np.float32(p['scale']))
        mean = self._mean if self._mean_img is None else self._mean_img
        return (data.astype(np.float32) - mean) * mult + bias

    # -- batches -----------------------------------------------------------------------------
    def _examples(self, offsets):
        raws = [_read_record(self._file, o, self._path) for o in offsets]
        seeds = self._aug_rng.randint(0, 2 ** 31, size=len(raws))
        return list(self._pool.map(self._example, raws, seeds))

    def _produce(self):
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
        examples = self._examples(take)
        if self._V1 and self._last is not None:
            data, label = self._last[0].copy(), self._last[1].copy()
        else:
            data = np.zeros((bs,) + tuple(self._p['data_shape']), self._OUT)
            label = np.zeros((bs, self._p['label_width']), np.float32)
        for i, (d, l) in enumerate(examples[:real]):
            data[i] = d
            label[i] = l
        self._last = (data, label)
        return [data, label, pad, np.zeros(bs, np.uint64)]

    def _batch_size(self):
        return self._p['batch_size']

    def _rewind(self):
        if self._overflow:
            self._overflow = 0
        else:
            self._order = self._epoch_order()
            self._pos = 0


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

    Rotation, shear, scale jitter, HSL and PCA noise and ``shuffle_chunk_size`` raise
    NotImplementedError.
    """


class ImageRecordUInt8Iter(ImageRecordIter):
    """ImageRecordIter that outputs the augmented pixels as uint8, without normalization."""
    _NAME = 'ImageRecordUInt8Iter'
    _OUT = np.uint8

    def _normalize(self, data, rng):
        return data


class ImageRecordInt8Iter(ImageRecordIter):
    """ImageRecordIter that outputs ``saturate(pixel - round(mean))`` as int8."""
    _NAME = 'ImageRecordInt8Iter'
    _OUT = np.int8

    def _normalize(self, data, rng):
        return np.clip(data.astype(np.int16) - np.round(self._mean).astype(np.int16),
                       -128, 127)


class ImageRecordIter_v1(ImageRecordIter):  # pylint: disable=invalid-name
    """MXNet's first ImageRecordIter: the same images and labels; without ``round_batch`` the
    last batch reports its padding (and repeats the previous batch's examples there)."""
    _NAME = 'ImageRecordIter_v1'
    _V1 = True


class ImageRecordUInt8Iter_v1(ImageRecordUInt8Iter):  # pylint: disable=invalid-name
    """ImageRecordIter_v1 with uint8 output, without normalization."""
    _NAME = 'ImageRecordUInt8Iter_v1'
    _V1 = True
