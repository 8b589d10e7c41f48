"""mx.image against real MXNet 1.9.1 (tests/fixtures/image, made by
scripts/fixture_writers/image.py): decoding, OpenCV-compatible resizing, borders, crops,
augmenters (seeded), ImageIter and ImageDetIter."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
import mxcompat.image as img
from mxcompat.base import MXNetError
from scripts.fixture_writers import image as writer

from conftest import FIXTURES, mxnet_context

FX = os.path.join(FIXTURES, 'image')
with open(os.path.join(FX, 'manifest.json')) as _f:
    MANIFEST = json.load(_f)
ARRAYS = dict(np.load(os.path.join(FX, 'arrays.npz')))
SCENARIOS = writer.scenarios(mx, FX)


def _tolerance(name, dtype):
    """(atol, rtol): geometric ops are exact; interpolation/decoding may differ by one level;
    float pipelines by float rounding."""
    if dtype.kind in 'ui' or dtype == np.bool_:
        return (1, 0) if name.startswith(('resize', 'decode', 'iter', 'det', 'aug', 'crops')) \
            else (0, 0)
    return (2e-3, 1e-4)


def _compare(got, want, path, name):
    if isinstance(want, dict) and 'nd' in want:
        assert isinstance(got, mx.nd.NDArray), '%s: %r is not an NDArray' % (path, got)
        assert np.dtype(got.dtype).name == want['dtype'], \
            '%s: dtype %s, MXNet %s' % (path, np.dtype(got.dtype).name, want['dtype'])
        assert str(got.context) == mxnet_context(want), path
        exp = ARRAYS[want['nd']]
        g = got.asnumpy()
        assert g.shape == exp.shape, '%s: shape %s, MXNet %s' % (path, g.shape, exp.shape)
        atol, rtol = _tolerance(name, exp.dtype)
        np.testing.assert_allclose(g.astype(np.float64), exp.astype(np.float64), atol=atol,
                                   rtol=rtol, err_msg=path)
    elif isinstance(want, dict) and ('list' in want or 'tuple' in want):
        kind = 'list' if 'list' in want else 'tuple'
        assert isinstance(got, (list, tuple)), '%s: %r' % (path, type(got))
        assert len(got) == len(want[kind]), path
        for i, (g, w) in enumerate(zip(got, want[kind])):
            _compare(g, w, '%s/%d' % (path, i), name)
    elif isinstance(want, dict) and 'np' in want:
        np.testing.assert_allclose(got, ARRAYS[want['np']], atol=1e-6, err_msg=path)
    elif isinstance(want, dict) and 'scalar' in want:
        assert got == want['scalar'], path
    else:
        assert got == want, '%s: %r vs MXNet %r' % (path, got, want)


@pytest.mark.parametrize('name', sorted(MANIFEST))
def test_scenario(name):
    _compare(SCENARIOS[name](), MANIFEST[name], name, name)


def test_every_scenario_has_a_fixture():
    assert sorted(SCENARIOS) == sorted(MANIFEST)


def test_decode_and_resize_are_exact_on_fixtures():
    """The measured difference to MXNet's OpenCV, documented in mxcompat.image: zero."""
    for name in sorted(MANIFEST):
        if not name.startswith(('decode', 'resize')):
            continue
        got = SCENARIOS[name]()
        flat, want = [], []

        def walk(g, w):
            if isinstance(w, dict) and 'nd' in w:
                flat.append(g.asnumpy().astype(np.float64))
                want.append(ARRAYS[w['nd']].astype(np.float64))
            elif isinstance(w, dict) and 'list' in w:
                for a, b in zip(g, w['list']):
                    walk(a, b)
        walk(got, MANIFEST[name])
        for g, w in zip(flat, want):
            tol = 0 if w.max() > 1 and np.all(w == np.round(w)) else 2e-4 * max(1, w.max())
            assert np.abs(g - w).max() <= tol, name


def test_decode_errors():
    with pytest.raises(MXNetError, match='empty buffer'):
        img.imdecode(b'')
    with pytest.raises(MXNetError, match='Decoding failed'):
        img.imdecode(b'clearly not image content')
    with pytest.raises(ValueError, match='buf must be of type bytes'):
        img.imdecode('a str')
    with pytest.raises(MXNetError, match='uint8'):
        img.imdecode(mx.nd.array([1, 2, 3]))
    with pytest.raises(MXNetError, match="couldn't open file"):
        img.imread('/nonexistent/dir/x.jpg')
    buf = np.load(os.path.join(FX, 'inputs.npz'))['rgb_png'].tobytes()
    with pytest.raises(MXNetError, match='flag'):
        img.imdecode(buf, flag=-1)
    with pytest.raises(MXNetError, match='Decoding failed'):
        img.imdecode(buf[:len(buf) // 2])


def test_resize_errors():
    x = mx.nd.ones((4, 4, 3), dtype='float16')
    with pytest.raises(MXNetError, match='float16'):
        img.imresize(x, 2, 2)
    with pytest.raises(MXNetError, match='interpolation'):  # (OpenCV's, when read)
        img.imresize(mx.nd.ones((4, 4, 3)), 2, 2, interp=7).asnumpy()
    with pytest.raises(ValueError, match='Unknown interp'):
        img.resize_short(mx.nd.ones((4, 4, 3)), 2, interp=7)
    with pytest.raises(MXNetError, match='out has shape'):
        img.imresize(mx.nd.ones((4, 4, 3)), 2, 2, out=mx.nd.zeros((3, 3, 3)))


def test_imrotate_errors():
    chw = mx.nd.ones((3, 5, 6))
    with pytest.raises(ValueError):
        img.imrotate(chw, 10, zoom_in=True, zoom_out=True)
    with pytest.raises(TypeError):
        img.imrotate(chw, mx.nd.array([1, 2]))
    with pytest.raises(TypeError):
        img.imrotate(chw.astype('float64'), 10)


def test_recordio_unpack_img_matches_imdecode():
    inputs = np.load(os.path.join(FX, 'inputs.npz'))
    s = mx.recordio.pack(mx.recordio.IRHeader(0, 1.0, 0, 0), inputs['rgb_jpg'].tobytes())
    _, bgr = mx.recordio.unpack_img(s, 1)
    np.testing.assert_array_equal(bgr, img.imdecode(inputs['rgb_jpg'].tobytes(),
                                                    to_rgb=0).asnumpy())
