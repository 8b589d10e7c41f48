"""A recorded training step of a ``hybridize(static_alloc=True, static_shape=True)`` block
and a separate loss block, compiled as one function (gluon/fused_step.py, under
``MXCOMPAT_COMPILE_STATIC=1``), against real MXNet (the fused_step fixtures): losses, outputs
read after ``backward`` or before it (then the step runs the ordinary way), head gradients,
grad_req 'add', two outputs, Trainer updates. Compiling takes seconds per graph: slow."""
import os

import numpy as np
import pytest
import torch

import mxcompat as mx
from mxcompat.gluon import fused_step
from scripts.fixture_writers import fused_step as FW

from conftest import FIXTURES

pytestmark = pytest.mark.slow

WANT = np.load(os.path.join(FIXTURES, 'fused_step', 'fused_step.npz'))


@pytest.fixture(autouse=True)
def _compile_static(monkeypatch):
    # as MXCOMPAT_COMPILE_STATIC=1 in the environment when mxcompat is imported
    monkeypatch.setattr(mx.gluon.block, '_COMPILE_STATIC', 1)


@pytest.fixture
def fused(monkeypatch):
    """The results of the joint function's runs (True: it computed the step)."""
    ran = []
    backward = fused_step._Run.backward

    def counted(self, heads, head_grads):
        ran.append(backward(self, heads, head_grads))
        return ran[-1]
    monkeypatch.setattr(fused_step._Run, 'backward', counted)
    return ran


def _check(got):
    assert sorted(got) == sorted(WANT.files)
    for k in WANT.files:
        np.testing.assert_allclose(got[k], WANT[k], rtol=1e-4, atol=1e-5, err_msg=k)


def test_steps_match_mxnet(fused):
    _check(FW.scenarios(mx))
    # a loss block joins its net's graph from its second step on: the last STEPS - 1 steps of
    # the classifier and of the L2 net, the two-output net's second, the nested net's last two
    assert fused == [True] * (2 * (FW.STEPS - 1) + 1 + 2)


def test_steps_match_mxnet_when_the_graph_compiles_midway(monkeypatch, fused):
    monkeypatch.setattr(mx.gluon.block, '_COMPILE_STATIC', 3)  # as the 50th call by default
    _check(FW.scenarios(mx))
    # calls 1-2 run uncompiled, the 3rd is deferred and its loss block seen once, the 4th is
    # one compiled step: the classifier's and the L2 net's last (the others take 2 and 3 steps)
    assert fused == [True, True]


def test_outputs_read_before_backward(fused):
    _check(FW.scenarios(mx, early=True))
    assert fused == []  # reading computed every step the ordinary way
    # outside record(), as it was: torch code beside the model still records its graphs
    assert torch.is_grad_enabled()


def test_loss_block_made_anew_every_step(fused):
    got = FW.scenarios(mx, fresh_loss=True)
    _check(got)
    # the classifier's steps all ran the ordinary way
    assert fused == [True] * (FW.STEPS - 1 + 1 + 2)


def test_parameter_change_waits_for_the_deferred_forward():
    net = FW._mlp(mx, 'ce_')
    with mx.autograd.record():
        pred = net(mx.nd.array(FW.X))
    assert id(pred) in mx.pending.PENDING
    for p in net.collect_params().values():
        p.set_data(mx.nd.zeros(p.shape))  # MXNet's forward read the values before this
    np.testing.assert_allclose(pred.asnumpy(), WANT['ce/pred0'], rtol=1e-5, atol=1e-6)


def test_input_of_a_wrong_shape_raises_and_steps_go_on(fused):
    net = FW._mlp(mx, 'ce_')
    loss_fn = mx.gluon.loss.SoftmaxCrossEntropyLoss()
    label = mx.nd.array(FW.LABEL)

    def step(x):
        with mx.autograd.record():
            loss = loss_fn(net(x), label)
        loss.backward()
        return loss

    step(mx.nd.array(FW.X))
    step(mx.nd.array(FW.X))
    with pytest.raises(mx.base.MXNetError):
        step(mx.nd.ones((FW.BATCH, 7)))  # Dense(in_units=20) rejects 7 features
    np.testing.assert_allclose(step(mx.nd.array(FW.X)).asnumpy(), WANT['ce/loss0'],
                               rtol=1e-4, atol=1e-5)  # no update ran: step 0's loss
    # the first step ran the ordinary way (the loss block joins on its second call); the
    # failing one raised from the ordinary forward, before a joint function was made
    assert fused == [True, True]
    assert net._cached_op.fusable


@pytest.mark.parametrize('onednn', [True, False], ids=['onednn', 'mkl'])
def test_products_by_either_kernel_match_mxnet(monkeypatch, fused, onednn):
    import torch._inductor.config
    from mxcompat.gluon import gemm_choice
    monkeypatch.setattr(gemm_choice, '_FASTER', {})
    monkeypatch.setattr(gemm_choice, '_onednn_faster', lambda a, b, bias: onednn)
    with torch._inductor.config.patch(fx_graph_cache=False):  # the pass runs, uncached
        got = FW.wide(mx)
    want = np.load(os.path.join(FIXTURES, 'fused_step', 'fused_step_wide.npz'))
    assert sorted(got) == sorted(want.files)
    for k in want.files:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-4, atol=1e-5, err_msg=k)
    assert fused == [True] * (FW.STEPS - 1)
    # the first layer's product and its weight's gradient (1M multiply-adds each; the
    # second layer's are below the size worth asking)
    assert len(gemm_choice._FASTER) == 2
