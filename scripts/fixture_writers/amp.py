"""Automatic mixed precision (``mx.contrib.amp``) from real MXNet 1.9.1 on the CPU: the
``list_*`` outputs, operator output dtypes and values after ``amp.init`` (imperative, in
bfloat16, MXNet's CPU target), the dynamic loss scale over steps with and without injected
overflow, ``amp.unscale``, and a small MLP trained a few steps under AMP (bfloat16 imperative
and hybridized, float16 hybridized) with name-seeded weights.

``amp.init`` cannot be undone, so each mode runs in a process of its own:
``python -m scripts.fixture_writers.amp MODULE MODE OUT.npz`` runs ``run(mx, MODE)`` with
``mx`` imported from MODULE ('mxnet' here, 'mxcompat' in tests/test_amp.py).
"""
import importlib
import json
import os
import subprocess
import sys
import zlib

import numpy as np

MODES = ('lists', 'ops_bf16', 'sym_fp16', 'convert', 'scaler', 'mlp_bf16', 'mlp_bf16_hybrid')
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def seeded(key, shape, lo=-0.5, hi=0.5):
    r = np.random.RandomState(zlib.crc32(key.encode()))
    return r.uniform(lo, hi, size=shape).astype(np.float32)


def _amp(mx):
    return importlib.import_module(mx.__name__ + '.contrib.amp')


def _dtype_name(a):
    return 'bfloat16' if np.dtype(a.dtype).names else np.dtype(a.dtype).name


def _f32(a):
    return (a.astype('float32') if _dtype_name(a) != 'float32' else a).asnumpy()


def _lists(mx):
    amp = _amp(mx)
    out = {}
    for name, t in (('float16', 'float16'), ('bfloat16', amp.amp.bfloat16)):
        out[name] = {
            'lp16': amp.list_lp16_ops(t), 'fp32': amp.list_fp32_ops(t),
            'lp16_fp32': amp.list_lp16_fp32_ops(t),
            'conditional_fp32': [list(c) for c in amp.list_conditional_fp32_ops(t)],
            'widest': amp.list_widest_type_cast(t),
            'loss_output': amp.list_loss_output_functions(t),
            'lp16_use_fp32_params': amp.list_lp16_use_fp32_params(t)}
    return {'lists': np.array(json.dumps(out, sort_keys=True))}


def _ops(mx):
    """Operators after amp.init('bfloat16'), fed float32 and bfloat16 arrays."""
    nd = mx.nd
    _amp(mx).init('bfloat16')
    x = nd.array(seeded('ops/x', (4, 6), -2, 2))
    xb = nd.amp_cast(x, dtype=_amp(mx).amp.bfloat16)
    w, b = nd.array(seeded('ops/w', (3, 6))), nd.array(seeded('ops/b', (3,)))
    img = nd.array(seeded('ops/img', (2, 3, 5, 5)))
    k = nd.array(seeded('ops/k', (4, 3, 3, 3)))
    g, beta = nd.array(seeded('ops/g', (4,), 0.5, 1.5)), nd.array(seeded('ops/beta', (4,)))
    mean, var = nd.array(seeded('ops/m', (4,))), nd.array(seeded('ops/v', (4,), 0.5, 1.5))
    label = nd.array([0, 2, 1, 5])
    cases = {
        'FullyConnected': lambda: nd.FullyConnected(x, w, b, num_hidden=3),
        'Convolution': lambda: nd.Convolution(img, k, no_bias=True, kernel=(3, 3),
                                              num_filter=4),
        'softmax': lambda: nd.softmax(xb),
        'log_softmax': lambda: nd.log_softmax(xb),
        'exp': lambda: nd.exp(xb),
        'sum': lambda: nd.sum(xb, axis=1),
        'mean': lambda: nd.mean(xb),
        'norm': lambda: nd.norm(xb),
        'relu': lambda: nd.relu(xb),
        'sigmoid': lambda: nd.sigmoid(xb),
        'Activation_relu': lambda: nd.Activation(xb, act_type='relu'),
        'Activation_softrelu': lambda: nd.Activation(xb, act_type='softrelu'),
        'LeakyReLU_elu': lambda: nd.LeakyReLU(xb, act_type='elu'),
        'LeakyReLU_leaky': lambda: nd.LeakyReLU(xb, act_type='leaky'),
        'broadcast_add_mixed': lambda: nd.broadcast_add(xb, x),
        'broadcast_mul_low': lambda: nd.broadcast_mul(xb, xb),
        'elemwise_add_mixed': lambda: nd.elemwise_add(x, xb),
        'add_operator_mixed': lambda: xb + x,
        'mul_scalar': lambda: xb * 3,
        'pick': lambda: nd.pick(xb, label),
        'BatchNorm': lambda: nd.BatchNorm(nd.Convolution(img, k, no_bias=True, kernel=(3, 3),
                                                         num_filter=4),
                                          g, beta, mean, var, fix_gamma=False),
        'Flatten': lambda: nd.flatten(xb),
        'Dropout': lambda: nd.Dropout(xb, p=0.5),
    }
    out = {}
    for name, fn in cases.items():
        r = fn()
        out['ops/%s/dtype' % name] = np.array(_dtype_name(r))
        out['ops/%s/value' % name] = _f32(r)
    # a loss output operator's gradient is scaled by the loss scale (nd only)
    d = x.copy()
    d.attach_grad()
    with mx.autograd.record():
        y = nd.SoftmaxOutput(d, label)
    y.backward()
    out['ops/SoftmaxOutput/grad'] = d.grad.asnumpy()
    return out


def _sym(mx):
    """A symbol built after amp.init('float16'): the dtype of every output of every operator
    (MXNet's amp_cast / amp_multicast nodes left out) when the data is float32."""
    _amp(mx).init('float16')
    sym = mx.sym
    data = sym.var('data', shape=(2, 5))
    h = sym.FullyConnected(data, num_hidden=8, name='fc1')
    h = sym.Activation(h, act_type='relu', name='relu1')
    s = sym.Activation(h, act_type='softrelu', name='softrelu1')
    h = sym.BatchNorm(h, name='bn1')
    h = sym.elemwise_add(h, s, name='add1')
    h = sym.broadcast_mul(h, h, name='mul1')
    h = sym.exp(h, name='exp1')
    h = sym.FullyConnected(h, num_hidden=4, name='fc2')
    h = sym.log_softmax(h, name='out')
    internals = h.get_internals()
    _, out_types, _ = internals.infer_type(**{n: 'float32' for n in h.list_arguments()})
    names = internals.list_outputs()
    keep = [i for i, n in enumerate(names) if '_amp_' not in n and not n.startswith('amp_')
            and n.endswith('_output')]
    out = {'sym/names': np.array([names[i] for i in keep]),
           'sym/dtypes': np.array([np.dtype(out_types[i]).name for i in keep])}
    # widest-type operators called on NDArrays: float16 and float32 inputs, along axis 0
    # (torch's default) and another
    nd = mx.nd
    x = nd.array(seeded('widest/x', (2, 3)))
    x16 = x.astype('float16')
    cases = {'concat_mixed_dim0': lambda: nd.concat(x16, x, dim=0),
             'concat_mixed_dim1': lambda: nd.concat(x, x16, dim=1),
             'concat_low_dim0': lambda: nd.concat(x16, x16, dim=0),
             'stack_mixed_axis0': lambda: nd.stack(x16, x),
             'stack_low_axis1': lambda: nd.stack(x16, x16, axis=1)}
    for name, fn in cases.items():
        r = fn()
        out['widest/%s/dtype' % name] = np.array(_dtype_name(r))
        out['widest/%s/value' % name] = _f32(r)
    return out


def _graph(mx):
    sym = mx.sym
    data = sym.var('data')
    h = sym.FullyConnected(data, num_hidden=8, name='fc1')
    h = sym.Activation(h, act_type='relu', name='relu1')
    s = sym.Activation(h, act_type='softrelu', name='softrelu1')
    h = sym.BatchNorm(h, name='bn1')
    h = sym.elemwise_add(h, s, name='add1')
    c = sym.concat(h, data, dim=1, name='cat1')
    h = sym.broadcast_mul(c, c, name='mul1')
    h = sym.exp(h, name='exp1')
    h = sym.FullyConnected(h, num_hidden=4, name='fc2')
    return sym.Group([sym.log_softmax(h, name='out'), sym.relu(h, name='r')])


def _nodes(sym):
    """The converted graph as (op, name, inputs, dtype / num_outputs attribute) per node,
    and the __dtype__ attribute of every input."""
    nodes = json.loads(sym.tojson(remove_amp_cast=False))['nodes']
    rows = [json.dumps([n['op'], n['name'], [i[:2] for i in n['inputs']],
                        (n.get('attrs') or {}).get('dtype', ''),
                        (n.get('attrs') or {}).get('num_outputs', '')]) for n in nodes]
    attrs = sym.attr_dict()
    dtypes = [json.dumps([n, attrs.get(n, {}).get('__dtype__', '')]) for n in sym.list_inputs()]
    return np.array(rows), np.array(dtypes)


def _convert(mx):
    """convert_symbol under several settings; convert_model and convert_hybrid_block to
    bfloat16, run on the CPU."""
    amp = _amp(mx)
    out = {'convert/fp16/tojson': np.array(amp.convert_symbol(_graph(mx)).tojson())}
    settings = {
        'fp16': dict(target_dtype='float16'),
        'bf16': dict(target_dtype='bfloat16'),
        'fp16_optional': dict(target_dtype='float16', cast_optional_params=True),
        'fp16_excluded': dict(target_dtype='float16', excluded_sym_names=['fc2', 'exp1']),
        'fp16_lists': dict(target_dtype='float16', target_dtype_ops=['FullyConnected'],
                           fp32_ops=['relu'],
                           conditional_fp32_ops=[('Activation', 'act_type', ['relu'])]),
    }
    for key, kw in settings.items():
        out['convert/%s/nodes' % key], out['convert/%s/dtypes' % key] = \
            _nodes(amp.convert_symbol(_graph(mx), **kw))
    # convert_model: the parameters are cast as the converted symbol's __dtype__ say
    sym = _graph(mx)
    mod = mx.mod.Module(sym[0], data_names=['data'], label_names=None)
    mod.bind(data_shapes=[('data', (2, 5))], for_training=False)
    mod.init_params()
    arg_params, aux_params = mod.get_params()
    for name in sorted(arg_params):
        arg_params[name] = mx.nd.array(seeded(name, arg_params[name].shape))
    for key, optional in (('plain', False), ('optional', True)):
        csym, cargs, caux = amp.convert_model(sym[0], dict(arg_params), dict(aux_params),
                                              target_dtype='bfloat16',
                                              cast_optional_params=optional)
        out['convert_model/%s/nodes' % key] = _nodes(csym)[0]
        out['convert_model/%s/arg_dtypes' % key] = np.array(
            [json.dumps([n, _dtype_name(cargs[n])]) for n in sorted(cargs)])
    # convert_hybrid_block: a hybridized Gluon block to bfloat16, run on the CPU
    net = _mlp(mx, 'cv_')
    net.hybridize()
    x = mx.nd.array(seeded('convert/x', (4, 10), -2, 2))
    want32 = net(x)
    conv = amp.convert_hybrid_block(net, target_dtype='bfloat16', ctx=mx.cpu())
    y = conv(x)
    out['convert_hybrid_block/fp32_out'] = want32.asnumpy()
    out['convert_hybrid_block/out'] = _f32(y)
    out['convert_hybrid_block/dtype'] = np.array(_dtype_name(y))
    out['convert_hybrid_block/param_dtypes'] = np.array(
        [json.dumps([n, _dtype_name(p.data())]) for n, p in
         sorted(conv.collect_params().items())])
    return out


def _mlp(mx, prefix):
    nn = mx.gluon.nn
    net = nn.HybridSequential(prefix=prefix)
    with net.name_scope():
        net.add(nn.Dense(32, activation='relu'), nn.BatchNorm(), nn.Dense(16),
                nn.Activation('tanh'), nn.Dense(5))
    net.initialize()
    net(mx.nd.zeros((2, 10)))
    for name, p in sorted(net.collect_params().items()):
        positive = name.endswith('running_var') or name.endswith('gamma')
        p.set_data(mx.nd.array(seeded(name, p.shape, *((0.5, 1.5) if positive else ()))))
    return net


def _batch(mx, step):
    x = seeded('mlp/x/%d' % step, (8, 10), -2, 2)
    y = (np.arange(8) + step) % 5
    return mx.nd.array(x), mx.nd.array(y.astype(np.float32))


def _train(mx, target, hybrid, steps=6):
    amp = _amp(mx)
    amp.init(target)
    net = _mlp(mx, 'mlp_')
    if hybrid:
        net.hybridize()
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd',
                               {'learning_rate': 0.1, 'momentum': 0.9, 'multi_precision': True})
    amp.init_trainer(trainer)
    loss_fn = mx.gluon.loss.SoftmaxCrossEntropyLoss()
    losses, scales, out_dtypes = [], [], []
    for step in range(steps):
        x, y = _batch(mx, step)
        with mx.autograd.record():
            out = net(x)
            loss = loss_fn(out, y)
            with amp.scale_loss(loss, trainer) as scaled:
                mx.autograd.backward(scaled)
        trainer.step(8)
        losses.append(loss.mean().asscalar())
        scales.append(trainer._amp_loss_scaler.loss_scale)
        out_dtypes.append(_dtype_name(out) + '/' + _dtype_name(loss))
    res = {'loss': np.array(losses, np.float32), 'scale': np.array(scales),
           'dtypes': np.array(out_dtypes)}
    for name, p in sorted(net.collect_params().items()):
        res['param/' + name[len('mlp_'):]] = _f32(p.data())
    return res


def _scaler(mx):
    """The loss scale over 12 steps, with a growth window of 3 steps and inf gradients
    injected at steps 2, 3 and 8; the weights after each step show which steps were
    skipped. Then amp.unscale before a step (gradient clipping)."""
    amp = _amp(mx)
    amp.init('bfloat16')
    nn = mx.gluon.nn
    net = nn.Dense(3, prefix='sc_')
    net.initialize()
    net(mx.nd.zeros((1, 4)))
    for name, p in sorted(net.collect_params().items()):
        p.set_data(mx.nd.array(seeded(name, p.shape)))
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.01})
    amp.init_trainer(trainer)
    trainer._amp_loss_scaler._scale_seq_len = 3
    scales, weights = [], []
    x = mx.nd.array(seeded('sc/x', (2, 4)))
    for step in range(12):
        with mx.autograd.record():
            loss = net(x).astype('float32').sum()
            with amp.scale_loss(loss, trainer) as scaled:
                scaled.backward()
        if step in (2, 3, 8):
            net.weight.grad()[:] = np.inf
        trainer.step(1)
        scales.append(trainer._amp_loss_scaler.loss_scale)
        weights.append(net.weight.data().asnumpy())
    with mx.autograd.record():
        loss = net(x).astype('float32').sum()
        with amp.scale_loss(loss, trainer) as scaled:
            scaled.backward()
    scaled_grad = net.weight.grad().asnumpy()
    amp.unscale(trainer)
    unscaled_grad = net.weight.grad().asnumpy()
    trainer.step(1)
    return {'scaler/scale': np.array(scales), 'scaler/weight': np.stack(weights),
            'scaler/scaled_grad': scaled_grad, 'scaler/unscaled_grad': unscaled_grad,
            'scaler/trainer_scale': np.array(trainer._scale),
            'scaler/after_unscale': net.weight.data().asnumpy()}


def run(mx, mode):
    """{key: numpy array} for one of MODES."""
    if mode == 'lists':
        return _lists(mx)
    if mode == 'ops_bf16':
        return _ops(mx)
    if mode == 'convert':
        return _convert(mx)
    if mode == 'sym_fp16':
        return _sym(mx)
    if mode == 'scaler':
        return _scaler(mx)
    target = 'float16' if 'fp16' in mode else 'bfloat16'
    res = _train(mx, target, hybrid=mode.endswith('hybrid'))
    return {'%s/%s' % (mode, k): v for k, v in res.items()}


def run_in_process(python, module, mode, path, env=None):
    """Run ``run(module, mode)`` in a fresh ``python`` process; the arrays it saved."""
    subprocess.run([python, '-m', 'scripts.fixture_writers.amp', module, mode, path],
                   check=True, cwd=ROOT, env=env)
    with np.load(path) as f:
        return dict(f)


def write(mx, outdir):
    out = {}
    for mode in MODES:
        out.update(run_in_process(sys.executable, 'mxnet', mode,
                                  os.path.join(outdir, 'amp.%s.tmp.npz' % mode)))
        os.remove(os.path.join(outdir, 'amp.%s.tmp.npz' % mode))
    tmp = os.path.join(outdir, 'amp.tmp.npz')
    np.savez_compressed(tmp, **out)
    os.replace(tmp, os.path.join(outdir, 'amp.npz'))


if __name__ == '__main__':
    module, mode, path = sys.argv[1:4]
    np.savez(path, **run(importlib.import_module(module), mode))
