"""Cases for mxcompat/ops/linalg.py (mx.nd.linalg.* and the mx.nd.linalg_* aliases)."""
import numpy as np

from . import case, rng

TOL = dict(rtol=1e-4, atol=1e-5)


def f32(cid, *shape, lo=-1, hi=1, dtype=np.float32):
    return rng(cid).uniform(lo, hi, size=shape).astype(dtype)


def spd(cid, *shape, dtype=np.float32):
    """Symmetric positive-definite matrices."""
    m = rng(cid).uniform(-1, 1, size=shape)
    n = shape[-1]
    return (m @ np.swapaxes(m, -1, -2) + n * np.eye(n)).astype(dtype)


def lower(cid, *shape, dtype=np.float32):
    """Lower triangular, well conditioned (positive diagonal)."""
    m = np.tril(rng(cid).uniform(-1, 1, size=shape))
    n = shape[-1]
    return (m + 2 * np.eye(n)).astype(dtype)


def sym_distinct(cid, *shape, dtype=np.float32):
    """Symmetric matrices with well separated eigenvalues."""
    r = rng(cid)
    n = shape[-1]
    q, _ = np.linalg.qr(r.uniform(-1, 1, size=shape))
    lam = np.arange(1, n + 1, dtype=np.float64) * 1.5 - 2
    return (q @ (lam[:, None] * np.swapaxes(q, -1, -2))).astype(dtype)


CASES = [
    # gemm / gemm2
    case('gemm', 'linalg.gemm', [f32('g-a', 2, 3), f32('g-b', 3, 4), f32('g-c', 2, 4)],
         grad=[0, 1, 2], **TOL),
    case('gemm-trans-alpha-beta', 'linalg.gemm',
         [f32('gt-a', 3, 2), f32('gt-b', 4, 3), f32('gt-c', 2, 4)],
         {'transpose_a': True, 'transpose_b': True, 'alpha': 2.5, 'beta': -0.5},
         grad=[0, 1, 2], **TOL),
    case('gemm-batch-alias', 'linalg_gemm',
         [f32('gb-a', 2, 2, 3), f32('gb-b', 2, 3, 4), f32('gb-c', 2, 2, 4)],
         {'transpose_a': False, 'alpha': 0.5, 'beta': 2.0}, grad=[0, 1, 2], **TOL),
    case('gemm-axis', 'linalg.gemm',
         [f32('ga-a', 2, 3, 2, 4), f32('ga-b', 2, 4, 2, 5), f32('ga-c', 2, 3, 2, 5)],
         {'axis': 1}, grad=[0, 1, 2], **TOL),
    case('gemm-f64', 'linalg.gemm',
         [f32('g64-a', 3, 3, dtype=np.float64), f32('g64-b', 3, 2, dtype=np.float64),
          f32('g64-c', 3, 2, dtype=np.float64)], {'transpose_a': True}, grad=[0, 1, 2]),
    case('gemm2', 'linalg.gemm2', [f32('g2-a', 2, 3), f32('g2-b', 3, 4)], grad=[0, 1], **TOL),
    case('gemm2-trans', 'linalg_gemm2', [f32('g2t-a', 2, 3, 2), f32('g2t-b', 2, 4, 3)],
         {'transpose_a': True, 'transpose_b': True, 'alpha': -1.5}, grad=[0, 1], **TOL),
    case('gemm2-trans-b', 'linalg.gemm2', [f32('g2b-a', 2, 3), f32('g2b-b', 4, 3)],
         {'transpose_b': True}, grad=[0, 1], **TOL),
    case('gemm2-axis', 'linalg.gemm2', [f32('g2x-a', 3, 2, 4), f32('g2x-b', 4, 2, 3)],
         {'axis': 0}, grad=[0, 1], **TOL),
    case('gemm2-f64', 'linalg.gemm2', [f32('g2d-a', 2, 3, dtype=np.float64),
                                       f32('g2d-b', 3, 3, dtype=np.float64)], grad=[0, 1]),
    # Cholesky
    case('potrf', 'linalg.potrf', [spd('pf', 3, 3)], grad=[0], **TOL),
    case('potrf-batch-upper', 'linalg_potrf', [spd('pfb', 2, 4, 4)], {'lower': False},
         grad=[0], **TOL),
    case('potrf-f64', 'linalg.potrf', [spd('pf64', 2, 3, 3, dtype=np.float64)], grad=[0]),
    case('potri', 'linalg.potri', [lower('pi', 3, 3)], grad=[0], **TOL),
    case('potri-upper-batch', 'linalg_potri',
         [np.ascontiguousarray(np.swapaxes(lower('piu', 2, 3, 3), -1, -2))], {'lower': False},
         grad=[0], **TOL),
    case('potri-nontriangular', 'linalg.potri', [lower('pin', 3, 3) + np.triu(f32('pin2', 3, 3),
                                                                            1)],
         grad=[0], **TOL),
    # triangular products and solves (A deliberately not triangular)
    case('trmm', 'linalg.trmm', [f32('tm-a', 3, 3), f32('tm-b', 3, 2)], grad=[0, 1], **TOL),
    case('trmm-all-flags', 'linalg_trmm', [f32('tmf-a', 2, 3, 3), f32('tmf-b', 2, 4, 3)],
         {'transpose': True, 'rightside': True, 'lower': False, 'alpha': 2.0},
         grad=[0, 1], **TOL),
    case('trmm-right', 'linalg.trmm', [f32('tmr-a', 3, 3), f32('tmr-b', 2, 3)],
         {'rightside': True}, grad=[0, 1], **TOL),
    case('trmm-trans', 'linalg.trmm', [f32('tmt-a', 3, 3), f32('tmt-b', 3, 2)],
         {'transpose': True, 'alpha': -0.5}, grad=[0, 1], **TOL),
    case('trsm', 'linalg.trsm', [lower('ts-a', 3, 3), f32('ts-b', 3, 2)], grad=[0, 1], **TOL),
    case('trsm-all-flags', 'linalg_trsm',
         [np.ascontiguousarray(np.swapaxes(lower('tsf-a', 2, 3, 3), -1, -2)),
          f32('tsf-b', 2, 4, 3)],
         {'transpose': True, 'rightside': True, 'lower': False, 'alpha': 1.5},
         grad=[0, 1], **TOL),
    case('trsm-right', 'linalg.trsm', [lower('tsr-a', 3, 3), f32('tsr-b', 2, 3)],
         {'rightside': True, 'alpha': -2.0}, grad=[0, 1], **TOL),
    case('trsm-trans-nontri', 'linalg.trsm',
         [lower('tst-a', 3, 3) + np.triu(f32('tst-u', 3, 3), 1), f32('tst-b', 3, 2)],
         {'transpose': True}, grad=[0, 1], **TOL),
    case('trsm-f64', 'linalg.trsm', [lower('ts64-a', 3, 3, dtype=np.float64),
                                     f32('ts64-b', 3, 3, dtype=np.float64)], grad=[0, 1]),
    # reductions, syrk
    case('sumlogdiag', 'linalg.sumlogdiag', [spd('sl', 3, 3)], grad=[0], **TOL),
    case('sumlogdiag-batch', 'linalg_sumlogdiag', [spd('slb', 2, 2, 3, 3)], grad=[0], **TOL),
    case('syrk', 'linalg.syrk', [f32('sy', 2, 3)], grad=[0], **TOL),
    case('syrk-trans-alpha', 'linalg_syrk', [f32('syt', 2, 3, 4)],
         {'transpose': True, 'alpha': 0.7}, grad=[0], **TOL),
    # diagonals and triangles
    case('extractdiag', 'linalg.extractdiag', [f32('ed', 3, 3)], grad=[0]),
    case('extractdiag-offset', 'linalg_extractdiag', [f32('edo', 2, 4, 4)], {'offset': -1},
         grad=[0]),
    case('extractdiag-offset-pos', 'linalg.extractdiag', [f32('edp', 4, 4)], {'offset': 2},
         grad=[0]),
    case('makediag', 'linalg.makediag', [f32('md', 3)], grad=[0]),
    case('makediag-offset', 'linalg_makediag', [f32('mdo', 2, 3)], {'offset': 1}, grad=[0]),
    case('makediag-offset-neg', 'linalg.makediag', [f32('mdn', 2, 2)], {'offset': -2},
         grad=[0]),
    case('extracttrian', 'linalg.extracttrian', [f32('et', 3, 3)], grad=[0]),
    case('extracttrian-upper', 'linalg.extracttrian', [f32('etu', 4, 4)], {'lower': False},
         grad=[0]),
    case('extracttrian-offset', 'linalg_extracttrian', [f32('eto', 2, 4, 4)], {'offset': 1},
         grad=[0]),
    case('extracttrian-offset-neg', 'linalg.extracttrian', [f32('etn', 4, 4)],
         {'offset': -2}, grad=[0]),
    case('maketrian', 'linalg.maketrian', [f32('mt', 6)], grad=[0]),
    case('maketrian-upper', 'linalg.maketrian', [f32('mtu', 2, 6)], {'lower': False},
         grad=[0]),
    case('maketrian-offset', 'linalg_maketrian', [f32('mto', 3)], {'offset': 2}, grad=[0]),
    case('maketrian-offset-neg', 'linalg.maketrian', [f32('mtn', 2, 3)], {'offset': -1},
         grad=[0]),
    # factorizations
    case('gelqf', 'linalg.gelqf', [f32('lq', 2, 4)], grad=[0], **TOL),
    case('gelqf-batch', 'linalg_gelqf', [f32('lqb', 2, 3, 5)], grad=[0], **TOL),
    case('gelqf-square-f64', 'linalg.gelqf', [f32('lqs', 3, 3, dtype=np.float64)], grad=[0]),
    case('syevd', 'linalg.syevd', [sym_distinct('se', 3, 3)], grad=[0], **TOL),
    case('syevd-batch-f64', 'linalg.syevd', [sym_distinct('seb', 2, 4, 4, dtype=np.float64)],
         grad=[0]),
    case('syevd-lower-only', 'linalg.syevd',
         [np.tril(sym_distinct('sel', 3, 3)) + np.triu(f32('selu', 3, 3), 1)], **TOL),
    case('syevd-eigvals-grad', 'linalg.syevd', [sym_distinct('sev', 3, 3)], grad=[0],
         grad_outputs=[1], **TOL),
    case('syevd-repeated', 'linalg.syevd', [np.diag([1., 1., 2.]).astype(np.float32)],
         grad=[0], rtol=1e-4, atol=1e-5),
    case('inverse', 'linalg.inverse', [spd('inv', 3, 3)], grad=[0], **TOL),
    case('inverse-batch', 'linalg_inverse',
         [f32('invb', 2, 3, 3) + 2 * np.eye(3, dtype=np.float32)],
         grad=[0], **TOL),
    case('det', 'linalg.det', [f32('det', 3, 3) + np.eye(3, dtype=np.float32)], grad=[0], **TOL),
    case('det-batch', 'linalg_det', [f32('detb', 2, 2, 2, 2)], grad=[0], **TOL),
    case('det-f64', 'linalg.det', [f32('det64', 4, 4, dtype=np.float64)], grad=[0]),
    case('slogdet', 'linalg.slogdet', [f32('sld', 3, 3)], grad=[0], grad_outputs=[1], **TOL),
    case('slogdet-batch', 'linalg_slogdet', [f32('sldb', 2, 3, 3)], grad=[0],
         grad_outputs=[1], **TOL),
    # errors
    case('gemm2-f16', 'linalg.gemm2', [f32('e1', 2, 2, dtype=np.float16),
                                       f32('e2', 2, 2, dtype=np.float16)], check='error'),
    case('potrf-int', 'linalg.potrf', [np.eye(2, dtype=np.int32)], check='error'),
    case('gemm2-bad-shape', 'linalg.gemm2', [f32('e3', 2, 3), f32('e4', 2, 3)], check='error'),
    case('potrf-not-square', 'linalg.potrf', [f32('e5', 2, 3)], check='error'),
    case('maketrian-bad', 'linalg.maketrian', [f32('e6', 4)], check='error'),
    case('gelqf-tall', 'linalg.gelqf', [f32('e7', 4, 2)], check='error'),
]
