"""GluonCV 0.10.5 models on mxcompat against real MXNet with GluonCV (tests/fixtures/gluoncv_models),
and its RandomTransformDataLoader, a subclass of MXNet's private ``_MultiWorkerIter``
(tests/fixtures/gluoncv_dataloader).

Skipped unless gluoncv is installed next to mxcompat (``pip install --no-deps
gluoncv==0.10.5.post0`` and its other requirements; see the README).
"""
import os

import numpy as np
import pytest

import mxcompat

mxcompat.install()
gluoncv = pytest.importorskip('gluoncv', reason='gluoncv is not installed')

import mxnet as mx  # noqa: E402  (mxcompat, through the alias)
from scripts.fixture_writers import gluoncv_dataloader  # noqa: E402
from scripts.fixture_writers.gluoncv_models import MODELS, run  # noqa: E402

from conftest import FIXTURES  # noqa: E402

DIR = os.path.join(FIXTURES, 'gluoncv_models')


@pytest.mark.parametrize('name', sorted(MODELS))
def test_model(name):
    want = np.load(os.path.join(DIR, name + '.npz'))
    got = run(mx, name)
    assert sorted(got) == sorted(want.files)
    for key in want.files:
        np.testing.assert_allclose(got[key], want[key], rtol=1e-4, atol=1e-5,
                                   err_msg='%s %s' % (name, key))


def test_import_guard():
    # GluonCV's own check refuses torch >= 2.0 with a RuntimeError; under mxcompat.install()
    # it imports its MXNet half and leaves its PyTorch half out, as on a machine without torch
    assert gluoncv._found_mxnet and not gluoncv._found_pytorch


@pytest.mark.parametrize('case', sorted(gluoncv_dataloader.CASES))
def test_random_transform_dataloader(case):
    want = np.load(os.path.join(FIXTURES, 'gluoncv_dataloader', case + '.npz'))
    got = gluoncv_dataloader.run(mx, gluoncv_dataloader.CASES[case])
    assert sorted(got) == sorted(want.files)
    for key in want.files:
        np.testing.assert_array_equal(got[key], want[key], err_msg='%s %s' % (case, key))
