"""Reductions and sorts of mx.nd and mx.np arrays from real MXNet 1.9.1
(tests/test_dtype_rules.py), with their result types and shapes: mx.nd's sum, mean, prod,
max, min, norm, nansum, nanprod (axis None, 0, -1, (0, 2), (); keepdims; exclude), argmax,
argmin, topk, sort, argsort, cumsum; mx.np's sum, mean, prod, max, min, amax, std, var, all,
any (axis None, 0, -1, (0, 2); keepdims), argmax, argmin, cumsum, sort, argsort,
average, and sum and mean in float64. mx.nd for float32, int32 and float16; mx.np also for
bool and int8 (MXNet's integer var and std wrap around in the array's type); not mx.np's
float16 prod (MXNet multiplies in float16, where a product overflowing on the way is NaN;
mxcompat in float32). Stored as numpy_dtype_rules stores them, the shape in the type's
entry."""
import numpy as onp

from .numpy_dtype_rules import save

_SOURCE = onp.array([[[1, -2, 3], [4, 5, -6]], [[7, 8, 9], [-1, 0, 2]]], dtype='float32')
_ND_REDUCE = ('sum', 'mean', 'prod', 'max', 'min', 'norm', 'nansum', 'nanprod')
_ND_ALONG = ('argmax', 'argmin', 'sort', 'argsort', 'cumsum')
_NP_REDUCE = ('sum', 'mean', 'prod', 'max', 'min', 'amax', 'std', 'var', 'all', 'any')
_NP_ALONG = ('argmax', 'argmin', 'cumsum', 'sort', 'argsort', 'average')


def _record(res, key, fn):
    try:
        r = fn()
        res[key] = ['%s%s' % (onp.dtype(r.dtype), tuple(r.shape)),
                    [round(float(v), 3) for v in r.asnumpy().ravel()]]
    except Exception as err:  # pylint: disable=broad-except
        res[key] = ['ERR', type(err).__name__]


def _cases(res, mode, ns, types, reduce_names, along_names, axes):
    for dt in types:
        def source(dt=dt):
            return ns.array(_SOURCE.astype(dt), dtype=dt)
        for name in reduce_names:
            if mode == 'np' and name == 'prod' and dt == 'float16':
                continue  # (float16 products: see above)
            for axis in axes:
                for keepdims in (False, True):
                    _record(res, '%s/%s/%s/%s/%s' % (mode, name, dt, axis, keepdims),
                            lambda f=getattr(ns, name), a=axis, k=keepdims, s=source:
                            f(s(), axis=a, keepdims=k))
        for name in along_names:
            for axis in (None, 0, -1):
                _record(res, '%s/%s/%s/%s' % (mode, name, dt, axis),
                        lambda f=getattr(ns, name), a=axis, s=source: f(s(), axis=a))
        yield source


def run(mx):
    """{case id: [type and shape, values] or ['ERR', exception class name]}."""
    res = {}
    nd = mx.nd
    for source in _cases(res, 'nd', nd, ('float32', 'int32', 'float16'), _ND_REDUCE,
                         _ND_ALONG, (None, 0, -1, (0, 2), ())):
        dt = source().dtype
        _record(res, 'nd/topk/%s' % onp.dtype(dt), lambda s=source: nd.topk(s(), k=1))
        for name in ('sum', 'mean', 'max'):
            _record(res, 'nd/%s-exclude/%s' % (name, onp.dtype(dt)),
                    lambda f=getattr(nd, name), s=source: f(s(), axis=1, exclude=True))
    mx.npx.set_np()
    try:
        np = mx.np
        for source in _cases(res, 'np', np, ('float32', 'int32', 'float16', 'bool', 'int8'),
                             _NP_REDUCE, _NP_ALONG, (None, 0, -1, (0, 2))):
            dt = onp.dtype(source().dtype)
            _record(res, 'np/sum-float64/%s' % dt, lambda s=source: np.sum(s(), dtype='float64'))
            _record(res, 'np/mean-float64/%s' % dt,
                    lambda s=source: np.mean(s(), dtype='float64'))
    finally:
        mx.npx.reset_np()
    return res


def write(mx, outdir):
    save(outdir, 'reduce_rules', run(mx))
