"""Graphs wider than the lowering's limit of names per generated function
(``mxcompat.symbol.lowering.CHUNK``, 1024), as MXNet runs them: an ``add_n`` and a ``Concat``
of thousands of variables (the graph takes its inputs as one tuple, the variadic call indexes
it), the same variables each through a ``relu`` before an ``add_n`` (more calls than a chunk
holds, each reading one item of the tuple) and an executor under a monitor callback
(``monitor_all``) on the wide ``add_n``. Inputs are computed from their index, not stored. The
same ``run(mx)`` executes under mxcompat in tests/test_big_graph.py.
"""
import ctypes
import os

import numpy as np

WIDE = 1500  # variables: more than CHUNK
SHAPE = (2, 3)


def _value(i):
    """Variable ``x<i>``'s value: small numbers of both signs, distinct per variable."""
    return ((np.arange(6, dtype=np.float32).reshape(SHAPE) - 2.5) * 0.01 +
            np.float32((i % 97 - 48) * 0.001))


def _graphs(mx):
    xs = [mx.sym.var('x%d' % i) for i in range(WIDE)]
    return {
        'add_n': mx.sym.add_n(*xs, name='sum'),
        'concat': mx.sym.Concat(*xs, dim=1, name='cat'),
        'relu_add_n': mx.sym.add_n(*[mx.sym.relu(x, name='r%d' % i) for i, x in enumerate(xs)],
                                   name='rsum'),
        # a graph input also read whole by a narrow operator, and an output itself
        'mixed': mx.sym.Group([mx.sym.add_n(*xs, name='sum') * 2, xs[7]]),
    }


def _bind(mx, sym):
    ex = sym.simple_bind(mx.cpu(), grad_req='null',
                         **{n: SHAPE for n in sym.list_arguments()})
    for name, arr in zip(sym.list_arguments(), ex.arg_arrays):
        arr[:] = _value(int(name[1:]))
    return ex


def run(mx):
    """{case id: numpy array}."""
    out = {}
    for cid, sym in _graphs(mx).items():
        arg_shapes, out_shapes, _ = sym.infer_shape(**{n: SHAPE for n in sym.list_arguments()})
        out['%s/out_shapes' % cid] = np.array(out_shapes, dtype=np.int64)
        ex = _bind(mx, sym)
        for k, o in enumerate(ex.forward(is_train=False)):
            out['%s/executor/%d' % (cid, k)] = o.asnumpy()
        op = mx.nd.CachedOp(sym)
        res = op(*[mx.nd.array(_value(int(n[1:]))) for n in sym.list_inputs()])
        for k, o in enumerate(res if isinstance(res, (list, tuple)) else [res]):
            out['%s/cachedop/%d' % (cid, k)] = o.asnumpy()
    reports = {}

    def callback(name, arr):
        name = name.decode() if isinstance(name, bytes) else name
        if name.startswith('sum_'):
            if not isinstance(arr, mx.nd.NDArray):  # MXNet passes a handle
                arr = mx.nd.NDArray(ctypes.cast(arr, mx.base.NDArrayHandle), writable=False)
            reports[name] = arr.asnumpy()
    ex = _bind(mx, _graphs(mx)['add_n'])
    ex.set_monitor_callback(callback, monitor_all=True)
    ex.forward(is_train=False)
    out['monitor/names'] = np.array(' '.join(sorted(reports)))
    for name in ('sum_arg0', 'sum_arg%d' % (WIDE - 1), 'sum_output'):
        out['monitor/%s' % name] = reports[name]
    return out


def write(mx, outdir):
    np.savez_compressed(os.path.join(outdir, 'big_graph.npz'), **run(mx))
