"""Run one operator case with a given ``mx`` module (real MXNet or mxcompat).

The same code runs under both interpreters, so the fixture and the test differ only in which
library executes the call.
"""
import numpy as np

from . import Raw, rng


def _to_nd(mx, v):
    if isinstance(v, Raw):
        return v.value
    if isinstance(v, str) and v.startswith('ctx:'):  # 'ctx:cpu(0)' stands for a Context
        kind, dev = v[4:].rstrip(')').split('(')
        return mx.Context(kind, int(dev))
    if isinstance(v, np.ndarray):
        return mx.nd.array(v, dtype=v.dtype)
    if isinstance(v, list) and v and all(isinstance(i, np.ndarray) for i in v):
        return [mx.nd.array(i, dtype=i.dtype) for i in v]
    return v


def _resolve(mx, func, args):
    if func.startswith('NDArray.'):
        obj, name = args[0], func.split('.', 1)[1]
        if isinstance(getattr(type(obj), name, None), property):
            return (lambda: getattr(obj, name)), args[1:]  # read when the case runs
        attr = getattr(obj, name)
        return (attr if callable(attr) else (lambda: attr)), args[1:]
    obj = mx.nd
    for part in func.split('.'):
        obj = getattr(obj, part)
    return obj, args


def _to_numpy(o):
    """An operator's output as numpy; non-array results (shapes, dtypes, contexts, None) as
    numpy values both libraries render alike."""
    if hasattr(o, 'asnumpy'):
        return o.asnumpy()
    if isinstance(o, np.ndarray):
        return o
    if isinstance(o, (bool, int, float, np.generic)):
        return np.array(o)
    if isinstance(o, type) or isinstance(o, np.dtype):
        return np.array(np.dtype(o).name)
    return np.array(str(o))


def _as_list(out):
    if isinstance(out, (list, tuple)):
        return list(out)
    return [out]


def run_case(mx, c):
    """Returns {'outputs': [np arrays], 'grads': {key: np array}, 'error': str or None}."""
    args = [_to_nd(mx, a) for a in c['args']]
    kwargs = {k: _to_nd(mx, v) for k, v in c['kwargs'].items()}
    grad_keys = c['grad']
    variables = []
    for g in grad_keys:
        v = args[g] if isinstance(g, int) else kwargs[g]
        v.attach_grad()
        variables.append((str(g), v))
    fn, call_args = _resolve(mx, c['func'], args)
    record = c['record'] if c['record'] is not None else bool(grad_keys)
    try:
        if record:
            with mx.autograd.record(train_mode=c['train']):
                out = fn(*call_args, **kwargs)
        elif c['train']:
            with mx.autograd.train_mode():
                out = fn(*call_args, **kwargs)
        else:
            out = fn(*call_args, **kwargs)
        outs = _as_list(out)
        result = {'outputs': [_to_numpy(o) for o in outs], 'grads': {}, 'error': None}
        if grad_keys:
            which = c['grad_outputs']
            if which is None:
                which = [i for i, o in enumerate(outs) if hasattr(o, 'asnumpy') and
                         np.issubdtype(o.dtype, np.floating)]
            r = rng(c['id'] + '/head')
            heads = [outs[i] for i in which]
            head_grads = [mx.nd.array(r.uniform(-1, 1, size=h.shape).astype(h.dtype),
                                      dtype=h.dtype) for h in heads]
            mx.autograd.backward(heads, head_grads)
            for key, v in variables:
                result['grads'][key] = v.grad.asnumpy()
    except Exception as err:  # the 'error' check expects both libraries to raise
        if c['check'] != 'error':
            raise
        return {'outputs': [], 'grads': {}, 'error': type(err).__name__ + ': ' + str(err)[:200]}
    if c['check'] == 'error':
        raise AssertionError('case %s expected an error but the call succeeded' % c['id'])
    return result
