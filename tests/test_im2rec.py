"""``mxcompat im2rec`` against MXNet 1.9.1's tools/im2rec.py (tests/fixtures/im2rec, made by
scripts/fixture_writers/im2rec.py): the same .lst lines, byte-identical --pass-through
.rec/.idx files, and the same folder-label listing on stdout."""
import base64
import contextlib
import io
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from mxcompat import cli
from scripts.fixture_writers import im2rec as writer

from conftest import FIXTURES

FX = os.path.join(FIXTURES, 'im2rec')
ROOT = os.path.join(FX, 'images')
with open(os.path.join(FX, 'outputs.json')) as _f:
    OUTPUTS = json.load(_f)


def _run_cli(argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(['im2rec'] + argv) == 0
    return out.getvalue()


@pytest.mark.parametrize('name', sorted(OUTPUTS))
def test_scenario(name, tmp_path):
    want = OUTPUTS[name]
    workdir = str(tmp_path)
    got = writer.run_scenario(name, ROOT, workdir, _run_cli)
    assert sorted(got['files']) == sorted(want['files'])
    for fname, data in want['files'].items():
        exp, have = base64.b64decode(data), base64.b64decode(got['files'][fname])
        if fname.endswith(('.lst', '.idx')):
            assert have.decode() == exp.decode(), fname
        else:
            assert have == exp, fname
    for g, w in zip(got['stdout'], want['stdout']):
        if w.startswith('Creating'):
            assert g.splitlines()[0] == w.splitlines()[0]
        else:
            assert g == w


def test_reencoded_records_decode_to_the_images(tmp_path):
    """Without --pass-through images are decoded, resized and re-encoded (PNG is lossless)."""
    prefix = str(tmp_path / 'data')
    _run_cli([prefix, ROOT, '--list', '--recursive', '--no-shuffle'])
    _run_cli([prefix, ROOT, '--encoding', '.png', '--quality', '3', '--num-thread', '2'])
    rec = mx.recordio.MXIndexedRecordIO(prefix + '.idx', prefix + '.rec', 'r')
    with open(prefix + '.lst') as f:
        items = [line.rstrip('\n').split('\t') for line in f]
    assert sorted(rec.keys) == sorted(int(it[0]) for it in items)
    for idx, label, path in items:
        header, img = mx.recordio.unpack_img(rec.read_idx(int(idx)))
        assert header.label == float(label) and header.id == int(idx)
        with open(os.path.join(ROOT, path), 'rb') as f:
            want = mx.image.imdecode(f.read()).asnumpy()[:, :, ::-1]  # BGR, like cv2.imread
        np.testing.assert_array_equal(img, want)
    rec.close()


def test_resize_and_center_crop(tmp_path):
    prefix = str(tmp_path / 'data')
    with open(prefix + '.lst', 'w') as f:
        f.write('0\t1.000000\tdog/sub/d.jpeg\n1\t0.000000\tdog/c.png\n')
    _run_cli([prefix, ROOT, '--resize', '4', '--center-crop', '--encoding', '.png'])
    rec = mx.recordio.MXIndexedRecordIO(prefix + '.idx', prefix + '.rec', 'r')
    assert mx.recordio.unpack_img(rec.read_idx(0))[1].shape == (4, 4, 3)
    assert mx.recordio.unpack_img(rec.read_idx(1))[1].shape == (4, 4, 3)
    rec.close()


def test_missing_list_reports(tmp_path):
    out = _run_cli([str(tmp_path / 'none'), ROOT])
    assert 'Did not find and list file with prefix' in out
