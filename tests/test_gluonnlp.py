"""GluonNLP 0.10.0 models on mxcompat against real MXNet with GluonNLP
(tests/fixtures/gluonnlp_models).

A small BERT (outputs, hybridized outputs, BERTAdam steps), a transformer NMTModel (outputs,
a MaskedSoftmaxCELoss step, greedy and beam search), StandardRNN and AWD-LSTM language models
(an SGD step) and ELMoBiLM (layers, gradients). Skipped
unless gluonnlp is installed next to mxcompat (``pip install --no-deps gluonnlp==0.10.0``; see
the README).
"""
import os

import numpy as np
import pytest

import mxcompat

mxcompat.install()
pytest.importorskip('gluonnlp', reason='gluonnlp is not installed')

import mxnet as mx  # noqa: E402  (mxcompat, through the alias)
from scripts.fixture_writers.gluonnlp_models import MODELS, run  # noqa: E402

from conftest import FIXTURES  # noqa: E402

DIR = os.path.join(FIXTURES, 'gluonnlp_models')


@pytest.mark.parametrize('name', MODELS)
def test_model(name):
    want = np.load(os.path.join(DIR, name + '.npz'))
    got = run(mx, name)
    assert sorted(got) == sorted(want.files)
    for key in want.files:
        if want[key].dtype.kind in 'iu':  # sampled tokens and lengths: exact
            np.testing.assert_array_equal(got[key], want[key], err_msg='%s %s' % (name, key))
        else:
            np.testing.assert_allclose(got[key], want[key], rtol=1e-4, atol=1e-5,
                                       err_msg='%s %s' % (name, key))
