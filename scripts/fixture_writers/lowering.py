"""Symbol graphs run the three ways MXNet runs them (a bound Executor, ``mx.nd.CachedOp``, a
hybridized ``SymbolBlock``) with operators whose results the lowering has to unpack: hidden
outputs (sort, topk, BatchNorm, Dropout, LRN, InstanceNorm, L2Normalization), several
visible outputs (topk 'both', SliceChannel, BatchNorm ``output_mean_var``), an operator whose
parameters set its count of outputs to one (SliceChannel ``num_outputs=1``) and a graph input
that is also an output, and variadic operators of graph inputs (add_n, Concat: with the
lowering's size limit set low in the test, the graph takes its inputs as one tuple and these
calls index it); the executor also runs under a monitor callback (``monitor_all``), whose
reports on the ``add_n`` node are kept. The same ``run(mx)`` executes under mxcompat in
tests/test_lowering.py.
"""
import ctypes
import os

import numpy as np


def _graph(mx):
    x = mx.sym.var('x')
    bn = mx.sym.BatchNorm(x, fix_gamma=False, name='bn')
    bn3 = mx.sym.BatchNorm(x, fix_gamma=False, output_mean_var=True, name='bn3')
    parts = mx.sym.SliceChannel(x, num_outputs=2, axis=1, name='split')
    top = mx.sym.topk(x, axis=1, k=2, ret_typ='both', name='top')
    # an operator whose count of outputs its parameters set, with one output consumed whole
    whole = mx.sym.SliceChannel(x, num_outputs=1, axis=1, name='whole')
    y, z = mx.sym.var('y'), mx.sym.var('z')
    return mx.sym.Group([
        mx.sym.add_n(x, y, z, x, name='sum'),
        mx.sym.Concat(z, x, y, dim=1, name='cat'),
        mx.sym.relu(whole) * 3,
        mx.sym.sort(x, axis=1, name='sort'),
        mx.sym.topk(x, axis=1, k=2, ret_typ='value', name='topv'),
        bn * 2,
        bn3[1], bn3[2],
        mx.sym.Dropout(x, p=0.5, name='drop'),
        mx.sym.LRN(x, nsize=3, name='lrn'),
        mx.sym.InstanceNorm(x, name='inorm'),
        mx.sym.L2Normalization(x, name='l2'),
        parts[1], top[0], top[1],
        x,
    ])


def _inputs(mx, sym):
    rs = np.random.RandomState(7)
    x = rs.uniform(-1, 1, (2, 4, 3, 3)).astype(np.float32)
    arrays = {'x': x}
    arg_shapes, _, aux_shapes = sym.infer_shape(x=x.shape)
    names = sym.list_arguments() + sym.list_auxiliary_states()
    for name, shape in zip(names, arg_shapes + aux_shapes):
        if name != 'x':
            arrays[name] = rs.uniform(0.5, 1.5, shape).astype(np.float32)
    return arrays


def run(mx):
    """{case id: numpy array}."""
    sym = _graph(mx)
    arrays = _inputs(mx, sym)
    out = {}
    aux = set(sym.list_auxiliary_states())
    ex = sym.bind(mx.current_context(),
                  {n: mx.nd.array(v) for n, v in arrays.items() if n not in aux},
                  aux_states={n: mx.nd.array(v) for n, v in arrays.items() if n in aux})
    for k, o in enumerate(ex.forward(is_train=False)):
        out['executor/%d' % k] = o.asnumpy()
    reports = []

    def callback(name, arr):
        name = name.decode() if isinstance(name, bytes) else name
        if name.startswith('sum'):
            if not isinstance(arr, mx.nd.NDArray):  # MXNet passes a handle
                arr = mx.nd.NDArray(ctypes.cast(arr, mx.base.NDArrayHandle), writable=False)
            reports.append((name, arr.asnumpy()))
    ex.set_monitor_callback(callback, monitor_all=True)
    ex.forward(is_train=False)
    for name, a in reports:
        out['monitor/%s' % name] = a
    op = mx.nd.CachedOp(sym)
    for k, o in enumerate(op(*[mx.nd.array(arrays[n]) for n in sym.list_inputs()])):
        out['cachedop/%d' % k] = o.asnumpy()
    block = mx.gluon.SymbolBlock(sym, [mx.sym.var('x')])
    block.initialize()
    params = block.collect_params()
    for name, p in params.items():
        p.set_data(mx.nd.array(arrays[name]))
    block.hybridize()
    for k, o in enumerate(block(mx.nd.array(arrays['x']))):
        out['hybridized/%d' % k] = o.asnumpy()
    return out


def write(mx, outdir):
    np.savez(os.path.join(outdir, 'lowering.npz'), **run(mx))
