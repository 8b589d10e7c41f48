"""What binding a symbol does besides running it, against real MXNet 1.9.1
(scripts/fixture_writers/symbol_passes.py): common subexpression elimination, the gradient
check for operators without a gradient, the executor's memory plan report, ``debug_str``,
and the shape / type inference results these rely on."""
import json
import os
import re

import pytest

import mxcompat as mx
from mxcompat.test_utils import environment
from scripts.fixture_writers.symbol_passes import (
    CSE_CASES, DEBUG_CASES, GRAD_CASES, GRAD_REQS, PLAN_CASES, SHAPE_CASES, _lstm_group,
    arange_infer_range, cse_case, debug_case, grad_case, grad_req, grad_shapes, nondiff_grads,
    PARTIAL_CASES, arith_names, group_attrs, ones_unknown_dims, empty_shape_inputless,
    partial_shape_case, plan_case, shape_case, simple_bind_keywords, variadic_auto_variables)

from conftest import FIXTURES


@pytest.fixture(scope='module')
def facts():
    with open(os.path.join(FIXTURES, 'symbol_passes', 'symbol_passes.json')) as f:
        return json.load(f)


@pytest.mark.parametrize('cid', CSE_CASES)
def test_eliminate_common_expr(facts, cid):
    want = facts['cse'][cid]
    sym, shapes = cse_case(mx, cid)
    opt = sym.simple_bind(mx.cpu(), grad_req='null', **shapes).get_optimized_symbol()
    assert len(sym.get_internals()) == want['internals']
    assert len(opt.get_internals()) == want['optimized_internals']
    assert opt.list_outputs() == want['outputs']
    assert opt.list_arguments() == want['arguments']


@pytest.mark.parametrize('cid', ['repeated-sum', 'group-copy'])
def test_eliminate_common_expr_off(facts, cid):
    want = facts['cse_off'][cid]
    sym, shapes = cse_case(mx, cid)
    with environment('MXNET_ELIMINATE_COMMON_EXPR', '0'):
        exe = sym.simple_bind(mx.cpu(), grad_req='null', **shapes)
    opt = exe.get_optimized_symbol()
    assert len(opt.get_internals()) == want['optimized_internals']
    assert opt.list_outputs() == want['outputs']


def test_eliminated_graph_computes_the_same():
    sym, shapes = cse_case(mx, 'group-chain')
    a, b = mx.nd.array([[1., 2.], [3., 4.]]), mx.nd.array([[0.5, 0.], [1., -1.]])
    exe = sym.simple_bind(mx.cpu(), a=(2, 2), b=(2, 2))
    outs = exe.forward(is_train=True, a=a, b=b)
    want = (a * (a + 1) + b).asnumpy()
    for o in outs:
        assert (o.asnumpy() == want).all()


def _outcome(fn):
    try:
        fn()
    except mx.base.MXNetError as err:
        return 'error' if 'non-differentiable' in str(err) else 'other error: %s' % err
    return 'ok'


@pytest.mark.parametrize('cid', GRAD_CASES)
def test_gradient_check(facts, cid):
    sym = grad_case(mx, cid)
    shapes = grad_shapes(sym)
    types = {'x': 'float32', 'i': 'int32'} if 'i' in shapes else None
    for req in GRAD_REQS:
        if req == 'y-only' and 'y' not in shapes:
            continue
        r = grad_req(sym, req)
        want = facts['grad'][cid]['simple_bind-' + req]
        got = _outcome(lambda: sym.simple_bind(mx.cpu(), grad_req=r, type_dict=types, **shapes))
        assert got == ('ok' if want == 'ok' else 'error'), (req, want)
        args = {n: mx.nd.ones(s, dtype=(types or {}).get(n, 'float32'))
                for n, s in shapes.items()}
        grads = {n: mx.nd.zeros(s) for n, s in shapes.items()}
        want = facts['grad'][cid]['bind-' + req]
        got = _outcome(lambda: sym.bind(mx.current_context(), args, args_grad=grads,
                                        grad_req=r))
        assert got == ('ok' if want == 'ok' else 'error'), (req, want)


def test_stopped_batch_take_runs():
    x, i = mx.sym.var('x'), mx.sym.var('i')
    z = mx.sym.stop_gradient(mx.sym.batch_take(x, i))
    exe = z.simple_bind(mx.cpu(), x=(3, 3), i=(3,), type_dict={'x': 'float32', 'i': 'int32'})
    exe.arg_dict['x'][:] = mx.nd.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    exe.arg_dict['i'][:] = mx.nd.array([2, 0, 1], dtype='int32')
    assert exe.forward(is_train=True)[0].asnumpy().tolist() == [3, 4, 8]
    exe.backward()
    assert exe.grad_dict['x'].asnumpy().sum() == 0


@pytest.mark.parametrize('cid', PLAN_CASES)
def test_memory_plan(facts, cid):
    """The report has MXNet's form; its numbers are a model of MXNet's planner (no oneDNN
    layouts), equal to MXNet's for these graphs."""
    want = facts['plan'][cid]
    sym, shapes = plan_case(mx, cid)
    for req in ('write', 'null'):
        text = sym.simple_bind(mx.cpu(), grad_req=req, **shapes).debug_str()
        assert text.startswith(sym.debug_str())
        assert text[text.index('Total '):] == want['tail-' + req]


def test_memory_plan_zero_prop(facts):
    # MXNet's test_zero_prop: gradients cost memory unless stop_gradient cuts them off
    plan = facts['plan']
    assert plan['mul-chain']['write'] > plan['mul-chain-stopped']['write']
    assert plan['mul-chain']['null'] == plan['mul-chain-stopped']['write']


@pytest.mark.parametrize('cid', SHAPE_CASES)
def test_infer_shape(facts, cid):
    want = facts['shape'][cid]
    sym, shapes = shape_case(mx, cid)
    if 'error' in want:
        with pytest.raises(mx.base.MXNetError):
            sym.infer_shape(**shapes)
        with pytest.raises(mx.base.MXNetError):
            sym.infer_shape_partial(**shapes)
        if 'Shape inconsistent' in want['error']:
            with pytest.raises(mx.base.MXNetError, match=re.escape(want['error'][12:])):
                sym.infer_shape(**shapes)
        return
    arg, out, _ = sym.infer_shape(**shapes)
    assert [list(s) for s in arg] == want['arg']
    assert [list(s) for s in out] == want['out']


@pytest.mark.parametrize('cid', PARTIAL_CASES)
def test_infer_shape_partial_unknown_dims(facts, cid):
    # output dims that depend on unknown (0) input dims stay unknown, the others are known
    got = partial_shape_case(mx, cid).infer_shape_partial()
    assert [[list(s) for s in ss] for ss in got] == facts['partial'][cid]


def test_arithmetic_node_names(facts):
    # 2 ** x is MXNet's _rpower_scalar (named _rpower_scalar0), x ** 2 its _PowerScalar alias
    assert arith_names(mx) == facts['arith_names']


def test_attributes_of_groups_and_multi_output_nodes(facts):
    # list_attr is the first output's node's; attr needs every output from one node
    assert group_attrs(mx) == facts['group_attrs']


def test_arange_infer_range(facts):
    assert arange_infer_range(mx) == facts['arange_infer_range']


def test_ones_with_unknown_dims(facts):
    assert ones_unknown_dims(mx) == facts['ones_unknown_dims']


def test_empty_shape_of_inputless_op_is_inferred(facts):
    assert empty_shape_inputless(mx) == facts['empty_shape_inputless']


def test_variadic_operator_makes_its_variables(facts):
    assert variadic_auto_variables(mx) == facts['variadic_auto_variables']


def test_simple_bind_shape_keywords(facts):
    assert simple_bind_keywords(mx) == facts['simple_bind_keywords']


def test_nondifferentiable_backward_writes_zeros(facts):
    assert nondiff_grads(mx) == facts['nondiff_grads']


def test_batch_take_types(facts):
    sym, _ = shape_case(mx, 'batch-take')
    got = [[t.__name__ for t in ts] for ts in sym.infer_type(x='float32')]
    assert got == facts['batch_take_types']


def test_lstm_partial_shapes(facts):
    lstm = _lstm_group(mx)
    got = [[list(s) for s in ss] for ss in lstm.infer_shape_partial(data=(5, 2, 10))]
    assert got == facts['lstm_partial']
    # nothing given: the batch size stays unknown (no guess from the hidden sizes)
    got = [[list(s) for s in ss] for ss in lstm.infer_shape_partial()]
    assert got == facts['lstm_unknown']


@pytest.mark.parametrize('cid', DEBUG_CASES)
def test_debug_str(facts, cid):
    assert debug_case(mx, cid).debug_str() == facts['debug'][cid]
