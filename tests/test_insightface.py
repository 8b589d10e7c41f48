"""InsightFace 0.1.5 on mxcompat against real MXNet with InsightFace
(tests/fixtures/insightface_models): its model zoo loads symbol/params checkpoints into
mx.mod.Module (recognition, gender/age, RetinaFace detection) and FaceAnalysis chains them.

Skipped unless insightface is installed next to mxcompat (``pip install --no-deps
insightface==0.1.5`` and its other requirements, opencv-python and scikit-image; see the
README).
"""
import os

import numpy as np
import pytest

import mxcompat

mxcompat.install()
pytest.importorskip('insightface', reason='insightface is not installed')

import mxnet as mx  # noqa: E402  (mxcompat, through the alias)
from scripts.fixture_writers.insightface_models import CASES, run  # noqa: E402

from conftest import FIXTURES  # noqa: E402

DIR = os.path.join(FIXTURES, 'insightface_models')
# what FaceAnalysis computes from a face's aligned crop
_FROM_CROP = ('/embedding', '/normed_embedding', '/embedding_norm', '/gender', '/age')


# InsightFace's RetinaFace post-processing uses np.float, which numpy 1.24 removed
_NEEDS_NP_FLOAT = ('detection', 'face_analysis')


@pytest.mark.parametrize('name', CASES)
def test_case(name):
    if name in _NEEDS_NP_FLOAT and not hasattr(np, 'float'):
        pytest.skip('InsightFace 0.1.5\'s RetinaFace uses np.float, which numpy %s lacks '
                    '(removed in 1.24): install "numpy<1.24", as for MXNet 1.9.1'
                    % np.__version__)
    want = np.load(os.path.join(DIR, name + '.npz'))
    got = run(mx, name)
    assert sorted(got) == sorted(want.files)
    for key in want.files:
        if key.endswith('/crop'):
            # cv2.warpAffine rounds to uint8 at landmarks that agree with MXNet's to ~1e-6
            # (checked below): a few pixels of a noisy image may round the other way
            assert got[key].shape == want[key].shape
            assert (got[key] != want[key]).mean() < 1e-3, key
            continue
        if key.endswith(_FROM_CROP):
            face = key.split('/')[0]
            if not np.array_equal(got[face + '/crop'], want[face + '/crop']):
                continue  # a different crop: its embedding is compared in 'recognition'
        np.testing.assert_allclose(got[key], want[key], rtol=1e-4, atol=1e-5,
                                   err_msg='%s %s' % (name, key))
