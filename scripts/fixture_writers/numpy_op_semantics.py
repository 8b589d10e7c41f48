"""mx.np operators from real MXNet 1.9.1, for behaviour MXNet's own test_numpy_op.py does not
pin down: gradients of integer arrays (MXNet differentiates them and truncates the gradient to
the array's type), imperative and hybridized. The same ``run(mx)`` executes under mxcompat in
tests/test_numpy_op_semantics.py."""
import os

import numpy as onp


def _int_grads(mx, out):
    np, ag = mx.np, mx.autograd

    def grad_of(name, fn, values, dtype='int32', req='write', passes=1):
        x = np.array(onp.array(values), dtype=dtype)
        x.attach_grad(grad_req=req)
        for _ in range(passes):
            with ag.record():
                y = fn(x)
            y.backward()
        out['intgrad/%s/value' % name] = y.asnumpy()
        out['intgrad/%s/grad' % name] = x.grad.asnumpy()

    grad_of('flip', lambda x: np.flip(x, 0), [[1, 2], [3, 4]])
    grad_of('mul-int', lambda x: x * 3, [1, -2, 3])
    grad_of('mul-float-scalar', lambda x: x * 2.5, [1, -2, 3])
    grad_of('mean-truncates', np.mean, [1, 2, 3])
    grad_of('square-sum', lambda x: (x * x).sum(), [1, -2, 3], dtype='int64')
    grad_of('with-float', lambda x: (x * np.array([0.5, 2.0, -1.5])).sum(), [4, 5, 6])
    grad_of('add-req', lambda x: np.transpose(x) * 2, [[1, 2, 3]], dtype='int8', req='add',
            passes=2)
    grad_of('concat', lambda x: np.concatenate([x, x * 2]), [1, 2], dtype='uint8')
    grad_of('cast-float', lambda x: x.astype('float32') * 1.5, [1, 2, 3])

    class Rot(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return F.np.rot90(x, 1, (0, 1)) * 2

    net = Rot()
    net.hybridize()
    x = np.array(onp.arange(6).reshape(2, 3), dtype='int32')
    x.attach_grad()
    with ag.record():
        y = net(x)
    y.backward()
    out['intgrad/hybrid-rot90/value'] = y.asnumpy()
    out['intgrad/hybrid-rot90/grad'] = x.grad.asnumpy()


def run(mx):
    """{case id: numpy array}, computed in NumPy mode (``npx.set_np()``)."""
    out = {}
    mx.npx.set_np()
    try:
        _int_grads(mx, out)
    finally:
        mx.npx.reset_np()
    return out


def write(mx, outdir):
    tmp = os.path.join(outdir, 'numpy_op_semantics.tmp.npz')
    onp.savez_compressed(tmp, **run(mx))
    os.replace(tmp, os.path.join(outdir, 'numpy_op_semantics.npz'))
