"""Executor outputs changed in place between forward and backward, from real MXNet: MXNet's
backward reads the output arrays as they are then, so an operator whose gradient uses its
output (relu, sigmoid, tanh, exp, sqrt, softmax, log_softmax) sees the caller's change, while
one whose gradient uses its inputs (FullyConnected) does not (example/stochastic-depth adds to
a module's outputs before its backward). Not covered: ``Activation`` with ``act_type``
'sigmoid' or 'tanh', whose MKLDNN backward in MXNet 1.9.1's CPU build reads the input instead
(mxcompat reads the output there, as for ``sigmoid`` / ``tanh``). The same ``run(mx)``
executes under mxcompat in tests/test_executor_inplace.py."""
import os

import numpy as np


def run(mx):
    """{case id: numpy array}."""
    out = {}
    data = mx.nd.array(np.arange(8, dtype=np.float32).reshape(2, 4) - 4.0)
    for act in ('relu', 'softmax', 'none', 'op:relu', 'op:sigmoid', 'op:tanh', 'op:exp',
                'op:sqrt', 'op:log_softmax'):
        x = mx.sym.var('data')
        y = mx.sym.FullyConnected(x, num_hidden=3, name='fc')
        if act == 'op:sqrt':
            y = mx.sym.sqrt(mx.sym.abs(y))
        elif act.startswith('op:'):
            y = getattr(mx.sym, act[3:])(y)
        elif act == 'softmax':
            y = mx.sym.softmax(y)
        elif act != 'none':
            y = mx.sym.Activation(y, act_type=act)
        mod = mx.mod.Module(y, label_names=None)
        mod.bind(data_shapes=[('data', (2, 4))], inputs_need_grad=True)
        mod.init_params(mx.init.Constant(0.1))
        for step in range(2):  # the second forward starts from unchanged outputs again
            mod.forward(mx.io.DataBatch([data * (step + 1)]), is_train=True)
            if step == 0:
                output = mod.get_outputs()[0]
                output += 5.0
            mod.backward([mx.nd.array(np.array([[1, 2, 3], [-1, 0.5, 2]], np.float32))])
            out['%s/%d/data' % (act, step)] = mod.get_input_grads()[0].asnumpy()
            out['%s/%d/weight' % (act, step)] = mod._exec_group.grad_arrays[0][0].asnumpy()
    return out


def write(mx, outdir):
    tmp = os.path.join(outdir, 'executor_inplace.tmp.npz')
    np.savez_compressed(tmp, **run(mx))
    os.replace(tmp, os.path.join(outdir, 'executor_inplace.npz'))
