"""Kernel-time errors from real MXNet, step by step: an operator's check of values (a sampler's
parameters, take(mode='raise'), gather_nd's bounds, potrf, imresize's interpolation) returns,
and its error is raised by the first read of a result (asnumpy, asscalar, wait_to_read, bool,
repr) or by waitall; arrays computed from a failed one (views, copies, in-place writes,
gradients, hybridized blocks) share its error; raising clears it (all errors for waitall); a
failed sampler fails the later samplers of its random generator until its error is raised.

``run(mx)`` records, per scenario, each step's outcome: 'ok' or the exception's type and last
message line. The same ``run`` executes under mxcompat in tests/test_deferred_errors.py, which
checks every step's outcome and, where a step raises, the phrase the scenario names (checked
here against MXNet's message)."""
import json
import os

import numpy as np


def _nd(mx, values):
    return mx.nd.array(np.array(values, np.float32))


def _scenarios(mx):
    """{name: [(step label, function of the scenario's namespace, phrase of its error)]}."""
    nd, np_ = mx.nd, mx.np
    gauss = 'scale parameter in gaussian has to be positive'
    uniform = 'low must be less or equal to high in uniform distribution'
    take = 'take operator contains indices out of bound'

    def put(name, fn):
        return lambda v: v.__setitem__(name, fn(v))

    def read(name):
        return lambda v: v[name].asnumpy()

    def setitem(v):
        v['c'][:] = v['bad']

    def backward(v):
        with mx.autograd.record():
            y = v['x'] * v['bad']
        y.backward()

    def autograd_grad(v):
        with mx.autograd.record():
            y = v['x'] * v['bad']
        return mx.autograd.grad(y, [v['x']])

    def hybrid(v):
        net = mx.gluon.nn.Dense(3, in_units=2)
        net.initialize()
        net.hybridize()
        v['net'] = net

    def gluon(v):
        net = mx.gluon.nn.Sequential()
        net.add(mx.gluon.nn.Dense(8, activation='tanh', in_units=10, flatten=False))
        net.add(mx.gluon.nn.Dropout(1), mx.gluon.nn.Dense(4, in_units=8, flatten=False))
        net.initialize()
        v['z'] = net(nd.random.normal(10, -10, (3, 2, 10)))

    def executor(v):
        x = mx.sym.Variable('x')
        out = mx.sym.dot(x, mx.sym.random.normal(0, -1, (2, 2)))
        ex = out.bind(mx.current_context(), {'x': nd.ones((2, 2))})
        v['out'] = ex.forward()[0]

    return {
        'imperative_dot': [
            ('a = normal(0, 1)', put('a', lambda v: nd.random.normal(0, 1, (2, 2))), None),
            ('b = normal(0, -1)', put('b', lambda v: nd.random.normal(0, -1, (2, 2))), None),
            ('c = dot(a, b)', put('c', lambda v: nd.dot(v['a'], v['b'])), None),
            ('c.asnumpy()', read('c'), gauss),
            ('b.asnumpy()', read('b'), None),
            ('a.asnumpy()', read('a'), None),
            ('waitall()', lambda v: nd.waitall(), None)],
        'waitall_twice': [
            ('b = normal(0, -1)', put('b', lambda v: nd.random.normal(0, -1, (2, 2))), None),
            ('waitall()', lambda v: nd.waitall(), gauss),
            ('waitall() again', lambda v: nd.waitall(), None),
            ('b.asnumpy()', read('b'), None)],
        'unreferenced_then_waitall': [
            ('normal(0, -1), dropped', lambda v: nd.random.normal(0, -1, (2, 2)), None),
            ('waitall()', lambda v: nd.waitall(), gauss)],
        'wait_to_read_twice': [
            ('b = uniform(2, 1)', put('b', lambda v: nd.random.uniform(2, 1, (2,))), None),
            ('b.wait_to_read()', lambda v: v['b'].wait_to_read(), uniform),
            ('b.wait_to_read() again', lambda v: v['b'].wait_to_read(), None),
            ('waitall()', lambda v: nd.waitall(), None)],
        'unpacked_rows': [
            ('a, b = normal(0, -1).copyto(cpu)',
             lambda v: v.update(zip('ab', nd.random.normal(0, -1, (2, 2)).copyto(mx.current_context()))),
             None),
            ('a.asnumpy()', read('a'), gauss),
            ('b.asnumpy()', read('b'), None)],
        'view_and_copy': [
            ('e = normal(0, -1)', put('e', lambda v: nd.random.normal(0, -1, (2,))), None),
            ('f = e.copy()', put('f', lambda v: v['e'].copy()), None),
            ('e.reshape((1, 2)).asnumpy()', lambda v: v['e'].reshape((1, 2)).asnumpy(), gauss),
            ('e.asnumpy()', read('e'), None),
            ('f.asnumpy()', read('f'), None)],
        'two_errors': [
            ('t1 = take(raise) out of range',
             put('t1', lambda v: nd.take(nd.ones((3, 2)), _nd(mx, [0, 5]), mode='raise')), None),
            ('t2 = take(raise) out of range',
             put('t2', lambda v: nd.take(nd.ones((3, 2)), _nd(mx, [-1]), mode='raise')), None),
            ('t1.asnumpy()', read('t1'), take),
            ('t2.asnumpy()', read('t2'), take),
            ('waitall()', lambda v: nd.waitall(), None)],
        'random_generator': [
            ('bad = normal(0, -1)', put('bad', lambda v: nd.random.normal(0, -1, (2,))), None),
            ('u = uniform(0, 1)', put('u', lambda v: nd.random.uniform(0, 1, (2,))), None),
            ('u.asnumpy()', read('u'), gauss),
            ('bad.asnumpy()', read('bad'), None),
            ('w = uniform(0, 1)', put('w', lambda v: nd.random.uniform(0, 1, (2,))), None),
            ('w.asnumpy()', read('w'), None),
            ('waitall()', lambda v: nd.waitall(), None)],
        'numpy_random_generator': [
            ('bad = np.random.normal(0, -1)',
             put('bad', lambda v: np_.random.normal(0, -1, (2,))), None),
            ('u = nd.random.uniform(0, 1)', put('u', lambda v: nd.random.uniform(0, 1, (2,))),
             None),
            ('u.asnumpy()', read('u'), None),
            ('m = np.random.uniform(0, 1)', put('m', lambda v: np_.random.uniform(0, 1, (2,))),
             None),
            ('m.asnumpy()', read('m'), 'scale < 0'),
            ('bad.asnumpy()', read('bad'), None)],
        'setitem': [
            ('c = zeros', put('c', lambda v: nd.zeros((2,))), None),
            ('bad = uniform(2, 1)', put('bad', lambda v: nd.random.uniform(2, 1, (2,))), None),
            ('c[:] = bad', setitem, None),
            ('c.asnumpy()', read('c'), uniform),
            ('bad.asnumpy()', read('bad'), None)],
        'backward': [
            ('x = ones, attach_grad', lambda v: (v.__setitem__('x', nd.ones((2,))),
                                                v['x'].attach_grad()), None),
            ('bad = gamma(-1, 1)', put('bad', lambda v: nd.random.gamma(-1, 1, (2,))), None),
            ('(x * bad).backward()', backward, None),
            ('x.grad.asnumpy()', lambda v: v['x'].grad.asnumpy(),
             'alpha parameter in gamma distribution has to be positive'),
            ('waitall()', lambda v: nd.waitall(), None),
            ('bad = exponential(-1)', put('bad', lambda v: nd.random.exponential(-1, (2,))),
             None),
            ('g = autograd.grad(x * bad, [x])', put('g', autograd_grad), None),
            ('g[0].asnumpy()', lambda v: v['g'][0].asnumpy(),
             'lambda parameter in exponential distribution has to be positive'),
            ('waitall() again', lambda v: nd.waitall(), None)],
        'metadata_then_reads': [
            ('e = exponential(-1)', put('e', lambda v: nd.random.exponential(-1, (1,))), None),
            ('e.shape, e.dtype, e.context',
             lambda v: (v['e'].shape, v['e'].dtype, v['e'].context), None),
            ('bool(e)', lambda v: bool(v['e']),
             'lambda parameter in exponential distribution has to be positive'),
            ('p = poisson(-1)', put('p', lambda v: nd.random.poisson(-1, (1,))), None),
            ('p.asscalar()', lambda v: v['p'].asscalar(),
             'lambda parameter in poisson distribution has to be non-negative'),
            ('n = negative_binomial(-1, 0.5)',
             put('n', lambda v: nd.random.negative_binomial(-1, 0.5, (1,))), None),
            ('repr(n)', lambda v: repr(v['n']),
             'k parameter in negative binomial distribution has to be non-negative'),
            ('waitall()', lambda v: nd.waitall(), None)],
        'samplers': [
            ('generalized_negative_binomial(-1, 0.5).asnumpy()',
             lambda v: nd.random.generalized_negative_binomial(-1, 0.5, (2,)).asnumpy(),
             'mu parameter in generalized negative binomial distribution has to be '
             'non-negative'),
            ('gamma(1, -1).asnumpy()', lambda v: nd.random.gamma(1, -1, (2,)).asnumpy(),
             'beta parameter in gamma distribution has to be positive'),
            ('randint(5, 2).asnumpy()', lambda v: nd.random.randint(5, 2, (2,)).asnumpy(),
             uniform),
            ('normal_like(ones, 0, -1).wait_to_read()',
             lambda v: nd.random.normal_like(nd.ones((2,)), 0, -1).wait_to_read(), gauss),
            ('np.random.exponential(-1).asnumpy()',
             lambda v: np_.random.exponential(-1, (2,)).asnumpy(), 'expect scale >= 0'),
            ('npx.random.bernoulli(prob=2).asnumpy()',
             lambda v: mx.npx.random.bernoulli(prob=2.0, size=(2,)).asnumpy(),
             'expect probs >= 0 && probs <= 1'),
            ('np.random.multinomial(3, [0.5, 0.9]).asnumpy()',
             lambda v: np_.random.multinomial(3, [0.5, 0.9]).asnumpy(), 'sum(pvals[:-1]) > 1.0'),
            ('waitall()', lambda v: nd.waitall(), None)],
        'indexing': [
            ('t = take(raise) + 1',
             put('t', lambda v: nd.take(nd.ones((3, 2)), _nd(mx, [0, 5]), mode='raise') + 1),
             None),
            ('t.asnumpy()', read('t'), take),
            ('n = np.take(raise)', put('n', lambda v: np_.take(
                np_.ones((3, 2)), np_.array([0, 5], dtype='int32'), axis=0, mode='raise')), None),
            ('n.asnumpy()', read('n'), take),
            ('g = gather_nd out of range', put('g', lambda v: nd.gather_nd(
                nd.ones((3, 2)), _nd(mx, [[5]]))), None),
            ('g.asnumpy()', read('g'), 'index 5 is out of bounds for axis 0 with size 3'),
            ('clip = take(clip).asnumpy()',
             lambda v: nd.take(nd.ones((3, 2)), _nd(mx, [0, 5]), mode='clip').asnumpy(), None),
            ('waitall()', lambda v: nd.waitall(), None)],
        'potrf_and_imresize': [
            ('l = potrf(-I)', put('l', lambda v: nd.linalg.potrf(_nd(mx, [[-1, 0], [0, -1]]))),
             None),
            ('l.asnumpy()', read('l'), 'either not symmetric or not positive definite'),
            ('r = imresize(interp=-1)',
             put('r', lambda v: mx.image.imresize(nd.ones((12, 16, 3)), 3, 3, interp=-1)), None),
            ('r.asnumpy()', read('r'), 'nknown interpolation method'),
            ('waitall()', lambda v: nd.waitall(), None)],
        'blocks': [
            ('hybridized Dense', hybrid, None),
            ('net(normal(0, -1)).asnumpy()',
             lambda v: v['net'](nd.random.normal(0, -1, (1, 2))).asnumpy(), gauss),
            ('net(ones).asnumpy()', lambda v: v['net'](nd.ones((1, 2))).asnumpy(), None),
            ('z = Sequential(normal(10, -10))', gluon, None),
            ('z.wait_to_read()', lambda v: v['z'].wait_to_read(), gauss),
            ('executor with normal(0, -1)', executor, None),
            ('waitall()', lambda v: nd.waitall(), gauss),
            ('out.asnumpy()', read('out'), None)],
    }


def run(mx):
    """{scenario: [[step label, 'ok' or the exception type's name, message, phrase]]}."""
    out = {}
    for name, steps in _scenarios(mx).items():
        try:  # a scenario starts with no error stored
            mx.nd.waitall()
        except Exception:  # pylint: disable=broad-except
            pass
        v = {}
        rows = []
        for label, fn, phrase in steps:
            try:
                fn(v)
                rows.append([label, 'ok', '', phrase])
            except Exception as err:  # pylint: disable=broad-except
                lines = [line for line in str(err).splitlines() if line.strip()]
                rows.append([label, type(err).__name__, lines[-1] if lines else '', phrase])
        out[name] = rows
    return out


def write(mx, outdir):
    out = run(mx)
    for name, rows in out.items():
        for label, outcome, message, phrase in rows:
            assert outcome == 'ok' or phrase in message, (name, label, message, phrase)
    tmp = os.path.join(outdir, 'deferred_errors.tmp.json')
    with open(tmp, 'w') as f:
        json.dump(out, f, indent=1, sort_keys=True)
    os.replace(tmp, os.path.join(outdir, 'deferred_errors.json'))
