"""Contexts from real MXNet: operators on arrays of a host context other than cpu(0) return
arrays of that context; recurrent cells unrolled on cpu(1) take their begin states' context
from the inputs (values and contexts of outputs and states); in NumPy mode, results of
operators and methods keep their input's context, and created arrays take ``ctx`` or the
current context; pickled and deep-copied arrays come back on cpu(0) whatever the current
context; copies between contexts made under ``autograd.record()`` (``copyto`` a context or an
array, ``as_in_context``) pass gradients back, as MXNet records them as ``_copyto``, and copies
made outside it do not; loading,
image and data-loading contexts and mixed-context errors with cpu(1) as the default context
(:func:`_loading_and_data`). The same ``run(mx)`` executes under mxcompat in
tests/test_contexts.py."""
import copy
import json
import os
import pickle
import tempfile
import zlib

import numpy as np


def _seeded(name, shape):
    rs = np.random.RandomState(zlib.crc32(name.encode()) & 0xffffffff)
    return rs.uniform(-0.5, 0.5, shape).astype(np.float32)


def run(mx):
    """{case id: numpy array (values) or 0-d str array (a context)}."""
    nd, gluon = mx.nd, mx.gluon
    out = {}
    ctx = mx.cpu(1)

    def put_ctx(key, arr):
        out['ctx/' + key] = np.array(str(arr.context))

    a = nd.array(_seeded('a', (3, 4)), ctx=ctx)
    b = nd.array(_seeded('b', (4, 2)), ctx=ctx)
    put_ctx('dot', nd.dot(a, b))
    put_ctx('relu', nd.relu(a))
    put_ctx('add', a + a)
    put_ctx('broadcast_add', nd.broadcast_add(a, a))
    put_ctx('concat', nd.concat(a, a, dim=0))
    put_ctx('split0', nd.split(a, num_outputs=2, axis=1)[0])
    put_ctx('topk_both1', nd.topk(a, k=2, ret_typ='both')[1])
    put_ctx('getitem', a[1])
    put_ctx('slice', a[1:3])
    put_ctx('reshape', a.reshape((4, 3)))
    put_ctx('sum', a.sum())

    put_ctx('pickle', pickle.loads(pickle.dumps(a)))
    put_ctx('deepcopy', copy.deepcopy(a))
    with mx.cpu(2):
        put_ctx('deepcopy_in_cpu2', copy.deepcopy(a))

    w = nd.array(_seeded('w', (3, 4)))
    dst = nd.zeros((3, 4), ctx=ctx)
    for key, move in (('copyto_ctx', lambda y: y.copyto(ctx)),
                      ('copyto_same_ctx', lambda y: y.copyto(mx.cpu(0))),
                      ('copyto_array', lambda y: y.copyto(dst)),
                      ('as_in_context', lambda y: y.as_in_context(ctx))):
        w.attach_grad()
        with mx.autograd.record():
            z = move(nd.tanh(w))
            loss = (nd.tanh(z) * a).sum()
        loss.backward()
        out['record/' + key] = w.grad.asnumpy()
        put_ctx('record/' + key, z)
    # a copy made outside record() is a constant in the graph: the gradient reaches w only
    # through its recorded use
    for key, move in (('copyto_ctx', lambda y: y.copyto(ctx)),
                      ('copyto_same_ctx', lambda y: y.copyto(mx.cpu(0))),
                      ('as_in_context', lambda y: y.as_in_context(ctx))):
        w.attach_grad()
        z = move(w)
        with mx.autograd.record():
            loss = (z.as_in_context(mx.cpu(0)) * a).sum() + (nd.tanh(w) * a).sum()
        loss.backward()
        out['unrecorded_copy/' + key] = w.grad.asnumpy()

    mx.npx.set_np()
    try:  # NumPy mode: operators and methods keep the context; creation takes ctx= or the
        # current context
        np_, x = mx.np, mx.np.array(_seeded('a', (3, 4)), ctx=ctx)
        put_ctx('np/sum', np_.sum(x, axis=1))
        put_ctx('np/mean_method', x.mean(axis=0))
        put_ctx('np/max', np_.max(x, axis=1))
        put_ctx('np/argmax_method', x.argmax(1))
        put_ctx('np/T', x.T)
        put_ctx('np/reshape_method', x.reshape(-1))
        put_ctx('np/reshape', np_.reshape(x, (4, 3)))
        put_ctx('np/expand_dims', np_.expand_dims(x, 0))
        put_ctx('np/transpose', np_.transpose(x))
        put_ctx('np/slice', x[1:3])
        put_ctx('np/exp', np_.exp(x))
        put_ctx('np/add_scalar', x + 1.0)
        put_ctx('np/concatenate', np_.concatenate([x, x], axis=0))
        put_ctx('np/zeros', np_.zeros((2,), ctx=ctx))
        put_ctx('np/arange', np_.arange(3, ctx=ctx))
        put_ctx('np/normal', np_.random.normal(size=(2,), ctx=ctx))
        put_ctx('np/uniform', np_.random.uniform(size=(2,), ctx=ctx))
        with ctx:
            put_ctx('np/arange_current', np_.arange(3))
            put_ctx('np/ones_current', np_.ones((2,)))
            put_ctx('np/normal_current', np_.random.normal(size=(2,)))
    finally:
        mx.npx.reset_np()

    _loading_and_data(mx, ctx, out, put_ctx)

    cell = gluon.rnn.HybridSequentialRNNCell(prefix='stack_')
    with cell.name_scope():
        cell.add(gluon.rnn.GRUCell(4, prefix='g_', input_size=3))
        cell.add(gluon.rnn.LSTMCell(3, prefix='l_', input_size=4))
    cell.initialize(ctx=ctx)
    for name, p in sorted(cell.collect_params().items()):
        p.set_data(nd.array(_seeded(name, p.shape)))
    x = nd.array(_seeded('x', (2, 5, 3)), ctx=ctx)
    outs, states = cell.unroll(5, x, layout='NTC', merge_outputs=True,
                               valid_length=nd.array([3, 5], ctx=ctx))
    out['unroll/out'] = outs.asnumpy()
    put_ctx('unroll/out', outs)
    for i, s in enumerate(states):
        out['unroll/state%d' % i] = s.asnumpy()
        put_ctx('unroll/state%d' % i, s)
    return out


def _raised(fn):
    try:
        fn()
    except Exception as e:  # pylint: disable=broad-except
        return np.array(type(e).__name__)
    return np.array('')


def _loading_and_data(mx, ctx, out, put_ctx):
    """With ``ctx`` (cpu(1)) the default context: files and pickles load onto cpu(0), and so do
    parameters loaded without ``ctx``; a Block whose Parameters live on cpu(0) refuses inputs
    on cpu(1) (hybridized: MXNet's CachedOp check); image decoders give cpu(0), image operators
    their input's context; DataLoader batches stack NDArrays on their context and make numpy
    samples arrays on the default context; an exported array-creating NumPy operator records
    the default context; executors bound on ``ctx`` keep their arrays and outputs there (after
    reshape too), and binding refuses arrays of another context."""
    nd, gluon = mx.nd, mx.gluon
    tmp = tempfile.mkdtemp()
    net = gluon.nn.Dense(2, in_units=3, prefix='ld_')
    net.initialize(ctx=mx.cpu(0))
    net.save_parameters(os.path.join(tmp, 'ld.params'))
    nd.save(os.path.join(tmp, 'a.nd'), {'a': nd.array(_seeded('a', (2,)), ctx=ctx)})
    img = mx.image
    png = os.path.join(os.path.dirname(__file__), '..', '..', 'tests', 'fixtures', 'image',
                       'imgs', 'img1.png')
    with ctx:
        put_ctx('load/nd_load', nd.load(os.path.join(tmp, 'a.nd'))['a'])
        state = nd.array(_seeded('a', (2,))).__getstate__()
        b = nd.zeros((2,))
        b.__setstate__(state)
        put_ctx('load/setstate', b)
        loaded = gluon.nn.Dense(2, in_units=3, prefix='ld_')
        loaded.load_parameters(os.path.join(tmp, 'ld.params'))
        put_ctx('load/load_parameters', loaded.weight.data())
        x = nd.array(_seeded('x3', (1, 3)))
        out['err/imperative_mixed'] = _raised(lambda: loaded(x))
        loaded.hybridize()
        out['err/hybridized_mixed'] = _raised(lambda: loaded(x))
        put_ctx('image/imread', img.imread(png))
        u8 = nd.array(np.arange(60).reshape(4, 5, 3), dtype='uint8')
        put_ctx('image/imresize', img.imresize(u8, 3, 2))
        put_ctx('image/copyMakeBorder', img.copyMakeBorder(u8, 1, 1, 1, 1))
        data = gluon.data
        put_ctx('data/batch_nd_cpu1', next(iter(data.DataLoader(
            data.ArrayDataset(nd.array(_seeded('d', (4, 2)))), batch_size=2))))
        put_ctx('data/batch_nd_cpu0', next(iter(data.DataLoader(
            data.ArrayDataset(nd.array(_seeded('d', (4, 2)), ctx=mx.cpu(0))), batch_size=2))))
        put_ctx('data/batch_numpy', next(iter(data.DataLoader(
            data.ArrayDataset(_seeded('d', (4, 2))), batch_size=2))))
        mx.npx.set_np()
        try:
            class Arange(gluon.HybridBlock):
                def hybrid_forward(self, F, x):
                    return x + F.np.arange(3)
            blk = Arange()
            blk.hybridize()
            blk(mx.np.ones((3,)))
            blk.export(os.path.join(tmp, 'ar'))
        finally:
            mx.npx.reset_np()
    # an operator's result on cpu(0) names its context: the hybridized block takes it
    put_ctx('hybrid/random_input', loaded(nd.random.uniform(shape=(1, 3), ctx=mx.cpu(0))))
    fc = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=2, name='fc')
    exe = fc.simple_bind(ctx, data=(4, 3))
    put_ctx('bind/simple_bind_arg', exe.arg_arrays[0])
    put_ctx('bind/simple_bind_grad', exe.grad_arrays[1])
    put_ctx('bind/output', exe.forward(is_train=False)[0])
    put_ctx('bind/reshaped_arg', exe.reshape(data=(2, 3)).arg_arrays[0])
    put_ctx('bind/reshaped_output', exe.reshape(data=(2, 3)).forward()[0])
    out['err/bind_mixed'] = _raised(lambda: fc.bind(mx.cpu(0), {
        'data': nd.ones((4, 3), ctx=ctx), 'fc_weight': nd.ones((2, 3)), 'fc_bias': nd.ones((2,))}))
    with open(os.path.join(tmp, 'ar-symbol.json')) as f:
        nodes = json.load(f)['nodes']
    out['np_export/arange_ctx_attr'] = np.array(
        [n['attrs']['ctx'] for n in nodes if 'ctx' in n.get('attrs', {})][0])


def write(mx, outdir):
    np.savez_compressed(os.path.join(outdir, 'contexts.npz'), **run(mx))
