"""Fixtures for mx.image, written by real MXNet 1.9.1.

Input images are generated here: PNGs with a small zlib-only encoder (gray, gray+alpha, RGB,
RGBA, 16-bit gray) and JPEGs with Pillow (installed in the oracle environment only to make
these inputs; their bytes are stored in ``inputs.npz`` so tests decode exactly the same
files). :func:`scenarios` runs the same checks under real MXNet (to write
tests/fixtures/image/) and under mxcompat (tests/test_image.py): decoding, resizing with every
interpolation, borders, crops, augmenters with seeded ``random``/``numpy.random``, ImageIter
over an MXNet-written .rec and over image lists with every ``last_batch_handle``, and
ImageDetIter with its detection augmenters.
"""
import io
import json
import os
import random
import struct
import zlib

import numpy as np

from .gluon_data import encode_on_contexts


def png(img):
    """PNG bytes of a uint8/uint16 array: (H, W) gray, (H, W, 2|3|4) gray+alpha/RGB/RGBA."""
    img = np.asarray(img)
    if img.ndim == 2:
        img = img[:, :, None]
    h, w, c = img.shape
    ctype = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    depth = 16 if img.dtype == np.uint16 else 8
    rows = img.astype('>u2' if depth == 16 else np.uint8)
    raw = b''.join(b'\0' + rows[i].tobytes() for i in range(h))

    def chunk(tag, data):
        return (struct.pack('>I', len(data)) + tag + data
                + struct.pack('>I', zlib.crc32(tag + data) & 0xffffffff))
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, depth, ctype,
                                                               0, 0, 0))
            + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))


def _smooth(seed, h, w, c=3):
    """A smooth random image with some noise (uint8), so that resizing is non-trivial."""
    rs = np.random.RandomState(seed)
    yy, xx = np.mgrid[0:h, 0:w]
    img = np.zeros((h, w, c))
    for k in range(c):
        fx, fy, ph = rs.uniform(0.05, 0.4), rs.uniform(0.05, 0.4), rs.uniform(0, 6)
        img[:, :, k] = 127 + 90 * np.sin(fx * xx + ph) * np.cos(fy * yy)
    img += rs.uniform(-30, 30, size=img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def _jpeg(img, quality, exif_orientation=None):
    from PIL import Image
    out = io.BytesIO()
    im = Image.fromarray(img)
    if exif_orientation is None:
        im.save(out, 'JPEG', quality=quality)
        return out.getvalue()
    exif = Image.Exif()
    exif[0x0112] = exif_orientation
    im.save(out, 'JPEG', quality=quality, exif=exif.tobytes())
    data = out.getvalue()
    if data[2:4] == b'\xff\xe0':  # drop the JFIF segment: MXNet honours EXIF only then
        seg = struct.unpack('>H', data[4:6])[0]
        data = data[:2] + data[4 + seg:]
    return data


def make_inputs():
    """name -> encoded image bytes (deterministic except for the JPEG encoder)."""
    rgb = _smooth(1, 23, 31)
    rgba = np.concatenate([_smooth(2, 9, 11), _smooth(3, 9, 11, 1)], axis=2)
    gray16 = (np.arange(7 * 5, dtype=np.uint16).reshape(7, 5) * 1871)
    return {
        'rgb_png': png(rgb),
        'gray_png': png(_smooth(4, 13, 10, 1)[:, :, 0]),
        'graya_png': png(np.concatenate([_smooth(5, 6, 8, 1), _smooth(6, 6, 8, 1)], axis=2)),
        'rgba_png': png(rgba),
        'gray16_png': png(gray16),
        'rgb_jpg': _jpeg(_smooth(7, 40, 50), 90),
        'rgb_jpg_q50': _jpeg(_smooth(8, 33, 17), 50),
        'exif6_jpg': _jpeg(_smooth(9, 12, 20), 92, exif_orientation=6),
    }


def _det_label(rs, n):
    boxes = []
    for _ in range(n):
        x0, y0 = rs.uniform(0, 0.6, size=2)
        w, h = rs.uniform(0.2, 0.4, size=2)
        boxes += [float(rs.randint(0, 5)), x0, y0, x0 + w, y0 + h]
    return [2.0, 5.0] + boxes


def write_inputs(mx, fixture_dir):
    """Image files, .lst lists and .rec/.idx files the ImageIter scenarios read."""
    inputs = make_inputs()
    np.savez_compressed(os.path.join(fixture_dir, 'inputs.npz'),
                        **{k: np.frombuffer(v, dtype=np.uint8) for k, v in inputs.items()})
    imgdir = os.path.join(fixture_dir, 'imgs')
    os.makedirs(imgdir, exist_ok=True)
    names = []
    for i in range(5):
        name = 'img%d.png' % i
        with open(os.path.join(imgdir, name), 'wb') as f:
            f.write(png(_smooth(20 + i, 20 + 3 * i, 26 - 2 * i)))
        names.append(name)
    with open(os.path.join(fixture_dir, 'cls.lst'), 'w') as f:
        for i, name in enumerate(names):
            f.write('%d\t%d\t%s\n' % (i, i % 3, 'imgs/' + name))
    rs = np.random.RandomState(0)
    with open(os.path.join(fixture_dir, 'det.lst'), 'w') as f:
        for i, name in enumerate(names):
            label = _det_label(rs, 1 + i % 3)
            f.write('\t'.join([str(i)] + ['%.6f' % v for v in label] + ['imgs/' + name]) + '\n')
    rec = mx.recordio.MXIndexedRecordIO(os.path.join(fixture_dir, 'cls.idx'),
                                        os.path.join(fixture_dir, 'cls.rec'), 'w')
    for i, name in enumerate(names):
        with open(os.path.join(imgdir, name), 'rb') as f:
            rec.write_idx(i, mx.recordio.pack(mx.recordio.IRHeader(0, float(i % 3), i, 0),
                                              f.read()))
    rec.close()


def _float_img(seed, h, w):
    return _smooth(seed, h, w).astype(np.float32)


def scenarios(mx, fixture_dir):
    """name -> zero-argument callable returning the scenario's result."""
    img = mx.image
    raw = dict(np.load(os.path.join(fixture_dir, 'inputs.npz')))
    inputs = {k: v.tobytes() for k, v in raw.items()}
    src8 = mx.nd.array(_smooth(11, 17, 23), dtype='uint8')
    srcf = mx.nd.array(_float_img(12, 19, 14))

    def decode(name):
        def run():
            buf = inputs[name]
            return [img.imdecode(buf), img.imdecode(buf, flag=0), img.imdecode(buf, to_rgb=0),
                    img.imdecode(bytearray(buf), 1, False),
                    img.imdecode(np.frombuffer(buf, dtype=np.uint8)),
                    img.imdecode(mx.nd.array(np.frombuffer(buf, dtype=np.uint8), dtype='uint8'))]
        return run

    def imread():
        path = os.path.join(fixture_dir, 'imgs', 'img1.png')
        return [img.imread(path), img.imread(path, flag=0), img.imread(path, to_rgb=False)]

    def resize(src, sizes):
        def run():
            return [[img.imresize(src, w, h, interp=k) for k in range(5)] for w, h in sizes]
        return run

    def resize_more():
        out = [img.resize_short(src8, 10), img.resize_short(srcf, 30, interp=1),
               img.resize_short(src8, 40, interp=9), img.resize_short(src8, 8, interp=9)]
        dst = mx.nd.zeros((5, 6, 3), dtype='uint8')
        img.imresize(src8, 6, 5, interp=1, out=dst)
        return out + [dst]

    def borders():
        out = []
        for src in (src8, srcf, mx.nd.array(_smooth(13, 5, 4), dtype='int32')):
            for kind in (0, 1, 2, 3, 4, 16):
                out.append(img.copyMakeBorder(src, 2, 3, 4, 1, type=kind, values=(10, 20, 30)))
            out.append(img.copyMakeBorder(src, 1, 0, 0, 2, value=7.6))
            out.append(img.copyMakeBorder(src, 7, 6, 9, 8, type=2))  # wider than the image
        return out

    def crops():
        random.seed(5)
        out = [img.fixed_crop(src8, 2, 3, 7, 5), img.fixed_crop(src8, 2, 3, 7, 5, (10, 9)),
               img.fixed_crop(srcf, 1, 1, 6, 8, (3, 4), interp=1)]
        c, rect = img.center_crop(src8, (8, 6))
        out += [c, list(rect)]
        c, rect = img.center_crop(srcf, (30, 12), interp=1)
        out += [c, list(rect)]
        for _ in range(3):
            c, rect = img.random_crop(src8, (9, 7))
            out += [c, list(rect)]
        for area in (0.3, (0.2, 0.5), 5.0):
            c, rect = img.random_size_crop(src8, (8, 8), area, (0.75, 1.33))
            out += [c, list(rect)]
        out.append([img.scale_down((640, 480), (720, 120)),
                    img.scale_down((360, 1000), (480, 500)), img.scale_down((300, 400), (0, 0))])
        return out

    def normalize():
        x = srcf.copy()
        return [img.color_normalize(x, mx.nd.array([10, 20, 30]), mx.nd.array([2, 4, 8])),
                img.color_normalize(srcf.copy(), mx.nd.array([1.5]))]

    def augmenters():
        random.seed(7)
        np.random.seed(7)
        augs = img.CreateAugmenter((3, 8, 10), resize=12, rand_crop=True, rand_resize=True,
                                   rand_mirror=True, mean=True, std=True, brightness=0.3,
                                   contrast=0.3, saturation=0.3, hue=0.2, pca_noise=0.1,
                                   rand_gray=0.5, inter_method=1)
        out = [[a.dumps() if isinstance(a.dumps(), str) else json.dumps(a.dumps())
                for a in augs]]
        for _ in range(4):
            x = src8
            for a in augs:
                x = a(x)
            out.append(x)
        single = [img.BrightnessJitterAug(0.5), img.ContrastJitterAug(0.5),
                  img.SaturationJitterAug(0.5), img.HueJitterAug(0.5),
                  img.LightingAug(0.2, np.array([55.46, 4.794, 1.148]),
                                  np.eye(3)), img.RandomGrayAug(1.0), img.HorizontalFlipAug(1.0),
                  img.CastAug('float64'), img.ForceResizeAug((5, 7), 1),
                  img.ColorNormalizeAug(np.array([1.0, 2, 3]), mx.nd.array([2.0, 2, 2])),
                  img.CenterCropAug((6, 6), 1), img.RandomCropAug((6, 6), 1),
                  img.ResizeAug(9, 2), img.RandomSizedCropAug((5, 5), 0.3, (0.8, 1.2), 1)]
        for a in single:
            out.append(a(srcf.copy()))
        out.append(img.SequentialAug(single[:3]).dumps())
        return out

    def rotate():
        np.random.seed(3)
        chw = mx.nd.array(_float_img(14, 10, 12).transpose(2, 0, 1) / 255)
        batch = mx.nd.stack(chw, chw * 0.5)
        return [img.imrotate(chw, 30), img.imrotate(chw, -45, zoom_in=True),
                img.imrotate(chw, 60, zoom_out=True),
                img.imrotate(batch, mx.nd.array([10, 100])), img.random_rotate(chw, (-20, 20)),
                img.random_rotate(batch, (-90, 90), zoom_out=True)]

    def image_iter(**kwargs):
        def run():
            random.seed(1)
            np.random.seed(1)
            it = img.ImageIter(2, (3, 8, 9), path_root=fixture_dir, **kwargs)
            out = [[list(d) for d in it.provide_data], [list(d) for d in it.provide_label]]
            for _ in range(2):
                for batch in it:
                    out.append([batch.data[0], batch.label[0], batch.pad])
                it.reset()
            return out
        return run

    def image_iter_errors():
        out = []
        for kwargs in ({'data_shape': (1, 8, 8)}, {'data_shape': (3, 8)}, {'dtype': 'int8'}):
            args = {'batch_size': 2, 'data_shape': (3, 8, 8),
                    'path_imglist': os.path.join(fixture_dir, 'cls.lst'),
                    'path_root': fixture_dir}
            args.update(kwargs)
            try:
                img.ImageIter(**args)
                out.append(None)
            except Exception as e:  # pylint: disable=broad-except
                out.append(type(e).__name__)
        return out

    def det_iter(**kwargs):
        def run():
            random.seed(2)
            np.random.seed(2)
            it = img.ImageDetIter(2, (3, 12, 10), path_imglist=os.path.join(fixture_dir,
                                                                            'det.lst'),
                                  path_root=fixture_dir, **kwargs)
            out = [list(it.label_shape), [list(d) for d in it.provide_label]]
            for batch in it:
                out.append([batch.data[0], batch.label[0], batch.pad])
            return out
        return run

    def det_augmenters():
        random.seed(4)
        np.random.seed(4)
        label = np.array([[1, 0.1, 0.2, 0.5, 0.6], [2, 0.4, 0.3, 0.9, 0.8],
                          [0, 0.0, 0.0, 0.2, 0.1]])
        out = []
        crop = img.DetRandomCropAug(min_object_covered=0.3, area_range=(0.2, 1.0))
        pad = img.DetRandomPadAug(area_range=(1.2, 2.5), pad_val=(1, 2, 3))
        flip = img.DetHorizontalFlipAug(1.0)
        for aug in (crop, pad, flip, crop, pad):
            x, y = aug(srcf.copy(), label.copy())
            out += [x, y]
        sel = img.CreateMultiRandCropAugmenter(min_object_covered=[0.1, 0.5], skip_prob=0.3)
        for _ in range(3):
            x, y = sel(src8, label.copy())
            out += [x, y]
        augs = img.CreateDetAugmenter((3, 10, 12), resize=14, rand_crop=0.7, rand_pad=0.7,
                                      rand_gray=0.3, rand_mirror=True, mean=True, std=True,
                                      brightness=0.2, contrast=0.2, saturation=0.2,
                                      pca_noise=0.1, hue=0.1, inter_method=1)
        out.append([a.dumps() if isinstance(a.dumps(), str) else json.dumps(a.dumps())
                    for a in augs])
        for _ in range(3):
            x, y = src8, label.copy()
            for a in augs:
                x, y = a(x, y)
            out += [x, y]
        return out

    imglist = [[float(i % 3), 'imgs/img%d.png' % i] for i in range(5)]
    imglist_multi = [[float(i), float(i) + 0.5, 'imgs/img%d.png' % i] for i in range(5)]
    lst = os.path.join(fixture_dir, 'cls.lst')
    rec, idx = os.path.join(fixture_dir, 'cls.rec'), os.path.join(fixture_dir, 'cls.idx')
    result = {
        'imread': imread,
        'resize_u8_down': resize(src8, [(11, 9), (7, 5), (4, 6), (23, 5)]),
        'resize_u8_up': resize(src8, [(40, 33), (50, 20), (24, 18), (31, 40)]),
        'resize_u8_half': resize(mx.nd.array(_smooth(15, 16, 22), dtype='uint8'),
                                 [(11, 8), (7, 4), (11, 16)]),
        'resize_f32': resize(srcf, [(7, 9), (30, 41), (14, 19), (28, 38), (5, 40)]),
        'resize_more': resize_more,
        'borders': borders,
        'crops': crops,
        'normalize': normalize,
        'augmenters': augmenters,
        'rotate': rotate,
        'iter_list_pad': image_iter(path_imglist=lst, aug_list=[img.ForceResizeAug((9, 8), 0)]),
        'iter_list_default_augs': image_iter(imglist=imglist),
        'iter_list_discard': image_iter(imglist=imglist, last_batch_handle='discard'),
        'iter_list_roll_over': image_iter(imglist=imglist, last_batch_handle='roll_over'),
        'iter_list_multilabel': image_iter(imglist=imglist_multi, label_width=2,
                                           dtype='float64'),
        'iter_rec': image_iter(path_imgrec=rec),
        'iter_rec_idx_shuffle': image_iter(path_imgrec=rec, path_imgidx=idx, shuffle=True,
                                           rand_crop=True, rand_mirror=True),
        'iter_rec_parts': image_iter(path_imgrec=rec, path_imgidx=idx, num_parts=2,
                                     part_index=1, dtype='int32'),
        'iter_errors': image_iter_errors,
        'det_iter': det_iter(),
        'det_iter_augs': det_iter(rand_crop=0.5, rand_pad=0.5, rand_mirror=True,
                                  inter_method=1, last_batch_handle='roll_over'),
        'det_augmenters': det_augmenters,
    }
    for name in sorted(inputs):
        result['decode_' + name] = decode(name)
    return result


def write(mx, outdir):
    write_inputs(mx, outdir)
    arrays, manifest = {}, {}
    for name, fn in scenarios(mx, outdir).items():
        manifest[name] = encode_on_contexts(mx, fn, arrays, name)
    np.savez_compressed(os.path.join(outdir, 'arrays.npz'), **arrays)
    with open(os.path.join(outdir, 'manifest.json'), 'w') as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
