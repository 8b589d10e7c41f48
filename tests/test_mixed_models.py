"""Mixed PyTorch/Gluon models (issue 15).

A torch module inside a Gluon Block: its parameters and buffers are in ``collect_params()`` as
TorchParameters sharing the torch tensors, ``gluon.Trainer`` updates them with MXNet's SGD rule,
``save_parameters`` stores them under structural names. A Gluon Block inside a torch model:
called with torch tensors it returns torch tensors, torch's autograd and optimizers train it,
and a hybridized model-zoo network is captured by ``torch.export``.

MXNet cannot run torch modules, so the expected numbers of the training tests come from a
computation written here by hand from the same seeded weights (torch primitives and the update
formulas, never mxcompat); the ``torch.export`` test compares with real MXNet's outputs
(tests/fixtures/model_zoo, written by scripts/fixture_writers/model_zoo.py).
"""
import math
import os
import zlib

import numpy as np
import pytest
import torch

import mxcompat as mx
from mxcompat import autograd, gluon
from mxcompat.base import MXNetError
from mxcompat.context import context_of_device
from mxcompat.gluon import nn
from scripts.fixture_writers import model_zoo as W

from conftest import FIXTURES

B, T, DIN, D, HEADS, FF, OUT = 2, 3, 5, 8, 2, 12, 3
LR, MOM, WD = 0.1, 0.9, 0.01


@pytest.fixture(autouse=True)
def _torch_device_context():
    """torch has no cpu(1): the models here run on the context of the current default
    context's torch device, cpu(0) for every host context (``--mx-context cpu1``)."""
    with context_of_device(mx.current_context().torch_device):
        yield


def _seeded(name, shape):
    r = np.random.RandomState(zlib.crc32(name.encode()) & 0xffffffff)
    return r.uniform(-0.5, 0.5, shape).astype(np.float32)


class _EncoderNet(gluon.Block):
    """Gluon Dense -> torch TransformerEncoderLayer -> Gluon Dense."""
    def __init__(self):
        super(_EncoderNet, self).__init__(prefix='net_')
        with self.name_scope():
            self.proj = nn.Dense(D, flatten=False, in_units=DIN)
            self.encoder = torch.nn.TransformerEncoderLayer(D, HEADS, FF, dropout=0.0,
                                                            batch_first=True)
            self.head = nn.Dense(OUT, flatten=False, in_units=D)

    def forward(self, x):
        return self.head(self.encoder(self.proj(x)))


ENCODER_PARAMS = [  # (collect_params name, structural name, shape)
    ('net_dense0_weight', 'proj.weight', (D, DIN)),
    ('net_dense0_bias', 'proj.bias', (D,)),
    ('net_encoder_self_attn_in_proj_weight', 'encoder.self_attn.in_proj_weight', (3 * D, D)),
    ('net_encoder_self_attn_in_proj_bias', 'encoder.self_attn.in_proj_bias', (3 * D,)),
    ('net_encoder_self_attn_out_proj_weight', 'encoder.self_attn.out_proj.weight', (D, D)),
    ('net_encoder_self_attn_out_proj_bias', 'encoder.self_attn.out_proj.bias', (D,)),
    ('net_encoder_linear1_weight', 'encoder.linear1.weight', (FF, D)),
    ('net_encoder_linear1_bias', 'encoder.linear1.bias', (FF,)),
    ('net_encoder_linear2_weight', 'encoder.linear2.weight', (D, FF)),
    ('net_encoder_linear2_bias', 'encoder.linear2.bias', (D,)),
    ('net_encoder_norm1_weight', 'encoder.norm1.weight', (D,)),
    ('net_encoder_norm1_bias', 'encoder.norm1.bias', (D,)),
    ('net_encoder_norm2_weight', 'encoder.norm2.weight', (D,)),
    ('net_encoder_norm2_bias', 'encoder.norm2.bias', (D,)),
    ('net_dense1_weight', 'head.weight', (OUT, D)),
    ('net_dense1_bias', 'head.bias', (OUT,)),
]


def _encoder_net():
    net = _EncoderNet()
    net.initialize()
    for name, p in net.collect_params().items():
        p.set_data(mx.nd.array(_seeded(name, p.shape)))
    return net


def _layer_norm(x, w, b):
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)
    return (x - mu) / torch.sqrt(var + 1e-5) * w + b


def _ref_encoder_net(p, x):
    """The forward of _EncoderNet written out (post-norm encoder layer, ReLU feed-forward)."""
    h = x @ p['net_dense0_weight'].T + p['net_dense0_bias']
    q, k, v = (h @ p['net_encoder_self_attn_in_proj_weight'].T +
               p['net_encoder_self_attn_in_proj_bias']).split(D, -1)

    def heads(t):
        return t.reshape(B, T, HEADS, D // HEADS).transpose(1, 2)
    att = torch.softmax(heads(q) @ heads(k).transpose(-1, -2) / math.sqrt(D // HEADS), -1)
    a = (att @ heads(v)).transpose(1, 2).reshape(B, T, D)
    a = a @ p['net_encoder_self_attn_out_proj_weight'].T + \
        p['net_encoder_self_attn_out_proj_bias']
    h = _layer_norm(h + a, p['net_encoder_norm1_weight'], p['net_encoder_norm1_bias'])
    f = torch.relu(h @ p['net_encoder_linear1_weight'].T + p['net_encoder_linear1_bias'])
    f = f @ p['net_encoder_linear2_weight'].T + p['net_encoder_linear2_bias']
    h = _layer_norm(h + f, p['net_encoder_norm2_weight'], p['net_encoder_norm2_bias'])
    return h @ p['net_dense1_weight'].T + p['net_dense1_bias']


def test_gluon_net_with_torch_encoder_trained_by_gluon_trainer(tmp_path):
    net = _encoder_net()
    params = net.collect_params()
    assert [(k, p.shape) for k, p in params.items()] == \
        [(k, s) for k, _, s in ENCODER_PARAMS]
    # the Parameters share the torch module's tensors
    assert params['net_encoder_linear1_weight'].data().to_torch() is \
        net.encoder.linear1.weight
    x = _seeded('x', (B, T, DIN))
    label = _seeded('label', (B, T, OUT))
    trainer = gluon.Trainer(params, 'sgd', {'learning_rate': LR, 'momentum': MOM, 'wd': WD})
    loss_fn = gluon.loss.L2Loss()
    losses = []
    for _ in range(3):
        with autograd.record():
            out = net(mx.nd.array(x))
            loss = loss_fn(out, mx.nd.array(label))
        loss.backward()
        trainer.step(B)
        assert isinstance(out, mx.nd.NDArray)
        losses.append(loss.asnumpy())

    # by hand: the same seeded weights, torch's autograd on the written-out forward, and
    # MXNet's sgd_mom_update: mom = momentum*mom - lr*wd*w - lr*rescale_grad*grad; w += mom
    ref = {k: torch.tensor(_seeded(k, s), dtype=torch.float64, requires_grad=True)
           for k, _, s in ENCODER_PARAMS}
    mom = {k: torch.zeros_like(v) for k, v in ref.items()}
    xt, lt = torch.tensor(x, dtype=torch.float64), torch.tensor(label, dtype=torch.float64)
    for step in range(3):
        loss = 0.5 * ((_ref_encoder_net(ref, xt) - lt) ** 2).mean(axis=(1, 2))
        np.testing.assert_allclose(losses[step], loss.detach().numpy(), rtol=1e-4, atol=1e-6)
        grads = torch.autograd.grad(loss.sum(), list(ref.values()))
        with torch.no_grad():
            for (k, w), g in zip(ref.items(), grads):
                mom[k] = MOM * mom[k] - LR * WD * w - LR * (1.0 / B) * g
                w += mom[k]
    torch_params = dict(net.named_parameters())
    for name, structural, _ in ENCODER_PARAMS:
        want = ref[name].detach().numpy()
        np.testing.assert_allclose(params[name].data().asnumpy(), want, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(torch_params[structural].detach().numpy(), want,
                                   rtol=1e-4, atol=1e-5)

    # save_parameters uses structural names; load_parameters writes into the torch tensors
    path = str(tmp_path / 'mixed.params')
    net.save_parameters(path)
    assert sorted(mx.nd.load(path)) == sorted(s for _, s, _ in ENCODER_PARAMS)
    net2 = _EncoderNet()
    net2.initialize()
    net2.load_parameters(path)
    np.testing.assert_allclose(net2.encoder.linear2.weight.detach().numpy(),
                               ref['net_encoder_linear2_weight'].detach().numpy(),
                               rtol=1e-4, atol=1e-5)
    # called with a torch tensor, the same network returns a torch tensor
    out = net2(torch.tensor(x))
    assert isinstance(out, torch.Tensor)
    np.testing.assert_allclose(out.detach().numpy(),
                               _ref_encoder_net(ref, xt).detach().numpy(), rtol=1e-4, atol=1e-5)


def test_initialize_leaves_torch_values():
    net = _encoder_net()
    net.initialize(mx.init.Constant(3.0), force_reinit=True)
    assert (net.proj.weight.data().asnumpy() == 3.0).all()  # Gluon's are re-initialized
    np.testing.assert_array_equal(net.encoder.linear1.weight.detach().numpy(),
                                  _seeded('net_encoder_linear1_weight', (FF, D)))


class _TorchModel(torch.nn.Module):
    """torch Linear -> Gluon HybridSequential (Dense tanh, Dense)."""
    def __init__(self, hybridize):
        super(_TorchModel, self).__init__()
        self.inp = torch.nn.Linear(4, 6)
        self.body = nn.HybridSequential(prefix='body_')
        with self.body.name_scope():
            self.body.add(nn.Dense(5, activation='tanh', in_units=6), nn.Dense(2, in_units=5))
        self.body.initialize()
        if hybridize:
            self.body.hybridize()

    def forward(self, x):
        return self.body(torch.relu(self.inp(x)))


@pytest.mark.parametrize('hybridize', [False, True])
def test_torch_model_with_gluon_block_trained_by_torch_optim(hybridize):
    model = _TorchModel(hybridize)
    names = [k for k, _ in model.named_parameters()]
    assert names == ['inp.weight', 'inp.bias', 'body.0.weight', 'body.0.bias',
                     'body.1.weight', 'body.1.bias']
    with torch.no_grad():
        for k, p in model.named_parameters():
            p.copy_(torch.from_numpy(_seeded(k, tuple(p.shape))))
    opt = torch.optim.SGD(model.parameters(), lr=LR, momentum=MOM, weight_decay=WD)
    x = torch.tensor(_seeded('x', (3, 4)), requires_grad=True)
    y = torch.tensor(_seeded('y', (3, 2)))
    losses, x_grads = [], []
    for _ in range(3):
        opt.zero_grad()
        x.grad = None
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        x_grads.append(x.grad.numpy().copy())

    # by hand: torch.optim.SGD's rule: g += wd*w; buf = momentum*buf + g (buf = g at first);
    # w -= lr*buf
    ref = {k: torch.tensor(_seeded(k, tuple(p.shape)), dtype=torch.float64,
                           requires_grad=True) for k, p in model.named_parameters()}
    bufs = {}
    xr = torch.tensor(_seeded('x', (3, 4)), dtype=torch.float64, requires_grad=True)
    yr = torch.tensor(_seeded('y', (3, 2)), dtype=torch.float64)
    for step in range(3):
        h = torch.relu(xr @ ref['inp.weight'].T + ref['inp.bias'])
        h = torch.tanh(h @ ref['body.0.weight'].T + ref['body.0.bias'])
        loss = ((h @ ref['body.1.weight'].T + ref['body.1.bias'] - yr) ** 2).mean()
        assert losses[step] == pytest.approx(loss.item(), rel=1e-5)
        grads = torch.autograd.grad(loss, list(ref.values()) + [xr])
        np.testing.assert_allclose(x_grads[step], grads[-1].numpy(), rtol=1e-4, atol=1e-6)
        with torch.no_grad():
            for (k, w), g in zip(ref.items(), grads):
                g = g + WD * w
                bufs[k] = g if k not in bufs else MOM * bufs[k] + g
                w -= LR * bufs[k]
    # the Gluon Parameters are the trained tensors
    for i in range(2):
        for kind in ('weight', 'bias'):
            got = getattr(model.body[i], kind).data().asnumpy()
            np.testing.assert_allclose(got, ref['body.%d.%s' % (i, kind)].detach().numpy(),
                                       rtol=1e-4, atol=1e-6)


def test_torch_export_of_hybridized_model_zoo_network():
    want = np.load(os.path.join(FIXTURES, 'model_zoo', 'forward.npz'))['resnet18_v1']
    net, _ = W.forward_model(mx, 'resnet18_v1')
    net.hybridize()
    net.eval()  # called from torch code, the block follows torch's train/eval mode
    x = torch.from_numpy(W.forward_input('resnet18_v1'))
    out = net(x)
    assert isinstance(out, torch.Tensor)
    np.testing.assert_allclose(out.detach().numpy(), want, rtol=1e-4, atol=1e-5)
    program = torch.export.export(net, (x,))
    got = program.module()(x)
    np.testing.assert_allclose(got.detach().numpy(), want, rtol=1e-4, atol=1e-5)


@pytest.mark.filterwarnings('ignore:`torch.jit.trace')
def test_torch_export_before_deferred_initialization():
    net = W.build(mx, 'resnet18_v1', classes=10)
    net.initialize()
    net.hybridize()
    x = torch.from_numpy(W.forward_input('resnet18_v1'))
    with pytest.raises(MXNetError, match='call it once on a real input before torch.export'):
        torch.export.export(net.eval(), (x,))
    with pytest.raises(MXNetError, match='deferred initialization'):
        torch.jit.trace(net, (x,))
    out = net(x)  # the parameters were left alone: a real call initializes them
    assert isinstance(out, torch.Tensor) and type(net.output.weight.data().to_torch()) is \
        torch.nn.Parameter


class _BNNet(gluon.Block):
    def __init__(self):
        super(_BNNet, self).__init__(prefix='bnnet_')
        with self.name_scope():
            self.dense = nn.Dense(4, in_units=3)
            self.bn = torch.nn.BatchNorm1d(4)

    def forward(self, x):
        return self.bn(self.dense(x))


def test_torch_module_buffers(tmp_path):
    net = _BNNet()
    net.initialize()
    params = net.collect_params()
    assert [(k, p.grad_req) for k, p in params.items()] == [
        ('bnnet_dense0_weight', 'write'), ('bnnet_dense0_bias', 'write'),
        ('bnnet_bn_weight', 'write'), ('bnnet_bn_bias', 'write'),
        ('bnnet_bn_running_mean', 'null'), ('bnnet_bn_running_var', 'null'),
        ('bnnet_bn_num_batches_tracked', 'null')]
    assert params['bnnet_bn_num_batches_tracked'].dtype == np.int64
    for k in ('bnnet_dense0_weight', 'bnnet_dense0_bias', 'bnnet_bn_weight', 'bnnet_bn_bias'):
        params[k].set_data(mx.nd.array(_seeded(k, params[k].shape)))
    trainer = gluon.Trainer(params, 'sgd', {'learning_rate': LR, 'wd': 0.5})
    xs = [_seeded('x%d' % i, (5, 3)) for i in range(2)]
    for x in xs:
        with autograd.record():  # training: torch's BatchNorm uses and tracks batch statistics
            y = net(mx.nd.array(x))
        y.backward()
        trainer.step(5)
    assert net.bn.training
    # predicting (outside record) the torch child runs in eval mode on the running statistics
    x = _seeded('x', (5, 3))
    pred = net(mx.nd.array(x)).asnumpy()
    assert not net.bn.training

    # by hand: running stats follow torch's BatchNorm (momentum 0.1, unbiased variance); the
    # Trainer (wd=0.5) leaves them alone
    w = {k: _seeded(k, params[k].shape).astype(np.float64)
         for k in ('bnnet_dense0_weight', 'bnnet_dense0_bias', 'bnnet_bn_weight',
                   'bnnet_bn_bias')}
    rm, rv = np.zeros(4), np.ones(4)
    for xb in xs:
        h = xb @ w['bnnet_dense0_weight'].T + w['bnnet_dense0_bias']
        mean, var = h.mean(0), h.var(0)
        rm = 0.9 * rm + 0.1 * mean
        rv = 0.9 * rv + 0.1 * h.var(0, ddof=1)
        n = (h - mean) / np.sqrt(var + 1e-5)
        # d(sum of outputs)/d(gamma) = sum of normalized values; d/d(beta) = batch size;
        # d/d(dense params) = 0 (a normalized batch sums to zero along the batch)
        grads = {'bnnet_bn_weight': n.sum(0), 'bnnet_bn_bias': np.full(4, 5.0),
                 'bnnet_dense0_weight': 0, 'bnnet_dense0_bias': 0}
        for k in w:
            w[k] = w[k] - LR * (grads[k] / 5.0 + 0.5 * w[k])
    np.testing.assert_allclose(net.bn.running_mean.numpy(), rm, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(params['bnnet_bn_running_var'].data().asnumpy(), rv,
                               rtol=1e-5, atol=1e-6)
    assert int(params['bnnet_bn_num_batches_tracked'].data().asnumpy()) == 2
    for k in ('bnnet_bn_weight', 'bnnet_bn_bias'):
        np.testing.assert_allclose(params[k].data().asnumpy(), w[k], rtol=1e-4, atol=1e-5)
    for k in ('bnnet_dense0_weight', 'bnnet_dense0_bias'):  # decayed only
        np.testing.assert_allclose(params[k].data().asnumpy(), w[k], rtol=1e-4, atol=1e-5)
    h = x @ w['bnnet_dense0_weight'].T + w['bnnet_dense0_bias']
    want = (h - rm) / np.sqrt(rv + 1e-5) * w['bnnet_bn_weight'] + w['bnnet_bn_bias']
    np.testing.assert_allclose(pred, want, rtol=1e-4, atol=1e-5)

    # buffers are saved and loaded with the parameters, under structural names
    path = str(tmp_path / 'bn.params')
    net.save_parameters(path)
    saved = mx.nd.load(path)
    assert sorted(saved) == ['bn.bias', 'bn.num_batches_tracked', 'bn.running_mean',
                             'bn.running_var', 'bn.weight', 'dense.bias', 'dense.weight']
    net2 = _BNNet()
    net2.initialize()
    net2.load_parameters(path)
    np.testing.assert_allclose(net2.bn.running_var.numpy(), rv, rtol=1e-5, atol=1e-6)
    assert int(net2.bn.num_batches_tracked) == 2
    # a buffer torch replaces (module.to) is followed by the same Parameter
    before = params['bnnet_bn_running_mean']
    net.bn.to(torch.float64)
    after = net.collect_params()['bnnet_bn_running_mean']
    assert after is before and after.dtype == np.float64
    assert after.data().to_torch() is net.bn.running_mean
    assert net.collect_params()['bnnet_bn_weight'].dtype == np.float64  # changed in place


def test_shared_torch_tensor_is_one_parameter():
    lin = torch.nn.Linear(2, 2)

    class Tied(gluon.Block):
        def __init__(self):
            super(Tied, self).__init__(prefix='tied_')
            self.a = lin
            self.b = torch.nn.Sequential(lin)

        def forward(self, x):
            return self.b(self.a(x))
    net = Tied()
    assert list(net.collect_params().keys()) == ['tied_a_weight', 'tied_a_bias']
    assert sorted(net._collect_params_with_prefix()) == ['a.bias', 'a.weight', 'b.0.bias',
                                                         'b.0.weight']


def test_bad_input():
    net = nn.Dense(2, in_units=3)
    net.initialize()
    with pytest.raises(MXNetError, match=r"device 'meta'.*tensor.to\('cpu'\)"):
        net(torch.ones(2, 3, device='meta'))
    with pytest.raises(MXNetError, match='several devices'):
        net(torch.ones(2, 3), torch.ones(2, 3, device='meta'))

    class Holder(gluon.Block):
        def __init__(self):
            super(Holder, self).__init__()
            self.lin = torch.nn.Linear(3, 2)

        def forward(self, x):
            return self.lin(x)
    holder = Holder()
    holder.lin.to('meta')
    with pytest.raises(MXNetError, match=r"parameters are on meta: move the input"):
        holder(torch.ones(2, 3))
    with pytest.raises(MXNetError, match=r'module.to\(device\)'):
        Holder().initialize(ctx=[mx.cpu(0), mx.cpu(1)])

    class HybridHolder(gluon.HybridBlock):
        def __init__(self):
            super(HybridHolder, self).__init__(prefix='hh_')
            self.lin = torch.nn.Linear(3, 2)

        def hybrid_forward(self, F, x):
            return self.lin(x)
    hh = HybridHolder()
    np.testing.assert_allclose(hh(mx.nd.ones((1, 3))).asnumpy(),
                               (hh.lin.weight.sum(1) + hh.lin.bias).detach().numpy()[None],
                               rtol=1e-6)
    hh.hybridize()
    with pytest.raises(MXNetError, match=r"'lin' is a torch.nn.Module .*hybridize\(\) on them"):
        hh(mx.nd.ones((1, 3)))


class _Forward2x(gluon.HybridBlock):
    """An MXNet 2.x-style block (``forward`` instead of ``hybrid_forward``)."""
    def __init__(self):
        super(_Forward2x, self).__init__(prefix='f2x_')
        with self.name_scope():
            self.dense = nn.Dense(2, in_units=3)

    def forward(self, x):
        return self.dense(x) * 2


@pytest.mark.parametrize('kind', ['hybrid_forward', 'forward', 'symbolblock', 'sequential'])
@pytest.mark.parametrize('hybridize', [False, True])
def test_blocks_take_torch_tensors(kind, hybridize):
    if kind == 'hybrid_forward':
        net, scale = nn.Dense(2, in_units=3, prefix='fc_'), 1.0
    elif kind == 'forward':
        net, scale = _Forward2x(), 2.0
    elif kind == 'symbolblock':
        data = mx.sym.var('data')
        net = gluon.SymbolBlock(mx.sym.FullyConnected(data, num_hidden=2, name='fc'), data)
        scale = 1.0
    else:
        net, scale = nn.Sequential(prefix='seq_'), 1.0
        with net.name_scope():
            net.add(nn.Dense(2, in_units=3))
    net.initialize()
    params = list(net.collect_params().values())
    weight, bias = _seeded('w', (2, 3)), _seeded('b', (2,))
    params[0].set_data(mx.nd.array(weight))
    params[1].set_data(mx.nd.array(bias))
    if hybridize:
        (net[0] if kind == 'sequential' else net).hybridize()
    x = _seeded('x', (4, 3))
    xt = torch.tensor(x, requires_grad=True)
    out = net(xt)
    assert isinstance(out, torch.Tensor)
    np.testing.assert_allclose(out.detach().numpy(), (x @ weight.T + bias) * scale, rtol=1e-5)
    out.sum().backward()  # torch's autograd reaches the input and the Gluon parameters
    np.testing.assert_allclose(xt.grad.numpy(), np.tile(weight.sum(0) * scale, (4, 1)),
                               rtol=1e-5)
    np.testing.assert_allclose(params[1].grad().asnumpy(), np.full(2, 4.0 * scale), rtol=1e-6)


def test_rnn_layer_takes_torch_tensors():
    """A fused LSTM called with a torch tensor and no states starts from zero states, as with
    NDArrays; by hand: one step of the LSTM equations (gates i, f, g, o) from zero states."""
    layer = gluon.rnn.LSTM(2, input_size=3, prefix='lstm_')
    layer.initialize()
    for name, p in layer.collect_params().items():
        p.set_data(mx.nd.array(_seeded(name, p.shape)))
    x = _seeded('x', (1, 1, 3))
    out = layer(torch.tensor(x))
    assert isinstance(out, torch.Tensor)
    gates = x[0] @ _seeded('lstm_l0_i2h_weight', (8, 3)).T + _seeded('lstm_l0_i2h_bias', (8,)) \
        + _seeded('lstm_l0_h2h_bias', (8,))
    i, f, g, o = np.split(gates[0], 4)

    def sigmoid(v):
        return 1 / (1 + np.exp(-v))
    h = sigmoid(o) * np.tanh(sigmoid(i) * np.tanh(g))
    np.testing.assert_allclose(out.detach().numpy()[0, 0], h, rtol=1e-5, atol=1e-6)
