"""Gluon Blocks, Parameters, hybridization, export and parameter files from real MXNet.

The models are built by the functions below from the ``mx`` module they are given, so the
test builds the very same models with mxcompat. Every parameter is set from a numpy generator
seeded by its structural name (``seeded``), in this writer and in the test alike.

Written per model: parameter names (``collect_params`` keys, structural names), reprs,
predict-mode outputs, training-mode outputs with the gradients of the inputs and of every
parameter, BatchNorm's running statistics after backward, parameters after one
``Trainer('sgd')`` step, the symbol of ``net(mx.sym.var(...))``, ``export`` files,
``save_parameters`` / legacy ``save_params`` files and ``summary()`` output.
"""
import contextlib
import io
import json
import os
import zlib

import numpy as np

SGD_LR = 0.1


def seeded(key, shape, dtype='float32'):
    """The value of the parameter with structural name ``key``."""
    r = np.random.RandomState(zlib.crc32(key.encode()))
    if key.endswith('running_var') or key.endswith('gamma'):
        return r.uniform(0.5, 1.5, size=shape).astype(dtype)
    return r.uniform(-0.5, 0.5, size=shape).astype(dtype)


def data(key, shape, lo=-1.0, hi=1.0, dtype='float32'):
    r = np.random.RandomState(zlib.crc32(('data/' + key).encode()))
    return r.uniform(lo, hi, size=shape).astype(dtype)


def build_mlp(mx):
    """Dense/Activation/Dropout/BatchNorm/Dense stack with deferred shapes."""
    nn = mx.gluon.nn
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Dense(16, activation='relu'))
        net.add(nn.Dropout(0.3))
        net.add(nn.BatchNorm())
        net.add(nn.Dense(8, activation='tanh', in_units=16))
        net.add(nn.Dense(3, use_bias=False))
    return net, [data('mlp', (4, 2, 3))]


def build_bn(mx):
    """Flatten/BatchNorm in training mode (batch statistics, running statistics updates)."""
    nn = mx.gluon.nn
    net = nn.HybridSequential(prefix='bnnet_')
    with net.name_scope():
        net.add(nn.BatchNorm(axis=1, momentum=0.8, epsilon=1e-3))
        net.add(nn.Flatten())
        net.add(nn.Dense(5, flatten=False))
        net.add(nn.BatchNorm(axis=-1, center=False))
        net.add(nn.Activation('sigmoid'))
    return net, [data('bn', (3, 2, 4))]


def build_nested(mx):
    """Nested name scopes, two inputs, Embedding, a tuple output and a HybridLambda."""
    gluon, nn = mx.gluon, mx.gluon.nn

    class Nested(gluon.HybridBlock):
        def __init__(self, **kwargs):
            super(Nested, self).__init__(**kwargs)
            with self.name_scope():
                self.embed = nn.Embedding(10, 4)
                self.body = nn.HybridSequential()
                with self.body.name_scope():
                    self.body.add(nn.Dense(5, flatten=False))
                    self.body.add(nn.Activation('softrelu'))
                    self.body.add(nn.HybridLambda(lambda F, x: F.square(x) * 0.5))
                self.out = nn.Dense(2)
                self.scale = self.params.get('scale', shape=(1, 2), init='ones')

        def hybrid_forward(self, F, tokens, feats, scale):
            h = self.body(self.embed(tokens))
            out = F.broadcast_add(F.broadcast_mul(self.out(h), scale),
                                  F.sum(feats, axis=1, keepdims=True))
            return out, F.mean(h, axis=2)

    ids = np.array([[1, 3, 5], [9, 0, 2]], dtype='float32')
    return Nested(prefix='nested_'), [ids, data('nested', (2, 4))]


def build_shared(mx):
    """A plain Block: shared Dense parameters, a Constant, a parameter of its own."""
    gluon, nn = mx.gluon, mx.gluon.nn

    class Shared(gluon.Block):
        def __init__(self, **kwargs):
            super(Shared, self).__init__(**kwargs)
            with self.name_scope():
                self.dense0 = nn.Dense(4, in_units=4, activation='tanh')
                self.dense1 = nn.Dense(4, in_units=4, activation='tanh',
                                       params=self.dense0.params)
                self.dense2 = nn.Dense(2, in_units=4)
                self.alpha = self.params.get('alpha', shape=(4,))
                self.offset = self.params.get_constant('offset', [[0.5, -0.5]])

        def forward(self, x):
            h = self.dense1(self.dense0(x)) * self.alpha.data()
            return self.dense2(h) + self.offset.data()

    return Shared(), [data('shared', (3, 4))]


def build_modern(mx):
    """An MXNet 2.x-style HybridBlock: ``forward`` without ``hybrid_forward`` (MXNet 1.9.1
    runs it imperatively; mxcompat traces it when hybridized)."""
    gluon, nn = mx.gluon, mx.gluon.nn

    class Modern(gluon.HybridBlock):
        def __init__(self, **kwargs):
            super(Modern, self).__init__(**kwargs)
            with self.name_scope():
                self.dense = nn.Dense(4, in_units=3)
                self.bn = nn.BatchNorm(in_channels=4)
                self.w = self.params.get('w', shape=(2, 4))

        def forward(self, x):
            h = self.bn(self.dense(x)).tanh()
            return h * 2 + self.w.data()

    return Modern(), [data('modern', (2, 3))]


def build_delegating(mx):
    """A HybridBlock whose base class overrides ``forward`` to call ``HybridBlock.forward``
    (as Sockeye's Encoder does) and whose ``hybrid_forward`` makes a ``begin_state``-like
    ``F.zeros`` of batch size 0 in a symbol, which shape inference sizes from its use (as
    GluonTS's DeepAR does)."""
    gluon, nn = mx.gluon, mx.gluon.nn

    class Base(gluon.HybridBlock):
        def forward(self, x):
            return gluon.HybridBlock.forward(self, x)

    class Masked(Base):
        def __init__(self, **kwargs):
            super(Masked, self).__init__(**kwargs)
            with self.name_scope():
                self.dense = nn.Dense(4, in_units=3)

        def hybrid_forward(self, F, x):
            h = self.dense(x)
            batch = x.shape[0] if isinstance(x, mx.nd.NDArray) else 0
            return F.where(h > 0, h, F.zeros(shape=(batch, 4)) - 1)

    return Masked(), [data('delegating', (2, 3))]


MODELS = {'mlp': build_mlp, 'bn': build_bn, 'nested': build_nested, 'shared': build_shared,
          'modern': build_modern, 'delegating': build_delegating}
# models whose training-mode forward is deterministic (Dropout is only in 'mlp')
TRAIN = ('bn', 'nested', 'shared', 'modern', 'delegating')
HYBRID = ('mlp', 'bn', 'nested', 'delegating')
# hybridizable in mxcompat only (MXNet 1.9.1 has no symbol of a 2.x-style forward)
TRACED = ('modern',)
# inputs without a gradient (Embedding indices)
NO_GRAD_INPUT = {'nested': (0,)}


def build(mx, name):
    """(net, input arrays) of model ``name``, named as in a fresh process."""
    with mx.name.NameManager():
        net, inputs = MODELS[name](mx)
    return net, inputs


def set_params(mx, net, inputs):
    """Initialize (deferred shapes complete on a forward), then set every seeded value."""
    net.initialize()
    net(*[mx.nd.array(a) for a in inputs])
    for key, p in sorted(net._collect_params_with_prefix().items()):
        if p.grad_req == 'null' and not key.endswith(('running_mean', 'running_var')):
            continue  # constants keep their value
        p.set_data(mx.nd.array(seeded(key, p.shape, np.dtype(p.dtype).name)))


def head_grads(name, outs):
    return [data('head/%s/%d' % (name, i), o.shape) for i, o in enumerate(outs)]


def _as_list(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


def _train_step(mx, name, net, inputs, arrays, tag):
    """Record a training-mode forward, backward with seeded head gradients."""
    xs = [mx.nd.array(a) for a in inputs]
    for i, x in enumerate(xs):
        if i not in NO_GRAD_INPUT.get(name, ()):
            x.attach_grad()
    with mx.autograd.record():
        outs = _as_list(net(*xs))
    mx.autograd.backward(outs, [mx.nd.array(h) for h in head_grads(name, outs)])
    for i, o in enumerate(outs):
        arrays['%s/%s/out%d' % (name, tag, i)] = o.asnumpy()
    for i, x in enumerate(xs):
        if i not in NO_GRAD_INPUT.get(name, ()):
            arrays['%s/%s/grad_in%d' % (name, tag, i)] = x.grad.asnumpy()
    for key, p in net._collect_params_with_prefix().items():
        if p.grad_req != 'null':
            arrays['%s/%s/grad/%s' % (name, tag, key)] = p.grad().asnumpy()
        elif key.endswith(('running_mean', 'running_var')):
            arrays['%s/%s/aux/%s' % (name, tag, key)] = p.data().asnumpy()


def _facts(mx, name, net, inputs):
    facts = {
        'collect_params': list(net.collect_params().keys()),
        'structural': sorted(net._collect_params_with_prefix().keys()),
        'repr': repr(net),
        'params_repr': repr(net.collect_params()),
        'param_reprs': [repr(p) for p in net.collect_params().values()],
        'prefix': net.prefix,
        'name': net.name,
        'shapes': {k: list(p.shape) for k, p in net._collect_params_with_prefix().items()},
    }
    if name in HYBRID:
        syms = [mx.sym.var('data')] if len(inputs) == 1 else \
            [mx.sym.var('data%d' % i) for i in range(len(inputs))]
        with mx.name.NameManager():
            out = net(*syms)
        out = mx.sym.Group(_as_list(out))
        facts['sym_arguments'] = out.list_arguments()
        facts['sym_outputs'] = out.list_outputs()
        facts['sym_aux'] = out.list_auxiliary_states()
    return facts


def write(mx, outdir):
    arrays = {}
    facts = {}
    for name in MODELS:
        net, inputs = build(mx, name)
        facts[name] = {'before_init_repr': repr(net)}
        set_params(mx, net, inputs)
        facts[name].update(_facts(mx, name, net, inputs))
        xs = [mx.nd.array(a) for a in inputs]
        for i, o in enumerate(_as_list(net(*xs))):
            arrays['%s/predict/out%d' % (name, i)] = o.asnumpy()
        if name in TRAIN:
            _train_step(mx, name, net, inputs, arrays, 'train')
            trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': SGD_LR})
            trainer.step(1)
            for key, p in net._collect_params_with_prefix().items():
                arrays['%s/sgd/%s' % (name, key)] = p.data().asnumpy()
        else:  # Dropout: gradients in predict mode
            xs = [mx.nd.array(a) for a in inputs]
            for x in xs:
                x.attach_grad()
            with mx.autograd.record(train_mode=False):
                outs = _as_list(net(*xs))
            mx.autograd.backward(outs, [mx.nd.array(h) for h in head_grads(name, outs)])
            arrays['%s/predict_grad/grad_in0' % name] = xs[0].grad.asnumpy()
            for key, p in net._collect_params_with_prefix().items():
                if p.grad_req != 'null':
                    arrays['%s/predict_grad/grad/%s' % (name, key)] = p.grad().asnumpy()

        # parameter files of the seeded model
        net, inputs = build(mx, name)
        set_params(mx, net, inputs)
        net.save_parameters(os.path.join(outdir, '%s.params' % name))
        net.collect_params().save(os.path.join(outdir, '%s-legacy.params' % name),
                                  strip_prefix=net.prefix)
        if name != 'shared':
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                net.summary(*[mx.nd.array(a) for a in inputs])
            facts[name]['summary'] = buf.getvalue()
        if name in HYBRID:
            net.hybridize()
            for i, o in enumerate(_as_list(net(*[mx.nd.array(a) for a in inputs]))):
                arrays['%s/hybrid/out%d' % (name, i)] = o.asnumpy()
            net.export(os.path.join(outdir, name), epoch=3)
    _param_arrays(mx, arrays)
    np.savez(os.path.join(outdir, 'gluon_block.tmp.npz'), **arrays)
    os.replace(os.path.join(outdir, 'gluon_block.tmp.npz'),
               os.path.join(outdir, 'gluon_block.npz'))
    facts['behaviour'] = _behaviour(mx, outdir)
    net, inputs = build(mx, 'bn')
    net.infer_shape(mx.nd.array(inputs[0]))
    facts['bn']['inferred'] = {k: list(p.shape)
                               for k, p in net._collect_params_with_prefix().items()}
    with open(os.path.join(outdir, 'facts.json.tmp'), 'w') as f:
        json.dump(facts, f, indent=1, sort_keys=True)
    os.replace(os.path.join(outdir, 'facts.json.tmp'), os.path.join(outdir, 'facts.json'))


def _error(fn):
    try:
        fn()
    except Exception as e:  # the exception class is the fact
        return type(e).__name__
    return None


def _behaviour(mx, outdir):
    """Small behaviours of Parameter / ParameterDict / Block as MXNet shows them."""
    gluon, nn = mx.gluon, mx.gluon.nn
    out = {}
    p = gluon.Parameter('weight', shape=(2, 3))
    out['param_repr'] = repr(p)
    out['param_var_attrs'] = p.var().list_attr()
    out['uninit_data_error'] = _error(p.data)
    p.initialize(ctx=[mx.cpu(0), mx.cpu(1)])
    out['multi_ctx'] = [str(p.data(mx.cpu(1)).context), str(p.grad(mx.cpu(1)).context),
                        len(p.list_data()), len(p.list_grad()), str(p.list_ctx())]
    out['wrong_ctx_error'] = _error(lambda: p.data(mx.cpu(2)))
    p.reset_ctx([mx.cpu(2)])
    out['reset_ctx'] = str(p.list_ctx())
    d = nn.Dense(3)
    d.initialize()
    out['deferred_error'] = _error(d.weight.data)
    c = gluon.Constant('const', [[1, 2], [3, 4]])
    out['constant'] = [repr(c), c.grad_req, str(np.dtype(c.dtype))]
    pd = gluon.ParameterDict('net_')
    pd.get('w0', shape=(2, 0), init='zeros', lr_mult=2.0)
    w = pd.get('w0', shape=(0, 5))
    out['pd_merged_shape'] = list(w.shape)
    out['pd_mismatch_error'] = _error(lambda: pd.get('w0', shape=(3, 5)))
    out['pd_attr_error'] = _error(lambda: pd.get('w0', lr_mult=3.0))
    pd.get_constant('c', [1.0, 2.0])
    out['pd_repr'] = repr(pd)
    out['pd_keys'] = list(pd.keys())
    with mx.name.NameManager():
        seq = nn.HybridSequential()
        with seq.name_scope():
            seq.add(nn.Dense(2), nn.Dense(3), nn.Dense(4))
        sub = seq[1:]
        out['slice'] = [type(sub).__name__, sub.prefix, len(sub), sub[0].name,
                        list(sub.collect_params().keys())]
        out['names'] = [seq.name, seq[0].name, seq[2].prefix]
        blk = nn.Sequential(prefix='model_')
        with blk.name_scope():
            inner = nn.HybridSequential()
            with inner.name_scope():
                inner.add(nn.Dense(2, activation='relu'))
            blk.add(inner)
            blk.add(nn.BatchNorm(in_channels=2))
        out['deep_names'] = list(blk.collect_params().keys())
        out['deep_structural'] = sorted(blk._collect_params_with_prefix().keys())
        out['select'] = list(blk.collect_params('.*gamma|.*dense0_bias').keys())
        out['hybrid_child_error'] = _error(lambda: nn.HybridSequential().add(nn.Sequential()))
    return out


def build_req(mx, prefix):
    """A Dense layer with seeded parameters (gradient requests, casts, contexts)."""
    net = mx.gluon.nn.Dense(3, in_units=4, prefix=prefix)
    return net, data('req', (2, 4))


def _param_arrays(mx, arrays):
    """grad_req 'add' / 'write' / switched, cast to float64, two contexts."""
    x = mx.nd.array(data('req', (2, 4)))
    head = mx.nd.array(data('head/req', (2, 3)))
    for req in ('write', 'add'):
        net, _ = build_req(mx, 'req_')
        net.initialize()
        for key, p in net._collect_params_with_prefix().items():
            p.set_data(mx.nd.array(seeded(key, p.shape)))
        net.collect_params().setattr('grad_req', req)
        for _ in range(2):
            with mx.autograd.record():
                y = net(x)
            y.backward(head)
        arrays['req/%s/weight' % req] = net.weight.grad().asnumpy()
        arrays['req/%s/bias' % req] = net.bias.grad().asnumpy()
    net.collect_params().setattr('grad_req', 'null')
    net.collect_params().setattr('grad_req', 'write')
    with mx.autograd.record():
        y = net(x)
    y.backward(head)
    arrays['req/switched/weight'] = net.weight.grad().asnumpy()
    net.cast('float64')
    y = net(x.astype('float64'))
    arrays['cast/f64/out'] = y.asnumpy()
    net, _ = build_req(mx, 'ctx_')
    net.initialize(ctx=[mx.cpu(0), mx.cpu(1)])
    for key, p in net._collect_params_with_prefix().items():
        p.set_data(mx.nd.array(seeded(key, p.shape)))
    x1 = x.as_in_context(mx.cpu(1))
    with mx.autograd.record():
        y = net(x1)
    y.backward(head.as_in_context(mx.cpu(1)))
    arrays['ctx/out'] = y.asnumpy()
    arrays['ctx/grad1'] = net.weight.grad(mx.cpu(1)).asnumpy()
    arrays['ctx/grad0'] = net.weight.grad(mx.cpu(0)).asnumpy()
    net.weight.data(mx.cpu(1))[:] += 1.0
    arrays['ctx/reduced'] = net.weight._reduce().asnumpy()
