"""The Python-level functions of ``mx.nd.contrib`` from real MXNet: ``cond`` (with gradients),
nested ``foreach`` / ``while_loop`` results, the ``_flatten`` / ``_regroup`` /
``_flatten_list`` helpers, ``current_context`` and ``rand_zipfian``'s expected counts. The same
``run(mx)`` executes under mxcompat in tests/test_contrib_python.py."""
import json
import os

import numpy as np


def _arr(mx, seed, *shape):
    return mx.nd.array(np.random.RandomState(seed).uniform(-1, 1, size=shape).astype(np.float32))


def _nested(prefix, obj, out):
    """Store a nested list of NDArrays as prefix/0/1... keys; return its structure."""
    if isinstance(obj, (list, tuple)):
        return [_nested('%s/%d' % (prefix, i), o, out) for i, o in enumerate(obj)]
    out[prefix] = obj.asnumpy()
    return 'array'


def _cases(mx):
    a, b = _arr(mx, 1, 3), _arr(mx, 2, 3)

    def cond_grad(flag):
        x, y = _arr(mx, 3, 2, 2), _arr(mx, 4, 2, 2)
        x.attach_grad()
        y.attach_grad()
        with mx.autograd.record():
            out = mx.nd.contrib.cond(mx.nd.array([flag]), lambda: x * y + 1,
                                     lambda: (x - y) * 2)
        out.backward(mx.nd.ones((2, 2)) * 0.5)
        return [out, x.grad, y.grad]

    def while_pad():
        outs, states = mx.nd.contrib.while_loop(
            lambda i, s: i < 3, lambda i, s: ([i * 2, [s * s]], [i + 1, s + 1]),
            [mx.nd.array([0.]), _arr(mx, 5, 2)], max_iterations=5)
        # rows past the last step are uninitialized in MXNet: keep the computed ones
        return [outs[0][:3], outs[1][0][:3], states]

    def foreach_nested():
        outs, states = mx.nd.contrib.foreach(
            lambda d, s: ([d[0] + s[0], [d[1] * s[1]]], [s[0] * 2, s[1] - d[0]]),
            [_arr(mx, 6, 3, 2), _arr(mx, 7, 3, 2)], [_arr(mx, 8, 2), _arr(mx, 9, 2)])
        return [outs, states]

    flat, fmt = mx.nd.contrib._flatten([a, [b, [a]], b], 'input')
    return {
        'cond-true': lambda: mx.nd.contrib.cond(mx.nd.array([1]), lambda: a + b, lambda: a - b),
        'cond-false': lambda: mx.nd.contrib.cond(mx.nd.array([0.]), lambda: a + b,
                                                 lambda: [a - b, [a * b]]),
        'cond-int-pred': lambda: mx.nd.contrib.cond(mx.nd.array([3], dtype='int32'),
                                                    lambda: [a * 2], lambda: [b]),
        'cond-grad-true': lambda: cond_grad(1),
        'cond-grad-false': lambda: cond_grad(0),
        'cond-bad-pred': lambda: mx.nd.contrib.cond(mx.nd.array([1, 0]), lambda: a,
                                                    lambda: b),
        'while-pad': while_pad,
        'while-bad-vars': lambda: mx.nd.contrib.while_loop(
            lambda i: i < 3, lambda i: (i, [i, i]), [mx.nd.array([0.])], max_iterations=4),
        'foreach-nested': foreach_nested,
        'foreach-bad-data': lambda: mx.nd.contrib.foreach(lambda d, s: (d, s), [1, 2], [a]),
        'flatten': lambda: flat,
        'flatten-single': lambda: mx.nd.contrib._flatten(a, 'input')[0],
        'regroup': lambda: mx.nd.contrib._regroup(flat, fmt)[0],
        'regroup-rest': lambda: mx.nd.contrib._regroup([a, b, a], 2)[1],
        'flatten_list': lambda: mx.nd.contrib._flatten_list([[a, b], [b], [a]]),
        'zipfian-true-count': lambda: mx.nd.contrib.rand_zipfian(
            mx.nd.array([0, 3, 9]), 5, 10)[1],
    }, fmt


def _while_rows(mx):
    outs, _ = mx.nd.contrib.while_loop(lambda i: i < 2, lambda i: (i * 3, i + 1),
                                       mx.nd.array([0.]), max_iterations=5)
    return list(outs.shape)


def run(mx):
    """{key: numpy array}, {key: structure}, {key: error type}, {'fmt': ..., 'context': ...}"""
    cases, fmt = _cases(mx)
    arrays, structure, errors = {}, {}, {}
    for key, fn in cases.items():
        try:
            res = fn()
        except Exception as err:  # each library raises its own type; record the fact
            errors[key] = type(err).__name__
            continue
        flat = {}
        structure[key] = _nested(key, res, flat)
        for k, v in flat.items():
            arrays[k] = v
    # non-array results
    info = {'fmt': fmt, 'context': str(mx.nd.contrib.current_context()),
            'while-pad-rows': _while_rows(mx),
            'zipfian-dtypes': [str(o.dtype.__name__) if hasattr(o.dtype, '__name__')
                               else str(o.dtype) for o in
                               mx.nd.contrib.rand_zipfian(mx.nd.array([1]), 4, 7)],
            'zipfian-shapes': [list(o.shape) for o in
                               mx.nd.contrib.rand_zipfian(mx.nd.array([1, 2]), 4, 7)]}
    return arrays, structure, errors, info


def write(mx, outdir):
    arrays, structure, errors, info = run(mx)
    np.savez_compressed(os.path.join(outdir, 'contrib_python.npz'), **arrays)
    with open(os.path.join(outdir, 'contrib_python.json'), 'w') as f:
        json.dump({'structure': structure, 'errors': errors, 'info': info}, f, indent=1,
                  sort_keys=True)
