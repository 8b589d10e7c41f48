"""mx.mod / mx.model fixtures: training runs of real MXNet's Module, BucketingModule,
SequentialModule and FeedForward, and the checkpoint files MXNet writes.

Every parameter starts from a numpy generator seeded by its name (``param_values``), every
dataset from a seeded generator, and no iterator shuffles, so a run is deterministic. The
scenario functions take the ``mx`` module (real MXNet in the writer, mxcompat in the tests) and
return ``{name: numpy array}``; the writer stores MXNet's results in module.npz and the
checkpoint files next to it.
"""
import os
import zlib

import numpy as np

SGD = {'learning_rate': 0.1, 'momentum': 0.9, 'wd': 0.01}


def param_values(name, shape):
    """The initial value of parameter ``name``: uniform(-0.5, 0.5), seeded by the name."""
    r = np.random.RandomState(zlib.crc32(name.encode()) % (2 ** 31))
    return r.uniform(-0.5, 0.5, size=shape).astype(np.float32)


def initial_params(mx, symbol, **shapes):
    """arg_params and aux_params for ``symbol`` given its input shapes (moving variances
    start at 1, moving means at 0)."""
    arg_shapes, _, aux_shapes = symbol.infer_shape(**shapes)
    args = {n: mx.nd.array(param_values(n, s)) for n, s in
            zip(symbol.list_arguments(), arg_shapes) if n not in shapes}
    aux = {n: mx.nd.ones(s) if n.endswith('var') else mx.nd.zeros(s)
           for n, s in zip(symbol.list_auxiliary_states(), aux_shapes)}
    return args, aux


def dataset(n, shape, classes, seed):
    r = np.random.RandomState(seed)
    return (r.uniform(-1, 1, size=(n,) + shape).astype(np.float32),
            r.randint(0, classes, size=(n,)).astype(np.float32))


def mlp(mx, lr_mult=None):
    data = mx.sym.Variable('data')
    w1 = mx.sym.Variable('fc1_weight', lr_mult=lr_mult) if lr_mult else None
    net = mx.sym.FullyConnected(data, weight=w1, num_hidden=8, name='fc1')
    net = mx.sym.Activation(net, act_type='relu', name='relu1')
    net = mx.sym.FullyConnected(net, num_hidden=3, name='fc2')
    return mx.sym.SoftmaxOutput(net, name='softmax')


def convnet(mx):
    data = mx.sym.Variable('data')
    net = mx.sym.Convolution(data, kernel=(3, 3), pad=(1, 1), num_filter=4, name='conv1')
    net = mx.sym.BatchNorm(net, fix_gamma=False, name='bn1')
    net = mx.sym.Activation(net, act_type='relu', name='relu1')
    net = mx.sym.Pooling(net, kernel=(2, 2), stride=(2, 2), pool_type='max', name='pool1')
    net = mx.sym.Flatten(net, name='flat')
    net = mx.sym.FullyConnected(net, num_hidden=3, name='fc')
    return mx.sym.SoftmaxOutput(net, name='softmax')


def _record(prefix, mod, metric, out):
    arg, aux = mod.get_params()
    for k, v in list(arg.items()) + list(aux.items()):
        out['%s/param/%s' % (prefix, k)] = v.asnumpy()
    names, values = metric.get()
    if not isinstance(names, list):
        names, values = [names], [values]
    for name, value in zip(names, values):
        out['%s/metric/%s' % (prefix, name)] = np.array(value)


def _fit(mx, prefix, symbol, X, Y, ctx, out, batch_size=5, env=None, **fit_args):
    """Module.fit for 2 epochs with validation; records params, per-batch metrics, the
    validation score, score() and predict()."""
    saved = {k: os.environ.get(k) for k in (env or {})}
    os.environ.update(env or {})
    try:
        train = mx.io.NDArrayIter(X, Y, batch_size=batch_size)
        val = mx.io.NDArrayIter(X[:10], Y[:10], batch_size=batch_size)
        kwargs = dict(context=ctx)
        for key in ('work_load_list', 'fixed_param_names'):
            if key in fit_args:
                kwargs[key] = fit_args.pop(key)
        mod = mx.module.Module(symbol, **kwargs)
        args, aux = initial_params(mx, symbol, data=(batch_size,) + X.shape[1:],
                                   softmax_label=(batch_size,))
        batch_metrics, val_metrics = [], []
        metric = mx.metric.create(['acc', 'ce'])
        fit_args.setdefault('optimizer', 'sgd')
        fit_args.setdefault('optimizer_params', SGD)
        mod.fit(train, eval_data=val, eval_metric=metric, num_epoch=2, arg_params=args,
                aux_params=aux,
                batch_end_callback=lambda p: batch_metrics.append(p.eval_metric.get()[1]),
                eval_end_callback=lambda p: val_metrics.append(p.eval_metric.get()[1]),
                **fit_args)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    _record(prefix, mod, metric, out)
    out[prefix + '/batch_metrics'] = np.array(batch_metrics)
    out[prefix + '/val_metrics'] = np.array(val_metrics)
    out[prefix + '/score'] = np.array([v for _, v in mod.score(val, ['acc', 'mse'])])
    out[prefix + '/predict'] = mod.predict(val).asnumpy()


def fit_scenarios(mx):
    """Module.fit of an MLP and a conv net on one and two CPU contexts, kvstore variants."""
    out = {}
    X, Y = dataset(20, (5,), 3, 0)
    one, two = [mx.cpu(0)], [mx.cpu(0), mx.cpu(1)]
    _fit(mx, 'mlp_1ctx', mlp(mx), X, Y, one, out)
    _fit(mx, 'mlp_2ctx', mlp(mx), X, Y, two, out)
    _fit(mx, 'mlp_2ctx_device_noupdate', mlp(mx), X, Y, two, out, kvstore='device',
         env={'MXNET_UPDATE_ON_KVSTORE': '0'})
    _fit(mx, 'mlp_2ctx_workload', mlp(mx), X, Y, two, out, batch_size=8,
         work_load_list=[1, 3])
    _fit(mx, 'mlp_adam_lrmult', mlp(mx, lr_mult=0.5), X, Y, one, out, optimizer='adam',
         optimizer_params={'learning_rate': 0.01, 'wd': 0.001})
    _fit(mx, 'mlp_fixed', mlp(mx), X, Y, two, out, fixed_param_names=['fc1_bias'])
    Xc, Yc = dataset(12, (2, 6, 6), 3, 1)
    _fit(mx, 'conv_1ctx', convnet(mx), Xc, Yc, one, out, batch_size=4)
    _fit(mx, 'conv_2ctx', convnet(mx), Xc, Yc, two, out, batch_size=4)
    return out


def bucket_sym_gen(mx):
    def sym_gen(seq_len):
        data = mx.sym.Variable('data')
        label = mx.sym.Variable('softmax_label')
        net = mx.sym.FullyConnected(data, num_hidden=6, flatten=False, name='fc1')
        net = mx.sym.Activation(net, act_type='tanh', name='tanh1')
        net = mx.sym.mean(net, axis=1, name='mean')
        net = mx.sym.FullyConnected(net, num_hidden=3, name='fc2')
        return mx.sym.SoftmaxOutput(net, label, name='softmax'), ('data',), ('softmax_label',)
    return sym_gen


def bucket_iter(mx, keys, batch_size=4, batches_per_key=2):
    """A DataIter cycling through ``keys`` (sequence lengths), default key the largest."""
    class BucketIter(mx.io.DataIter):
        def __init__(self):
            super(BucketIter, self).__init__(batch_size)
            self.default_bucket_key = max(keys)
            self.provide_data = [mx.io.DataDesc('data', (batch_size, max(keys), 4))]
            self.provide_label = [mx.io.DataDesc('softmax_label', (batch_size,))]
            r = np.random.RandomState(5)
            self.batches = []
            for i in range(batches_per_key):
                for key in keys:
                    self.batches.append((key, r.uniform(-1, 1, size=(batch_size, key, 4)),
                                         r.randint(0, 3, size=(batch_size,))))
            self.cur = 0

        def reset(self):
            self.cur = 0

        def next(self):
            if self.cur == len(self.batches):
                raise StopIteration
            key, x, y = self.batches[self.cur]
            self.cur += 1
            return mx.io.DataBatch(
                [mx.nd.array(x)], [mx.nd.array(y)], pad=0, bucket_key=key,
                provide_data=[mx.io.DataDesc('data', x.shape)],
                provide_label=[mx.io.DataDesc('softmax_label', y.shape)])
    return BucketIter()


def bucketing_scenarios(mx):
    """BucketingModule.fit over three bucket keys, on one and two contexts."""
    out = {}
    sym_gen = bucket_sym_gen(mx)
    for prefix, ctx in (('bucket_1ctx', [mx.cpu(0)]), ('bucket_2ctx', [mx.cpu(0), mx.cpu(1)])):
        it = bucket_iter(mx, [3, 5, 8])
        mod = mx.module.BucketingModule(sym_gen, default_bucket_key=it.default_bucket_key,
                                        context=ctx)
        args, _ = initial_params(mx, sym_gen(8)[0], data=(4, 8, 4), softmax_label=(4,))
        metric = mx.metric.create('acc')
        batch_metrics = []
        mod.fit(it, eval_metric=metric, num_epoch=2, arg_params=args, optimizer='sgd',
                optimizer_params=SGD,
                batch_end_callback=lambda p: batch_metrics.append(p.eval_metric.get()[1]))
        _record(prefix, mod, metric, out)
        out[prefix + '/batch_metrics'] = np.array(batch_metrics)
        out[prefix + '/predict'] = mod.predict(it).asnumpy()
        out[prefix + '/buckets'] = np.array(sorted(mod._buckets.keys()))
    return out


def api_scenarios(mx):
    """Module calls one at a time: input gradients, grad_req='add', states, reshape,
    unmerged outputs, SequentialModule, PythonLossModule, _split_input_slice."""
    out = {}
    two = [mx.cpu(0), mx.cpu(1)]
    # a non-loss network: out_grads and input gradients, split across two contexts
    data = mx.sym.Variable('data')
    net = mx.sym.FullyConnected(data, num_hidden=3, name='fc')
    net = mx.sym.tanh(net, name='out')
    mod = mx.module.Module(net, label_names=None, context=two)
    mod.bind([('data', (6, 4))], inputs_need_grad=True)
    args, _ = initial_params(mx, net, data=(6, 4))
    mod.init_params(arg_params=args)
    x = mx.nd.array(param_values('x', (6, 4)))
    mod.forward(mx.io.DataBatch([x]), is_train=True)
    mod.backward([mx.nd.array(param_values('og', (6, 3)))])
    out['api/outputs'] = mod.get_outputs()[0].asnumpy()
    out['api/outputs_dev1'] = mod.get_outputs(merge_multi_context=False)[0][1].asnumpy()
    out['api/input_grads'] = mod.get_input_grads()[0].asnumpy()
    out['api/weight_grads'] = np.stack([g.asnumpy() for g in
                                        mod._exec_group.grad_arrays[0]])
    out['api/output_shapes'] = np.array(mod.output_shapes[0][1])
    # reshape to another batch size keeps the parameters
    mod.forward(mx.io.DataBatch([mx.nd.array(param_values('x2', (4, 4)))]), is_train=False)
    out['api/reshaped_outputs'] = mod.get_outputs()[0].asnumpy()

    # grad_req='add' accumulates over two backward passes
    mod = mx.module.Module(net, label_names=None)
    mod.bind([('data', (6, 4))], grad_req='add')
    mod.init_params(arg_params=args)
    for seed in ('a1', 'a2'):
        mod.forward(mx.io.DataBatch([mx.nd.array(param_values(seed, (6, 4)))]), is_train=True)
        mod.backward([mx.nd.ones((6, 3))])
    out['api/grad_add'] = mod._exec_group.grad_arrays[0][0].asnumpy()

    # states: inputs that are neither data nor parameters
    state = mx.sym.Variable('state')
    snet = mx.sym.FullyConnected(data + state, num_hidden=2, name='sfc')
    mod = mx.module.Module(snet, label_names=None, state_names=['state'], context=two)
    mod.bind([('data', (4, 3))], for_training=False)
    sargs, _ = initial_params(mx, snet, data=(4, 3), state=(4, 3))
    mod.init_params(arg_params=sargs)
    mod.set_states(value=0.5)
    mod.forward(mx.io.DataBatch([mx.nd.array(param_values('sx', (4, 3)))]))
    out['api/states_value'] = mod.get_outputs()[0].asnumpy()
    mod.set_states(states=[[mx.nd.array(param_values('s0', (2, 3))),
                            mx.nd.array(param_values('s1', (2, 3)))]])
    mod.forward(mx.io.DataBatch([mx.nd.array(param_values('sx', (4, 3)))]))
    out['api/states_arrays'] = mod.get_outputs()[0].asnumpy()

    out.update(_sequential(mx))
    out.update(_executor(mx))
    out['api/slices'] = np.array([[s.start, s.stop] for w in ([1, 1], [1, 3], [2, 1, 1])
                                  for s in mx.executor_manager._split_input_slice(10, w)])
    return out


def _executor(mx):
    """Executor arrays: the outputs belong to the executor (each forward writes into them),
    and an executor made by reshape shares the memory of the inputs, parameters and outputs
    of the one it came from."""
    out = {}
    x = mx.sym.Variable('x')
    y = mx.sym.FullyConnected(x, num_hidden=4, name='fc')
    exe = y.simple_bind(mx.cpu(), x=(5, 4))
    for name, arr in exe.arg_dict.items():
        arr[:] = param_values('exec_' + name, arr.shape)
    held, grad = exe.outputs[0], exe.grad_dict['fc_weight']
    exe.forward(is_train=True)
    exe.backward([mx.nd.array(param_values('exec_og', (5, 4)))])
    out['exec/held_output'] = held.asnumpy()
    out['exec/held_grad'] = grad.asnumpy()
    small = exe.reshape(x=(3, 4))
    small.arg_dict['x'][:] = param_values('exec_x2', (3, 4))
    small.forward()
    out['exec/small_output'] = small.outputs[0].asnumpy()
    out['exec/shared_output'] = held.asnumpy()
    out['exec/shared_input'] = exe.arg_dict['x'].asnumpy()
    return out


def _sequential(mx):
    """SequentialModule: an FC module, then a loss module taking labels, trained one epoch;
    and a chain ending in a PythonLossModule."""
    out = {}
    X, Y = dataset(12, (5,), 3, 2)
    data = mx.sym.Variable('data')
    body = mx.sym.Activation(mx.sym.FullyConnected(data, num_hidden=6, name='s1fc'),
                             act_type='relu', name='s1relu')
    head = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(mx.sym.Variable('data'), num_hidden=3,
                                                      name='s2fc'), name='softmax')
    seq = mx.module.SequentialModule()
    seq.add(mx.module.Module(body, label_names=None))
    seq.add(mx.module.Module(head), take_labels=True, auto_wiring=True)
    args, _ = initial_params(mx, body, data=(4, 5))
    args.update(initial_params(mx, head, data=(4, 6), softmax_label=(4,))[0])
    metric = mx.metric.create('acc')
    seq.fit(mx.io.NDArrayIter(X, Y, batch_size=4), eval_metric=metric, num_epoch=1,
            arg_params=args, optimizer='sgd', optimizer_params=SGD)
    _record('seq', seq, metric, out)

    def grad_func(scores, labels):
        onehot = np.eye(3)[labels.asnumpy().astype(int)]
        return (scores.asnumpy() - onehot) / 4.0

    seq = mx.module.SequentialModule()
    scores = mx.sym.FullyConnected(data, num_hidden=3, name='pyfc')
    seq.add(mx.module.Module(scores, label_names=None))
    seq.add(mx.module.PythonLossModule(grad_func=grad_func), take_labels=True,
            auto_wiring=True)
    args, _ = initial_params(mx, scores, data=(4, 5))
    metric = mx.metric.create('mse')
    seq.fit(mx.io.NDArrayIter(X, Y, batch_size=4), eval_metric=metric, num_epoch=2,
            arg_params=args, optimizer='sgd', optimizer_params={'learning_rate': 0.5})
    _record('pyloss', seq, metric, out)
    return out


def checkpoint_scenarios(mx, ckpt_dir, outdir):
    """Writes checkpoints with MXNet (into ``outdir``) and the numbers that follow from them:
    predictions of the checkpointed model and a training run resumed from its optimizer
    states. ``ckpt_dir`` holds the files read back: the writer passes ``outdir``, the test
    its own copies."""
    out = {}
    X, Y = dataset(20, (5,), 3, 3)
    train = mx.io.NDArrayIter(X, Y, batch_size=5)
    if outdir is not None:
        mod = mx.module.Module(mlp(mx))
        args, aux = initial_params(mx, mlp(mx), data=(5, 5), softmax_label=(5,))
        mod.fit(train, num_epoch=1, arg_params=args, optimizer='sgd', optimizer_params=SGD)
        mod.save_checkpoint(os.path.join(outdir, 'mlp'), 1, save_optimizer_states=True)
        conv = convnet(mx)
        args, aux = initial_params(mx, conv, data=(4, 2, 6, 6), softmax_label=(4,))
        mx.model.save_checkpoint(os.path.join(outdir, 'conv'), 7, conv, args, aux)
        sym_gen = bucket_sym_gen(mx)
        mod = mx.module.BucketingModule(sym_gen, default_bucket_key=8)
        args, _ = initial_params(mx, sym_gen(8)[0], data=(4, 8, 4), softmax_label=(4,))
        mod.fit(bucket_iter(mx, [5, 8, 3]), num_epoch=1, arg_params=args,
                optimizer_params=SGD)
        mod.save_checkpoint(os.path.join(outdir, 'bucket'), 1)
    # resume training from the checkpoint and its optimizer states
    mod = mx.module.Module.load(os.path.join(ckpt_dir, 'mlp'), 1, load_optimizer_states=True)
    mod.fit(train, num_epoch=3, begin_epoch=1, optimizer='sgd', optimizer_params=SGD)
    for k, v in mod.get_params()[0].items():
        out['ckpt_resumed/' + k] = v.asnumpy()
    # predictions of a loaded checkpoint
    sym, args, aux = mx.model.load_checkpoint(os.path.join(ckpt_dir, 'conv'), 7)
    mod = mx.module.Module(sym)
    Xc, _ = dataset(6, (2, 6, 6), 3, 4)
    mod.bind([('data', (3, 2, 6, 6))], for_training=False)
    mod.set_params(args, aux)
    out['ckpt_predict/conv'] = mod.predict(mx.io.NDArrayIter(Xc, batch_size=3)).asnumpy()
    mod = mx.module.Module.load(os.path.join(ckpt_dir, 'mlp'), 1)
    mod.bind([('data', (5, 5))], for_training=False)
    out['ckpt_predict/mlp'] = mod.predict(mx.io.NDArrayIter(X, batch_size=5)).asnumpy()
    it = bucket_iter(mx, [5, 8, 3])
    mod = mx.module.BucketingModule.load(os.path.join(ckpt_dir, 'bucket'), 1,
                                         sym_gen=bucket_sym_gen(mx), default_bucket_key=8)
    mod.bind(it.provide_data, it.provide_label, for_training=False)
    out['ckpt_predict/bucket'] = mod.predict(it).asnumpy()
    return out


def feedforward_scenarios(mx):
    """The legacy FeedForward trainer: fit on one and two contexts, predict and score."""
    out = {}
    X, Y = dataset(20, (5,), 3, 6)
    for prefix, ctx in (('ff_1ctx', mx.cpu(0)), ('ff_2ctx', [mx.cpu(0), mx.cpu(1)])):
        sym = mlp(mx)
        args, _ = initial_params(mx, sym, data=(5, 5), softmax_label=(5,))
        model = mx.model.FeedForward(sym, ctx=ctx, num_epoch=2, optimizer='sgd',
                                     arg_params=args, numpy_batch_size=5, **SGD)
        model.fit(mx.io.NDArrayIter(X, Y, batch_size=5),
                  eval_data=mx.io.NDArrayIter(X[:10], Y[:10], batch_size=5))
        for k, v in model.arg_params.items():
            out['%s/param/%s' % (prefix, k)] = v.asnumpy()
        out[prefix + '/predict'] = model.predict(X[:7])
        out[prefix + '/score'] = np.array(model.score(mx.io.NDArrayIter(X, Y, batch_size=5)))
    # numpy training data: NDArrayIter shuffles it with numpy's global generator
    np.random.seed(11)
    args, _ = initial_params(mx, mlp(mx), data=(5, 5), softmax_label=(5,))
    model = mx.model.FeedForward.create(mlp(mx), X, Y, num_epoch=1, arg_params=args,
                                        numpy_batch_size=5, eval_end_callback=None,
                                        learning_rate=0.1)
    for k, v in model.arg_params.items():
        out['ff_numpy/param/' + k] = v.asnumpy()
    return out


def write(mx, outdir):
    out = {}
    out.update(fit_scenarios(mx))
    out.update(bucketing_scenarios(mx))
    out.update(api_scenarios(mx))
    out.update(checkpoint_scenarios(mx, outdir, outdir))
    out.update(feedforward_scenarios(mx))
    np.savez_compressed(os.path.join(outdir, 'module.npz'), **out)
