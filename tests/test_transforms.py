"""gluon.data.vision.transforms against real MXNet 1.9.1 (tests/fixtures/transforms, made by
scripts/fixture_writers/transforms.py); transforms drawing from MXNet's own generator are
checked by property (the output is one of the transform's possible outputs)."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import transforms as writer

from conftest import FIXTURES

FX = os.path.join(FIXTURES, 'transforms')
with open(os.path.join(FX, 'manifest.json')) as _f:
    MANIFEST = json.load(_f)
ARRAYS = dict(np.load(os.path.join(FX, 'arrays.npz')))
T = mx.gluon.data.vision.transforms


def _compare(got, want, path):
    if 'list' in want:
        assert isinstance(got, (list, tuple)) and len(got) == len(want['list']), path
        for i, (g, w) in enumerate(zip(got, want['list'])):
            _compare(g, w, '%s/%d' % (path, i))
    elif 'str' in want:
        assert got == want['str'], '%s: %r, MXNet %r' % (path, got, want['str'])
    else:
        assert isinstance(got, mx.nd.NDArray), path
        assert np.dtype(got.dtype).name == want['dtype'], path
        exp = ARRAYS[want['nd']]
        g = got.asnumpy()
        assert g.shape == exp.shape, '%s: shape %s, MXNet %s' % (path, g.shape, exp.shape)
        # integer resizes may round differently by one level; floats by float rounding
        atol = 1 if exp.dtype.kind in 'ui' else 1e-5
        np.testing.assert_allclose(g.astype(np.float64), exp.astype(np.float64), atol=atol,
                                   rtol=1e-5, err_msg=path)


@pytest.mark.parametrize('name', sorted(MANIFEST))
def test_case(name):
    _compare(writer.CASES[name](mx), MANIFEST[name], name)


def test_names_match_mxnet():
    want = {'Block', 'Cast', 'CenterCrop', 'Compose', 'CropResize', 'HybridBlock',
            'HybridSequential', 'Normalize', 'RandomApply', 'RandomBrightness',
            'RandomColorJitter', 'RandomContrast', 'RandomFlipLeftRight', 'RandomFlipTopBottom',
            'RandomHue', 'RandomLighting', 'RandomResizedCrop', 'RandomRotation',
            'RandomSaturation', 'Resize', 'Rotate', 'Sequential', 'ToTensor'}
    assert {n for n in dir(T) if n[0].isupper()} == want
    hybrid = {'Cast', 'CropResize', 'Normalize', 'RandomBrightness', 'RandomColorJitter',
              'RandomContrast', 'RandomFlipLeftRight', 'RandomFlipTopBottom', 'RandomHue',
              'RandomLighting', 'RandomSaturation', 'Resize', 'ToTensor'}
    for n in hybrid:
        assert issubclass(getattr(T, n), mx.gluon.HybridBlock), n


def _img(seed=0):
    return mx.nd.array(np.random.RandomState(seed).randint(0, 256, (5, 6, 3)), dtype='float32')


def test_random_flips_are_flips():
    x = _img()
    seen = set()
    for _ in range(40):
        y = T.RandomFlipLeftRight()(x).asnumpy()
        assert np.array_equal(y, x.asnumpy()) or np.array_equal(y, x.asnumpy()[:, ::-1])
        seen.add(np.array_equal(y, x.asnumpy()))
        z = T.RandomFlipTopBottom()(x).asnumpy()
        assert np.array_equal(z, x.asnumpy()) or np.array_equal(z, x.asnumpy()[::-1])
    assert seen == {True, False}


def test_random_brightness_scales_within_range():
    x = _img(1) + 1
    for _ in range(10):
        ratio = (T.RandomBrightness(0.3)(x) / x).asnumpy()
        assert np.allclose(ratio, ratio.flat[0], atol=1e-5)
        assert 0.7 - 1e-6 <= ratio.flat[0] <= 1.3 + 1e-6


def test_random_contrast_saturation_hue_match_fixed_ops():
    """With a zero-width factor range the random ops equal MXNet's deterministic outputs."""
    x = _img(2)
    np.testing.assert_allclose(T.RandomContrast(0)(x).asnumpy(), x.asnumpy(), atol=1e-4)
    np.testing.assert_allclose(T.RandomSaturation(0)(x).asnumpy(), x.asnumpy(), atol=1e-4)
    np.testing.assert_allclose(T.RandomHue(0)(x).asnumpy(), x.asnumpy(), atol=1e-2)
    np.testing.assert_allclose(T.RandomLighting(0)(x).asnumpy(), x.asnumpy(), atol=1e-4)


def test_random_color_ops_change_image_and_keep_shape():
    x = _img(3)
    for t in (T.RandomContrast(0.5), T.RandomSaturation(0.5), T.RandomHue(0.3),
              T.RandomColorJitter(0.3, 0.3, 0.3, 0.1), T.RandomLighting(0.5)):
        outs = [t(x).asnumpy() for _ in range(4)]
        assert all(o.shape == x.shape and o.dtype == np.float32 for o in outs)
        assert any(not np.allclose(o, x.asnumpy()) for o in outs), type(t).__name__


def test_hybridized_compose_matches_imperative():
    x = mx.nd.array(np.random.RandomState(4).randint(0, 256, (7, 9, 3)), dtype='uint8')
    steps = [T.Resize((6, 5)), T.ToTensor(), T.Normalize(0.5, 0.2)]
    want = x
    for s in steps:
        want = s(want)
    got = T.Compose(steps)(x)
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), atol=1e-6)
