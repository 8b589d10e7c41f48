"""IdentityAttachKLSparseReg through a bound symbol (MXNet's mx.nd cannot pass its aux state).

Writes the data gradient and the updated moving_avg after each of two backward passes.
"""
import os

import numpy as np

CONFIGS = {
    'default': {},
    'custom': {'sparseness_target': 0.2, 'penalty': 0.01, 'momentum': 0.5},
}


def inputs(name):
    r = np.random.RandomState(len(name) * 7 + 3)
    data = [r.uniform(0.05, 0.95, size=(4, 3)).astype(np.float32) for _ in range(2)]
    heads = [r.uniform(-1, 1, size=(4, 3)).astype(np.float32) for _ in range(2)]
    moving_avg = r.uniform(0.2, 0.8, size=(3,)).astype(np.float32)
    return data, heads, moving_avg


def write(mx, outdir):
    arrays = {}
    for name, params in CONFIGS.items():
        data, heads, moving_avg = inputs(name)
        sym = mx.sym.IdentityAttachKLSparseReg(mx.sym.var('data'), name='kl', **params)
        exe = sym.simple_bind(mx.cpu(), data=(4, 3))
        exe.aux_dict['kl_moving_avg'][:] = moving_avg
        for step in range(2):
            exe.arg_dict['data'][:] = data[step]
            out = exe.forward(is_train=True)[0]
            exe.backward(mx.nd.array(heads[step]))
            arrays['%s/%d/out' % (name, step)] = out.asnumpy()
            arrays['%s/%d/grad' % (name, step)] = exe.grad_dict['data'].asnumpy()
            arrays['%s/%d/moving_avg' % (name, step)] = \
                exe.aux_dict['kl_moving_avg'].asnumpy()
    tmp = os.path.join(outdir, 'kl_sparse_reg.tmp.npz')
    np.savez(tmp, **arrays)
    os.replace(tmp, os.path.join(outdir, 'kl_sparse_reg.npz'))
