"""Shared machinery of the gluon_nn / gluon_loss fixture writers and their tests.

A case is ``(build, inputs)``: ``build(mx)`` makes the block from the ``mx`` module it is
given (real MXNet in the writer, mxcompat in the test), ``inputs`` lists ``Input`` specs whose
values come from numpy generators seeded by name. Parameters are set from a generator seeded by
the parameter's structural name (``seeded``), in the writer and the test alike.
"""
import collections
import zlib

import numpy as np

Input = collections.namedtuple('Input', 'key shape lo hi kind')


def inp(key, shape, lo=-1.0, hi=1.0, kind='float'):
    """A float input (gets a gradient), or kind='const' (float, no gradient) or 'int'."""
    return Input(key, tuple(shape), lo, hi, kind)


def value(spec):
    r = np.random.RandomState(zlib.crc32(('in/' + spec.key).encode()))
    if spec.kind == 'int':
        return r.randint(int(spec.lo), int(spec.hi), size=spec.shape).astype('float32')
    return r.uniform(spec.lo, spec.hi, size=spec.shape).astype('float32')


def seeded(key, shape):
    """The value of the parameter with structural name ``key``."""
    r = np.random.RandomState(zlib.crc32(key.encode()))
    if key.endswith(('running_var', 'gamma')):
        return r.uniform(0.5, 1.5, size=shape).astype('float32')
    return r.uniform(-0.5, 0.5, size=shape).astype('float32')


def head(name, shape):
    r = np.random.RandomState(zlib.crc32(('head/' + name).encode()))
    return r.uniform(-1, 1, size=shape).astype('float32')


def set_params(mx, net, xs):
    net.initialize()
    net(*xs)
    for key, p in sorted(net._collect_params_with_prefix().items()):
        p.set_data(mx.nd.array(seeded(key, p.shape)))


def mode_name(train):
    return {True: 'train', False: 'predict', None: 'forward'}[train]


def run(mx, name, build, inputs, train, hybridize=False):
    """Builds, seeds and runs one case; returns (facts, arrays)."""
    with mx.name.NameManager():  # fresh prefix counters: conv0_, pool0_, ...
        net = build(mx)
    facts = {'repr_before': repr(net)}
    if hybridize:
        net.hybridize()
    xs = [mx.nd.array(value(s)) for s in inputs]
    set_params(mx, net, xs)
    facts['repr_after'] = repr(net)
    facts['params'] = [[k, list(p.shape)] for k, p in net.collect_params().items()]
    arrays = {}
    xs = [mx.nd.array(value(s)) for s in inputs]
    for x, s in zip(xs, inputs):
        if s.kind == 'float':
            x.attach_grad()
    if train is None:  # forward only, outside autograd
        out = net(*xs)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        for i, o in enumerate(outs):
            arrays['out%d' % i] = o.asnumpy()
        return facts, arrays
    with mx.autograd.record(train_mode=train):
        out = net(*xs)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    heads = [mx.nd.array(head('%s/%d' % (name, i), o.shape)) for i, o in enumerate(outs)]
    mx.autograd.backward(outs, heads)
    for i, o in enumerate(outs):
        arrays['out%d' % i] = o.asnumpy()
    for i, (x, s) in enumerate(zip(xs, inputs)):
        if s.kind == 'float':
            arrays['grad_in%d' % i] = x.grad.asnumpy()
    for key, p in net._collect_params_with_prefix().items():
        if p.grad_req != 'null':
            arrays['grad/' + key] = p.grad().asnumpy()
        elif key.endswith(('running_mean', 'running_var')):
            arrays['state/' + key] = p.data().asnumpy()
    return facts, arrays


def check_case(mx, cases, want, facts, name, train, hybridize, atol=1e-6):
    """Runs case `name` with mxcompat and compares it with the fixture (test side)."""
    build, inputs, _ = cases[name]
    mode = mode_name(train)
    got_facts, got = run(mx, name, build, inputs, train, hybridize=hybridize)
    exp = facts['%s/%s' % (name, mode)]
    assert got_facts['repr_after'] == exp['repr_after']
    if not hybridize:
        assert got_facts['repr_before'] == exp['repr_before']
    assert got_facts['params'] == exp['params']
    prefix = '%s/%s/' % (name, mode)
    keys = sorted(k[len(prefix):] for k in want.files if k.startswith(prefix))
    assert sorted(got) == keys
    for k in keys:
        np.testing.assert_allclose(got[k], want[prefix + k], rtol=1e-5, atol=atol,
                                   err_msg=prefix + k)


def write_cases(mx, outdir, cases, tag, reprs=None):
    import json
    import os
    os.makedirs(outdir, exist_ok=True)
    arrays, facts = {}, {}
    for name, (build, inputs, modes) in sorted(cases.items()):
        for train in modes:
            mode = mode_name(train)
            f, a = run(mx, name, build, inputs, train)
            facts['%s/%s' % (name, mode)] = f
            for k, v in a.items():
                arrays['%s/%s/%s' % (name, mode, k)] = v
    facts['reprs'] = reprs or {}
    np.savez_compressed(os.path.join(outdir, tag + '.npz'), **arrays)
    with open(os.path.join(outdir, 'facts.json'), 'w') as f:
        json.dump(facts, f, indent=1, sort_keys=True)
