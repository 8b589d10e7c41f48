"""mx.np.random.multinomial from real MXNet: an experiment takes the first outcome whose running
sum of pvals exceeds a uniform draw, else the last one (pvals that sum below 1, to 0, or hold
negative values), empty pvals and sizes with a 0 give empty counts, a running sum above 1 is an
MXNetError. Keys starting 'freq/' hold frequencies over many experiments (compared with a
tolerance); the others are exact. The same ``run(mx)`` executes under mxcompat in
tests/test_numpy_multinomial.py."""
import numpy as np

from ._np_mode import run_cases, save_npz

N = 20000
PVALS = {
    'uniform': [0.25, 0.25, 0.25, 0.25],
    'short': [0.2, 0.3],
    'zeros': [0.0, 0.0, 0.0],
    'negative-first': [-0.1, 0.5, 0.6],
    'negative-middle': [0.5, -0.2, 0.1],
    'one': [1.0],
    'leading-zero': [0.0, 0.1, 0.2, 0.3, 0.4],
}


def _cases(mx, out):
    for name, pvals in sorted(PVALS.items()):
        for kind, p in (('list', pvals), ('ndarray', mx.np.array(pvals))):
            counts = mx.np.random.multinomial(N, p, size=(2,)).asnumpy()
            out['freq/%s/%s' % (name, kind)] = counts / np.float64(N)
            out['dtype/%s/%s' % (name, kind)] = np.array(str(counts.dtype))
    for kind, p in (('list', []), ('ndarray', mx.np.array([]))):
        out['empty/%s' % kind] = mx.np.random.multinomial(N, p).asnumpy()
    for size in ((0,), (3, 0, 2)):
        out['size-%s' % 'x'.join(map(str, size))] = \
            mx.np.random.multinomial(N, [0.5, 0.5], size=size).asnumpy()
    out['no-experiments'] = mx.np.random.multinomial(0, [0.5, 0.5], size=(2,)).asnumpy()
    for kind, p in (('list', [0.6, 0.6]), ('ndarray', mx.np.array([0.3, 0.3, 0.3, 0.3]))):
        try:
            mx.np.random.multinomial(10, p).asnumpy()
            out['over-one/%s' % kind] = np.array('')
        except mx.base.MXNetError:
            out['over-one/%s' % kind] = np.array('MXNetError')


def run(mx):
    """{case id: numpy array}, in NumPy mode."""
    mx.random.seed(0)
    return run_cases(mx, _cases)


def write(mx, outdir):
    save_npz(outdir, 'numpy_multinomial', run(mx))
