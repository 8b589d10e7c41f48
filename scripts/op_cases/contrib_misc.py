"""Cases for mxcompat/ops/contrib_misc.py and the Python functions of mx.nd.contrib
(mxcompat/ndarray/contrib_python.py)."""
import numpy as np

from . import case, rng


def u(cid, *shape, lo=-1, hi=1, dtype=np.float32):
    return rng(cid).uniform(lo, hi, size=shape).astype(dtype)


def _ints(cid, *shape, lo=-50, hi=50, dtype=np.int32):
    return rng(cid).randint(lo, hi, size=shape).astype(dtype)


_special = np.array([np.inf, -np.inf, np.nan, -1.5, 0, 3], dtype=np.float32)

# hawkesll: N=2 sequences, T=4 points, K=3 marks
_hawkes = {'lda': u('hk-lda', 2, 3, lo=0.5, hi=1.5), 'alpha': np.array([0.2, 0.3, 0.4], np.float32),
           'beta': np.array([1., 2., 3.], np.float32), 'state': u('hk-st', 2, 3, lo=0, hi=1),
           'lags': np.array([[1, 2, 0.5, 1], [0.3, 0.2, 0.4, 2]], np.float32),
           'marks': np.array([[0, 1, 2, 1], [2, 2, 0, 1]], np.int32),
           'valid_length': np.array([3, 4], np.float32),
           'max_time': np.array([10, 8], np.float32)}

_hist = rng('hist').randint(0, 40, size=41).astype(np.float32)
_edges = np.linspace(-2, 2, 42).astype(np.float32)


# control flow: single NDArray states keep the results flat (outputs, states)
def _while_cond(i):
    return i <= 5


def _while_body(i):
    return i * 2, i + 1


def _while_cond_sum(x):
    return x.sum() < 10


def _while_body_sq(x):
    return x * x, x + 1.5


def _foreach_step(data, states):
    return data + states, states * 2


def _foreach_multi(data, states):
    a, b = data
    return a * b + states, states + a


CASES = [
    # ---- index_copy
    case('index_copy', 'contrib.index_copy',
         [u('ic-old', 5, 3), np.array([0, 4, 2], np.float32), u('ic-new', 3, 3)],
         grad=[0, 2]),
    case('index_copy-int64-index', 'contrib.index_copy',
         kwargs={'old_tensor': u('ic-old2', 4, 2, 2, dtype=np.float64),
                 'index_vector': np.array([3, 1], np.int64),
                 'new_tensor': u('ic-new2', 2, 2, 2, dtype=np.float64)},
         grad=['old_tensor', 'new_tensor'], rtol=1e-12, atol=1e-12),
    case('index_copy-int', 'contrib.index_copy',
         [_ints('ic-i', 4, 3), np.array([1], np.int32), _ints('ic-j', 1, 3)]),
    case('index_copy-bad-rows', 'contrib.index_copy',
         [u('ic-old', 5, 3), np.array([0, 4], np.float32), u('ic-new', 3, 3)], check='error'),
    case('index_copy-bad-width', 'contrib.index_copy',
         [u('ic-old', 5, 3), np.array([0, 4, 2], np.float32), u('ic-new', 3, 2)],
         check='error'),
    case('backward_index_copy', 'contrib.backward_index_copy', check='error'),

    # ---- index_array
    case('index_array', 'contrib.index_array', [u('ia', 2, 3, 2)]),
    case('index_array-axes', 'contrib.index_array', [u('ia', 2, 3, 2)], {'axes': (-1, 0)}),
    case('index_array-1d', 'contrib.index_array', [_ints('ia1', 4)], {'axes': (0,)}),

    # ---- boolean_mask
    case('boolean_mask', 'contrib.boolean_mask',
         [u('bm', 4, 3), np.array([0, 1, 1, 0], np.float32)], grad=[0]),
    case('boolean_mask-int', 'contrib.boolean_mask',
         kwargs={'data': _ints('bmi', 3, 2, 2), 'index': np.array([1, 0, 3], np.int32)}),
    case('boolean_mask-none', 'contrib.boolean_mask',
         [u('bm', 4, 3), np.zeros(4, np.float32)]),
    case('boolean_mask-axis1', 'contrib.boolean_mask',
         [u('bm', 4, 3), np.array([0, 1, 1], np.float32)], {'axis': 1}, check='error'),

    # ---- allclose
    case('allclose-true', 'contrib.allclose', [u('ac', 3, 4), u('ac', 3, 4) + 1e-7]),
    case('allclose-false', 'contrib.allclose', [u('ac', 3, 4), u('ac', 3, 4) + 1e-3]),
    case('allclose-tol', 'contrib.allclose', [u('ac', 3, 4), u('ac', 3, 4) + 1e-3],
         {'rtol': 0.0, 'atol': 2e-3}),
    case('allclose-nan', 'contrib.allclose', [_special, _special]),
    case('allclose-nan-unequal', 'contrib.allclose', [_special, _special],
         {'equal_nan': False}),
    case('allclose-bad-shape', 'contrib.allclose', [u('ac', 3, 4), u('ac', 1, 4)],
         check='error'),

    # ---- straight-through estimators, gradientmultiplier, quadratic, div_sqrt_dim
    case('round_ste', 'contrib.round_ste',
         [np.array([1.4, -2.5, 3.5, 0.5, -0.49, 2.5], np.float32)], grad=[0]),
    case('round_ste-float64', 'contrib.round_ste', [u('rs', 3, 4, lo=-3, hi=3, dtype=np.float64)],
         grad=[0]),
    case('sign_ste', 'contrib.sign_ste', [np.array([1.4, -2.5, 0, 0.1], np.float32)], grad=[0]),
    case('sign_ste-2d', 'contrib.sign_ste', [u('ss', 3, 4)], grad=[0]),
    case('gradientmultiplier', 'contrib.gradientmultiplier', [u('gm', 2, 3)],
         {'scalar': -2.0}, grad=[0]),
    case('gradientmultiplier-default', 'contrib.gradientmultiplier', [u('gm', 2, 3)], grad=[0]),
    case('backward_gradientmultiplier', 'contrib.backward_gradientmultiplier', [u('bgm', 4)],
         {'scalar': 3.0}),
    case('backward_gradientmultiplier-int', 'contrib.backward_gradientmultiplier',
         [_ints('bgmi', 4)], {'scalar': 3.5}),
    case('quadratic', 'contrib.quadratic', [u('qd', 2, 3)], {'a': 2, 'b': 3, 'c': 1},
         grad=[0]),
    case('quadratic-default', 'contrib.quadratic', [u('qd', 2, 3)], grad=[0]),
    case('quadratic-float64', 'contrib.quadratic', [u('qd', 2, 3, dtype=np.float64)],
         {'a': -0.5, 'c': 4}, grad=[0], rtol=1e-12),
    # MXNet: x * (a * x + b) + c with float32 a, b, c (also for float64 data), in float32 for
    # integer data, truncated to the data's type
    case('quadratic-float64-f32-coefs', 'contrib.quadratic',
         [u('qd64', 3, 4, lo=-3, hi=3, dtype=np.float64)], {'a': 0.1, 'b': 0.3, 'c': 0.7},
         grad=[0], rtol=1e-13, atol=1e-15),
    case('quadratic-int-fraction', 'contrib.quadratic', [_ints('qdi', 2, 5, lo=-9, hi=9)],
         {'a': 0.5, 'b': 1.7, 'c': -0.6}),
    case('quadratic-int64-fraction', 'contrib.quadratic',
         [_ints('qdi', 2, 5, lo=-9, hi=9, dtype=np.int64)], {'a': -0.25, 'b': 0.5, 'c': 2.5}),
    case('backward_quadratic', 'contrib.backward_quadratic', kwargs={'a': 1.0},
         check='error'),
    case('div_sqrt_dim', 'contrib.div_sqrt_dim', [u('ds', 2, 5)], grad=[0]),
    case('div_sqrt_dim-3d', 'contrib.div_sqrt_dim', [u('ds3', 2, 2, 3, dtype=np.float64)],
         grad=[0], rtol=1e-12),

    # ---- interleaved attention matmuls: seq 3, batch 2, heads 2, head_dim 4
    case('selfatt_qk', 'contrib.interleaved_matmul_selfatt_qk', [u('sqk', 3, 2, 24)],
         {'heads': 2}, grad=[0], rtol=1e-5, atol=1e-6),
    case('selfatt_valatt', 'contrib.interleaved_matmul_selfatt_valatt',
         [u('sva', 3, 2, 24), u('sva-att', 4, 3, 3)], {'heads': 2}, grad=[0, 1]),
    case('encdec_qk', 'contrib.interleaved_matmul_encdec_qk',
         [u('eqk-q', 3, 2, 8), u('eqk-kv', 5, 2, 16)], {'heads': 2}, grad=[0, 1]),
    case('encdec_valatt', 'contrib.interleaved_matmul_encdec_valatt',
         [u('eva-kv', 5, 2, 16), u('eva-att', 4, 3, 5)], {'heads': 2}, grad=[0, 1]),
    case('selfatt_qk-float64', 'contrib.interleaved_matmul_selfatt_qk',
         [u('sqk', 3, 2, 24, dtype=np.float64)], {'heads': 2}, check='error'),
    case('encdec_qk-bad-width', 'contrib.interleaved_matmul_encdec_qk',
         [u('eqk-q', 3, 2, 8), u('eqk-kv', 5, 2, 12)], {'heads': 2}, check='error'),

    # ---- GPU-only in MXNet: fail on CPU
    case('fft-cpu', 'contrib.fft', [u('fft', 2, 4)], check='error'),
    case('ifft-cpu', 'contrib.ifft', [u('ifft', 2, 8)], {'compute_size': 16}, check='error'),
    case('count_sketch-cpu', 'contrib.count_sketch',
         [u('cs', 2, 3), np.array([[0, 2, 1]], np.float32), np.array([[1, -1, 1]], np.float32)],
         {'out_dim': 4}, check='error'),

    # ---- hawkesll
    case('hawkesll', 'contrib.hawkesll', kwargs=_hawkes, grad=['lda', 'alpha', 'beta', 'state'],
         grad_outputs=[0], rtol=1e-4, atol=1e-5),
    case('hawkesll-float64', 'contrib.hawkesll',
         kwargs={k: (v.astype(np.float64) if v.dtype == np.float32 else v)
                 for k, v in _hawkes.items()},
         grad=['lda', 'alpha', 'beta'], grad_outputs=[0], rtol=1e-6, atol=1e-8),  # expf/logf
    case('hawkesll-float64-expf', 'contrib.hawkesll',  # exp / log in float32 as MXNet's
         kwargs={k: (v.astype(np.float64) if v.dtype == np.float32 else v)
                 for k, v in dict(_hawkes, alpha=np.array([0.15, 0.35, 0.45], np.float32),
                                  beta=np.array([0.7, 1.3, 2.1], np.float32)).items()},
         grad=['lda', 'alpha', 'beta'], grad_outputs=[0], rtol=1e-12, atol=1e-14),
    case('hawkesll-bad-shape', 'contrib.hawkesll',
         kwargs=dict(_hawkes, alpha=np.array([0.2, 0.3], np.float32)), check='error'),
    case('backward_hawkesll', 'contrib.backward_hawkesll', check='error'),

    # ---- BatchNormWithReLU
    case('BatchNormWithReLU-train', 'contrib.BatchNormWithReLU',
         kwargs={'data': u('bnr', 2, 3, 2, 2), 'gamma': u('bnr-g', 3, lo=0.5, hi=1.5),
                 'beta': u('bnr-b', 3), 'moving_mean': np.zeros(3, np.float32),
                 'moving_var': np.ones(3, np.float32), 'fix_gamma': False},
         grad=['data', 'gamma', 'beta'], train=True, rtol=1e-4, atol=1e-5),
    case('BatchNormWithReLU-predict', 'contrib.BatchNormWithReLU',
         kwargs={'data': u('bnr', 2, 3, 2, 3), 'gamma': u('bnr-g', 3, lo=0.5, hi=1.5),
                 'beta': u('bnr-b', 3), 'moving_mean': u('bnr-m', 3),
                 'moving_var': u('bnr-v', 3, lo=0.5, hi=2), 'output_mean_var': True},
         rtol=1e-5, atol=1e-6),

    # ---- quantization
    case('quantize-uint8', 'contrib.quantize',
         [u('qz', 3, 4), np.array([-1], np.float32), np.array([1], np.float32)]),
    case('quantize-int8', 'contrib.quantize',
         [u('qz', 3, 4, lo=-2, hi=2), np.array([-1.5], np.float32), np.array([1], np.float32)],
         {'out_type': 'int8'}),
    case('quantize_v2', 'contrib.quantize_v2', [u('qv2', 3, 4)]),
    case('quantize_v2-calib-uint8', 'contrib.quantize_v2', [u('qv2', 3, 4, lo=0, hi=2)],
         {'min_calib_range': 0.0, 'max_calib_range': 1.5, 'out_type': 'auto'}),
    case('quantize_v2-calib-int8', 'contrib.quantize_v2', [u('qv2', 3, 4, lo=-2, hi=2)],
         {'min_calib_range': -1.0, 'max_calib_range': 1.5, 'out_type': 'auto'}),
    case('quantize_v2-uint8-data', 'contrib.quantize_v2',
         [_ints('qv2u', 2, 3, lo=0, hi=255, dtype=np.uint8)], {'out_type': 'uint8'}),
    case('quantize_v2-int8-data-calib', 'contrib.quantize_v2',
         [_ints('qv2i', 2, 3, lo=-127, hi=127, dtype=np.int8)],
         {'min_calib_range': -3.0, 'max_calib_range': 2.0}),
    case('dequantize-int8', 'contrib.dequantize',
         [_ints('dq', 3, 4, lo=-127, hi=128, dtype=np.int8), np.array([-1], np.float32),
          np.array([2], np.float32)]),
    case('dequantize-uint8', 'contrib.dequantize',
         [_ints('dqu', 3, 4, lo=0, hi=256, dtype=np.uint8), np.array([-0.5], np.float32),
          np.array([3], np.float32)]),
    case('requantize', 'contrib.requantize',
         [_ints('rq', 3, 4, lo=-10 ** 8, hi=10 ** 8), np.array([-1], np.float32),
          np.array([2], np.float32)]),
    case('requantize-calib', 'contrib.requantize',
         [_ints('rq', 3, 4, lo=-10 ** 8, hi=10 ** 8), np.array([-1], np.float32),
          np.array([2], np.float32)], {'min_calib_range': -0.05, 'max_calib_range': 0.08}),
    case('requantize-uint8', 'contrib.requantize',
         [_ints('rqu', 3, 4, lo=0, hi=10 ** 8), np.array([-1], np.float32),
          np.array([2], np.float32)],
         {'out_type': 'auto', 'min_calib_range': 0.0, 'max_calib_range': 0.08}),
    case('calibrate_entropy', 'contrib.calibrate_entropy', [_hist, _edges],
         {'num_quantized_bins': 5}),
    case('calibrate_entropy-3', 'contrib.calibrate_entropy',
         [np.arange(1, 12).astype(np.float32), np.linspace(-1, 1, 12).astype(np.float32)],
         {'num_quantized_bins': 3}),
    case('calibrate_entropy-bad-edges', 'contrib.calibrate_entropy', [_hist, _edges[:-1]],
         check='error'),
    case('quantized_flatten', 'contrib.quantized_flatten',
         [_ints('qf', 2, 3, 2, lo=-127, hi=127, dtype=np.int8), np.array([-1], np.float32),
          np.array([1], np.float32)]),

    # ---- Python functions of mx.nd.contrib
    case('isinf', 'contrib.isinf', [_special]),
    case('isfinite', 'contrib.isfinite', [_special]),
    case('isnan', 'contrib.isnan', [_special]),
    case('isnan-float64', 'contrib.isnan', [_special.astype(np.float64)]),
    case('foreach', 'contrib.foreach', [_foreach_step, u('fe', 3, 4), u('fe-s', 4)],
         grad=[1, 2]),
    case('foreach-multi', 'contrib.foreach',
         [_foreach_multi, [u('fe-a', 2, 3), u('fe-b', 2, 3)], u('fe-s0', 3)]),
    case('while_loop', 'contrib.while_loop',
         [_while_cond, _while_body, np.array([0], np.int64)], {'max_iterations': 6}),
    case('while_loop-float', 'contrib.while_loop',
         [_while_cond_sum, _while_body_sq, np.array([0.5, 1.0], np.float32)],
         {'max_iterations': 3}, grad=[2]),
    case('while_loop-no-max', 'contrib.while_loop',
         [_while_cond, _while_body, np.array([0], np.int64)], check='error'),
    case('rand_zipfian', 'contrib.rand_zipfian', [np.array([3, 7], np.float32), 6, 10],
         check='shape'),
    case('contrib-uniform', 'contrib.uniform', kwargs={'low': -1, 'high': 2, 'shape': (3, 2)},
         check='shape'),
    case('contrib-_as_list', 'contrib._as_list', [u('al', 2)]),
    case('contrib-_get_rescale_grad', 'contrib._get_rescale_grad', [2.5]),
]
