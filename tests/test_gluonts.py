"""GluonTS 0.8.1 estimators on mxcompat against real MXNet with GluonTS
(tests/fixtures/gluonts_estimators).

Skipped unless gluonts is installed next to mxcompat (``pip install --no-deps gluonts==0.8.1``
plus holidays, pydantic<2, toolz, tqdm and pandas<2.1; see the README), and skipped with
numpy 2, which the pandas GluonTS 0.8.1 needs does not work with.
"""
import os

import numpy as np
import pytest

import mxcompat

mxcompat.install()
if int(np.__version__.split('.')[0]) >= 2:
    pytest.skip('GluonTS 0.8.1 needs pandas~=1.5, which is built for numpy 1 and fails to '
                'import with numpy %s: install "numpy<1.24", as for MXNet 1.9.1'
                % np.__version__, allow_module_level=True)
pytest.importorskip('gluonts', reason='gluonts is not installed')

import mxnet as mx  # noqa: E402  (mxcompat, through the alias)
from scripts.fixture_writers.gluonts_estimators import MODELS, run  # noqa: E402

from conftest import FIXTURES  # noqa: E402

DIR = os.path.join(FIXTURES, 'gluonts_estimators')


@pytest.mark.parametrize('name', MODELS)
def test_train_predict(name):
    want = np.load(os.path.join(DIR, name + '.npz'))
    got = run(mx, name)
    assert sorted(got) == sorted(want.files)  # same parameter names
    for key in want.files:
        np.testing.assert_allclose(got[key], want[key], rtol=1e-4, atol=1e-5,
                                   err_msg='%s %s' % (name, key))
