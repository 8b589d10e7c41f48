"""gluon.loss against real MXNet (scripts/fixture_writers/gluon_loss.py): per-sample losses and
input gradients in train and predict mode, imperative and hybridized, and reprs."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import gluon_loss as W
from scripts.fixture_writers._layer_cases import check_case, mode_name

from conftest import FIXTURES

DIR = os.path.join(FIXTURES, 'gluon_loss')
WANT = np.load(os.path.join(DIR, 'gluon_loss.npz'))
with open(os.path.join(DIR, 'facts.json')) as _f:
    FACTS = json.load(_f)

# Gradients summed from cancelling float32 terms (log_softmax backward): 1e-5 absolute.
ATOL = {'kldiv_softmax': 1e-5, 'sdml_smooth': 1e-5}
# SDMLLoss reads x.shape in hybrid_forward, so MXNet cannot hybridize it either.
NOT_HYBRIDIZABLE = ('sdml', 'sdml_smooth')

RUNS = [(n, t) for n, (_, _, modes) in sorted(W.CASES.items()) for t in modes]


@pytest.mark.parametrize('hybridize', [False, True], ids=['imperative', 'hybrid'])
@pytest.mark.parametrize('name,train', RUNS, ids=['%s-%s' % (n, mode_name(t)) for n, t in RUNS])
def test_loss(name, train, hybridize):
    if hybridize and name in NOT_HYBRIDIZABLE:
        pytest.skip('MXNet cannot hybridize %s either' % name)
    check_case(mx, W.CASES, WANT, FACTS, name, train, hybridize, atol=ATOL.get(name, 1e-6))


def test_reprs_and_catalog():
    loss = mx.gluon.loss
    assert repr(loss.Loss(None, 0)) == FACTS['reprs']['loss_base']
    assert repr(loss.CTCLoss(label_layout='TN')) == FACTS['reprs']['ctc_repr']
    assert loss.SigmoidBCELoss is loss.SigmoidBinaryCrossEntropyLoss
    assert loss.SoftmaxCELoss is loss.SoftmaxCrossEntropyLoss
    assert isinstance(loss.L2Loss(), mx.gluon.HybridBlock)
    with pytest.raises(ValueError, match='label_format'):
        loss.LogisticLoss(label_format='bad')
