"""mx.np calls that the generated functions' kernels (the torch function an operator entry
registers) leave to the entry, from real MXNet 1.9.1 (tests/test_numpy_kernels.py): a Python
int beyond int64 with a float32 array (maximum, minimum, add, multiply, greater, a reflected
subtract), joins along ``axis=None`` and a negative axis, and dot products of other than two
matrices (vector-matrix, 3-D by matrix, vector-vector). ``calls(mx)`` gives {case id: call};
the writer stores each result in ``numpy_kernels.npz``.
"""
from ._np_mode import run_cases, save_npz

BIG = 2 ** 70


def calls(mx):
    """{case id: a function of no arguments computing the case with ``mx.np``}; NumPy mode
    must be on."""
    np = mx.np

    def x():
        return np.array([[-2.5, 0.5], [3.0, -1.0]], dtype='float32')
    a = lambda: np.array([[1., 2.], [3., 4.]])  # noqa: E731
    v = lambda: np.array([1., 2.])  # noqa: E731
    out = {'scalar-%s' % name: (lambda name=name: getattr(np, name)(x(), BIG))
           for name in ('maximum', 'minimum', 'add', 'multiply', 'greater')}
    out.update({
        'rscalar-subtract': lambda: np.subtract(BIG, v()),
        'concatenate-axis-none': lambda: np.concatenate([a(), np.array([[5., 6.]])], axis=None),
        'stack-negative-axis': lambda: np.stack([a(), a()], axis=-1),
        'dot-vector-matrix': lambda: np.dot(v(), a()),
        'dot-3d-matrix': lambda: np.dot(np.arange(8).reshape(2, 2, 2), a()),
        'dot-vector-vector': lambda: np.dot(v(), v()),
    })
    return out


def _all(mx, out):
    for name, call in calls(mx).items():
        out[name] = call().asnumpy()


def write(mx, outdir):
    save_npz(outdir, 'numpy_kernels', run_cases(mx, _all))
