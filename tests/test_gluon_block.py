"""Gluon Blocks against real MXNet (scripts/fixture_writers/gluon_block.py): names, reprs,
outputs and gradients (imperative and hybridized), export / save_parameters files, summary(),
and a Gluon model used as a torch.nn.Module (state_dict, torch.optim, torch.compile)."""
import contextlib
import io
import json
import os

import numpy as np
import pytest
import torch

import mxcompat as mx
import mxcompat.gluon  # noqa: F401  (mx.gluon)
from scripts.fixture_writers import gluon_block as W

from conftest import FIXTURES

DIR = os.path.join(FIXTURES, 'gluon_block')
WANT = np.load(os.path.join(DIR, 'gluon_block.npz'))
with open(os.path.join(DIR, 'facts.json')) as _f:
    FACTS = json.load(_f)


def _close(got, key, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(got.asnumpy() if hasattr(got, 'asnumpy') else got, WANT[key],
                               rtol=rtol, atol=atol, err_msg=key)


def _as_list(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


def _inputs(inputs):
    return [mx.nd.array(a) for a in inputs]


def _seeded(name, hybridize=False):
    net, inputs = W.build(mx, name)
    if hybridize:
        net.hybridize()
    W.set_params(mx, net, inputs)
    return net, inputs


def _check_outputs(net, inputs, name, tag):
    outs = _as_list(net(*_inputs(inputs)))
    assert len(outs) == len([k for k in WANT.files if k.startswith('%s/%s/out' % (name, tag))])
    for i, o in enumerate(outs):
        _close(o, '%s/%s/out%d' % (name, tag, i))


@pytest.mark.parametrize('name', sorted(W.MODELS))
def test_names_and_reprs(name):
    facts = FACTS[name]
    net, inputs = W.build(mx, name)
    assert repr(net) == facts['before_init_repr']
    W.set_params(mx, net, inputs)
    assert list(net.collect_params().keys()) == facts['collect_params']
    assert sorted(net._collect_params_with_prefix().keys()) == facts['structural']
    assert repr(net) == facts['repr']
    assert repr(net.collect_params()) == facts['params_repr']
    assert [repr(p) for p in net.collect_params().values()] == facts['param_reprs']
    assert (net.prefix, net.name) == (facts['prefix'], facts['name'])
    assert {k: list(p.shape) for k, p in net._collect_params_with_prefix().items()} == \
        facts['shapes']


@pytest.mark.parametrize('name', sorted(W.HYBRID))
def test_symbol_of_block(name):
    facts = FACTS[name]
    net, inputs = _seeded(name)
    syms = [mx.sym.var('data')] if len(inputs) == 1 else \
        [mx.sym.var('data%d' % i) for i in range(len(inputs))]
    with mx.name.NameManager():
        out = mx.sym.Group(_as_list(net(*syms)))
    assert out.list_arguments() == facts['sym_arguments']
    assert out.list_outputs() == facts['sym_outputs']
    assert out.list_auxiliary_states() == facts['sym_aux']


@pytest.mark.parametrize('name', sorted(W.MODELS))
def test_predict_outputs(name):
    net, inputs = _seeded(name)
    _check_outputs(net, inputs, name, 'predict')


HYBRIDIZABLE = sorted(W.HYBRID + W.TRACED)


@pytest.mark.parametrize('name', HYBRIDIZABLE)
def test_hybridized_outputs(name):
    # hybridized before the first forward: deferred initialization happens in the graph path
    net, inputs = _seeded(name, hybridize=True)
    assert net._cached_op is not None
    if name in W.HYBRID:
        _check_outputs(net, inputs, name, 'hybrid')
    _check_outputs(net, inputs, name, 'predict')


def test_modern_forward_is_traced():
    net, inputs = _seeded('modern', hybridize=True)
    sym = net._cached_graph[1]
    assert sym.list_arguments() == ['data', 'modern0_dense0_weight', 'modern0_dense0_bias',
                                    'modern0_batchnorm0_gamma', 'modern0_batchnorm0_beta',
                                    'modern0_w']
    assert sym.list_auxiliary_states() == ['modern0_batchnorm0_running_mean',
                                           'modern0_batchnorm0_running_var']


def _train(net, name, inputs):
    xs = _inputs(inputs)
    for i, x in enumerate(xs):
        if i not in W.NO_GRAD_INPUT.get(name, ()):
            x.attach_grad()
    with mx.autograd.record():
        outs = _as_list(net(*xs))
    mx.autograd.backward(outs, [mx.nd.array(h) for h in W.head_grads(name, outs)])
    return xs, outs


@pytest.mark.parametrize('hybridize', [False, True], ids=['imperative', 'hybridized'])
@pytest.mark.parametrize('name', sorted(W.TRAIN))
def test_training_gradients(name, hybridize):
    if hybridize and name not in HYBRIDIZABLE:
        pytest.skip('%s is a plain Block' % name)
    net, inputs = _seeded(name, hybridize)
    xs, outs = _train(net, name, inputs)
    for i, o in enumerate(outs):
        _close(o, '%s/train/out%d' % (name, i))
    for i, x in enumerate(xs):
        if i not in W.NO_GRAD_INPUT.get(name, ()):
            _close(x.grad, '%s/train/grad_in%d' % (name, i), rtol=1e-4, atol=1e-5)
    for key, p in net._collect_params_with_prefix().items():
        if p.grad_req != 'null':
            _close(p.grad(), '%s/train/grad/%s' % (name, key), rtol=1e-4, atol=1e-5)
        elif key.endswith(('running_mean', 'running_var')):
            _close(p.data(), '%s/train/aux/%s' % (name, key), rtol=1e-4, atol=1e-5)


@pytest.mark.xfail(strict=True, reason='ops/nn_norm.py: MXNet differentiates BatchNorm in predict '
                   'mode with the training formula fed with the running statistics')
@pytest.mark.parametrize('hybridize', [False, True], ids=['imperative', 'hybridized'])
def test_predict_mode_gradients(hybridize):
    net, inputs = _seeded('mlp', hybridize)
    x = mx.nd.array(inputs[0])
    x.attach_grad()
    with mx.autograd.record(train_mode=False):
        out = net(x)
    out.backward(mx.nd.array(W.head_grads('mlp', [out])[0]))
    _close(x.grad, 'mlp/predict_grad/grad_in0', rtol=1e-4, atol=1e-5)
    for key, p in net._collect_params_with_prefix().items():
        if p.grad_req != 'null':
            _close(p.grad(), 'mlp/predict_grad/grad/%s' % key, rtol=1e-4, atol=1e-5)


def test_hybridized_graph_is_direct_torch_calls():
    net, inputs = _seeded('mlp', hybridize=True)
    graph = net._cached_op
    # a torch.fx GraphModule with one call per operator node of the operator's implementation
    module = graph.graph.module
    assert isinstance(module, torch.fx.GraphModule)
    ops = [n.op for n in graph.symbol._nodes() if n.op]
    calls = [n.target for n in module.graph.nodes if 'mx_node' in n.meta and
             n.op == 'call_function']
    assert calls == [op.fn for op in ops]

    class Branchy(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            if x.sum() > 0:  # data-dependent Python control flow
                return x
            return -x
    blk = Branchy()
    blk.hybridize()
    with pytest.raises(mx.base.MXNetError, match='not implemented for Symbol'):
        blk(mx.nd.ones((2,)))


# ---------------------------------------------------------------- files
def _export(name, tmp_path):
    net, inputs = _seeded(name)
    net.hybridize()
    net(*_inputs(inputs))
    path = str(tmp_path / name)
    net.export(path, epoch=3)
    with open(path + '-symbol.json') as f:
        got = f.read()
    with open(os.path.join(DIR, name + '-symbol.json')) as f:
        want = f.read()
    return path, got, want


def _graph_view(text):
    graph = json.loads(text)
    nodes = [(n['op'], n['name'], n.get('attrs', {}), [i[:2] for i in n['inputs']])
             for n in graph['nodes']]
    return nodes, graph['arg_nodes'], graph['heads'], graph['attrs']


@pytest.mark.parametrize('name', sorted(W.HYBRID))
def test_export_matches_mxnet(name, tmp_path):
    path, got, want = _export(name, tmp_path)
    assert _graph_view(got) == _graph_view(want)
    with open(path + '-0003.params', 'rb') as f, \
            open(os.path.join(DIR, name + '-0003.params'), 'rb') as g:
        assert f.read() == g.read()


@pytest.mark.parametrize('name', [
    pytest.param('mlp', marks=pytest.mark.xfail(strict=True, reason=(
        'symbol: MXNet counts the versions of mutated (aux) variables per composition and '
        'lists BatchNorm with 3 outputs in node_row_ptr'))),
    pytest.param('bn', marks=pytest.mark.xfail(strict=True, reason='as mlp')),
    'nested'])
def test_export_json_byte_identical(name, tmp_path):
    _, got, want = _export(name, tmp_path)
    assert got == want


@pytest.mark.parametrize('name', sorted(W.HYBRID))
def test_imports_mxnet_export(name):
    names = ['data'] if name != 'nested' else ['data0', 'data1']
    blk = mx.gluon.SymbolBlock.imports(os.path.join(DIR, name + '-symbol.json'), names,
                                       os.path.join(DIR, name + '-0003.params'),
                                       ctx=mx.current_context())
    inputs = W.build(mx, name)[1]
    _check_outputs(blk, inputs, name, 'predict')
    lines = repr(blk).splitlines()
    assert lines[0] == 'SymbolBlock(' and lines[-1] == ')'


@pytest.mark.parametrize('name', sorted(W.MODELS))
def test_save_parameters_matches_mxnet(name, tmp_path):
    net, _ = _seeded(name)
    path = str(tmp_path / 'p.params')
    net.save_parameters(path)
    with open(path, 'rb') as f, open(os.path.join(DIR, name + '.params'), 'rb') as g:
        assert f.read() == g.read()
    net.collect_params().save(path, strip_prefix=net.prefix)
    with open(path, 'rb') as f, open(os.path.join(DIR, name + '-legacy.params'), 'rb') as g:
        assert f.read() == g.read()


@pytest.mark.parametrize('legacy', [False, True], ids=['structural', 'legacy'])
@pytest.mark.parametrize('name', sorted(W.MODELS))
def test_load_mxnet_parameters(name, legacy):
    net, inputs = W.build(mx, name)
    # without ctx MXNet loads onto cpu(0), whatever the default context
    net.load_parameters(os.path.join(DIR, name + ('-legacy' if legacy else '') + '.params'),
                        ctx=mx.current_context())
    _check_outputs(net, inputs, name, 'predict')


@pytest.mark.parametrize('name', sorted(W.MODELS))
def test_load_mxnet_parameters_into_initialized(name):
    """Parameters that exist already take MXNet's file into their own tensors (read straight
    into them), which stay the tensors a torch optimizer may hold."""
    net, inputs = _seeded(name)
    held = {k: [d._t for d in p._data] for k, p in net.collect_params().items()}
    net.load_parameters(os.path.join(DIR, name + '.params'))
    _check_outputs(net, inputs, name, 'predict')
    for k, p in net.collect_params().items():
        assert all(d._t is t for d, t in zip(p._data, held[k]))


@pytest.mark.parametrize('name', sorted(n for n in W.MODELS if n != 'shared'))
def test_summary(name):
    net, inputs = _seeded(name)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        net.summary(*_inputs(inputs))
    assert buf.getvalue() == FACTS[name]['summary']
    net.hybridize()
    with pytest.raises(AssertionError):
        net.summary(*_inputs(inputs))


def test_save_and_load_model_structure(tmp_path):
    net, inputs = _seeded('nested')
    net.hybridize()
    net(*_inputs(inputs))
    net.save(str(tmp_path / 'm'))
    net2, _ = W.build(mx, 'nested')
    net2.load(str(tmp_path / 'm'))  # onto cpu(0), as MXNet's
    net2.collect_params().reset_ctx(mx.current_context())
    _check_outputs(net2, inputs, 'nested', 'predict')


# ---------------------------------------------------------------- torch.nn.Module
@pytest.mark.parametrize('name', sorted(W.MODELS))
def test_state_dict_round_trip(name):
    net, inputs = _seeded(name)
    sd = net.state_dict()
    assert sorted(sd) == FACTS[name]['structural']
    other, _ = W.build(mx, name)
    other.initialize()
    other(*_inputs(inputs))
    missing, unexpected = other.load_state_dict(sd)
    assert not missing and not unexpected
    _check_outputs(other, inputs, name, 'predict')
    assert isinstance(net, torch.nn.Module)


@pytest.mark.parametrize('hybridize', [False, True], ids=['imperative', 'hybridized'])
@pytest.mark.parametrize('name', sorted(W.TRAIN))
def test_torch_optim_sgd_step(name, hybridize):
    if hybridize and name not in HYBRIDIZABLE:
        pytest.skip('%s is a plain Block' % name)
    net, inputs = _seeded(name, hybridize)
    opt = torch.optim.SGD(net.parameters(), lr=W.SGD_LR)
    opt.zero_grad()
    _train(net, name, inputs)
    opt.step()
    for key, p in net._collect_params_with_prefix().items():
        _close(p.data(), '%s/sgd/%s' % (name, key), rtol=1e-4, atol=1e-5)


def test_torch_optim_zero_grad_set_to_none():
    net, inputs = _seeded('bn')
    opt = torch.optim.SGD(net.parameters(), lr=W.SGD_LR)
    _train(net, 'bn', inputs)
    opt.zero_grad(set_to_none=True)
    assert all(float(p.grad().abs().sum().asscalar()) == 0
               for p in net.collect_params().values() if p.grad_req != 'null')
    net2, _ = _seeded('bn')
    _train(net2, 'bn', inputs)
    for key, p in net2._collect_params_with_prefix().items():
        if p.grad_req != 'null':
            _close(p.grad(), 'bn/train/grad/%s' % key, rtol=1e-4, atol=1e-5)


def test_torch_module_child_of_block():
    lin = torch.nn.Linear(3, 2)

    class Mixed(mx.gluon.Block):
        def __init__(self):
            super(Mixed, self).__init__(prefix='mixed_')
            with self.name_scope():
                self.dense = mx.gluon.nn.Dense(3, in_units=4)
            self.torch_head = lin

        def forward(self, x):
            return self.torch_head(self.dense(x).to_torch())
    net = Mixed()
    net.initialize()
    names = [k for k, _ in net.named_parameters()]
    assert names == ['dense.weight', 'dense.bias', 'torch_head.weight', 'torch_head.bias']
    assert list(net.collect_params().keys()) == ['mixed_dense0_weight', 'mixed_dense0_bias',
                                                 'mixed_torch_head_weight', 'mixed_torch_head_bias']
    assert '(torch_head): Linear(in_features=3, out_features=2, bias=True)' in repr(net)
    x = mx.nd.ones((2, 4))
    want = lin(torch.nn.functional.linear(x.to_torch(), net.dense.weight.data().to_torch(),
                                          net.dense.bias.data().to_torch()))
    torch.testing.assert_close(net(x), want)


@pytest.mark.parametrize('name', ['mlp', 'nested'])
def test_torch_compile_forward(name):
    torch._dynamo.reset()
    net, inputs = _seeded(name)
    compiled = torch.compile(net, backend='eager')
    for i, o in enumerate(_as_list(compiled(*_inputs(inputs)))):
        _close(o, '%s/predict/out%d' % (name, i))


@pytest.mark.parametrize('name', ['mlp', 'bn'])
def test_hybridize_with_torch_compile(name):
    torch._dynamo.reset()
    net, inputs = _seeded(name)
    net.hybridize(backend='eager', static_shape=True, static_alloc=True)
    _check_outputs(net, inputs, name, 'predict')
    assert net._cached_op._compiled
    if name in W.TRAIN:
        xs, outs = _train(net, name, inputs)
        _close(xs[0].grad, '%s/train/grad_in0' % name, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize('name', sorted(W.HYBRID))
def test_symbol_block_sharing_parameters(name):
    net, inputs = _seeded(name)
    syms = [mx.sym.var('data')] if len(inputs) == 1 else \
        [mx.sym.var('data%d' % i) for i in range(len(inputs))]
    out = net(*syms)
    blk = mx.gluon.SymbolBlock(out, syms, params=net.collect_params())
    _check_outputs(blk, inputs, name, 'predict')
    blk.hybridize()
    _check_outputs(blk, inputs, name, 'predict')


def test_infer_shape():
    net, inputs = W.build(mx, 'bn')
    net.infer_shape(mx.nd.array(inputs[0]))
    got = {k: list(p.shape) for k, p in net._collect_params_with_prefix().items()}
    assert got == FACTS['bn']['inferred']
