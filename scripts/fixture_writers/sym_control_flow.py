"""``mx.sym.contrib.foreach / while_loop / cond / rand_zipfian`` as real MXNet builds and runs
them: arguments, outputs, inferred shapes and ``tojson()`` (subgraphs included) of each graph,
and its outputs and gradients with every argument from a generator seeded by its name.

``build`` and CASES are shared with tests/test_sym_control_flow.py.
"""
import json
import os
import zlib

import numpy as np


def seeded(name, shape, lo=-1.0, hi=1.0):
    rs = np.random.RandomState(zlib.crc32(name.encode()) & 0xffffffff)
    return rs.uniform(lo, hi, shape).astype(np.float32)


def _foreach_fc(mx):
    data, state, w = mx.sym.var('data'), mx.sym.var('state'), mx.sym.var('w')

    def step(d, s):
        o = mx.sym.FullyConnected(d, weight=w, no_bias=True, num_hidden=3) + s[0]
        return o, [mx.sym.tanh(o) * 2]
    outs, states = mx.sym.contrib.foreach(step, data, [state])
    return [outs] + states, {'data': (4, 2, 5), 'state': (2, 3)}


def _foreach_cut(mx):
    data, st, w = mx.sym.var('data'), mx.sym.var('st'), mx.sym.var('w')
    h = mx.sym.split(w, num_outputs=2, axis=0, squeeze_axis=True)

    def step(d, s):
        o = d * h[1] + s[0] + h[0]
        return [o, d], [o * 0.5]
    outs, states = mx.sym.contrib.foreach(step, data, [st])
    return outs + states, {'data': (4, 3), 'st': (3,), 'w': (2, 3)}


def _foreach_multi(mx):
    a, b = mx.sym.var('a'), mx.sym.var('b')
    s1, s2, s3 = mx.sym.var('s1'), mx.sym.var('s2'), mx.sym.var('s3')

    def step(xs, states):
        x, y = xs
        (p, q), r = states
        inner = mx.sym.var('inner')  # a variable made inside the body
        new_p = mx.sym.broadcast_add(p, x * inner)
        return [new_p + y, r], [[new_p, q * 2], r]  # r passes through unchanged
    outs, states = mx.sym.contrib.foreach(step, [a, b], [[s1, s2], s3], name='multi')
    return outs + states[0] + [states[1]], {'a': (3, 2), 'b': (3, 2), 's1': (2,), 's2': (4,),
                                            's3': (1,), 'inner': (2,)}


def _foreach_1d(mx):
    data, acc = mx.sym.var('data'), mx.sym.var('acc')
    outs, states = mx.sym.contrib.foreach(
        lambda d, s: (d * s[0], [s[0] + d]), data, [acc])
    return [outs] + states, {'data': (5,), 'acc': (1,)}


def _foreach_nested(mx):
    data, st = mx.sym.var('data'), mx.sym.var('st')

    def outer(d, s):
        def inner(x, s2):
            return x * 2 + s2[0], [s2[0] + x]
        o, ss = mx.sym.contrib.foreach(inner, d, [s[0]])
        return o, [ss[0] * 1.5]
    outs, states = mx.sym.contrib.foreach(outer, data, [st])
    return [outs] + states, {'data': (2, 3, 4), 'st': (4,)}


def _while_basic(mx):
    i, s = mx.sym.var('i'), mx.sym.var('s')
    outputs, states = mx.sym.contrib.while_loop(
        lambda i, s: i <= 5, lambda i, s: ([i + s], [i + 1, s + i]), (i, s), max_iterations=10)
    return outputs + states, {'i': (1,), 's': (1,)}


def _while_closure(mx):
    x, n, w = mx.sym.var('x'), mx.sym.var('n'), mx.sym.var('w')
    scale = mx.sym.sum(w)  # computed outside, used inside: cut into the subgraphs

    def cond(x, n):
        return n < 3

    def func(x, n):
        y = mx.sym.tanh(mx.sym.broadcast_mul(x, scale)) + x
        return [y, mx.sym.broadcast_mul(y, n)], [y, n + 1]
    outputs, states = mx.sym.contrib.while_loop(cond, func, [x, n], max_iterations=5)
    return outputs + states, {'x': (2, 3), 'n': (1,), 'w': (2,)}


def _while_no_output(mx):
    a = mx.sym.var('a')
    outputs, states = mx.sym.contrib.while_loop(
        lambda a: mx.sym.sum(a) < 10, lambda a: (None, [a * 2]), [a], max_iterations=6)
    assert outputs == []
    return states, {'a': (3,)}


def _cond_basic(mx):
    a, b = mx.sym.var('a'), mx.sym.var('b')
    out = mx.sym.contrib.cond(a * b < 0, lambda: (a + 5) * (b + 5), lambda: (a - 5) * (b - 5))
    return [out], {'a': (1,), 'b': (1,)}


def _cond_multi(mx):
    x, y, w = mx.sym.var('x'), mx.sym.var('y'), mx.sym.var('w')
    pred = mx.sym.sum(x) > mx.sym.sum(y)
    outs = mx.sym.contrib.cond(pred, lambda: [x * w, [y + 1]],
                               lambda: [mx.sym.sigmoid(x), [y * w]], name='pick')
    return [outs[0], outs[1][0]], {'x': (2, 2), 'y': (2, 2), 'w': (2, 2)}


def _zipfian(mx):
    t = mx.sym.var('true_cls')
    samples, count_true, count_sampled = mx.sym.contrib.rand_zipfian(t, 6, 10)
    return [samples, count_true, count_sampled], {'true_cls': (4,)}


# id -> (builder, check): 'values' compares outputs and gradients, 'zipfian' checks the
# deterministic output and the sampled ones by shape and dtype
CASES = {
    'foreach-fc': (_foreach_fc, 'values'),
    'foreach-cut': (_foreach_cut, 'values'),
    'foreach-multi': (_foreach_multi, 'values'),
    'foreach-1d': (_foreach_1d, 'values'),
    'foreach-nested': (_foreach_nested, 'values'),
    'while-basic': (_while_basic, 'values'),
    'while-closure': (_while_closure, 'values'),
    'while-no-output': (_while_no_output, 'values'),
    'cond-basic': (_cond_basic, 'values'),
    'cond-multi': (_cond_multi, 'values'),
    'rand_zipfian': (_zipfian, 'zipfian'),
}

# argument values that matter to the control flow (others are seeded)
VALUES = {
    'while-basic': {'i': np.array([1.], np.float32), 's': np.array([2.], np.float32)},
    'while-closure': {'n': np.array([0.], np.float32)},
    'while-no-output': {'a': np.array([1., 0.5, 0.25], np.float32)},
    'rand_zipfian': {'true_cls': np.array([0., 3., 9., 1.], np.float32)},
}
# rows of while_loop outputs past the last iteration: MXNet leaves them uninitialised
VALID_ROWS = {'while-basic': {0: 5}, 'while-closure': {0: 3, 1: 3}}


def build(mx, cid):
    """(grouped symbol, argument shapes) of one case, with fresh automatic names."""
    with mx.name.NameManager():
        mx.attribute.AttrScope._subgraph_names.clear()
        outs, shapes = CASES[cid][0](mx)
        return mx.sym.Group(outs), shapes


def run(mx, cid, sym, shapes, train=True):
    # MXNet infers no shapes past a while_loop or cond, but knows every argument's here
    arg_shapes = dict(zip(sym.list_arguments(), sym.infer_shape_partial(**shapes)[0]))
    args = {n: mx.nd.array(VALUES.get(cid, {}).get(n, seeded(n, s)))
            for n, s in arg_shapes.items()}
    grads = {n: mx.nd.zeros(a.shape) for n, a in args.items()}
    ex = sym.bind(mx.current_context(), args, args_grad=grads if train else None,
                  grad_req='write' if train else 'null')
    outs = [o.asnumpy() for o in ex.forward(is_train=train)]
    if not train:
        return outs, {}
    ex.backward([mx.nd.array(seeded('head%d' % k, o.shape)) for k, o in enumerate(outs)])
    return outs, {n: g.asnumpy() for n, g in grads.items()}


def write(mx, outdir):
    arrays, meta = {}, {}
    for cid, (_, check) in CASES.items():
        sym, shapes = build(mx, cid)
        arg_shapes, out_shapes, _ = sym.infer_shape_partial(**shapes)
        meta[cid] = {'arguments': sym.list_arguments(), 'outputs': sym.list_outputs(),
                     'arg_shapes': arg_shapes, 'out_shapes': out_shapes, 'json': sym.tojson()}
        outs, grads = run(mx, cid, sym, shapes, train=check == 'values')
        meta[cid]['dtypes'] = [str(o.dtype) for o in outs]
        for k, o in enumerate(outs):
            rows = VALID_ROWS.get(cid, {}).get(k)
            arrays['%s/out%d' % (cid, k)] = o if rows is None else o[:rows]
        for n, g in grads.items():
            arrays['%s/grad_%s' % (cid, n)] = g
    np.savez_compressed(os.path.join(outdir, 'sym_control_flow.npz'), **arrays)
    with open(os.path.join(outdir, 'sym_control_flow.json'), 'w') as f:
        json.dump(meta, f, indent=1, sort_keys=True)
