"""Fixtures for mx.gluon.data.vision.transforms, written by real MXNet 1.9.1.

:data:`CASES` maps a name to ``fn(mx) -> result`` (an NDArray, a list of them, or the name of
the exception raised). The same functions run under real MXNet (writing
tests/fixtures/transforms/) and under mxcompat (tests/test_transforms.py). Transforms whose
randomness comes from Python's ``random`` or ``numpy.random`` (RandomResizedCrop, RandomApply,
RandomRotation) are seeded; those drawing from MXNet's own generator are checked by property
in the test instead.
"""
import json
import os
import random

import numpy as np


def _img(seed, h, w, c=3):
    rs = np.random.RandomState(seed)
    return rs.randint(0, 256, size=(h, w, c)).astype(np.uint8)


def _u8(mx, seed=0, h=7, w=9, c=3):
    return mx.nd.array(_img(seed, h, w, c), dtype='uint8')


def _chw(mx, seed=1, h=6, w=8):
    return mx.nd.array(_img(seed, h, w).transpose(2, 0, 1) / 255.0, dtype='float32')


def _seeded(seed, fn):
    random.seed(seed)
    np.random.seed(seed)
    return fn()


def _raises(fn):
    try:
        fn()
    except Exception as err:  # the exception type is the fixture
        return type(err).__name__
    return 'no error'


def _T(mx):
    return mx.gluon.data.vision.transforms


CASES = {
    'cast-default': lambda mx: _T(mx).Cast()(_u8(mx)),
    'cast-float16': lambda mx: _T(mx).Cast('float16')(_u8(mx)),
    'to-tensor': lambda mx: _T(mx).ToTensor()(_u8(mx)),
    'to-tensor-batch': lambda mx: _T(mx).ToTensor()(mx.nd.stack(_u8(mx, 1), _u8(mx, 2))),
    'to-tensor-gray': lambda mx: _T(mx).ToTensor()(_u8(mx, 3, c=1)),
    'normalize-scalar': lambda mx: _T(mx).Normalize(0.5, 0.25)(_chw(mx)),
    'normalize-tuple': lambda mx: _T(mx).Normalize((0.485, 0.456, 0.406),
                                                   (0.229, 0.224, 0.225))(_chw(mx)),
    'normalize-batch': lambda mx: _T(mx).Normalize((0.1, 0.2, 0.3), (1., 2., 3.))(
        mx.nd.stack(_chw(mx, 4), _chw(mx, 5))),
    'resize-int': lambda mx: _T(mx).Resize(5)(_u8(mx)),
    'resize-tuple': lambda mx: _T(mx).Resize((4, 6))(_u8(mx)),
    'resize-keep': lambda mx: _T(mx).Resize(4, keep_ratio=True)(_u8(mx)),
    'resize-keep-tall': lambda mx: _T(mx).Resize(5, keep_ratio=True)(_u8(mx, 2, 12, 6)),
    'resize-nearest': lambda mx: _T(mx).Resize((11, 13), interpolation=0)(_u8(mx)),
    'resize-cubic': lambda mx: _T(mx).Resize((5, 4), interpolation=2)(_u8(mx)),
    'resize-area': lambda mx: _T(mx).Resize((4, 3), interpolation=3)(_u8(mx)),
    'resize-float': lambda mx: _T(mx).Resize((5, 4))(_u8(mx).astype('float32')),
    'resize-batch': lambda mx: _T(mx).Resize((3, 4))(mx.nd.stack(_u8(mx, 1), _u8(mx, 2))),
    'center-crop': lambda mx: _T(mx).CenterCrop(4)(_u8(mx)),
    'center-crop-tuple': lambda mx: _T(mx).CenterCrop((5, 3))(_u8(mx)),
    'center-crop-upscale': lambda mx: _T(mx).CenterCrop((12, 10))(_u8(mx)),
    'crop-resize': lambda mx: _T(mx).CropResize(1, 2, 5, 4)(_u8(mx)),
    'crop-resize-size': lambda mx: _T(mx).CropResize(0, 1, 6, 5, size=(3, 3),
                                                     interpolation=1)(_u8(mx)),
    'crop-resize-batch': lambda mx: _T(mx).CropResize(2, 1, 3, 4)(
        mx.nd.stack(_u8(mx, 1), _u8(mx, 2))),
    'rotate': lambda mx: _T(mx).Rotate(30)(_chw(mx)),
    'rotate-zoom-in': lambda mx: _T(mx).Rotate(-45, zoom_in=True)(_chw(mx)),
    'rotate-zoom-out': lambda mx: _T(mx).Rotate(60, zoom_out=True)(_chw(mx)),
    'rotate-batch': lambda mx: _T(mx).Rotate(90)(mx.nd.stack(_chw(mx, 2), _chw(mx, 3))),
    'rotate-uint8': lambda mx: _raises(lambda: _T(mx).Rotate(30)(_u8(mx))),
    'random-rotation': lambda mx: _seeded(3, lambda: [
        _T(mx).RandomRotation((-40, 40))(_chw(mx)) for _ in range(3)]),
    'random-rotation-proba': lambda mx: _seeded(5, lambda: [
        _T(mx).RandomRotation((10, 20), rotate_with_proba=0.5)(_chw(mx)) for _ in range(4)]),
    'random-rotation-bad-limits': lambda mx: _raises(
        lambda: _T(mx).RandomRotation((20, 10))),
    'random-rotation-bad-proba': lambda mx: _raises(
        lambda: _T(mx).RandomRotation((0, 10), rotate_with_proba=2)),
    'random-resized-crop': lambda mx: _seeded(7, lambda: [
        _T(mx).RandomResizedCrop(5)(_u8(mx, 4, 16, 20)) for _ in range(3)]),
    'random-resized-crop-args': lambda mx: _seeded(8, lambda: [
        _T(mx).RandomResizedCrop((6, 4), scale=(0.3, 0.9), ratio=(0.5, 2.0),
                                 interpolation=0)(_u8(mx, 5, 16, 20)) for _ in range(3)]),
    'random-apply': lambda mx: _seeded(11, lambda: [
        _T(mx).RandomApply(_T(mx).Resize(3), p=0.5)(_u8(mx)) for _ in range(5)]),
    'random-brightness-zero': lambda mx: _T(mx).RandomBrightness(0)(_u8(mx).astype('float32')),
    'compose': lambda mx: _T(mx).Compose([
        _T(mx).Resize((6, 5)), _T(mx).CenterCrop(4), _T(mx).ToTensor(),
        _T(mx).Normalize((0.5, 0.4, 0.3), (0.2, 0.3, 0.4))])(_u8(mx)),
    'compose-structure': lambda mx: [type(b).__name__ for b in _T(mx).Compose([
        _T(mx).Cast(), _T(mx).ToTensor(), _T(mx).CenterCrop(3), _T(mx).Resize(2),
        _T(mx).RandomResizedCrop(2)])._children.values()],
}


def encode_result(res, arrays, key):
    """A JSON description of ``res``; arrays go to ``arrays`` under keys derived from ``key``."""
    if isinstance(res, (list, tuple)):
        return {'list': [encode_result(r, arrays, '%s/%d' % (key, i)) for i, r in enumerate(res)]}
    if isinstance(res, str):
        return {'str': res}
    arrays[key] = res.asnumpy()
    return {'nd': key, 'dtype': np.dtype(res.dtype).name}


def write(mx, outdir):
    arrays, manifest = {}, {}
    for name, fn in CASES.items():
        manifest[name] = encode_result(fn(mx), arrays, name)
    np.savez_compressed(os.path.join(outdir, 'arrays.npz'), **arrays)
    with open(os.path.join(outdir, 'manifest.json'), 'w') as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
