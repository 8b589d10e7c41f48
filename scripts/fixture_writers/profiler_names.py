"""The operator names ``mx.profiler`` reports, from real MXNet 1.9.1, for a small program:
imperative operators (table functions, NDArray and mx.np arithmetic, creation functions), a recorded
forward and its backward, a bound Symbol executor, a hybridized Gluon block and a custom
operator. ``run(mx)`` returns the names of each category of ``dumps(format='json')``; it runs
under mxcompat in tests/test_profiler_names.py."""
import json
import os

import numpy as np


def run(mx, path):
    """{category: sorted operator names} of the aggregate statistics; traces go to ``path``."""
    class AddOne(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], in_data[0] + 1)

    @mx.operator.register('pn_addone')
    class AddOneProp(mx.operator.CustomOpProp):
        def create_operator(self, ctx, shapes, dtypes):
            return AddOne()

    data = mx.sym.Variable('data')
    net = mx.sym.FullyConnected(data, num_hidden=4, name='fc')
    net = mx.sym.Activation(net, act_type='tanh')
    net = mx.sym.SoftmaxOutput(net, name='softmax')
    exe = net.simple_bind(mx.cpu(), data=(2, 5))
    block = mx.gluon.nn.HybridSequential()
    block.add(mx.gluon.nn.Dense(3), mx.gluon.nn.BatchNorm())
    block.initialize()
    block.hybridize()
    block(mx.nd.ones((2, 4)))
    v = mx.nd.array(np.linspace(-1, 1, 10, dtype=np.float32).reshape(2, 5))
    v.attach_grad()
    p = mx.np.ones((2, 3))
    mx.nd.waitall()

    mx.profiler.set_config(profile_all=True, aggregate_stats=True, filename=path)
    mx.profiler.set_state('run')
    x = mx.nd.ones((2, 3, 6, 6))
    w = mx.nd.ones((4, 3, 3, 3)) * 0.1
    y = mx.nd.Convolution(x, w, no_bias=True, kernel=(3, 3), num_filter=4)
    y = mx.nd.Activation(y, act_type='relu')
    y = mx.nd.Pooling(y, kernel=(2, 2), stride=(2, 2), pool_type='max')
    y = (y + y).sum()
    z = mx.nd.zeros((3,)) - 2
    z = 1 - z / 3
    q = mx.np.exp(1 - (p + p) * 2.0)  # mx.np's operators
    q = mx.np.add(q, 1.0)  # a ufunc of an array and a number
    with mx.autograd.record():
        u = mx.nd.FullyConnected(v, mx.nd.ones((3, 5)), no_bias=True, num_hidden=3)
        u = mx.nd.sum(u)
    u.backward()
    exe.forward(is_train=True, data=mx.nd.ones((2, 5)))
    exe.backward()
    block(mx.nd.ones((2, 4)))
    mx.nd.Custom(mx.nd.ones((2, 2)), op_type='pn_addone')
    mx.nd.waitall()
    mx.profiler.set_state('stop')
    stats = json.loads(mx.profiler.dumps(format='json'))
    mx.profiler.dumps(reset=True)
    return {cat: sorted(names) for cat, names in stats['Time'].items()}


def write(mx, outdir):
    names = run(mx, os.path.join(outdir, 'trace.tmp.json'))
    os.remove(os.path.join(outdir, 'trace.tmp.json'))
    tmp = os.path.join(outdir, 'names.tmp.json')
    with open(tmp, 'w') as f:
        json.dump(names, f, indent=1, sort_keys=True)
    os.replace(tmp, os.path.join(outdir, 'names.json'))
