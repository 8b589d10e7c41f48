"""Heads of ``backward`` through which no gradient flows, from real MXNet: every output of a
call recorded on a variable is in MXNet's graph, so ``autograd.backward`` takes it as a head
and sends it nothing (``argmax``, ``one_hot`` of it, the mask of rrelu in predict mode, whose
values MXNet leaves uninitialized, all outputs of ``topk(ret_typ='both')`` and of
``BatchNorm(output_mean_var=True)``), also after a backward freed the graph of other heads. An array that no recorded call made (a constant
created inside ``record()``) is no head: 'error' holds 1 when the backward raised. The same
``run(mx)`` executes under mxcompat in tests/test_autograd_heads.py."""
import os

import numpy as np


def _x(mx, values):
    return mx.nd.array(np.array(values, np.float32))


def _grads(out, name, variables):
    for k, v in variables.items():
        out['%s/%s' % (name, k)] = v.grad.asnumpy()


def run(mx):
    """{case id: numpy array}."""
    out = {}
    ag, nd = mx.autograd, mx.nd
    x = _x(mx, [[0.5, -1., 2.], [1.5, 0.25, -0.5]])
    x.attach_grad()

    with ag.record():
        y = x * x * 2
        a = nd.argmax(x, axis=1)
    ag.backward([y, a])
    _grads(out, 'argmax_beside', {'x': x})

    with ag.record():
        m = nd.one_hot(nd.argmax(x, axis=1), 3)
        z = (m * x).sum()
    ag.backward([z, m], [_x(mx, [2.]), nd.ones((2, 3))])
    _grads(out, 'one_hot_mask', {'x': x})

    # (positive inputs: MXNet's gradient below zero reads that uninitialized mask)
    p = _x(mx, [[0.5, 1., 2.], [1.5, 0.25, 0.75]])
    p.attach_grad()
    with ag.record(train_mode=False):
        o = nd.LeakyReLU(p, act_type='rrelu')
    ag.backward(list(o), [_x(mx, [[1., 2., 3.], [4., 5., 6.]]), nd.ones((2, 3))])
    _grads(out, 'rrelu_predict', {'p': p})

    with ag.record():
        v, i = nd.topk(x * 3, k=2, ret_typ='both')
    ag.backward([v, i], [_x(mx, [[1., -2.], [0.5, 4.]]), nd.ones((2, 2))])
    _grads(out, 'topk_both', {'x': x})

    data = _x(mx, [[[1., 2.], [0.5, -1.]], [[3., -2.], [1.5, 0.]]])
    gamma, beta = _x(mx, [1.5, 0.5]), _x(mx, [0.1, -0.2])
    for v in (data, gamma, beta):
        v.attach_grad()
    with ag.record():
        outs = nd.BatchNorm(data, gamma, beta, nd.zeros(2), nd.ones(2), fix_gamma=False,
                            output_mean_var=True)
    ag.backward(list(outs), [_x(mx, [[[1., -1.], [2., 0.5]], [[-3., 1.], [0.25, 2.]]]),
                             nd.ones(2), nd.ones(2)])
    _grads(out, 'batchnorm_mean_var', {'data': data, 'gamma': gamma, 'beta': beta})

    # a graph freed by an earlier backward: the argmax recorded beside it is still a head
    with ag.record():
        y = x * 2
        a = nd.argmax(x, axis=1)
        w = (x * x).sum()
    y.backward()
    ag.backward([w, a])
    _grads(out, 'after_freed', {'x': x})

    # a constant made inside record() was recorded on no variable
    with ag.record():
        c = nd.ones((2, 3))
        y = x * 2
    try:
        ag.backward([y, c])
        out['constant/error'] = np.array(0)
    except mx.base.MXNetError:
        out['constant/error'] = np.array(1)
    return out


def write(mx, outdir):
    np.savez_compressed(os.path.join(outdir, 'autograd_heads.npz'), **run(mx))
