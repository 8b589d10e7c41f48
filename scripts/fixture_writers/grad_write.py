"""``grad_req`` semantics of autograd from real MXNet: 'write' gradient buffers are overwritten
by each backward (in place: NDArrays taken from them before the backward see the new values,
and a buffer that is a slice of a larger array writes into that array), 'add' buffers
accumulate, variables a backward does not reach keep their gradients, and a retained graph
differentiated twice writes the same gradient. The same ``run(mx)`` executes under mxcompat
in tests/test_grad_write.py."""
import os

import numpy as np


def _x(mx, values):
    return mx.nd.array(np.array(values, np.float32))


def run(mx):
    """{case id: numpy array}."""
    out = {}
    ag = mx.autograd

    x = _x(mx, [1., 2., 3.])
    x.attach_grad()
    held = x.grad  # taken before any backward: it is the buffer itself
    with ag.record():
        y = (x * x).sum()
    y.backward()
    out['write/first'] = x.grad.asnumpy()
    with ag.record():
        y = (x * 3).sum()
    y.backward()
    out['write/second'] = x.grad.asnumpy()
    out['write/held'] = held.asnumpy()

    # a variable the second backward does not reach keeps its gradient
    a, b = _x(mx, [1., -2.]), _x(mx, [0.5, 4.])
    a.attach_grad()
    b.attach_grad()
    with ag.record():
        y = (a * b).sum()
    y.backward()
    with ag.record():
        y = (a * a * a).sum()
    y.backward()
    out['unreached/a'] = a.grad.asnumpy()
    out['unreached/b'] = b.grad.asnumpy()

    # 'add' accumulates over backward passes
    c = _x(mx, [2., 5.])
    c.attach_grad(grad_req='add')
    for k in (1., 2., 3.):
        with ag.record():
            y = (c * c * k).sum()
        y.backward()
    out['add/c'] = c.grad.asnumpy()

    # a retained graph differentiated twice: 'write' gives the same gradient
    d = _x(mx, [1.5, -1.])
    d.attach_grad()
    with ag.record():
        y = (d * d * d).sum()
    y.backward(retain_graph=True)
    y.backward()
    out['retain/d'] = d.grad.asnumpy()

    # gradient buffers that are slices of one larger array
    big = mx.nd.zeros((3, 4))
    v = _x(mx, [1., 2., 3., 4.])
    w = _x(mx, [[1., 0., -1., 2.]])
    ag.mark_variables([v, w], [big[0], big[1:2]])
    for k in (2., -1.):
        with ag.record():
            y = (v * w * k + v * v).sum()
        y.backward()
        out['slices/big-%g' % k] = big.asnumpy()
    out['slices/v'] = v.grad.asnumpy()
    out['slices/w'] = w.grad.asnumpy()

    # arrays that share the gradient's memory, taken before the backward passes: a slice
    # and a detach()-ed alias
    f = _x(mx, [1., 2., 3., 4.])
    f.attach_grad()
    part, alias = f.grad[1:3], f.grad.detach()
    for k in (2., 5.):
        with ag.record():
            y = (f * f * k).sum()
        y.backward()
    out['shared/slice'] = part.asnumpy()
    out['shared/alias'] = alias.asnumpy()

    # a larger array
    e = mx.nd.array(np.linspace(-1, 1, 20000, dtype=np.float32).reshape(200, 100))
    e.attach_grad()
    held, held_part = e.grad, e.grad[10:12]
    for k in (1., 0.5):
        with ag.record():
            y = (e * e * k).sum()
        y.backward()
    out['large/grad'] = e.grad.asnumpy()
    out['large/held'] = held.asnumpy()
    out['large/held-slice'] = held_part.asnumpy()
    return out


def write(mx, outdir):
    out = run(mx)
    tmp = os.path.join(outdir, 'grad_write.tmp.npz')
    np.savez_compressed(tmp, **out)
    os.replace(tmp, os.path.join(outdir, 'grad_write.npz'))
