"""Higher-order gradients from real MXNet 1.9.1: ``autograd.grad(..., create_graph=True)``
differentiated again (second and third order) for a few unary functions, a gradient that does
not depend on the variable (clip, radians: differentiating it again gives zeros), and the
result type of ``autograd.grad`` with one variable (a list, as MXNet 1.9.1 returns). The same
``run(mx)`` executes under mxcompat in tests/test_higher_order_grad.py."""
import os

import numpy as np

X = np.array([[0.3, -0.7, 1.2], [0.05, 0.9, -0.4]], np.float32)
HEADS = [np.array([[1.0, -0.5, 2.0], [0.25, 1.5, -1.0]], np.float32),
         np.array([[0.5, 1.0, -1.0], [2.0, -0.3, 0.7]], np.float32),
         np.array([[-1.0, 0.2, 0.4], [1.0, 1.0, 0.5]], np.float32)]


def functions(mx):
    """{name: (function, highest order)}."""
    nd = mx.nd
    return {
        'sin': (nd.sin, 3), 'cos': (nd.cos, 2), 'exp': (nd.exp, 2), 'log': (nd.log, 2),
        'tanh': (nd.tanh, 2), 'arcsinh': (nd.arcsinh, 2), 'sigmoid': (nd.sigmoid, 2),
        'sqrt': (nd.sqrt, 2),
        'reciprocal': (nd.reciprocal, 2), 'arctan': (nd.arctan, 2),
        'relu': (nd.relu, 2), 'clip': (
            lambda x: nd.clip(x, -0.5, 0.5), 2), 'radians': (nd.radians, 2),
    }


def run(mx):
    """{case id: numpy array}."""
    out = {}
    for name, (fn, orders) in sorted(functions(mx).items()):
        x = mx.nd.array(np.abs(X) + 0.1 if name in ('log', 'sqrt') else X)
        x.attach_grad()
        with mx.autograd.record():
            y = fn(x)
            for order in range(1, orders + 1):
                res = mx.autograd.grad(heads=y, variables=x, head_grads=mx.nd.array(
                    HEADS[order - 1]), create_graph=True, retain_graph=True)
                y = res[0]
                out['%s/order%d' % (name, order)] = y.asnumpy()
        out[name + '/result_is_list'] = np.array(isinstance(res, list))
    return out


def write(mx, outdir):
    out = run(mx)
    tmp = os.path.join(outdir, 'higher_order_grad.tmp.npz')
    np.savez_compressed(tmp, **out)
    os.replace(tmp, os.path.join(outdir, 'higher_order_grad.npz'))
