"""Custom operators whose inputs are not all given, from real MXNet 1.9.1: ``mx.sym.Custom``
and a deprecated ``NumpyOp`` create the variables ``<name>_<argument>`` (``softmax_label``)
and ``<name>_<aux state>`` as every operator does; the prop's ``infer_shape`` fills in their
shapes (its ``infer_type`` their types) and feeds the deferred initialisation of Gluon
parameters (a HybridBlock calling ``F.Custom`` with parameters of unknown shape), imperative
and hybridized. The same ``run(mx)`` executes under mxcompat in
tests/test_custom_op_inputs.py."""
import os

import numpy as np


def _seeded(name, shape):
    """Deterministic values for an array named ``name`` (the same under both frameworks)."""
    seed = sum(ord(c) * (i + 1) for i, c in enumerate(name)) % (2 ** 31)
    return np.random.RandomState(seed).uniform(-1, 1, size=shape).astype(np.float32)


def define_ops(mx):
    """Register the test operators (names start with 'ci_')."""
    class Softmax(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            x = in_data[0].asnumpy()
            y = np.exp(x - x.max(axis=1, keepdims=True))
            y /= y.sum(axis=1, keepdims=True)
            aux[0][:] = aux[0] + 1
            self.assign(out_data[0], req[0], mx.nd.array(y))

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            lab = in_data[1].asnumpy().ravel().astype(np.int64)
            y = out_data[0].asnumpy()
            y[np.arange(lab.shape[0]), lab] -= 1.0
            self.assign(in_grad[0], req[0], mx.nd.array(y))
            self.assign(in_grad[1], req[1], mx.nd.zeros_like(in_data[1]))

    @mx.operator.register('ci_softmax')
    class SoftmaxProp(mx.operator.CustomOpProp):
        def __init__(self):
            super(SoftmaxProp, self).__init__(need_top_grad=False)

        def list_arguments(self):
            return ['data', 'label']

        def list_outputs(self):
            return ['output']

        def list_auxiliary_states(self):
            return ['count']

        def infer_shape(self, in_shape):
            return [in_shape[0], (in_shape[0][0],)], [in_shape[0]], [(1,)]

        def infer_type(self, in_type):
            return [in_type[0], in_type[0]], [in_type[0]], [in_type[0]]

        def create_operator(self, ctx, shapes, dtypes):
            return Softmax()

    class Affine(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            x, w, b = in_data
            self.assign(out_data[0], req[0], mx.nd.dot(x, w) + b)

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            x, w, _ = in_data
            g = out_grad[0]
            self.assign(in_grad[0], req[0], mx.nd.dot(g, w, transpose_b=True))
            self.assign(in_grad[1], req[1], mx.nd.dot(x, g, transpose_a=True))
            self.assign(in_grad[2], req[2], g.sum(axis=0))

    @mx.operator.register('ci_affine')
    class AffineProp(mx.operator.CustomOpProp):
        def __init__(self, num_hidden):
            super(AffineProp, self).__init__(need_top_grad=True)
            self.num_hidden = int(num_hidden)

        def list_arguments(self):
            return ['data', 'weight', 'bias']

        def infer_shape(self, in_shape):
            n, k = in_shape[0]
            return [(n, k), (k, self.num_hidden), (self.num_hidden,)], \
                [(n, self.num_hidden)], []

        def create_operator(self, ctx, shapes, dtypes):
            return Affine()

    @mx.operator.register('ci_typed')
    class TypedProp(mx.operator.CustomOpProp):
        """Types its inputs and outputs itself: an int32 label, a float16 output."""
        def list_arguments(self):
            return ['data', 'label']

        def infer_shape(self, in_shape):
            return [in_shape[0], (in_shape[0][0],)], [in_shape[0]], []

        def infer_type(self, in_type):
            return [in_type[0], np.int32], [np.float16], []

    class LogSoftmax(mx.operator.NumpyOp):
        """The output operator of example/bayesian-methods/bdk_demo.py."""
        def __init__(self):
            super(LogSoftmax, self).__init__(False)

        def list_arguments(self):
            return ['data', 'label']

        def list_outputs(self):
            return ['output']

        def infer_shape(self, in_shape):
            return [in_shape[0], in_shape[0]], [in_shape[0]]

        def forward(self, in_data, out_data):
            x, y = in_data[0], out_data[0]
            y[:] = (x - x.max(axis=1, keepdims=True)).astype('float32')
            y -= np.log(np.exp(y).sum(axis=1, keepdims=True)).astype('float32')

        def backward(self, out_grad, in_data, out_data, in_grad):
            in_grad[0][:] = (np.exp(out_data[0]) - in_data[1]).astype('float32')

    return LogSoftmax


def _bind_run(mx, sym, shapes, out, key):
    """Bind ``sym`` with seeded arguments, run forward and backward, record in ``out``."""
    arg_shapes, out_shapes, aux_shapes = sym.infer_shape(**shapes)
    names = sym.list_arguments()
    args = {n: mx.nd.array(_seeded(n, s)) for n, s in zip(names, arg_shapes)}
    if key + '/label' in out:
        args[names[-1]] = mx.nd.array(out.pop(key + '/label'))
    grads = {n: mx.nd.zeros(s) for n, s in zip(names, arg_shapes)}
    auxs = [mx.nd.zeros(s) for s in aux_shapes]
    exe = sym.bind(mx.current_context(), args=args, args_grad=grads, aux_states=auxs)
    exe.forward(is_train=True)
    exe.backward([mx.nd.array(_seeded(key + '_head', o.shape)) for o in exe.outputs])
    out[key + '/output'] = exe.outputs[0].asnumpy()
    for n in names:
        out['%s/grad/%s' % (key, n)] = grads[n].asnumpy()
    for n, a in zip(sym.list_auxiliary_states(), auxs):
        out['%s/aux/%s' % (key, n)] = a.asnumpy()
    out[key + '/out_shapes'] = np.array(out_shapes, np.int64)


def run(mx):
    """{case id: numpy array}; names are stored as arrays of strings."""
    log_softmax = define_ops(mx)
    out = {}
    data = mx.sym.Variable('data')
    fc = mx.sym.FullyConnected(data=data, name='fc', num_hidden=4)

    # mx.sym.Custom without its label and aux state: softmax_label, softmax_count
    sm = mx.sym.Custom(data=fc, name='softmax', op_type='ci_softmax')
    out['softmax/arguments'] = np.array(sm.list_arguments())
    out['softmax/aux_states'] = np.array(sm.list_auxiliary_states())
    out['softmax/outputs'] = np.array(sm.list_outputs())
    out['softmax/internals'] = np.array(sm.get_internals().list_outputs())
    arg_shapes, _, aux_shapes = sm.infer_shape(data=(3, 5))
    out['softmax/arg_shapes'] = np.array([str(tuple(s)) for s in arg_shapes])
    out['softmax/aux_shapes'] = np.array([str(tuple(s)) for s in aux_shapes])
    out['softmax/label'] = np.array([1, 0, 3], np.float32)
    _bind_run(mx, sm, {'data': (3, 5)}, out, 'softmax')

    # the prop's infer_type types the created label variable and the output
    typed = mx.sym.Custom(data, name='typed', op_type='ci_typed')
    arg_types, out_types, _ = typed.infer_type(data='float32')
    out['typed/arg_types'] = np.array([np.dtype(t).name for t in arg_types])
    out['typed/out_types'] = np.array([np.dtype(t).name for t in out_types])

    # positional data, no name: the variable takes the automatic node name
    anon = mx.sym.Custom(fc, op_type='ci_softmax')
    out['anon/arguments'] = np.array(anon.list_arguments())

    # a custom operator's parameters left out: <name>_weight, <name>_bias, shapes inferred
    aff = mx.sym.Custom(data=data, name='aff', op_type='ci_affine', num_hidden=2)
    out['affine/arguments'] = np.array(aff.list_arguments())
    _bind_run(mx, aff, {'data': (3, 5)}, out, 'affine')

    # the deprecated NumpyOp of example/bayesian-methods/bdk_demo.py (given the label's shape,
    # as that script does: MXNet 1.9.1 crashes inferring a NumpyOp's unknown input shape)
    nop = log_softmax()(data=fc, name='softmax')
    out['numpyop/arguments'] = np.array(nop.list_arguments())
    out['numpyop/label'] = _seeded('numpyop_label', (3, 4))
    _bind_run(mx, nop, {'data': (3, 5), 'softmax_label': (3, 4)}, out, 'numpyop')

    # Gluon parameters of unknown shape, inferred by the custom operator's infer_shape
    class AffineBlock(mx.gluon.HybridBlock):
        def __init__(self, **kwargs):
            super(AffineBlock, self).__init__(**kwargs)
            with self.name_scope():
                self.weight = self.params.get('weight', shape=(0, 0), allow_deferred_init=True)
                self.bias = self.params.get('bias', shape=(0,), allow_deferred_init=True)

        def hybrid_forward(self, F, x, weight, bias):
            return F.Custom(x, weight, bias, num_hidden=3, op_type='ci_affine')

    for mode in ('imperative', 'hybridized'):
        blk = AffineBlock(prefix='blk_')
        blk.initialize(mx.init.Zero())
        if mode == 'hybridized':
            blk.hybridize()
        x = mx.nd.array(_seeded('x', (2, 4)))
        blk(x)  # the first call infers the parameters' shapes
        for name, p in sorted(blk.collect_params().items()):
            out['%s/shape/%s' % (mode, name)] = np.array(p.shape, np.int64)
            p.set_data(mx.nd.array(_seeded(name, p.shape)))
        x.attach_grad()
        with mx.autograd.record():
            y = blk(x)
        y.backward(mx.nd.array(_seeded('head', y.shape)))
        out[mode + '/output'] = y.asnumpy()
        out[mode + '/grad/x'] = x.grad.asnumpy()
        for name, p in sorted(blk.collect_params().items()):
            out['%s/grad/%s' % (mode, name)] = p.grad().asnumpy()
    return out


def write(mx, outdir):
    out = run(mx)
    tmp = os.path.join(outdir, 'custom_op_inputs.tmp.npz')
    np.savez_compressed(tmp, **out)
    os.replace(tmp, os.path.join(outdir, 'custom_op_inputs.npz'))
