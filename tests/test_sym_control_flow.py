"""``mx.sym.contrib.foreach / while_loop / cond / rand_zipfian`` against real MXNet 1.9.1
(scripts/fixture_writers/sym_control_flow.py): graph names, JSON with subgraphs, shapes,
outputs and gradients."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers.sym_control_flow import CASES, VALID_ROWS, build, run

from conftest import FIXTURES

DIR = os.path.join(FIXTURES, 'sym_control_flow')


@pytest.fixture(scope='module')
def meta():
    with open(os.path.join(DIR, 'sym_control_flow.json')) as f:
        return json.load(f)


@pytest.fixture(scope='module')
def want():
    return dict(np.load(os.path.join(DIR, 'sym_control_flow.npz')))


@pytest.mark.parametrize('cid', sorted(CASES))
def test_graph(meta, cid):
    sym, shapes = build(mx, cid)
    m = meta[cid]
    assert sym.list_arguments() == m['arguments']
    assert sym.list_outputs() == m['outputs']
    assert sym.tojson() == m['json']
    arg_shapes, out_shapes, _ = sym.infer_shape_partial(**shapes)
    assert [list(s) for s in arg_shapes] == m['arg_shapes']
    for got, exp in zip(out_shapes, m['out_shapes']):
        if exp:  # MXNet infers no shapes past a while_loop or cond; mxcompat does
            assert list(got) == exp


@pytest.mark.parametrize('cid', sorted(CASES))
def test_json_round_trip(meta, cid):
    loaded = mx.sym.load_json(meta[cid]['json'])
    assert loaded.tojson() == meta[cid]['json']
    assert loaded.list_outputs() == meta[cid]['outputs']


def _check(cid, outs, grads, want, meta):
    assert [str(o.dtype) for o in outs] == meta[cid]['dtypes']
    if CASES[cid][1] == 'zipfian':
        samples, count_true, count_sampled = outs
        assert samples.shape == (6,) and ((samples >= 0) & (samples < 10)).all()
        np.testing.assert_allclose(count_true, want[cid + '/out1'], rtol=1e-12)
        expected = np.log((samples + 2.0) / (samples + 1.0)) / np.log(11) * 6
        np.testing.assert_allclose(count_sampled, expected, rtol=1e-12)
        return
    for k, o in enumerate(outs):
        rows = VALID_ROWS.get(cid, {}).get(k)
        exp = want['%s/out%d' % (cid, k)]
        if rows is not None:
            assert o.shape[0] >= rows
            np.testing.assert_array_equal(o[rows:], 0)  # mxcompat: 0 past the last iteration
            o = o[:rows]
        np.testing.assert_allclose(o, exp, rtol=1e-5, atol=1e-6, err_msg='output %d' % k)
    for n, g in grads.items():
        np.testing.assert_allclose(g, want['%s/grad_%s' % (cid, n)], rtol=1e-4, atol=1e-5,
                                   err_msg=n)


@pytest.mark.parametrize('cid', sorted(CASES))
def test_forward_backward(meta, want, cid):
    sym, shapes = build(mx, cid)
    outs, grads = run(mx, cid, sym, shapes, train=CASES[cid][1] == 'values')
    _check(cid, outs, grads, want, meta)


@pytest.mark.parametrize('cid', ['foreach-fc', 'while-closure', 'cond-multi'])
def test_loaded_graph_runs(meta, want, cid):
    sym = mx.sym.load_json(meta[cid]['json'])
    outs, grads = run(mx, cid, sym, build(mx, cid)[1])
    _check(cid, outs, grads, want, meta)


def test_foreach_simple_bind_infers_closure_weights():
    sym, _ = build(mx, 'foreach-fc')
    ex = sym.simple_bind(mx.cpu(), data=(4, 2, 5), state=(2, 3))
    assert ex.arg_dict['w'].shape == (3, 5)


def test_errors():
    data, st = mx.sym.var('data'), mx.sym.var('st')
    with pytest.raises(AssertionError):  # a data array the body never reads
        mx.sym.contrib.foreach(lambda d, s: (s[0] * 2, [s[0]]), data, [st])
    with pytest.raises(ValueError):
        mx.sym.contrib.while_loop(lambda s: s < 1, lambda s: ([], [s + 1]), [st])
    with pytest.raises(ValueError):
        mx.sym.contrib.while_loop(lambda s: 1, lambda s: ([], [s + 1]), [st], max_iterations=3)
    with pytest.raises(ValueError):
        mx.sym.contrib.cond(st > 0, lambda: [st, st], lambda: st)
    cond = mx.sym.contrib.cond(st > 0, lambda: st + 1, lambda: st - 1)
    with pytest.raises(mx.base.MXNetError):  # the condition must be a single element
        cond.eval(st=mx.nd.ones((2,)))
