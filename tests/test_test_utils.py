"""mx.test_utils, mx.engine, mx.util and mx.profiler against the same calls run by real MXNet
1.9.1 (tests/fixtures/test_utils, made by scripts/fixture_writers/test_utils.py)."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from mxcompat import engine, profiler, test_utils as tu, util
from scripts.fixture_writers.test_utils import run_scenarios

from conftest import FIXTURES

FX = os.path.join(FIXTURES, 'test_utils')
with open(os.path.join(FX, 'records.json')) as _f:
    RECORDS = json.load(_f)
WANT = dict(np.load(os.path.join(FX, 'values.npz')))


class _MX:
    """``mx`` as the scenarios use it, with the modules the lead exports imported directly."""
    def __getattr__(self, name):
        return {'engine': engine, 'util': util, 'profiler': profiler}.get(name) \
            or getattr(mx, name)


@pytest.fixture(scope='module')
def ran():
    arrays, records = run_scenarios(_MX(), tu)
    return arrays, json.loads(json.dumps(records))


@pytest.mark.parametrize('key', sorted(WANT))
def test_values_match_mxnet(ran, key):
    got, want = np.asarray(ran[0][key]), WANT[key]
    assert got.shape == want.shape, key
    assert got.dtype == want.dtype, key
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-12, err_msg=key)


@pytest.mark.parametrize('key', sorted(RECORDS))
def test_records_match_mxnet(ran, key):
    assert ran[1][key] == RECORDS[key]


def test_star_import_names_exist():
    # names MXNet 1.9.1's unit tests import from mxnet.test_utils
    ns = {}
    exec('from mxcompat.test_utils import *', ns)
    for name in ['almost_equal', 'assert_allclose', 'assert_almost_equal', 'assert_exception',
                 'check_numeric_gradient', 'collapse_sum_like', 'default_context',
                 'discard_stderr', 'download', 'effective_dtype', 'environment',
                 'gen_buckets_probs_with_ppf', 'has_tvm_ops', 'is_cd_run', 'is_op_runnable',
                 'new_matrix_with_real_eigvals_nd', 'new_sym_matrix_with_real_eigvals_nd',
                 'np_reduce', 'rand_ndarray', 'rand_shape_nd', 'random_arrays', 'random_sample',
                 'random_uniform_arrays', 'retry', 'same', 'set_default_context', 'use_np',
                 'verify_generator', 'check_consistency', 'check_symbolic_forward',
                 'check_symbolic_backward', 'simple_forward', 'same_array', 'DummyIter',
                 'Symbol', 'rnd', 'np', 'mx']:
        assert name in ns, name
    assert ns['rnd'] is np.random


def test_sparse_helpers_raise_not_implemented():
    with pytest.raises(NotImplementedError):
        tu.rand_ndarray((2, 2), stype='csr')
    with pytest.raises(mx.base.MXNetError):
        engine.set_bulk_size(-3)  # MXNet fails as well (vector::reserve)


def test_profiler_aggregate_stats_structure(tmp_path):
    # the JSON layout MXNet 1.9.1's dumps(format='json') has: Time/Memory/Unit, domains, stats
    fname = str(tmp_path / 'profile.json')
    profiler.set_config(profile_all=True, aggregate_stats=True, filename=fname)
    profiler.set_state('run')
    domain = profiler.Domain('PythonDomain')
    task = profiler.Task(domain, 'task')
    task.start()
    (mx.nd.ones((10, 10)) + 1).wait_to_read()
    task.stop()
    counter = profiler.Counter(domain, 'counter', 5)
    counter += 1
    profiler.Marker(domain, 'marker').mark('process')
    event = profiler.Event('event')
    event.start()
    event.stop()
    profiler.dump(False)
    stats = json.loads(profiler.dumps(format='json'))
    assert set(stats) == {'Time', 'Memory', 'Unit'}
    assert stats['Unit'] == {'Time': 'ms', 'Memory': 'kB'}
    assert stats['Time']['PythonDomain']['task']['Count'] == 1
    assert stats['Time']['event']['event']['Count'] == 1
    assert set(stats['Time']['PythonDomain']['task']) == {'Count', 'Total', 'Min', 'Max', 'Avg'}
    for sort_by, key in [('count', 'Count'), ('avg', 'Avg'), ('max', 'Max')]:
        for asc in (False, True):
            table = json.loads(profiler.dumps(format='json', sort_by=sort_by, ascending=asc))
            for items in table['Time'].values():
                vals = [s[key] for s in items.values()]
                assert vals == sorted(vals, reverse=not asc)
    assert 'Profile Statistics' in profiler.dumps(reset=True)
    profiler.set_state('stop')
    with open(fname) as f:
        trace = json.load(f)['traceEvents']
    names = {e['name'] for e in trace}
    assert {'task', 'counter', 'marker', 'event'} <= names
    profiler.set_config(aggregate_stats=False)
