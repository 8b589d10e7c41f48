"""CUDA paths: the same symbols, models, weights and inputs on gpu(0) and cpu(0) agree within
the tolerances of MXNet's own ``check_consistency`` (float32 is float32 on both: TF32 is off by
default), an out-of-range index on the GPU is clipped as on the CPU and leaves the CUDA context
usable, and arrays on different devices raise MXNet's error. The CPU results these are compared
with are checked against real MXNet 1.9.1 by the rest of the suite. Skipped without CUDA."""
import copy
import os
import tempfile

import numpy as np
import pytest

import mxcompat as mx
from mxcompat import autograd, gluon, nd
from mxcompat.base import MXNetError
from mxcompat.test_utils import check_consistency

pytestmark = pytest.mark.gpu

GPU, CPU = mx.gpu(0), mx.cpu(0)
F32 = {'data': np.float32}


def _ctx_list(**shapes):
    return [dict(ctx=c, type_dict={k: np.float32 for k in shapes}, **shapes) for c in (GPU, CPU)]


CONSISTENCY = {
    'conv2d': (lambda d: mx.sym.Convolution(d, num_filter=8, kernel=(3, 3), pad=(1, 1)),
               (2, 4, 10, 10)),
    'conv2d_dilated': (lambda d: mx.sym.Convolution(d, num_filter=4, kernel=(3, 3),
                                                    dilate=(2, 2), no_bias=True), (2, 3, 12, 12)),
    'conv1d_grouped': (lambda d: mx.sym.Convolution(d, num_filter=8, kernel=(3,), num_group=2),
                       (2, 4, 16)),
    'deconv2d': (lambda d: mx.sym.Deconvolution(d, num_filter=4, kernel=(3, 3), stride=(2, 2)),
                 (2, 3, 6, 6)),
    'batchnorm': (lambda d: mx.sym.BatchNorm(d, fix_gamma=False), (4, 3, 5, 5)),
    'batchnorm_fix_gamma': (lambda d: mx.sym.BatchNorm(d, fix_gamma=True), (4, 3, 5, 5)),
    'batchnorm_global': (lambda d: mx.sym.BatchNorm(d, use_global_stats=True), (4, 3, 5, 5)),
    'pool_max': (lambda d: mx.sym.Pooling(d, kernel=(3, 3), stride=(2, 2), pool_type='max'),
                 (2, 3, 9, 9)),
    'pool_avg': (lambda d: mx.sym.Pooling(d, kernel=(2, 2), pool_type='avg'), (2, 3, 8, 8)),
    # a channels-last layout with padding: torch's CUDA avg-pool backward once ignored the pad
    'pool_avg_nwc_padded': (lambda d: mx.sym.Pooling(d, kernel=(4,), stride=(2,), pad=(2,),
                                                     pool_type='avg', layout='NWC'), (3, 10, 3)),
    'pool_sum_nhwc_padded': (lambda d: mx.sym.Pooling(d, kernel=(3, 3), pad=(1, 1),
                                                      pool_type='sum', layout='NHWC'),
                             (2, 6, 6, 3)),
    'upsampling_bilinear': (lambda d: mx.sym.UpSampling(d, scale=2, num_filter=3,
                                                        sample_type='bilinear'), (2, 3, 4, 5)),
    'fully_connected': (lambda d: mx.sym.FullyConnected(d, num_hidden=7), (5, 11)),
    'softmax': (lambda d: mx.sym.softmax(d, axis=-1), (4, 9)),
    'layer_norm': (lambda d: mx.sym.LayerNorm(d), (4, 6)),
    'lstm': (lambda d: mx.sym.RNN(d, mode='lstm', state_size=6, num_layers=2,
                                  bidirectional=True, state_outputs=False,
                                  name='rnn'), None),
}


@pytest.mark.parametrize('name', sorted(CONSISTENCY))
def test_check_consistency(name):
    make, shape = CONSISTENCY[name]
    sym = make(mx.sym.Variable('data'))
    if shape is None:  # the fused RNN takes its packed parameters and begin states as inputs
        shapes = dict(zip(sym.list_arguments(),
                          sym.infer_shape_partial(data=(5, 3, 4))[0]))
        shapes = {k: v for k, v in shapes.items() if v}
        ctx_list = _ctx_list(**shapes)
    else:
        ctx_list = _ctx_list(data=shape)
    check_consistency(sym, ctx_list)



def test_float16_3d_pooling_sums_in_float32():
    # MXNet's test_pooling_versions: overlapping 3-D windows in float16 on both devices (torch's
    # CUDA backward adds such windows' gradients with float16 atomics)
    sym = mx.sym.Pooling(mx.sym.Variable('data'), kernel=(4, 5, 3), pool_type='sum')
    ctx_list = [dict(ctx=c, data=(2, 3, 20, 20, 20), type_dict={'data': np.float16})
                for c in (GPU, CPU)]
    check_consistency(sym, ctx_list, rtol=1e-2, atol=1e-1)

def _same_weights(make, shape):
    # seeded: with batch statistics of a few values (ResNet-18's last stages see 1x1 maps), some
    # draws of weights make gradients sensitive enough that float32 rounding differs by 1e-3
    mx.random.seed(0)
    ref = make()
    ref.initialize(mx.init.Xavier(), ctx=CPU)
    ref(nd.ones(shape, ctx=CPU))
    path = os.path.join(tempfile.mkdtemp(), 'w.params')
    ref.save_parameters(path)
    nets = []
    for ctx in (GPU, CPU):
        net = make()
        net.load_parameters(path, ctx=ctx)
        nets.append(net)
    return nets


def _fwd_bwd(net, x, ctx):
    x = x.as_in_context(ctx)
    with autograd.record():
        out = net(x)
        loss = (out * out).sum()
    loss.backward()
    # keyed by position: each net has its own name prefix
    grads = {i: p.grad(ctx).asnumpy() for i, p in enumerate(net.collect_params().values())
             if p.grad_req != 'null'}
    return out.asnumpy(), grads


@pytest.mark.parametrize('hybridize', [False, True])
def test_resnet18_gpu_matches_cpu(hybridize):
    nets = _same_weights(lambda: gluon.model_zoo.vision.resnet18_v1(classes=10), (2, 3, 32, 32))
    if hybridize:
        for net in nets:
            net.hybridize()
    x = nd.array(np.random.RandomState(0).uniform(-1, 1, (4, 3, 32, 32)))
    (og, gg), (oc, gc) = (_fwd_bwd(net, x, ctx) for net, ctx in zip(nets, (GPU, CPU)))
    np.testing.assert_allclose(og, oc, rtol=1e-3, atol=1e-4)
    for k in gc:
        scale = np.abs(gc[k]).max() + 1e-6
        np.testing.assert_allclose(gg[k] / scale, gc[k] / scale, rtol=1e-3, atol=1e-3,
                                   err_msg=str(k))


def test_fused_lstm_gpu_matches_cpu():
    nets = _same_weights(lambda: gluon.rnn.LSTM(16, num_layers=2, bidirectional=True,
                                                input_size=8), (5, 3, 8))
    x = nd.array(np.random.RandomState(1).uniform(-1, 1, (7, 3, 8)))
    (og, gg), (oc, gc) = (_fwd_bwd(net, x, ctx) for net, ctx in zip(nets, (GPU, CPU)))
    np.testing.assert_allclose(og, oc, rtol=1e-4, atol=1e-5)
    for k in gc:
        np.testing.assert_allclose(gg[k], gc[k], rtol=1e-3, atol=1e-4, err_msg=str(k))


def test_module_fit_gpu_matches_cpu():
    rs = np.random.RandomState(2)
    data, label = rs.uniform(-1, 1, (64, 10)).astype('f'), rs.randint(0, 3, 64).astype('f')
    net = mx.sym.FullyConnected(mx.sym.Variable('data'), num_hidden=16, name='fc1')
    net = mx.sym.Activation(net, act_type='relu')
    net = mx.sym.FullyConnected(net, num_hidden=3, name='fc2')
    net = mx.sym.SoftmaxOutput(net, name='softmax')
    init = {'fc1_weight': rs.uniform(-.3, .3, (16, 10)), 'fc1_bias': np.zeros(16),
            'fc2_weight': rs.uniform(-.3, .3, (3, 16)), 'fc2_bias': np.zeros(3)}
    params = []
    for ctx in (GPU, CPU):
        it = mx.io.NDArrayIter(data, label, batch_size=16)
        mod = mx.mod.Module(net, context=ctx)
        mod.fit(it, num_epoch=3, optimizer='sgd',
                optimizer_params={'learning_rate': 0.1, 'momentum': 0.9},
                arg_params={k: nd.array(v) for k, v in init.items()})
        params.append({k: v.asnumpy() for k, v in mod.get_params()[0].items()})
    for k in params[1]:
        np.testing.assert_allclose(params[0][k], params[1][k], rtol=1e-4, atol=1e-5,
                                   err_msg=k)


def test_out_of_range_indices_leave_cuda_usable():
    data = np.arange(12, dtype='f').reshape(4, 3)
    idx = np.array([-7, 0, 3, 9], dtype='f')
    results = {}
    for ctx in (GPU, CPU):
        a, i = nd.array(data, ctx=ctx), nd.array(idx, ctx=ctx)
        results[ctx] = [
            nd.take(a, i, mode='clip').asnumpy(),
            nd.take(a, i, mode='wrap').asnumpy(),
            nd.pick(a, nd.array([5, -2, 1, 0], ctx=ctx), axis=1, mode='clip').asnumpy(),
            nd.Embedding(i, a, input_dim=4, output_dim=3).asnumpy(),
            nd.one_hot(i, depth=4).asnumpy(),
        ]
    for g, c in zip(results[GPU], results[CPU]):
        np.testing.assert_array_equal(g, c)
    # the CUDA context still works
    assert nd.ones((3,), ctx=GPU).sum().asscalar() == 3


def test_mixed_devices_raise_mxneterror():
    a, b = nd.ones((2,), ctx=GPU), nd.ones((2,), ctx=CPU)
    for fn in (lambda: a + b, lambda: nd.broadcast_mul(a, b), lambda: nd.concat(a, b, dim=0),
               lambda: nd.dot(a, b)):
        with pytest.raises(MXNetError, match=r'gpu\(0\).*cpu\(0\)'):
            fn()


def test_copies_keep_the_gpu():
    a = nd.ones((2, 2), ctx=GPU)
    assert copy.deepcopy(a).context == GPU
    assert a.copyto(CPU).copyto(GPU).context == GPU
    assert nd.relu(a).context == GPU


def test_split_and_load_gpu_cpu():
    """Data parallelism over [gpu(0), cpu(0)]: one Trainer step equals the single-device one."""
    rs = np.random.RandomState(3)
    x, y = rs.uniform(-1, 1, (8, 5)).astype('f'), rs.uniform(-1, 1, (8, 2)).astype('f')
    w0 = rs.uniform(-1, 1, (2, 5)).astype('f')
    weights = []
    for ctxs in ([GPU, CPU], [CPU]):
        net = gluon.nn.Dense(2, in_units=5, use_bias=False)
        net.initialize(ctx=ctxs)
        net.weight.set_data(nd.array(w0))
        tr = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.5})
        xs = gluon.utils.split_and_load(nd.array(x), ctxs)
        ys = gluon.utils.split_and_load(nd.array(y), ctxs)
        with autograd.record():
            losses = [((net(a) - b) ** 2).sum() for a, b in zip(xs, ys)]
        autograd.backward(losses)
        tr.step(8)
        weights.append([net.weight.data(c).asnumpy() for c in ctxs])
    for w in weights[0]:
        np.testing.assert_allclose(w, weights[1][0], rtol=1e-5, atol=1e-6)


def test_copies_between_devices_pass_gradients():
    """MXNet's test_cross_device_autograd: copies between devices under record() are part of
    the graph, so the gradient equals the one computed on one device."""
    x = nd.array(np.random.RandomState(0).uniform(size=(10,)), ctx=GPU)
    x.attach_grad()
    with autograd.record():
        y = nd.tanh(nd.tanh(nd.tanh(x).copyto(CPU)).as_in_context(GPU)).copyto(GPU)
    y.backward()
    across = x.grad.asnumpy()
    with autograd.record():
        y = nd.tanh(nd.tanh(nd.tanh(x)))
    y.backward()
    np.testing.assert_allclose(across, x.grad.asnumpy(), rtol=1e-6, atol=1e-7)


def test_interleaved_attention_takes_float16_on_gpu():
    """MXNet's CUDA kernels of the interleaved attention matmuls take float16 (its CPU ones
    refuse it): the float16 result matches float32 on the CPU within float16's precision."""
    qkv = np.random.RandomState(1).uniform(-1, 1, (5, 2, 3 * 2 * 4)).astype(np.float32)
    got = nd.contrib.interleaved_matmul_selfatt_qk(nd.array(qkv, ctx=GPU, dtype='float16'),
                                                    heads=2)
    want = nd.contrib.interleaved_matmul_selfatt_qk(nd.array(qkv, ctx=CPU), heads=2)
    assert got.dtype == np.float16
    np.testing.assert_allclose(got.asnumpy().astype(np.float32), want.asnumpy(),
                               rtol=1e-2, atol=1e-2)
