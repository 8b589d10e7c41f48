"""mx.io.ImageRecordIter / ImageRecordUInt8Iter against real MXNet 1.9.1 (tests/fixtures/
image_record_iter, made by scripts/fixture_writers/image_record_iter.py from .rec files
written by MXNet's recordio): two epochs of batches (data within one intensity level, labels,
pad) for each scenario, plus errors on bad files and parameters."""
import json
import os
import shutil
import threading

import numpy as np
import pytest

import mxcompat as mx
from mxcompat.base import MXNetError
from scripts.fixture_writers import image_record_iter as writer

from conftest import FIXTURES

FX = os.path.join(FIXTURES, 'image_record_iter')
with open(os.path.join(FX, 'manifest.json')) as _f:
    MANIFEST = json.load(_f)
ARRAYS = dict(np.load(os.path.join(FX, 'arrays.npz')))


def _window_matches(full, img):
    """{'plain'} / {'flip'} / both: whether CHW ``img`` is a window of CHW ``full``, as is or
    mirrored left-right."""
    h, w = img.shape[1:]
    matches = set()
    for y in range(full.shape[1] - h + 1):
        for x in range(full.shape[2] - w + 1):
            win = full[:, y:y + h, x:x + w]
            if np.array_equal(win, img):
                matches.add('plain')
            if np.array_equal(win[:, :, ::-1], img):
                matches.add('flip')
    return matches


@pytest.mark.parametrize('name', sorted(MANIFEST))
def test_scenario(name):
    want = MANIFEST[name]
    got = writer.run(mx, name, FX)
    assert [list(map(lambda v: v if isinstance(v, str) else list(v), d))
            for d in got['provide_data']] == want['provide_data']
    assert [list(map(lambda v: v if isinstance(v, str) else list(v), d))
            for d in got['provide_label']] == want['provide_label']
    round_batch = writer.SCENARIOS[name].get('round_batch', True)
    assert len(got['epochs']) == len(want['epochs'])
    for e, (gep, wep) in enumerate(zip(got['epochs'], want['epochs'])):
        assert len(gep) == len(wep), '%s epoch %d: %d batches, MXNet %d' % (
            name, e, len(gep), len(wep))
        for b, ((data, label, pad), w) in enumerate(zip(gep, wep)):
            where = '%s epoch %d batch %d' % (name, e, b)
            assert pad == w['pad'], where
            assert data.dtype.name == w['dtype'], where
            wd, wl = ARRAYS[w['key'] + '/data'], ARRAYS[w['key'] + '/label']
            assert data.shape == wd.shape and label.shape == wl.shape, where
            n = len(data)
            if not round_batch and b == len(wep) - 1 and '_v1' not in writer.SCENARIOS[name].get(
                    '_cls', ''):
                # MXNet leaves the rows after the last example uninitialised (and pad 0)
                n = writer.SCENARIOS[name]['batch_size'] - (
                    -len(writer.SIZES) % writer.SCENARIOS[name]['batch_size'])
            np.testing.assert_array_equal(label[:n], wl[:n], err_msg=where)
            scale = 1.0
            if name == 'normalize':
                scale = 0.5 / 57.0
            np.testing.assert_allclose(data[:n].astype(np.float64), wd[:n].astype(np.float64),
                                       atol=1.0 * scale + 1e-4, err_msg=where)
    if name + '/mean_img' in ARRAYS:
        np.testing.assert_allclose(got['mean_img'], ARRAYS[name + '/mean_img'], atol=0.5)


def _iter(**kw):
    base = dict(path_imgrec=os.path.join(FX, 'images.rec'), data_shape=(3, 8, 8),
                batch_size=2)
    base.update(kw)
    return mx.io.ImageRecordIter(**base)


def _run_with_timeout(fn, seconds=30):
    out = {}

    def target():
        try:
            out['value'] = fn()
        except BaseException as err:  # re-raised in the test thread
            out['error'] = err
    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), 'the iterator hangs'
    if 'error' in out:
        raise out['error']
    return out.get('value')


@pytest.mark.parametrize('cut', [3, 20, 200, -5])
def test_truncated_rec_raises(tmp_path, cut):
    with open(os.path.join(FX, 'images.rec'), 'rb') as f:
        raw = f.read()
    bad = tmp_path / 'bad.rec'
    bad.write_bytes(raw[:cut])
    with pytest.raises(MXNetError, match='bad.rec'):
        _run_with_timeout(lambda: [b for b in _iter(path_imgrec=str(bad))])


def test_corrupt_magic_raises(tmp_path):
    with open(os.path.join(FX, 'images.rec'), 'rb') as f:
        raw = bytearray(f.read())
    raw[0] ^= 0xFF
    bad = tmp_path / 'bad.rec'
    bad.write_bytes(bytes(raw))
    with pytest.raises(MXNetError, match='magic'):
        _run_with_timeout(lambda: _iter(path_imgrec=str(bad)))


def test_corrupt_image_payload_raises(tmp_path):
    rec = mx.recordio.MXRecordIO(str(tmp_path / 'x.rec'), 'w')
    rec.write(mx.recordio.pack(mx.recordio.IRHeader(0, 1.0, 0, 0), b'not an image'))
    rec.close()
    with pytest.raises(MXNetError, match='[Dd]ecod'):
        _run_with_timeout(lambda: _iter(path_imgrec=str(tmp_path / 'x.rec'), batch_size=1))


def test_missing_file_and_bad_params():
    with pytest.raises(MXNetError, match='nonexistent'):
        _iter(path_imgrec='/nonexistent.rec')
    with pytest.raises(MXNetError, match='data_shape'):
        mx.io.ImageRecordIter(path_imgrec=os.path.join(FX, 'images.rec'), batch_size=2)
    with pytest.raises(MXNetError, match='label_width'):
        _iter(label_width=2)
    with pytest.raises(MXNetError, match='bigger than the batch size'):
        _iter(batch_size=20)
    with pytest.raises(MXNetError, match='3-channel'):
        _iter(data_shape=(1, 8, 8), random_l=10).next()
    with pytest.raises(NotImplementedError, match='inter_method=2'):
        _iter(rotate=10, inter_method=2)
    with pytest.raises(MXNetError, match='inter_method'):
        _iter(rotate=10, inter_method=0)


def test_random_crops_and_flips_are_windows_of_the_decoded_images():
    it = mx.io.ImageRecordUInt8Iter(path_imgrec=os.path.join(FX, 'images.rec'),
                                    data_shape=(3, 8, 8), batch_size=7, rand_crop=True,
                                    rand_mirror=True, seed_aug=3)
    batch = it.next().data[0].asnumpy()
    flips = 0
    for i, buf in enumerate(writer.encoded_images()):
        matches = _window_matches(mx.image.imdecode(buf).asnumpy().transpose(2, 0, 1), batch[i])
        assert matches, i
        flips += matches == {'flip'}
    assert 0 < flips < 7


def test_color_jitter_brightness_scales_pixels():
    kw = dict(path_imgrec=os.path.join(FX, 'images.rec'), data_shape=(3, 8, 8), batch_size=7)
    plain = mx.io.ImageRecordUInt8Iter(**kw).next().data[0].asnumpy().astype(np.float64)
    jit = mx.io.ImageRecordUInt8Iter(brightness=0.4, seed_aug=1, **kw).next().data[0].asnumpy()
    changed = 0
    for p, j in zip(plain, jit):
        unsat = (j > 0) & (j < 255) & (p > 20)
        a = np.median(j[unsat] / p[unsat])
        assert 0.6 - 0.05 < a < 1.4 + 0.05
        np.testing.assert_allclose(j[unsat], p[unsat] * a, atol=0.5 + 0.02 * 255)
        assert np.all(j[p * a >= 255.5] == 255)
        changed += not np.array_equal(p, j)
    assert changed
    jit = mx.io.ImageRecordUInt8Iter(contrast=0.5, saturation=0.5, seed_aug=2, **kw)
    assert jit.next().data[0].shape == (7, 3, 8, 8)


def test_shuffle_permutes_records():
    it = _iter(batch_size=7, shuffle=True, seed=5)
    labels = it.next().label[0].asnumpy()
    assert sorted(labels.tolist()) == sorted([float(i % 4) for i in range(7)])


def test_imglist_labels(tmp_path):
    lst = tmp_path / 'l.lst'
    lst.write_text(''.join('%d\t%d\t%d\tx.png\n' % (100 + i, 10 + i, 20 + i) for i in range(7)))
    it = _iter(path_imglist=str(lst), label_width=2, batch_size=7)
    lab = it.next().label[0].asnumpy()
    np.testing.assert_array_equal(lab[:, 0], np.arange(10, 17))


def test_copy_of_rec_without_idx_partitions_by_bytes(tmp_path):
    shutil.copy(os.path.join(FX, 'images.rec'), tmp_path / 'c.rec')
    seen = []
    for part in range(2):
        it = _iter(path_imgrec=str(tmp_path / 'c.rec'), num_parts=2, part_index=part,
                   batch_size=1)
        seen += [b.label[0].asnumpy()[0] for b in it]
    assert sorted(seen) == sorted(float(i % 4) for i in range(7))


@pytest.mark.parametrize('channels', [3, 1])
def test_resize_random_crops_are_windows_of_mxnets_resized_images(channels):
    """resize + rand_crop + rand_mirror (resized crops are computed window-only for JPEGs):
    each example is a window, maybe mirrored, of the whole image MXNet resizes."""
    resized = np.load(os.path.join(FX, 'resized.npz'))
    tag = 'rgb' if channels == 3 else 'gray'
    it = mx.io.ImageRecordUInt8Iter(path_imgrec=os.path.join(FX, 'images.rec'),
                                    data_shape=(channels, 10, 10), batch_size=7,
                                    resize=writer.RESIZE, rand_crop=True, rand_mirror=True,
                                    seed_aug=4)
    flips = 0
    for _ in range(3):
        it.reset()
        batch = it.next().data[0].asnumpy()
        for i in range(7):
            matches = _window_matches(resized['%s/%d' % (tag, i)].transpose(2, 0, 1), batch[i])
            assert matches, (i, tag)
            flips += matches == {'flip'}
    assert 0 < flips < 21


def test_random_rotations_are_mxnets_rotations():
    """max_rotate_angle=3 draws an integer angle in [-3, 3]: the examples rotated by 0..3
    degrees are MXNet's ``rotate=k`` outputs exactly; the others (negative angles) match none."""
    refs = {k: ARRAYS['%s/0/0/data' % ('uint8-plain' if k == 0 else 'affine-rotate-%d' % k)]
            for k in range(4)}
    it = mx.io.ImageRecordUInt8Iter(path_imgrec=os.path.join(FX, 'images.rec'),
                                    data_shape=(3, 8, 8), batch_size=7, max_rotate_angle=3,
                                    seed_aug=11)
    angles = []
    for _ in range(6):
        it.reset()
        batch = it.next().data[0].asnumpy()
        for i in range(7):
            hit = [k for k in range(4) if np.array_equal(batch[i], refs[k][i])]
            angles.append(hit[0] if hit else None)
    assert None in angles and any(a for a in angles)
    assert len(set(a for a in angles if a is not None)) >= 3


def test_pca_noise_shifts_each_channel_along_the_eigenvectors():
    """pca_noise adds one shift per channel and image (MXNet's ImageNet eigenvectors, the
    first dominating: the three shifts are close); pixels are truncated and clipped."""
    kw = dict(path_imgrec=os.path.join(FX, 'images.rec'), data_shape=(3, 8, 8), batch_size=7)
    plain = mx.io.ImageRecordUInt8Iter(**kw).next().data[0].asnumpy().astype(np.int64)
    it = mx.io.ImageRecordUInt8Iter(pca_noise=0.3, seed_aug=5, **kw)
    sizes = []
    for _ in range(4):
        it.reset()
        noisy = it.next().data[0].asnumpy().astype(np.int64)
        for p, n in zip(plain, noisy):
            shifts = []
            for c in range(3):
                free = (n[c] > 0) & (n[c] < 255)
                d = np.unique(n[c][free] - p[c][free])
                assert len(d) <= 1, d
                if len(d):
                    shifts.append(d[0])
                    assert np.all(n[c][~free] == np.clip(p[c][~free] + d[0], 0, 255))
            if len(shifts) == 3:
                sizes.append(shifts)
    sizes = np.array(sizes, np.float64)
    assert len(sizes) > 10 and 2 < np.abs(sizes).mean() < 40
    assert np.corrcoef(sizes[:, 0], sizes[:, 2])[0, 1] > 0.8


def test_random_lightness_shifts_mxnets_hls_round_trip():
    """random_l shifts the HLS lightness by one integer per image: against MXNet's round trip
    without a shift, the images get lighter or darker by up to random_l levels."""
    ref = ARRAYS['hls-roundtrip/0/0/data'].astype(np.float64)
    it = mx.io.ImageRecordUInt8Iter(path_imgrec=os.path.join(FX, 'images.rec'),
                                    data_shape=(3, 12, 13), batch_size=7, random_l=40,
                                    seed_aug=2)
    shifts = []
    for _ in range(4):
        it.reset()
        out = it.next().data[0].asnumpy().astype(np.float64)
        shifts += [(o - r).mean() for o, r in zip(out, ref)]
    shifts = np.array(shifts)
    assert np.all(np.abs(shifts) <= 41) and shifts.min() < -3 and shifts.max() > 3


def test_shuffle_chunk_size_visits_chunks_in_random_order(tmp_path):
    """shuffle_chunk_size (MB): every record once per epoch, in file order inside each chunk
    of about that size, the chunks in a new order every epoch."""
    rec = mx.recordio.MXRecordIO(str(tmp_path / 'big.rec'), 'w')
    png = writer.encoded_images()[0]
    for i in range(60):  # ~120 KB per record (padding after the image): ~7 MB in all
        rec.write(mx.recordio.pack(mx.recordio.IRHeader(0, float(i), i, 0),
                                   png + b'\0' * 120000))
    rec.close()
    it = mx.io.ImageRecordIter(path_imgrec=str(tmp_path / 'big.rec'), data_shape=(3, 8, 8),
                               batch_size=60, shuffle_chunk_size=1, shuffle_chunk_seed=3)
    orders = []
    for _ in range(3):
        it.reset()
        orders.append(it.next().label[0].asnumpy().astype(int).tolist())
    for order in orders:
        assert sorted(order) == list(range(60))
        runs = sum(b != a + 1 for a, b in zip(order, order[1:]))
        assert 3 <= runs <= 8  # about 7 chunks, each in file order
    assert orders[0] != orders[1] or orders[1] != orders[2]
