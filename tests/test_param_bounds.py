"""Parameters with MXNet's lower bounds given as Python ints (which skip the converter in the
generated front ends): MXNet's error, naming the parameter (fixtures: scripts/op_cases, the
``check='error'`` cases below, written by real MXNet 1.9.1)."""
import json
import os

import pytest

import mxcompat as mx
from mxcompat.base import MXNetError
from scripts.op_cases import load_modules
from scripts.op_cases._run import run_case

from conftest import FIXTURES

_CASES = {('nn_dense_conv', 'fc-num-hidden-0'): 'num_hidden',
          ('nn_dense_conv', 'fc-num-hidden-neg'): 'num_hidden',
          ('nn_dense_conv', 'embedding-input-dim-0'): 'input_dim',
          ('shape_ops', 'split-num-outputs-0'): 'num_outputs'}


@pytest.mark.parametrize('modname,cid', sorted(_CASES))
def test_lower_bound_error(modname, cid):
    with open(os.path.join(FIXTURES, 'ops', modname + '.json')) as f:
        want = json.load(f)[cid]['error']
    param = _CASES[modname, cid]
    assert want.startswith('MXNetError') and 'Parameter %s' % param in want
    case = next(c for c in load_modules()[modname] if c['id'] == cid)
    with pytest.raises(MXNetError, match=param):
        run_case(mx, dict(case, check='value'))
