"""gluon.contrib.estimator against real MXNet 1.9.1 (tests/fixtures/estimator/, written by
scripts/fixture_writers/estimator.py, whose scenarios run here with mxcompat): metric values,
final and best weights, checkpoint file names, logged lines and warnings of Estimator.fit with
the logging, checkpoint, early-stopping and validation handlers."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import estimator as W

from conftest import FIXTURES

HERE = os.path.join(FIXTURES, 'estimator')


@pytest.fixture(scope='module')
def results(tmp_path_factory):
    workdir = str(tmp_path_factory.mktemp('estimator'))
    return W.run(mx, workdir)


@pytest.fixture(scope='module')
def expected():
    with open(os.path.join(HERE, 'estimator.json')) as f:
        info = json.load(f)
    with np.load(os.path.join(HERE, 'estimator.npz')) as arrays:
        return dict(arrays), info


def test_arrays(results, expected):
    got, _ = results
    want, _ = expected
    assert sorted(got) == sorted(want)
    for key in want:
        np.testing.assert_allclose(got[key], want[key], rtol=1e-4, atol=1e-5, err_msg=key)


@pytest.mark.parametrize('key', ['fit/log', 'resume/log', 'batches/log', 'batches_resume/log',
                                 'early/log',
                                 'multi/log', 'reuse/log'])
def test_logged_lines(results, expected, key):
    assert results[1][key] == expected[1][key]


@pytest.mark.parametrize('key', ['fit/files', 'fit/symbol', 'resume/files', 'batches/files',
                                 'batches_resume/files'])
def test_checkpoint_files(results, expected, key):
    assert results[1][key] == expected[1][key]


@pytest.mark.parametrize('key', ['fit/checkpoint', 'resume/max_epoch', 'batches/counters',
                                 'batches_resume/counters', 'early/stopped', 'errors',
                                 'warnings'])
def test_counters_and_warnings(results, expected, key):
    assert results[1][key] == expected[1][key]
