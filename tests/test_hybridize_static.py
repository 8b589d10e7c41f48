"""``hybridize(static_alloc=True, static_shape=True)`` under ``MXCOMPAT_COMPILE_STATIC=1``
(compiled from the first call; by default from the 50th) compiles the lowered graph with
torch.compile (inductor): outputs, gradients, BatchNorm's moving statistics, grad_req 'add' /
'null' and Trainer updates against real MXNet (the gluon_block and gluon_trainer fixtures),
recompilation for a new input shape, and the fallback to the uncompiled graph where inductor
cannot compile. Compiling takes seconds per graph: slow."""
import warnings

import numpy as np
import pytest
import torch

import mxcompat as mx
from scripts.fixture_writers import gluon_trainer as TW

import test_gluon_block as B
import test_gluon_trainer as T

pytestmark = pytest.mark.slow

STATIC = dict(static_alloc=True, static_shape=True)


@pytest.fixture(autouse=True)
def _compile_static(monkeypatch):
    # as MXCOMPAT_COMPILE_STATIC=1 in the environment when mxcompat is imported
    monkeypatch.setattr(mx.gluon.block, '_COMPILE_STATIC', 1)


def _static(name):
    net, inputs = B._seeded(name)
    net.hybridize(**STATIC)
    return net, inputs


@pytest.mark.parametrize('name', sorted(B.W.HYBRID))
def test_predict_outputs(name):
    net, inputs = _static(name)
    B._check_outputs(net, inputs, name, 'predict')
    assert net._cached_op._compiled


def test_graph_compiles_at_the_call_the_environment_names(monkeypatch):
    # MXCOMPAT_COMPILE_STATIC=3: two calls run uncompiled, the third compiles
    monkeypatch.setattr(mx.gluon.block, '_COMPILE_STATIC', 3)
    name = sorted(B.W.HYBRID)[0]
    net, inputs = _static(name)
    for _ in range(2):
        B._check_outputs(net, inputs, name, 'predict')
        assert not net._cached_op._compiled
    B._check_outputs(net, inputs, name, 'predict')
    assert net._cached_op._compiled


@pytest.mark.parametrize('value', ['-1', 'first', '1.5'])
def test_compile_call_must_be_a_whole_number(monkeypatch, value):
    monkeypatch.setenv('MXCOMPAT_COMPILE_STATIC', value)
    with pytest.raises(ValueError, match='MXCOMPAT_COMPILE_STATIC must be .* got %r' % value):
        mx.gluon.block._static_compile_call()


@pytest.mark.parametrize('name', sorted(n for n in B.W.TRAIN if n in B.HYBRIDIZABLE))
def test_training_gradients_and_moving_statistics(name):
    net, inputs = _static(name)
    xs, outs = B._train(net, name, inputs)
    for i, o in enumerate(outs):
        B._close(o, '%s/train/out%d' % (name, i))
    for i, x in enumerate(xs):
        if i not in B.W.NO_GRAD_INPUT.get(name, ()):
            B._close(x.grad, '%s/train/grad_in%d' % (name, i), rtol=1e-4, atol=1e-5)
    for key, p in net._collect_params_with_prefix().items():
        if p.grad_req != 'null':
            B._close(p.grad(), '%s/train/grad/%s' % (name, key), rtol=1e-4, atol=1e-5)
        elif key.endswith(('running_mean', 'running_var')):
            B._close(p.data(), '%s/train/aux/%s' % (name, key), rtol=1e-4, atol=1e-5)


def test_forward_without_backward_leaves_moving_statistics():
    # MXNet updates them in the backward pass: a recorded forward alone changes nothing
    net, inputs = _static('bn')
    before = {k: p.data().asnumpy() for k, p in net._collect_params_with_prefix().items()
              if k.endswith(('running_mean', 'running_var'))}
    with mx.autograd.record():
        net(*B._inputs(inputs))
    with mx.autograd.train_mode():
        net(*B._inputs(inputs))
    for key, want in before.items():
        np.testing.assert_array_equal(net._collect_params_with_prefix()[key].data().asnumpy(),
                                      want, err_msg=key)
    xs, _ = B._train(net, 'bn', inputs)
    for key in before:
        B._close(net._collect_params_with_prefix()[key].data(), 'bn/train/aux/%s' % key,
                 rtol=1e-4, atol=1e-5)


def test_trainer_step_with_moving_statistics():
    net, inputs = _static('bn')
    xs, outs = B._train(net, 'bn', inputs)
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': B.W.SGD_LR})
    trainer.step(1)
    for key, p in net._collect_params_with_prefix().items():
        B._close(p.data(), 'bn/sgd/%s' % key, rtol=1e-4, atol=1e-5)


def test_new_input_shape_compiles_again():
    # predict mode has no batch statistics: the rows of a smaller batch are MXNet's rows
    net, inputs = _static('bn')
    full = inputs[0]
    for rows in (3, 2, 1, 3):
        got = net(mx.nd.array(full[:rows])).asnumpy()
        np.testing.assert_allclose(got, B.WANT['bn/predict/out0'][:rows], rtol=1e-5,
                                   atol=1e-6)


def _static_trainer_net(make_net):
    def make(mx_, ctxs):
        net = make_net(mx_, ctxs)
        hybrid = mx_.gluon.nn.HybridSequential(prefix='net_')
        with hybrid.name_scope():
            for layer in net:
                hybrid.add(layer)
        hybrid.hybridize(**STATIC)
        return hybrid
    return make


@pytest.fixture
def static_trainer_nets(monkeypatch):
    monkeypatch.setattr(TW, 'make_net', _static_trainer_net(TW.make_net))


@pytest.mark.parametrize('case', [c for c in TW.TRAIN_CASES if c[0] in (
    'sgd-1ctx', 'adam-1ctx', 'sched-1ctx', 'sgd-2ctx-kvTrue', 'adam-2ctx-kvFalse')],
    ids=lambda c: c[0])
def test_trainer_matches_mxnet(case, static_trainer_nets):
    out = {}
    TW.run_training(mx, *case, out=out)
    T._check(out, case[0])


def test_grad_req_add_and_null(static_trainer_nets):
    out, texts = {}, {}
    TW.special_scenarios(mx, out, texts)
    T._check(out, 'grad_req')
    T._check(out, 'grad_req-2ctx')
    T._check(out, 'constant')


def test_no_cxx_compiler_falls_back(tmp_path, monkeypatch):
    import torch._inductor.config as inductor_config
    monkeypatch.setenv('TORCHINDUCTOR_CACHE_DIR', str(tmp_path))
    torch._dynamo.reset()
    net, inputs = _static('bn')
    # config.patch, not monkeypatch: the config module refuses monkeypatch's restoring
    with inductor_config.patch({'cpp.cxx': (str(tmp_path / 'no-such-c++'),)}), \
            warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        B._close(net(*B._inputs(inputs)), 'bn/predict/out0')
        xs, outs = B._train(net, 'bn', inputs)
        B._close(outs[0], 'bn/train/out0')
    msgs = [str(w.message) for w in caught if 'could not be compiled' in str(w.message)]
    assert len(msgs) == 1, [str(w.message) for w in caught]
    for key, p in net._collect_params_with_prefix().items():
        if key.endswith(('running_mean', 'running_var')):
            B._close(p.data(), 'bn/train/aux/%s' % key, rtol=1e-4, atol=1e-5)
    torch._dynamo.reset()


def test_backward_that_cannot_compile_falls_back(monkeypatch):
    # torch compiles a backward graph lazily, inside the backward pass; mxcompat has it
    # compiled with the forward, where a failure falls back to the uncompiled graph
    import torch._functorch.config as functorch_config
    import torch._inductor.config as inductor_config
    import torch._inductor.graph as inductor_graph
    lowering = inductor_graph.GraphLowering.__init__

    def fail_backward(self, gm, *args, **kwargs):
        if kwargs.get('is_backward'):
            raise AssertionError('no code for this backward graph')
        lowering(self, gm, *args, **kwargs)
    monkeypatch.setattr(inductor_graph.GraphLowering, '__init__', fail_backward)
    torch._dynamo.reset()
    net, inputs = _static('bn')
    # uncached: an earlier test's compiled backward would not be lowered again
    with inductor_config.patch(fx_graph_cache=False), \
            functorch_config.patch(enable_autograd_cache=False), \
            warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        xs, outs = B._train(net, 'bn', inputs)
    msgs = [str(w.message) for w in caught if 'could not be compiled' in str(w.message)]
    assert len(msgs) == 1, [str(w.message) for w in caught]
    B._close(outs[0], 'bn/train/out0')
    for key, p in net._collect_params_with_prefix().items():
        if p.grad_req != 'null':
            B._close(p.grad(), 'bn/train/grad/%s' % key, rtol=1e-4, atol=1e-5)
    torch._dynamo.reset()


def test_compiled_call_failing_at_run_time_falls_back(monkeypatch):
    # inductor's compiled LSTM (mkldnn_rnn_layer) raised a TypeError when it ran (GluonTS's
    # DeepFactor): any failure of a call the uncompiled graph computes falls back
    def failing(self, graph):
        def run(*tensors):
            raise TypeError('expected Tensor() for op: torch.ops.aten.mkldnn_rnn_layer.default')
        return run
    from mxcompat.gluon.hybrid import CachedGraph
    monkeypatch.setattr(CachedGraph, '_compiled_fn', failing)
    net, inputs = _static('bn')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        B._close(net(*B._inputs(inputs)), 'bn/predict/out0')
        B._close(net(*B._inputs(inputs)), 'bn/predict/out0')
    msgs = [str(w.message) for w in caught if 'could not be compiled' in str(w.message)]
    assert len(msgs) == 1 and 'TypeError' in msgs[0], [str(w.message) for w in caught]
