"""Fixtures for mx.io.ImageRecordIter / ImageRecordUInt8Iter, written by real MXNet 1.9.1.

Tiny PNG and JPEG images of different sizes are packed with MXNet's own ``mx.recordio``
into .rec/.idx files stored in tests/fixtures/image_record_iter/ (single and multi-dimensional
labels). :data:`SCENARIOS` lists iterator keyword arguments (no random augmentation); for each
the batches of two epochs (data, label, pad) are stored. tests/test_image_record_iter.py runs
the same scenarios on mxcompat.
"""
import io
import json
import os
import shutil
import tempfile

import numpy as np

from .image import png

SIZES = [(12, 16), (16, 12), (9, 9), (20, 14), (10, 25), (13, 13), (15, 11)]


def _image(seed, h, w, c=3):
    rs = np.random.RandomState(seed)
    yy, xx = np.mgrid[0:h, 0:w]
    img = np.stack([127 + 100 * np.sin(0.3 * xx * (k + 1) / 2 + 0.2 * yy + seed)
                    for k in range(c)], axis=2)
    img += rs.uniform(-20, 20, size=img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def _jpeg(img):
    from PIL import Image
    out = io.BytesIO()
    Image.fromarray(img).save(out, 'JPEG', quality=90)
    return out.getvalue()


def encoded_images():
    """The records' image bytes: PNGs (RGB and gray) and baseline JPEGs."""
    out = []
    for i, (h, w) in enumerate(SIZES):
        if i % 3 == 2:
            out.append(_jpeg(_image(i, h, w)))
        elif i == 4:
            out.append(png(_image(i, h, w, 1)[:, :, 0]))
        else:
            out.append(png(_image(i, h, w)))
    return out


def write_recs(mx, outdir):
    """images.rec/.idx (one label each) and multi.rec/.idx (two labels each)."""
    imgs = encoded_images()
    for name, labels in (('images', [float(i % 4) for i in range(len(imgs))]),
                         ('multi', [[float(i), 0.5 * i] for i in range(len(imgs))])):
        rec = mx.recordio.MXIndexedRecordIO(os.path.join(outdir, name + '.idx'),
                                            os.path.join(outdir, name + '.rec'), 'w')
        for i, (buf, lab) in enumerate(zip(imgs, labels)):
            header = mx.recordio.IRHeader(0, lab, 100 + i, 0)
            rec.write_idx(i, mx.recordio.pack(header, buf))
        rec.close()
    mean = np.random.RandomState(0).uniform(0, 255, (3, 8, 8)).astype(np.float32)
    mx.nd.save(os.path.join(outdir, 'mean.bin'), {'mean_img': mx.nd.array(mean)})


RESIZE = 12


def resized_images(mx):
    """Every record's image decoded (colour and gray) and bilinearly resized to shorter side
    RESIZE by MXNet, whole: random crops of the iterator must be windows of these."""
    out = {}
    for i, buf in enumerate(encoded_images()):
        for flag, tag in ((1, 'rgb'), (0, 'gray')):
            img = mx.image.imdecode(buf, flag=flag)
            h, w = img.shape[:2]
            nh, nw = (RESIZE * h // w, RESIZE) if h > w else (RESIZE, RESIZE * w // h)
            out['%s/%d' % (tag, i)] = mx.image.imresize(img, nw, nh, interp=1).asnumpy()
    return out


SCENARIOS = {
    'basic': dict(path_imgrec='images.rec', data_shape=(3, 8, 8), batch_size=3),
    'no-round': dict(path_imgrec='images.rec', data_shape=(3, 8, 8), batch_size=3,
                     round_batch=False),
    'idx': dict(path_imgrec='images.rec', path_imgidx='images.idx', data_shape=(3, 9, 7),
                batch_size=4),
    'resize': dict(path_imgrec='images.rec', data_shape=(3, 10, 10), batch_size=2, resize=12),
    'upscale': dict(path_imgrec='images.rec', data_shape=(3, 18, 18), batch_size=7),
    'normalize': dict(path_imgrec='images.rec', data_shape=(3, 8, 8), batch_size=7,
                      mean_r=123.68, mean_g=116.28, mean_b=103.53, std_r=58.4, std_g=57.1,
                      std_b=57.4, scale=0.5),
    'gray': dict(path_imgrec='images.rec', data_shape=(1, 8, 8), batch_size=4, resize=9),
    'mirror': dict(path_imgrec='images.rec', data_shape=(3, 8, 8), batch_size=7, mirror=True),
    'multi-label': dict(path_imgrec='multi.rec', data_shape=(3, 8, 8), batch_size=3,
                        label_width=2),
    'parts-0': dict(path_imgrec='images.rec', path_imgidx='images.idx', data_shape=(3, 8, 8),
                    batch_size=2, num_parts=2, part_index=0),
    'parts-1': dict(path_imgrec='images.rec', path_imgidx='images.idx', data_shape=(3, 8, 8),
                    batch_size=2, num_parts=2, part_index=1),
    'names': dict(path_imgrec='images.rec', data_shape=(3, 8, 8), batch_size=7,
                  data_name='img', label_name='lab', preprocess_threads=2),
    'mean-img-load': dict(path_imgrec='images.rec', data_shape=(3, 8, 8), batch_size=7,
                          mean_img='mean.bin', mirror=True, scale=0.5),
    'mean-img-create': dict(path_imgrec='images.rec', data_shape=(3, 8, 8), batch_size=4,
                            mean_img='NEW', resize=9),
    'v1-no-round': dict(path_imgrec='images.rec', data_shape=(3, 8, 8), batch_size=3,
                        round_batch=False, _cls='ImageRecordIter_v1'),
    'v1-uint8': dict(path_imgrec='images.rec', data_shape=(3, 8, 8), batch_size=4, resize=9,
                     _cls='ImageRecordUInt8Iter_v1'),
    'uint8': dict(path_imgrec='images.rec', data_shape=(3, 8, 8), batch_size=3, resize=10,
                  _cls='ImageRecordUInt8Iter'),
    'uint8-inter-area': dict(path_imgrec='images.rec', data_shape=(3, 6, 6), batch_size=7,
                             resize=7, inter_method=3, _cls='ImageRecordUInt8Iter'),
    # HSL jitter with random_x=1: the shifts truncate to 0, leaving OpenCV's 8-bit
    # BGR -> HLS -> BGR round trip (13 columns: its SSE2 kernel and its scalar tail)
    'hls-roundtrip': dict(path_imgrec='images.rec', data_shape=(3, 12, 13), batch_size=7,
                          random_h=1, random_s=1, random_l=1, _cls='ImageRecordUInt8Iter'),
    # the affine augmentations, with their random ranges collapsed to one value
    'affine-rotate': dict(path_imgrec='images.rec', data_shape=(3, 8, 8), batch_size=7,
                          rotate=30, _cls='ImageRecordUInt8Iter'),
    # references for the random rotations of max_rotate_angle=3 (rotate=0 is 'uint8-plain')
    'uint8-plain': dict(path_imgrec='images.rec', data_shape=(3, 8, 8), batch_size=7,
                        _cls='ImageRecordUInt8Iter'),
    'affine-rotate-1': dict(path_imgrec='images.rec', data_shape=(3, 8, 8), batch_size=7,
                            rotate=1, _cls='ImageRecordUInt8Iter'),
    'affine-rotate-2': dict(path_imgrec='images.rec', data_shape=(3, 8, 8), batch_size=7,
                            rotate=2, _cls='ImageRecordUInt8Iter'),
    'affine-rotate-3': dict(path_imgrec='images.rec', data_shape=(3, 8, 8), batch_size=7,
                            rotate=3, _cls='ImageRecordUInt8Iter'),
    'affine-scale-aspect': dict(path_imgrec='images.rec', data_shape=(3, 8, 8), batch_size=7,
                                min_random_scale=1.3, max_random_scale=1.3,
                                min_aspect_ratio=0.8, max_aspect_ratio=0.8, fill_value=40,
                                _cls='ImageRecordUInt8Iter'),
    'affine-img-size': dict(path_imgrec='images.rec', data_shape=(3, 10, 10), batch_size=7,
                            resize=11, rotate=90, min_img_size=14, max_img_size=18,
                            fill_value=7, inter_method=3, _cls='ImageRecordUInt8Iter'),
    'affine-gray-pad': dict(path_imgrec='images.rec', data_shape=(1, 10, 10), batch_size=7,
                            rotate=45, pad=2, fill_value=200, _cls='ImageRecordUInt8Iter'),
    'affine-shrink-float': dict(path_imgrec='images.rec', data_shape=(3, 6, 6), batch_size=7,
                                rotate=170, min_random_scale=0.6, max_random_scale=0.6,
                                mean_r=120, std_r=60, scale=0.5),
}


def run(mx, name, fxdir):
    """Two epochs of scenario ``name``: provide_data/label and, per batch, data, label, pad."""
    kw = dict(SCENARIOS[name])
    cls = getattr(mx.io, kw.pop('_cls', 'ImageRecordIter'))
    for k in ('path_imgrec', 'path_imgidx', 'mean_img'):
        if k in kw:
            kw[k] = os.path.join(fxdir, kw[k])
    tmp = None
    if kw.get('mean_img', '').endswith('NEW'):  # the iterator creates the mean image file
        tmp = tempfile.mkdtemp()
        kw['mean_img'] = os.path.join(tmp, 'mean.bin')
    try:
        it = cls(**kw)
        out = {'provide_data': [(d.name, list(d.shape)) for d in it.provide_data],
               'provide_label': [(d.name, list(d.shape)) for d in it.provide_label],
               'epochs': []}
        for _ in range(2):
            out['epochs'].append([(b.data[0].asnumpy(), b.label[0].asnumpy(), b.pad)
                                  for b in it])
            it.reset()
        if tmp is not None:
            out['mean_img'] = mx.nd.load(kw['mean_img'])['mean_img'].asnumpy()
    finally:
        if tmp is not None:
            shutil.rmtree(tmp)
    return out


def write(mx, outdir):
    write_recs(mx, outdir)
    arrays, manifest = {}, {}
    for name in SCENARIOS:
        res = run(mx, name, outdir)
        epochs = []
        for e, batches in enumerate(res['epochs']):
            ep = []
            for b, (data, label, pad) in enumerate(batches):
                key = '%s/%d/%d' % (name, e, b)
                arrays[key + '/data'], arrays[key + '/label'] = data, label
                ep.append({'key': key, 'pad': pad, 'dtype': data.dtype.name})
            epochs.append(ep)
        if 'mean_img' in res:
            arrays[name + '/mean_img'] = res['mean_img']
        manifest[name] = {'provide_data': res['provide_data'],
                          'provide_label': res['provide_label'], 'epochs': epochs}
    np.savez_compressed(os.path.join(outdir, 'arrays.npz'), **arrays)
    np.savez_compressed(os.path.join(outdir, 'resized.npz'), **resized_images(mx))
    with open(os.path.join(outdir, 'manifest.json'), 'w') as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
