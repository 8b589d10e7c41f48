"""Cases for mxcompat/ops/loss_heads.py.

The loss heads ignore the head gradient: the harness's random head gradients must not change
MXNet's numbers, which the data gradients check.
"""
import numpy as np

from . import case, rng


def f32(cid, *shape, lo=-1, hi=1, dtype=np.float32):
    return rng(cid).uniform(lo, hi, size=shape).astype(dtype)


def labels(cid, k, *shape, dtype=np.float32):
    return rng(cid).randint(0, k, size=shape).astype(dtype)


def _so(cid, data, label, **kw):
    kwargs = {'data': data, 'label': label}
    kwargs.update(kw)
    return case(cid, 'SoftmaxOutput', kwargs=kwargs, grad=['data'])


_wide_lab = labels('sw-l', 10, 64)
_wide_lab[3], _wide_lab[7] = 12, 2.7  # out of range and fractional, as users' labels can be
_lab_ign = np.array([1, 0, 2, 1, 3], dtype=np.float32)
_ml_lab = labels('mo-l', 3, 2, 4)
_ml_lab[0, 1] = 1
_ctc_label = np.array([[1, 2, 0], [3, 3, 0]], dtype=np.float32)
_ctc_last = np.array([[1, 2, -1], [0, -1, -1]], dtype=np.float32)
_ctc_imp = np.array([[1, 2, 1], [3, 3, 3]], dtype=np.float32)

CASES = [
    # ---- SoftmaxOutput / Softmax
    _so('SoftmaxOutput-basic', f32('so-d', 4, 5, lo=-3, hi=3), labels('so-l', 5, 4)),
    # few classes and many rows: mxcompat's transposed-softmax path
    _so('SoftmaxOutput-64x10', f32('sw-d', 64, 10, lo=-4, hi=4), _wide_lab),
    _so('SoftmaxOutput-64x10-f64', f32('sw-d', 64, 10, lo=-4, hi=4, dtype=np.float64),
        _wide_lab.astype(np.float64), grad_scale=0.5),
    _so('SoftmaxOutput-scale', f32('so-d', 4, 5, lo=-3, hi=3), labels('so-l', 5, 4),
        grad_scale=2.5),
    _so('SoftmaxOutput-ignore', f32('si-d', 5, 4), _lab_ign, use_ignore=True, ignore_label=1),
    _so('SoftmaxOutput-ignore-valid', f32('si-d', 5, 4), _lab_ign, use_ignore=True,
        ignore_label=1, normalization='valid'),
    _so('SoftmaxOutput-valid-noignore', f32('si-d', 5, 4), _lab_ign, ignore_label=1,
        normalization='valid'),
    _so('SoftmaxOutput-batch', f32('si-d', 5, 4), _lab_ign, normalization='batch',
        grad_scale=3.0),
    _so('SoftmaxOutput-smooth', f32('sm-d', 4, 6), labels('sm-l', 6, 4), smooth_alpha=0.2),
    _so('SoftmaxOutput-smooth-ignore', f32('si-d', 5, 4), _lab_ign, smooth_alpha=0.1,
        use_ignore=True, ignore_label=1, normalization='valid'),
    _so('SoftmaxOutput-outgrad', f32('so-d', 4, 5), labels('so-l', 5, 4), out_grad=True,
        grad_scale=2.0),
    _so('SoftmaxOutput-prob-label', f32('sp-d', 3, 4),
        np.full((3, 4), 0.25, dtype=np.float32), grad_scale=2.0),
    _so('SoftmaxOutput-prob-label-outgrad', f32('sp-d', 3, 4),
        np.full((3, 4), 0.25, dtype=np.float32), out_grad=True),
    _so('SoftmaxOutput-flatten-3d', f32('s3-d', 2, 3, 4), labels('s3-l', 12, 2, 3)),
    _so('SoftmaxOutput-preserve', f32('sv-d', 2, 3, 4), labels('sv-l', 4, 2, 3),
        preserve_shape=True),
    _so('SoftmaxOutput-preserve-batch', f32('sv-d', 2, 3, 4), labels('sv-l', 4, 2, 3),
        preserve_shape=True, normalization='batch'),
    _so('SoftmaxOutput-multi', f32('mo-d', 2, 3, 4), _ml_lab, multi_output=True),
    _so('SoftmaxOutput-multi-4d', f32('m4-d', 2, 3, 2, 2), labels('m4-l', 3, 2, 2, 2),
        multi_output=True),
    _so('SoftmaxOutput-multi-4d-flatlabel', f32('m4-d', 2, 3, 2, 2), labels('m4-l', 3, 2, 4),
        multi_output=True),
    _so('SoftmaxOutput-multi-ignore-valid', f32('mo-d', 2, 3, 4), _ml_lab, multi_output=True,
        use_ignore=True, ignore_label=1, normalization='valid'),
    _so('SoftmaxOutput-multi-batch', f32('mo-d', 2, 3, 4), _ml_lab, multi_output=True,
        normalization='batch', grad_scale=0.5),
    _so('SoftmaxOutput-multi-outgrad', f32('mo-d', 2, 3, 4), _ml_lab, multi_output=True,
        out_grad=True),
    _so('SoftmaxOutput-float64', f32('so-d', 4, 5, dtype=np.float64),
        labels('so-l', 5, 4, dtype=np.float64), normalization='batch'),
    case('SoftmaxOutput-float16', 'SoftmaxOutput',
         kwargs={'data': f32('so-d', 4, 5, dtype=np.float16),
                 'label': labels('so-l', 5, 4, dtype=np.float16)},
         grad=['data'], rtol=2e-3, atol=2e-3),
    case('SoftmaxOutput-label-grad', 'SoftmaxOutput',
         kwargs={'data': f32('so-d', 4, 5), 'label': labels('so-l', 5, 4)},
         grad=['data', 'label']),
    case('SoftmaxOutput-positional', 'SoftmaxOutput',
         [f32('so-d', 4, 5), labels('so-l', 5, 4)], {'grad_scale': 0.5}, grad=[0]),
    case('SoftmaxOutput-predict', 'SoftmaxOutput',
         kwargs={'data': f32('so-d', 4, 5), 'label': labels('so-l', 5, 4)}),
    case('Softmax-alias', 'Softmax', kwargs={'data': f32('so-d', 4, 5),
                                             'label': labels('so-l', 5, 4)}, grad=['data']),
    case('SoftmaxOutput-int-label', 'SoftmaxOutput',
         kwargs={'data': f32('so-d', 4, 5), 'label': labels('so-l', 5, 4, dtype=np.int32)},
         check='error'),
    case('SoftmaxOutput-int-data', 'SoftmaxOutput',
         kwargs={'data': labels('so-l', 5, 4, 5, dtype=np.int32),
                 'label': labels('so-l', 5, 4, dtype=np.int32)}, check='error'),
    case('SoftmaxOutput-bad-label', 'SoftmaxOutput',
         kwargs={'data': f32('so-d', 4, 5), 'label': labels('so-l', 5, 3)}, check='error'),

    # ---- regression outputs
    case('LinearRegressionOutput', 'LinearRegressionOutput',
         kwargs={'data': f32('lr-d', 3, 4), 'label': f32('lr-l', 3, 4)}, grad=['data', 'label']),
    case('LinearRegressionOutput-scale-col', 'LinearRegressionOutput',
         kwargs={'data': f32('lr-d1', 5, 1), 'label': f32('lr-l1', 5), 'grad_scale': 3.0},
         grad=['data']),
    case('LinearRegressionOutput-float64', 'LinearRegressionOutput',
         kwargs={'data': f32('lr-d', 3, 2, 2, dtype=np.float64),
                 'label': f32('lr-l', 3, 2, 2, dtype=np.float64)}, grad=['data']),
    case('LogisticRegressionOutput', 'LogisticRegressionOutput',
         kwargs={'data': f32('lg-d', 3, 4, lo=-3, hi=3),
                 'label': labels('lg-l', 2, 3, 4), 'grad_scale': 0.5}, grad=['data']),
    case('LogisticRegressionOutput-predict', 'LogisticRegressionOutput',
         kwargs={'data': f32('lg-d', 3, 4, lo=-3, hi=3), 'label': labels('lg-l', 2, 3, 4)}),
    case('MAERegressionOutput', 'MAERegressionOutput',
         kwargs={'data': np.array([[0., 1, 2], [2, 2, -1]], dtype=np.float32),
                 'label': np.array([[0., 1.5, 1], [2, 3, -3]], dtype=np.float32),
                 'grad_scale': 2.0}, grad=['data', 'label']),
    case('MAERegressionOutput-3d', 'MAERegressionOutput',
         kwargs={'data': f32('mae-d', 2, 3, 2), 'label': f32('mae-l', 2, 3, 2)}, grad=['data']),
    case('LinearRegressionOutput-int-label', 'LinearRegressionOutput',
         kwargs={'data': f32('lr-d', 3, 4), 'label': labels('lr-l', 3, 3, 4, dtype=np.int32)},
         check='error'),
    case('LinearRegressionOutput-bad-label', 'LinearRegressionOutput',
         kwargs={'data': f32('lr-d', 3, 4), 'label': f32('lr-l', 3, 5)}, check='error'),

    # ---- SVMOutput
    case('SVMOutput-l2', 'SVMOutput',
         kwargs={'data': f32('svm-d', 4, 5, lo=-2, hi=2), 'label': labels('svm-l', 5, 4)},
         grad=['data', 'label']),
    case('SVMOutput-l1', 'SVMOutput',
         kwargs={'data': f32('svm-d', 4, 5, lo=-2, hi=2), 'label': labels('svm-l', 5, 4),
                 'use_linear': True, 'margin': 0.5, 'regularization_coefficient': 2.0},
         grad=['data']),
    case('SVMOutput-l2-params', 'SVMOutput',
         kwargs={'data': f32('svm-d', 4, 5, lo=-2, hi=2), 'label': labels('svm-l', 5, 4),
                 'margin': 1.5, 'regularization_coefficient': 0.3}, grad=['data']),
    case('SVMOutput-int-label', 'SVMOutput',
         kwargs={'data': f32('svm-d', 4, 5), 'label': labels('svm-l', 5, 4, dtype=np.int32)},
         check='error'),
    case('SVMOutput-3d-float64', 'SVMOutput',
         kwargs={'data': f32('svm3-d', 2, 3, 4, lo=-2, hi=2, dtype=np.float64),
                 'label': labels('svm3-l', 4, 2, 3, dtype=np.float64)}, grad=['data']),

    # ---- softmax_cross_entropy
    case('softmax_cross_entropy', 'softmax_cross_entropy',
         kwargs={'data': f32('sce-d', 4, 5, lo=-3, hi=3), 'label': labels('sce-l', 5, 4)},
         grad=['data']),
    case('softmax_cross_entropy-float64', 'softmax_cross_entropy',
         [f32('sce-d', 4, 5, lo=-3, hi=3, dtype=np.float64),
          labels('sce-l', 5, 4, dtype=np.float64)], grad=[0]),
    case('softmax_cross_entropy-clamped', 'softmax_cross_entropy',
         kwargs={'data': np.array([[0., 40, 0], [1, 2, 3]], dtype=np.float32),
                 'label': np.array([0, 2], dtype=np.float32)}, grad=['data']),
    case('softmax_cross_entropy-int-label', 'softmax_cross_entropy',
         kwargs={'data': f32('sce-d', 4, 5), 'label': labels('sce-l', 5, 4, dtype=np.int32)},
         check='error'),
    case('softmax_cross_entropy-bad-shape', 'softmax_cross_entropy',
         kwargs={'data': f32('sce-d', 4, 5), 'label': labels('sce-l', 5, 4, 1)}, check='error'),

    # ---- CTCLoss and aliases
    case('CTCLoss', 'CTCLoss', kwargs={'data': f32('ctc-d', 4, 2, 5, lo=-2, hi=2),
                                       'label': _ctc_label}, grad=['data']),
    case('ctc_loss-alias', 'ctc_loss', [f32('ctc-d', 4, 2, 5, lo=-2, hi=2), _ctc_label],
         grad=[0]),
    case('contrib.CTCLoss', 'contrib.CTCLoss', [f32('ctc-d', 4, 2, 5), _ctc_label], grad=[0]),
    case('contrib.ctc_loss', 'contrib.ctc_loss', [f32('ctc-d', 4, 2, 5), _ctc_label]),
    case('CTCLoss-int-label', 'CTCLoss',
         [f32('ctc-d', 4, 2, 5), _ctc_label.astype(np.int32)]),
    case('CTCLoss-blank-last', 'CTCLoss',
         kwargs={'data': f32('ctc-d2', 5, 2, 4, lo=-2, hi=2), 'label': _ctc_last,
                 'blank_label': 'last'}, grad=['data']),
    case('CTCLoss-data-lengths', 'CTCLoss',
         [f32('ctc-d3', 6, 2, 5, lo=-2, hi=2), _ctc_label, np.array([3.7, 6], np.float32)],
         {'use_data_lengths': True}, grad=[0]),
    case('CTCLoss-label-lengths-positional', 'CTCLoss',
         [f32('ctc-d', 4, 2, 5), _ctc_label, np.array([1, 2], np.float32)],
         {'use_label_lengths': True}, grad=[0]),
    case('CTCLoss-label-lengths-kw', 'CTCLoss',
         kwargs={'data': f32('ctc-d', 4, 2, 5), 'label': _ctc_label,
                 'label_lengths': np.array([1, 2], np.float32), 'use_label_lengths': True}),
    case('CTCLoss-both-lengths', 'CTCLoss',
         [f32('ctc-d3', 6, 2, 5), np.array([[1, 2, 3], [4, 1, 1]], np.float32),
          np.array([5, 4], np.float32), np.array([3, 2], np.float32)],
         {'use_data_lengths': True, 'use_label_lengths': True}, grad=[0]),
    # MXNet leaves the gradient of an impossible alignment uninitialized: compare the loss only
    case('CTCLoss-impossible', 'CTCLoss', [f32('ctc-d', 3, 2, 5), _ctc_imp]),
    case('CTCLoss-repeats', 'CTCLoss',
         [f32('ctc-d4', 8, 3, 4, lo=-3, hi=3),
          np.array([[1, 1, 2], [3, 0, 0], [2, 3, 2]], np.float32)], grad=[0],
         rtol=1e-4, atol=1e-5),
    case('CTCLoss-float64', 'CTCLoss',
         [f32('ctc-d', 4, 2, 5, dtype=np.float64), _ctc_label.astype(np.float64)],
         check='error'),

    # ---- IdentityAttachKLSparseReg is only reachable through symbols in MXNet (its aux state
    # cannot be passed to mx.nd); tests/test_loss_heads_sym.py covers it.
]
CASES.append(case('IdentityAttachKLSparseReg-no-aux', 'IdentityAttachKLSparseReg',
                  kwargs={'data': f32('kl-d', 3, 4, lo=0, hi=1)}, check='error'))
