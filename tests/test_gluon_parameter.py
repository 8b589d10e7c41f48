"""Gluon Parameter / Constant / ParameterDict against real MXNet
(scripts/fixture_writers/gluon_block.py: facts.json 'behaviour' and the req/cast/ctx arrays)."""
import json
import os
import warnings

import numpy as np
import pytest
import torch

import mxcompat as mx
import mxcompat.gluon  # noqa: F401  (mx.gluon)
from mxcompat.gluon import nn
from scripts.fixture_writers import gluon_block as W

from conftest import FIXTURES

DIR = os.path.join(FIXTURES, 'gluon_block')
WANT = np.load(os.path.join(DIR, 'gluon_block.npz'))
with open(os.path.join(DIR, 'facts.json')) as _f:
    FACTS = json.load(_f)['behaviour']
gluon = mx.gluon


def _close(got, key, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(got.asnumpy(), WANT[key], rtol=rtol, atol=atol, err_msg=key)


def _error(fn):
    try:
        fn()
    except Exception as e:
        return type(e).__name__
    return None


def test_parameter_basics():
    p = gluon.Parameter('weight', shape=(2, 3))
    assert repr(p) == FACTS['param_repr']
    assert p.var().list_attr() == FACTS['param_var_attrs']
    assert _error(p.data) == FACTS['uninit_data_error']
    p.initialize(ctx=[mx.cpu(0), mx.cpu(1)])
    assert [str(p.data(mx.cpu(1)).context), str(p.grad(mx.cpu(1)).context),
            len(p.list_data()), len(p.list_grad()), str(p.list_ctx())] == FACTS['multi_ctx']
    # one torch tensor per context, even though both contexts are host memory
    assert p.data(mx.cpu(0)).to_torch() is not p.data(mx.cpu(1)).to_torch()
    assert _error(lambda: p.data(mx.cpu(2))) == FACTS['wrong_ctx_error']
    p.reset_ctx([mx.cpu(2)])
    assert str(p.list_ctx()) == FACTS['reset_ctx']


def test_deferred_initialization_error():
    d = nn.Dense(3)
    d.initialize()
    assert _error(d.weight.data) == FACTS['deferred_error']


def test_constant():
    c = gluon.Constant('const', [[1, 2], [3, 4]])
    assert [repr(c), c.grad_req, str(np.dtype(c.dtype))] == FACTS['constant']
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        c.grad_req = 'write'
    assert c.grad_req == 'null' and len(w) == 1
    c.initialize()
    np.testing.assert_array_equal(c.data().asnumpy(), [[1, 2], [3, 4]])
    c.set_data(mx.nd.array([[5, 6], [7, 8]]))
    np.testing.assert_array_equal(c.data().asnumpy(), [[5, 6], [7, 8]])


def test_parameter_dict():
    pd = gluon.ParameterDict('net_')
    pd.get('w0', shape=(2, 0), init='zeros', lr_mult=2.0)
    w = pd.get('w0', shape=(0, 5))
    assert list(w.shape) == FACTS['pd_merged_shape']
    assert _error(lambda: pd.get('w0', shape=(3, 5))) == FACTS['pd_mismatch_error']
    assert _error(lambda: pd.get('w0', lr_mult=3.0)) == FACTS['pd_attr_error']
    pd.get_constant('c', [1.0, 2.0])
    assert repr(pd) == FACTS['pd_repr']
    assert list(pd.keys()) == FACTS['pd_keys']


def test_block_naming():
    with mx.name.NameManager():
        seq = nn.HybridSequential()
        with seq.name_scope():
            seq.add(nn.Dense(2), nn.Dense(3), nn.Dense(4))
        sub = seq[1:]
        assert [type(sub).__name__, sub.prefix, len(sub), sub[0].name,
                list(sub.collect_params().keys())] == FACTS['slice']
        assert [seq.name, seq[0].name, seq[2].prefix] == FACTS['names']
        blk = nn.Sequential(prefix='model_')
        with blk.name_scope():
            inner = nn.HybridSequential()
            with inner.name_scope():
                inner.add(nn.Dense(2, activation='relu'))
            blk.add(inner)
            blk.add(nn.BatchNorm(in_channels=2))
        assert list(blk.collect_params().keys()) == FACTS['deep_names']
        assert sorted(blk._collect_params_with_prefix().keys()) == FACTS['deep_structural']
        assert list(blk.collect_params('.*gamma|.*dense0_bias').keys()) == FACTS['select']
        assert _error(lambda: nn.HybridSequential().add(nn.Sequential())) == \
            FACTS['hybrid_child_error']


def _req_net(prefix):
    net, x = W.build_req(mx, prefix)
    net.initialize()
    for key, p in net._collect_params_with_prefix().items():
        p.set_data(mx.nd.array(W.seeded(key, p.shape)))
    return net, mx.nd.array(x), mx.nd.array(W.data('head/req', (2, 3)))


@pytest.mark.parametrize('hybridize', [False, True], ids=['imperative', 'hybridized'])
@pytest.mark.parametrize('req', ['write', 'add'])
def test_grad_req(req, hybridize):
    net, x, head = _req_net('req_')
    if hybridize:
        net.hybridize()
    net.collect_params().setattr('grad_req', req)
    for _ in range(2):
        with mx.autograd.record():
            y = net(x)
        y.backward(head)
    _close(net.weight.grad(), 'req/%s/weight' % req)
    _close(net.bias.grad(), 'req/%s/bias' % req)
    if req == 'add':
        net.collect_params().setattr('grad_req', 'null')
        assert net.weight._grad is None
        with pytest.raises(RuntimeError):
            net.weight.grad()
        net.collect_params().setattr('grad_req', 'write')
        with mx.autograd.record():
            y = net(x)
        y.backward(head)
        _close(net.weight.grad(), 'req/switched/weight')
        net.cast('float64')
        assert net.weight.data().dtype == np.float64
        _close(net(x.astype('float64')), 'cast/f64/out')


def test_zero_grad():
    net, x, head = _req_net('zero_')
    with mx.autograd.record():
        y = net(x)
    y.backward(head)
    assert float(net.weight.grad().abs().sum().asscalar()) > 0
    net.collect_params().zero_grad()
    assert float(net.weight.grad().abs().sum().asscalar()) == 0
    assert float(net.bias.grad().abs().sum().asscalar()) == 0


def test_two_contexts():
    net, x, head = W.build_req(mx, 'ctx_')[0], mx.nd.array(W.data('req', (2, 4))), \
        mx.nd.array(W.data('head/req', (2, 3)))
    net.initialize(ctx=[mx.cpu(0), mx.cpu(1)])
    for key, p in net._collect_params_with_prefix().items():
        p.set_data(mx.nd.array(W.seeded(key, p.shape)))
    x1 = x.as_in_context(mx.cpu(1))
    with mx.autograd.record():
        y = net(x1)
    y.backward(head.as_in_context(mx.cpu(1)))
    _close(y, 'ctx/out')
    assert y.context == mx.cpu(1)
    _close(net.weight.grad(mx.cpu(1)), 'ctx/grad1')
    _close(net.weight.grad(mx.cpu(0)), 'ctx/grad0')
    w1 = net.weight.data(mx.cpu(1))
    w1[:] = w1 + 1.0
    _close(net.weight._reduce(), 'ctx/reduced')


def test_torch_parameters_keep_identity():
    """A torch optimizer holds the tensors: re-initialization, set_data, load and cast must
    update them, not replace them."""
    net, x, _ = _req_net('ident_')
    tensors = [t for _, t in net.named_parameters()]
    assert all(isinstance(t, torch.nn.Parameter) for t in tensors)
    net.initialize(force_reinit=True)
    net.weight.set_data(mx.nd.ones((3, 4)))
    net.cast('float64')
    assert [t for _, t in net.named_parameters()] == tensors
    assert tensors[0].dtype == torch.float64 and float(tensors[0].detach().sum()) == 12.0


def test_sparse_storage_not_supported():
    p = gluon.Parameter('w', shape=(2, 2), stype='row_sparse')
    with pytest.raises(NotImplementedError, match='sparse'):
        p.initialize()
    with pytest.raises(AssertionError):
        gluon.Parameter('w', shape=(2, 2), stype='invalid')
