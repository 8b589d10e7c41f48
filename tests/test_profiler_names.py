"""mx.profiler reports MXNet's operator names (imperative operators, NDArray arithmetic, a
backward, a bound executor, a hybridized block, a custom operator's inner operators), as real
MXNet 1.9.1 does for the same program: tests/fixtures/profiler_names, written by
scripts/fixture_writers/profiler_names.py, whose ``run(mx, path)`` runs here under mxcompat.

MXNet's lists also hold its engine's own tasks (CopyCPU2CPU, DeleteVariable, Reorder, ...),
which are no operators, and run a bound graph as one bulk segment ``[op1,op2,...]``;
mxcompat's hold the torch operators called outside any MXNet operator (``aten::...``). The
comparison is over the operators of MXNet's table."""
import json
import os

import pytest

import mxcompat as mx
from mxcompat.ops import registry
from scripts.fixture_writers import profiler_names

from conftest import FIXTURES

with open(os.path.join(FIXTURES, 'profiler_names', 'names.json')) as _f:
    WANT = json.load(_f)


def _is_operator(name):
    base = name[len('_backward_'):] if name.startswith('_backward_') else name
    return base in registry.all_ops() or name == 'pure_python'


def _mxnet_operators(names):
    out = set()
    for full in names:
        prefix, _, name = full.rpartition('::')
        members = name[1:-1].split(',') if name.startswith('[') else [name]
        out.update((prefix + '::' if prefix else '') + m for m in members if _is_operator(m))
    return out


@pytest.fixture(scope='module')
def got(tmp_path_factory):
    yield profiler_names.run(mx, str(tmp_path_factory.mktemp('prof') / 'trace.json'))
    # the profiler's configuration and statistics are process-wide: leave them as found
    mx.profiler.dumps(reset=True)
    mx.profiler.set_config(profile_all=False, aggregate_stats=False)


@pytest.mark.parametrize('category', ['operator', 'Custom Operator'])
def test_operator_names(got, category):
    mine = {n for n in got[category] if 'aten::' not in n and 'autograd::' not in n}
    assert mine == _mxnet_operators(WANT[category])
