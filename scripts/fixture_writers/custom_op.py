"""Fixtures for custom operators (mx.operator.CustomOp / CustomOpProp, mx.nd.Custom).

:func:`run_scenarios` runs the same custom-operator scenarios under real MXNet (to write
tests/fixtures/custom_op/) and under mxcompat (tests/test_custom_op.py), recording outputs,
gradients, auxiliary states and what the operator's methods were called with.
"""
import json
import os

import numpy as np


def _f32(seed, *shape):
    return np.random.RandomState(seed).uniform(-1, 1, size=shape).astype(np.float32)


def define_ops(operator, log, prefix):
    """Register the test operators on ``operator`` (mx.operator); calls are appended to log."""
    def reg(name):
        return operator.register(prefix + name)

    class Sqr(operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            log.append(['sqr.forward', bool(is_train), list(req), len(in_data), len(aux)])
            aux[0][:] = aux[0] + 1
            self.assign(out_data[0], req[0], in_data[0] * in_data[0])

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            log.append(['sqr.backward', list(req), [list(a.shape) for a in in_grad]])
            self.assign(in_grad[0], req[0], 2 * in_data[0] * out_grad[0])

    @reg('sqr')
    class SqrProp(operator.CustomOpProp):
        def __init__(self):
            super(SqrProp, self).__init__(need_top_grad=True)

        def list_arguments(self):
            return ['data']

        def list_outputs(self):
            return ['output']

        def list_auxiliary_states(self):
            return ['aux']

        def infer_shape(self, in_shape):
            log.append(['sqr.infer_shape', [list(s) for s in in_shape]])
            return in_shape, [in_shape[0]], [in_shape[0]]

        def infer_type(self, in_type):
            log.append(['sqr.infer_type', [np.dtype(t).name for t in in_type]])
            return in_type, [in_type[0]], [in_type[0]]

        def create_operator(self, ctx, shapes, dtypes):
            log.append(['sqr.create_operator', str(ctx), [list(s) for s in shapes],
                        [int(d) for d in dtypes]])
            return Sqr()

    class Mult(operator.CustomOp):
        def __init__(self, need_top_grad):
            super(Mult, self).__init__()
            self.need_top_grad = need_top_grad

        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], in_data[0] * in_data[1])

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            log.append(['mult.backward', list(req)])
            # without need_top_grad the head gradient is not passed (a loss layer)
            head = out_grad[0] if self.need_top_grad else 1
            self.assign(in_grad[0], req[0], in_data[1] * head)
            self.assign(in_grad[1], req[1], in_data[0] * head)

    def mult_prop(need_top_grad):
        class MultProp(operator.CustomOpProp):
            def __init__(self):
                super(MultProp, self).__init__(need_top_grad=need_top_grad)

            def list_arguments(self):
                return ['lhs', 'rhs']

            def list_outputs(self):
                return ['output']

            def infer_shape(self, in_shape):
                return in_shape, [in_shape[0]], []

            def create_operator(self, ctx, shapes, dtypes):
                return Mult(need_top_grad)
        return MultProp

    reg('mult')(mult_prop(True))
    reg('mult_no_grad')(mult_prop(False))

    class Fill(operator.CustomOp):
        def __init__(self, length, depth, value):
            super(Fill, self).__init__()
            self.output = np.full((length, depth), value, dtype=np.float32)

        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], self.output)

    @reg('fill')
    class FillProp(operator.CustomOpProp):
        def __init__(self, length, depth, value='1', flag='x', shape='()'):
            super(FillProp, self).__init__()
            log.append(['fill.kwargs', [type(length).__name__, length, depth, value, flag,
                                        shape]])
            self.length = int(length)
            self.depth = int(depth)
            self.value = float(value)

        def list_arguments(self):
            return []

        def infer_shape(self, in_shape):
            return [], [(self.length, self.depth)], []

        def infer_type(self, in_type):
            return [], [np.float32], []

        def create_operator(self, ctx, shapes, dtypes):
            log.append(['fill.create_operator', str(ctx), shapes, dtypes])
            return Fill(self.length, self.depth, self.value)

    class TwoOut(operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            scale = 3.0 if is_train else 1.0
            self.assign(out_data[0], req[0], in_data[0] * scale)
            self.assign(out_data[1], req[1], in_data[0].astype('float64') + 1)

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            log.append(['two.backward', list(req), [str(g.dtype.__name__) for g in out_grad]])
            self.assign(in_grad[0], req[0], out_grad[0] * 3 + out_grad[1].astype('float32'))

    @reg('two')
    class TwoOutProp(operator.CustomOpProp):
        def list_outputs(self):
            return ['scaled', 'shifted']

        def infer_type(self, in_type):
            return in_type, [in_type[0], np.float64], []

        def create_operator(self, ctx, shapes, dtypes):
            return TwoOut()

    class Deps(operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], in_data[0] * 2)

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            # only out_grad was declared as a dependency
            self.assign(in_grad[0], req[0], out_grad[0] * 2)

    @reg('deps')
    class DepsProp(operator.CustomOpProp):
        def declare_backward_dependency(self, out_grad, in_data, out_data):
            log.append(['deps.declare', list(out_grad), list(in_data), list(out_data)])
            return list(out_grad)

        def create_operator(self, ctx, shapes, dtypes):
            return Deps()

    class Broken(operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            raise ValueError('broken on purpose')

    @reg('broken')
    class BrokenProp(operator.CustomOpProp):
        def create_operator(self, ctx, shapes, dtypes):
            return Broken()


def run_scenarios(mx, operator, custom, prefix='t_'):
    """Run every scenario; returns ({name: numpy array}, {name: JSON-able record})."""
    arrays, records = {}, {}
    log = []
    define_ops(operator, log, prefix)

    def op(name):
        return prefix + name

    # sqr: forward, gradient, auxiliary state updated in place, what the methods receive
    x = mx.nd.array(_f32(1, 4, 3))
    aux = mx.nd.zeros((4, 3))
    x.attach_grad()
    del log[:]
    with mx.autograd.record():
        y = custom(x, aux, op_type=op('sqr'), name='sqr')
    y.backward(mx.nd.array(_f32(2, 4, 3)))
    arrays['sqr/out'] = y.asnumpy()
    arrays['sqr/grad'] = x.grad.asnumpy()
    arrays['sqr/aux'] = aux.asnumpy()
    records['sqr/log'] = list(log)

    # grad_req='add' accumulates over two backward passes
    x2 = mx.nd.array(_f32(3, 2, 2))
    x2.attach_grad(grad_req='add')
    del log[:]
    for _ in range(2):
        with mx.autograd.record():
            y = custom(x2, mx.nd.zeros((2, 2)), op_type=op('sqr'))
        y.backward()
    arrays['sqr_add/grad'] = x2.grad.asnumpy()
    records['sqr_add/req'] = [e[1] for e in log if e[0] == 'sqr.backward']

    # without recording: no backward, training flag off
    del log[:]
    y = custom(mx.nd.array(_f32(4, 3)), mx.nd.zeros((3,)), op_type=op('sqr'))
    arrays['sqr_nograd/out'] = y.asnumpy()
    records['sqr_nograd/log'] = [e for e in log if e[0] == 'sqr.forward']

    # float64 inputs
    del log[:]
    y = custom(mx.nd.array(_f32(5, 2, 3), dtype='float64'), mx.nd.zeros((2, 3), dtype='float64'),
               op_type=op('sqr'))
    arrays['sqr_f64/out'] = y.asnumpy()
    records['sqr_f64/log'] = [e for e in log if e[0] in ('sqr.infer_type',
                                                           'sqr.create_operator')]

    # two inputs, with and without need_top_grad
    for name in ('mult', 'mult_no_grad'):
        lhs, rhs = mx.nd.array(_f32(6, 4, 5)), mx.nd.array(_f32(7, 4, 5))
        lhs.attach_grad()
        rhs.attach_grad()
        del log[:]
        with mx.autograd.record():
            y = custom(lhs, rhs, op_type=op(name))
        y.backward()
        arrays[name + '/out'] = y.asnumpy()
        arrays[name + '/grad_lhs'] = lhs.grad.asnumpy()
        arrays[name + '/grad_rhs'] = rhs.grad.asnumpy()
        records[name + '/log'] = list(log)

    # only one input needs a gradient
    lhs, rhs = mx.nd.array(_f32(8, 3)), mx.nd.array(_f32(9, 3))
    lhs.attach_grad()
    del log[:]
    with mx.autograd.record():
        y = custom(lhs, rhs, op_type=op('mult'))
    y.backward()
    arrays['mult_one/grad_lhs'] = lhs.grad.asnumpy()
    records['mult_one/log'] = list(log)

    # no inputs; keyword arguments reach the prop as strings
    del log[:]
    with mx.autograd.record():
        y = custom(length=3, depth=2, value=2.5, flag=True, shape=(2, 3), op_type=op('fill'))
    arrays['fill/out'] = y.asnumpy()
    records['fill/log'] = list(log)

    # two outputs of different dtypes, training flag, gradients through both outputs
    x = mx.nd.array(_f32(10, 2, 3))
    x.attach_grad()
    del log[:]
    with mx.autograd.record(train_mode=True):
        a, b = custom(x, op_type=op('two'))
    mx.autograd.backward([a, b], [mx.nd.array(_f32(11, 2, 3)),
                                  mx.nd.array(_f32(12, 2, 3), dtype='float64')])
    arrays['two/a'] = a.asnumpy()
    arrays['two/b'] = b.asnumpy()
    arrays['two/grad'] = x.grad.asnumpy()
    records['two/log'] = list(log)
    with mx.autograd.record(train_mode=False):
        a, b = custom(x, op_type=op('two'))
    arrays['two_predict/a'] = a.asnumpy()
    arrays['two_predict/b'] = b.asnumpy()
    records['two/dtypes'] = [np.dtype(a.dtype).name, np.dtype(b.dtype).name]

    # declare_backward_dependency
    x = mx.nd.array(_f32(13, 5))
    x.attach_grad()
    del log[:]
    with mx.autograd.record():
        y = custom(x, op_type=op('deps'))
    y.backward()
    arrays['deps/grad'] = x.grad.asnumpy()
    records['deps/log'] = [e for e in log if e[0] == 'deps.declare'][:1]

    # errors
    for name, fn in [('error_forward', lambda: custom(mx.nd.ones((2,)), op_type=op('broken'))),
                     ('error_unregistered', lambda: custom(mx.nd.ones((2,)),
                                                           op_type=op('nope'))),
                     ('error_num_inputs', lambda: custom(mx.nd.ones((2,)), mx.nd.ones((2,)),
                                                         mx.nd.ones((2,)), op_type=op('sqr'))),
                     ('error_shape', lambda: custom(mx.nd.ones((2,)), mx.nd.ones((3,)),
                                                    op_type=op('sqr')))]:
        try:
            res = fn()
            (res[0] if isinstance(res, list) else res).asnumpy()
            records[name] = None
        except mx.base.MXNetError:
            records[name] = 'MXNetError'
    # the argument descriptions mx.operator reports: enum choices sorted, booleans as 0/1
    records['operator_arguments'] = [list(operator.get_operator_arguments(name))
                                     for name in ('Activation', 'FullyConnected')]
    return arrays, records


def run_symbol_scenarios(mx, operator, sym_custom, prefix='s_'):
    """Custom operators in symbol graphs; returns ({name: array}, {name: record})."""
    arrays, records = {}, {}
    log = []
    define_ops(operator, log, prefix)
    data, aux = mx.sym.Variable('data'), mx.sym.Variable('aux')
    sqr = sym_custom(data=data, aux=aux, name='sqr', op_type=prefix + 'sqr')
    records['sym_sqr/names'] = [sqr.list_arguments(), sqr.list_auxiliary_states(),
                                sqr.list_outputs()]
    records['sym_sqr/infer_shape'] = [[list(s) for s in group]
                                      for group in sqr.infer_shape(data=(3, 2))]
    records['sym_sqr/infer_type'] = [[np.dtype(t).name for t in group]
                                     for group in sqr.infer_type(data='float64')]
    x = mx.nd.array(_f32(20, 3, 2))
    grad = mx.nd.zeros((3, 2))
    aux_arr = mx.nd.zeros((3, 2))
    exe = sqr.bind(mx.cpu(), args={'data': x}, args_grad={'data': grad},
                   aux_states={'aux': aux_arr})
    exe.forward(is_train=True)
    exe.backward([mx.nd.array(_f32(21, 3, 2))])
    arrays['sym_sqr/out'] = exe.outputs[0].asnumpy()
    arrays['sym_sqr/grad'] = grad.asnumpy()
    arrays['sym_sqr/aux'] = aux_arr.asnumpy()

    two = sym_custom(mx.sym.Variable('x'), op_type=prefix + 'two', name='two')
    records['sym_two/outputs'] = two.list_outputs()
    x = mx.nd.array(_f32(22, 2, 2))
    grad = mx.nd.zeros((2, 2))
    exe = two.bind(mx.cpu(), args={'x': x}, args_grad={'x': grad})
    exe.forward(is_train=False)
    arrays['sym_two/predict_a'] = exe.outputs[0].asnumpy()
    exe.forward(is_train=True)
    exe.backward([mx.nd.ones((2, 2)), mx.nd.ones((2, 2), dtype='float64')])
    arrays['sym_two/train_a'] = exe.outputs[0].asnumpy()
    arrays['sym_two/train_b'] = exe.outputs[1].asnumpy()
    arrays['sym_two/grad'] = grad.asnumpy()

    # the deprecated NumpyOp: identity forward, gradient 1 by default
    numpy_sym = operator.NumpyOp().get_symbol(mx.sym.Variable('X'), name='numpy_op')
    records['numpy_op/names'] = [numpy_sym.list_arguments(), numpy_sym.list_outputs()]
    x = mx.nd.array(_f32(23, 4))
    grad = mx.nd.zeros((4,))
    exe = numpy_sym.bind(mx.cpu(), args=[x], args_grad={'X': grad})
    exe.forward(is_train=True)
    exe.backward(mx.nd.array(_f32(24, 4)))
    arrays['numpy_op/out'] = exe.outputs[0].asnumpy()
    arrays['numpy_op/grad'] = grad.asnumpy()
    return arrays, records


def write(mx, outdir):
    arrays, records = run_scenarios(mx, mx.operator, mx.nd.Custom)
    more_arrays, more_records = run_symbol_scenarios(mx, mx.operator, mx.sym.Custom)
    arrays.update(more_arrays)
    records.update(more_records)
    mx.nd.waitall()
    np.savez_compressed(os.path.join(outdir, 'values.npz'), **arrays)
    with open(os.path.join(outdir, 'records.json'), 'w') as f:
        json.dump(records, f, indent=1, sort_keys=True)
