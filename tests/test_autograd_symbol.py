"""``mx.autograd.get_symbol`` against real MXNet 1.9.1: the recorded graph's operators,
parameters, variables and structure for NDArray arithmetic, operators, Gluon layers and
hybridized blocks (inlined or one ``_CachedOp`` node). Expected graphs were written by
scripts/fixture_writers/autograd_symbol.py under real MXNet; the same ``run`` executes here."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from mxcompat.ops import registry
from scripts.fixture_writers import autograd_symbol

from conftest import FIXTURES

with open(os.path.join(FIXTURES, 'autograd_symbol', 'autograd_symbol.json')) as _f:
    WANT = json.load(_f)
_GOT = []


def _results():
    if not _GOT:
        _GOT.append(autograd_symbol.run(mx))
    return _GOT[0]


def _at_default(op_name, key, value):
    """Whether the attribute string ``value`` is the operator's default for ``key``."""
    op = registry.get(op_name)
    if key not in op.params:
        return False
    kind, default = op.params[key]
    return kind.convert(value) == default


@pytest.mark.parametrize('scenario', sorted(k for k in WANT
                                             if k not in ('not_recorded', 'cached_op_output')))
def test_recorded_graph(scenario):
    """Same nodes, inputs and heads; the same parameters, but for those a caller passed at
    their default values (mxcompat cannot tell them from parameters left out)."""
    got, want = _results()[scenario], WANT[scenario]
    assert got['heads'] == want['heads']
    assert [(n['op'], n['name'], n['inputs']) for n in got['nodes']] == \
        [(n['op'], n['name'], n['inputs']) for n in want['nodes']]
    for g, w in zip(got['nodes'], want['nodes']):
        assert {k: v for k, v in g['attrs'].items() if k not in w['attrs']} == {}, g
        for k, v in w['attrs'].items():
            assert g['attrs'].get(k) == v or k not in g['attrs'] and \
                _at_default(w['op'], k, v), (w, g)


def test_not_recorded():
    assert _results()['not_recorded'] in WANT['not_recorded']


def test_recorded_graph_runs():
    """The Symbol of a recorded hybridized block (a ``_CachedOp`` node), bound and run,
    computes MXNet's output of the block."""
    net, x = autograd_symbol.cached_op_block(mx)
    with mx.autograd.record():
        y = net(x) * 2
    sym = mx.autograd.get_symbol(y)
    assert [n['op'] for n in json.loads(sym.tojson())['nodes'] if n['op'] != 'null'] == \
        ['_CachedOp', '_mul_scalar']
    args = dict(zip(sym.list_arguments(), [x] + [p.data() for p in net.collect_params().values()]))
    out = sym.bind(mx.cpu(), args).forward()[0]
    np.testing.assert_allclose(out.asnumpy(), WANT['cached_op_output'], rtol=1e-6, atol=1e-7)
