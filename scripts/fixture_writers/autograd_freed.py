"""Arrays of a freed graph, from real MXNet: once a backward without ``retain_graph`` has run
through a graph, the arrays it computed are constants to any later recording, so a later
backward stops where it reaches them -- the pattern of an RNN state carried from batch to
batch (d2lzh's train_and_predict_rnn). The variables ('write' and 'add') get only what the
new graph sends them; variables that only the old graph reaches keep their gradients; losses
recorded together and differentiated one by one (d2lzh's multi-context ``train``) are not
cut; a freed graph is cut also behind arrays computed from it outside ``record()``. The same
``run(mx)`` executes under mxcompat in tests/test_autograd_freed.py."""
import os

import numpy as np


def _x(mx, values):
    return mx.nd.array(np.array(values, np.float32))


def run(mx):
    """{case id: numpy array}."""
    out = {}
    ag, nd = mx.autograd, mx.nd

    # an RNN-like state carried through three backwards
    w = _x(mx, [[0.5, -0.2], [0.3, 0.8]])
    b = _x(mx, [0.1, -0.1])
    u = _x(mx, [1.5, -0.5])
    w.attach_grad()
    b.attach_grad(grad_req='add')
    u.attach_grad()
    h = _x(mx, [[0.2, 0.4]])
    for step, x in enumerate(([[1., 2.]], [[-1., 0.5]], [[0.3, 0.3]])):
        with ag.record():
            h = nd.tanh(nd.dot(_x(mx, x), w) + nd.dot(h, w) + b)
            y = nd.sigmoid(h * u)
            loss = (y * y).sum()
        loss.backward()
        for name, v in (('w', w), ('b', b), ('u', u)):
            out['state/%d/%s' % (step, name)] = v.grad.asnumpy()
        out['state/%d/h' % step] = h.asnumpy()

    # a freed intermediate used twice, with a new variable and an old one
    x = _x(mx, [1., 2., 3.])
    v = _x(mx, [0.5, 0.25, -1.])
    only_old = _x(mx, [2., 2., 2.])
    for a in (x, v, only_old):
        a.attach_grad()
    with ag.record():
        e = nd.exp(x * v) * only_old
        (e.sum()).backward()
    out['reuse/first/only_old'] = only_old.grad.asnumpy()
    with ag.record():
        f = (e * x + e * e * v).sum()
    f.backward()
    for name, a in (('x', x), ('v', v), ('only_old', only_old)):
        out['reuse/second/%s' % name] = a.grad.asnumpy()

    # a freed array reached through arrays computed from it outside record() (a reshape and a
    # sum: nodes newer than the freeing backward stand between the new graph and the freed one)
    q = _x(mx, [0.5, -1.5, 2.])
    r = _x(mx, [1., 2., 3.])
    for a in (q, r):
        a.attach_grad()
    with ag.record():
        e = nd.sigmoid(q * r)
    e.backward()
    s = (e.reshape((3, 1)) + 1).sum()
    with ag.record():
        f = (s * r * q).sum()
    f.backward()
    for name, a in (('q', q), ('r', r)):
        out['outside/%s' % name] = a.grad.asnumpy()

    # losses recorded together, differentiated one after the other
    p = _x(mx, [0.3, -0.7])
    p.attach_grad(grad_req='add')
    with ag.record():
        losses = [(nd.tanh(p * k) ** 2).sum() for k in (1., 2., 3.)]
    for k, l in enumerate(losses):
        l.backward()
        out['losses/%d' % k] = p.grad.asnumpy()
    return out


def write(mx, outdir):
    np.savez_compressed(os.path.join(outdir, 'autograd_freed.npz'), **run(mx))
