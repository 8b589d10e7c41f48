"""BatchNorm's moving statistics (updated in place by the backward pass) and BatchNorm_v1
(which MXNet's mx.nd cannot call: it runs through a bound symbol).

For each configuration: two training steps (record, forward, backward) writing the output,
the gradients and moving_mean/moving_var after the forward and after the backward; then a
forward in training mode without recording and a predict-mode forward.
"""
import os

import numpy as np

CONFIGS = {
    'nchw': {'shape': (2, 3, 4, 4), 'params': {'fix_gamma': False}},
    'nchw-fix-gamma': {'shape': (2, 3, 3, 3), 'params': {}},
    '2d': {'shape': (6, 4), 'params': {'fix_gamma': False, 'momentum': 0.7}},
    'axis-last': {'shape': (2, 3, 5), 'params': {'fix_gamma': False, 'axis': -1,
                                                 'eps': 1e-5}},
    'global-stats': {'shape': (2, 3, 4), 'params': {'fix_gamma': False,
                                                    'use_global_stats': True}},
    'f64': {'shape': (3, 2, 3), 'dtype': 'float64', 'params': {'fix_gamma': False}},
}

V1_CONFIGS = {
    'v1-4d': {'shape': (2, 3, 3, 3), 'params': {'fix_gamma': False}},
    'v1-2d-fix-gamma': {'shape': (5, 3), 'params': {'momentum': 0.8}},
}


def inputs(name, shape, axis=1, dtype='float32'):
    r = np.random.RandomState(sum(map(ord, name)))
    c = shape[axis]
    data = [r.uniform(-2, 3, size=shape).astype(dtype) for _ in range(2)]
    heads = [r.uniform(-1, 1, size=shape).astype(dtype) for _ in range(2)]
    gamma = r.uniform(0.5, 1.5, size=c).astype(dtype)
    beta = r.uniform(-1, 1, size=c).astype(dtype)
    mean = r.uniform(-1, 1, size=c).astype(dtype)
    var = r.uniform(0.5, 2, size=c).astype(dtype)
    return data, heads, gamma, beta, mean, var


def _imperative(mx, name, cfg, arrays):
    params = cfg['params']
    dtype = cfg.get('dtype', 'float32')
    data, heads, gamma, beta, mean, var = inputs(name, cfg['shape'], params.get('axis', 1),
                                                 dtype)
    g, b = mx.nd.array(gamma, dtype=dtype), mx.nd.array(beta, dtype=dtype)
    mm, mv = mx.nd.array(mean, dtype=dtype), mx.nd.array(var, dtype=dtype)
    g.attach_grad()
    b.attach_grad()
    for step in range(2):
        x = mx.nd.array(data[step], dtype=dtype)
        x.attach_grad()
        with mx.autograd.record():
            y = mx.nd.BatchNorm(x, g, b, mm, mv, **params)
        key = '%s/%d/' % (name, step)
        arrays[key + 'out'] = y.asnumpy()
        arrays[key + 'mean_after_forward'] = mm.asnumpy()
        arrays[key + 'var_after_forward'] = mv.asnumpy()
        y.backward(mx.nd.array(heads[step], dtype=dtype))
        arrays[key + 'grad_data'] = x.grad.asnumpy()
        arrays[key + 'grad_gamma'] = g.grad.asnumpy()
        arrays[key + 'grad_beta'] = b.grad.asnumpy()
        arrays[key + 'mean'] = mm.asnumpy()
        arrays[key + 'var'] = mv.asnumpy()
    with mx.autograd.train_mode():
        y = mx.nd.BatchNorm(mx.nd.array(data[0], dtype=dtype), g, b, mm, mv, **params)
    arrays[name + '/train_no_record/out'] = y.asnumpy()
    arrays[name + '/train_no_record/mean'] = mm.asnumpy()
    arrays[name + '/train_no_record/var'] = mv.asnumpy()
    y = mx.nd.BatchNorm(mx.nd.array(data[1], dtype=dtype), g, b, mm, mv, **params)
    arrays[name + '/predict/out'] = y.asnumpy()


def _v1_symbol(mx, name, cfg, arrays):
    shape, params = cfg['shape'], cfg['params']
    data, heads, gamma, beta, mean, var = inputs(name, shape)
    sym = mx.sym.BatchNorm_v1(mx.sym.var('data'), name='bn', output_mean_var=True, **params)
    exe = sym.simple_bind(mx.cpu(), data=shape)
    exe.arg_dict['bn_gamma'][:] = gamma
    exe.arg_dict['bn_beta'][:] = beta
    exe.aux_dict['bn_moving_mean'][:] = mean
    exe.aux_dict['bn_moving_var'][:] = var
    for step in range(2):
        exe.arg_dict['data'][:] = data[step]
        outs = exe.forward(is_train=True)
        key = '%s/%d/' % (name, step)
        for i, o in enumerate(outs):
            arrays[key + 'out%d' % i] = o.asnumpy()
        exe.backward([mx.nd.array(heads[step]), mx.nd.zeros(shape[1]),
                      mx.nd.zeros(shape[1])])
        arrays[key + 'grad_data'] = exe.grad_dict['data'].asnumpy()
        arrays[key + 'grad_gamma'] = exe.grad_dict['bn_gamma'].asnumpy()
        arrays[key + 'grad_beta'] = exe.grad_dict['bn_beta'].asnumpy()
        arrays[key + 'mean'] = exe.aux_dict['bn_moving_mean'].asnumpy()
        arrays[key + 'var'] = exe.aux_dict['bn_moving_var'].asnumpy()
    outs = exe.forward(is_train=False)
    for i, o in enumerate(outs):
        arrays['%s/predict/out%d' % (name, i)] = o.asnumpy()


def write(mx, outdir):
    arrays = {}
    for name, cfg in CONFIGS.items():
        _imperative(mx, name, cfg, arrays)
    for name, cfg in V1_CONFIGS.items():
        _v1_symbol(mx, name, cfg, arrays)
    tmp = os.path.join(outdir, 'batchnorm_state.tmp.npz')
    np.savez(tmp, **arrays)
    os.replace(tmp, os.path.join(outdir, 'batchnorm_state.npz'))
