"""Fixtures for mx.test_utils (and the small mx.engine / mx.util / mx.profiler answers).

:func:`run_scenarios` runs the same calls under real MXNet (to write tests/fixtures/test_utils/)
and under mxcompat (tests/test_test_utils.py): seeded random helpers (which must draw the same
numbers), tolerances, pass/fail decisions of the assertion helpers, the symbol checkers, and
what mx.engine, mx.util and mx.profiler return.
"""
import json
import os

import numpy as np


def _passes(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
        return True
    except AssertionError:
        return False


def run_scenarios(mx, tu):
    """Returns ({name: numpy array}, {name: JSON-able value})."""
    arrays, records = {}, {}

    # seeded random helpers
    np.random.seed(11)
    arrays['random_arrays'] = tu.random_arrays((2, 3))
    a, b = tu.random_arrays((2,), ())
    arrays['random_arrays2/0'], arrays['random_arrays2/1'] = a, b
    records['rand_shape_2d'] = [int(v) for v in tu.rand_shape_2d()]
    records['rand_shape_3d'] = [int(v) for v in tu.rand_shape_3d(4, 5, 6)]
    records['rand_shape_nd'] = [int(v) for v in tu.rand_shape_nd(4)]
    records['rand_shape_nd_zero'] = [int(v) for v in tu.rand_shape_nd(6, dim=2,
                                                                     allow_zero_size=True)]
    records['random_sample'] = [int(v) for v in tu.random_sample(list(range(20)), 5)]
    x = tu.rand_ndarray((3, 2))
    arrays['rand_ndarray'] = x.asnumpy()
    records['rand_ndarray_dtype'] = np.dtype(x.dtype).name
    arrays['rand_ndarray_f64'] = tu.rand_ndarray((2, 2), dtype='float64').asnumpy()
    arrays['random_uniform'] = tu.random_uniform_arrays((2, 2), low=-1, high=2)[0]
    records['rand_coord_2d'] = [int(v) for v in tu.rand_coord_2d(0, 10, 5, 8)]
    arrays['new_sym'] = tu.new_sym_matrix_with_real_eigvals_nd((2, 3, 3))
    arrays['new_real_eig'] = tu.new_matrix_with_real_eigvals_nd((2, 2))
    arrays['orthonormal'] = tu.new_orthonormal_matrix_2d(3)

    # tolerances
    dts = ['float16', 'float32', 'float64', 'int32', 'bool', 'uint8', 'int64']
    records['get_tols'] = [list(tu.get_tols(np.zeros(1, a), np.zeros(1, b), None, None))
                           for a in dts for b in dts]
    records['get_tols_nd'] = list(tu.get_tols(mx.nd.zeros((1,), dtype='float16'),
                                              np.zeros(1, 'float64'), None, None))
    records['get_tols_number'] = list(tu.get_tols(1.0, np.zeros(1, 'float32'), None, None))
    records['get_tols_dict'] = list(tu.get_tols(np.zeros(1, 'float32'), np.zeros(1, 'float32'),
                                                {np.dtype(np.float32): 0.5}, 0.25))
    records['get_atol_rtol'] = [tu.get_atol(), tu.get_rtol(), tu.get_atol(0.5),
                                tu.get_etol(), tu.get_etol(0.1)]
    records['numeric_eps'] = sorted((k.name, v) for k, v in tu.default_numeric_eps().items())
    records['effective_dtype'] = [tu.effective_dtype(np.zeros(1, 'float32')).name,
                                  tu.effective_dtype(mx.nd.zeros((1,))).name]

    # assertion helpers: pass or fail
    base = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    cases = [
        ('exact', base, base.copy(), {}),
        ('within_default_f32', base, base + 5e-4, {}),
        ('beyond_default_f32', base, base + 5e-3, {}),
        ('f16_loose', base.astype('float16'), (base + 0.05).astype('float16'), {}),
        ('f64_tight', base.astype('float64'), base.astype('float64') + 1e-6, {}),
        ('rtol_given', base, base * 1.01, {'rtol': 0.02, 'atol': 0}),
        ('atol_given', base, base + 0.3, {'rtol': 0, 'atol': 0.2}),
        ('nan_default', np.array([np.nan, 1.0]), np.array([np.nan, 1.0]), {}),
        ('nan_equal', np.array([np.nan, 1.0]), np.array([np.nan, 1.0]), {'equal_nan': True}),
        ('inf', np.array([np.inf, 1.0]), np.array([np.inf, 1.0]), {}),
        ('broadcast', np.ones((2, 3)), np.ones((3,)), {}),
        ('no_broadcast', np.ones((2, 3)), np.ones((3,)), {'use_broadcast': False}),
        ('int_exact', np.array([1, 2]), np.array([1, 3]), {}),
        ('bool', np.array([True, False]), np.array([True, True]), {}),
        ('nd_vs_np', mx.nd.array(base), base + 5e-4, {}),
        ('nd_vs_nd', mx.nd.array(base), mx.nd.array(base + 5e-3), {}),
        ('nd_f16_vs_np', mx.nd.array(base, dtype='float16'), base + 0.05, {}),
        ('rtol_dict', base, base * 1.01, {'rtol': {np.dtype(np.float32): 0.02}, 'atol': 0}),
    ]
    records['assert_almost_equal'] = {name: _passes(tu.assert_almost_equal, a, b, **kw)
                                      for name, a, b, kw in cases}
    records['assert_allclose'] = {name: _passes(tu.assert_allclose, a, b)
                                  for name, a, b, _ in cases[:8]}
    records['almost_equal'] = {name: bool(tu.almost_equal(np.asarray(a), np.asarray(b)))
                               for name, a, b, kw in cases[:10]}
    records['with_err'] = [
        _passes(tu.assert_almost_equal_with_err, np.arange(10.), np.arange(10.) + np.eye(10)[0],
                etol=0.2),
        _passes(tu.assert_almost_equal_with_err, np.arange(10.),
                np.arange(10.) + np.eye(10)[0] + np.eye(10)[1] + np.eye(10)[2], etol=0.2)]
    records['ignore_nan'] = _passes(tu.assert_almost_equal_ignore_nan,
                                    np.array([np.nan, 1.0]), np.array([5.0, 1.0]))
    records['same'] = [bool(tu.same(np.ones(2), np.ones(2))), bool(tu.same(np.ones(2),
                                                                           np.zeros(2)))]
    records['assert_exception'] = [
        _passes(tu.assert_exception, lambda: 1 / 0, ZeroDivisionError),
        _passes(tu.assert_exception, lambda: 1, ZeroDivisionError)]

    # numpy helpers
    d = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    arrays['np_reduce/1'] = tu.np_reduce(d, 1, False, np.sum)
    arrays['np_reduce/02k'] = tu.np_reduce(d, (0, 2), True, np.max)
    arrays['np_reduce/none'] = tu.np_reduce(d, None, False, np.sum)
    arrays['collapse'] = tu.collapse_sum_like(d, (3, 1))
    arrays['assign_each'] = tu.assign_each(d[0], lambda v: v * 2 + 1)
    arrays['assign_each2'] = tu.assign_each2(d[0], d[1], lambda p, q: p - q)
    records['buckets'] = [list(map(list, tu.gen_buckets_probs_with_ppf(lambda p: p * 4 - 1,
                                                                        4)[0])),
                          tu.gen_buckets_probs_with_ppf(lambda p: p, 5)[1]]

    # symbol checkers
    sa, sb = mx.sym.Variable('a'), mx.sym.Variable('b')
    prod = sa * sb
    np.random.seed(5)
    xa, xb = np.random.uniform(-1, 1, (2, 3)), np.random.uniform(-1, 1, (2, 3))
    outs = tu.check_symbolic_forward(prod, [xa, xb], [xa * xb])
    arrays['sym_forward'] = outs[0].asnumpy()
    records['sym_forward_wrong'] = _passes(tu.check_symbolic_forward, prod, [xa, xb],
                                           [xa * xb + 0.01])
    records['sym_forward_dict'] = _passes(tu.check_symbolic_forward, prod, {'a': xa, 'b': xb},
                                          {prod.list_outputs()[0]: xa * xb})
    og = np.random.uniform(-1, 1, (2, 3))
    grads = tu.check_symbolic_backward(prod, [xa, xb], [og], [og * xb, og * xa])
    arrays['sym_backward/a'] = grads['a'].asnumpy()
    records['sym_backward_add'] = _passes(tu.check_symbolic_backward, prod, [xa, xb], [og],
                                          [og * xb, og * xa], grad_req='add')
    records['sym_backward_null'] = _passes(tu.check_symbolic_backward, prod, [xa, xb], [og],
                                           {'a': og * xb}, grad_req={'a': 'write', 'b': 'null'})
    records['sym_backward_wrong'] = _passes(tu.check_symbolic_backward, prod, [xa, xb], [og],
                                            [og * xa, og * xb])
    np.random.seed(6)
    records['numeric_ok'] = _passes(tu.check_numeric_gradient, prod * sa, [xa, xb])
    records['numeric_f64'] = _passes(tu.check_numeric_gradient, prod, [xa, xb],
                                     dtype=np.float64)
    records['numeric_nodes'] = _passes(tu.check_numeric_gradient, prod, [xa, xb],
                                       grad_nodes={'a': 'add'})
    # FullyConnected as MXNet's test_fully_connected checks it, on ten draws: the finite
    # differences of a thousand inputs (float32, default eps) within the default tolerances
    data, weight, bias = (mx.sym.var(n) for n in ('data', 'weight', 'bias'))
    fc = mx.sym.FullyConnected(data=data, weight=weight, bias=bias, num_hidden=10, name='fc')
    fc_ok = []
    for seed in range(10):
        rs = np.random.RandomState(seed)
        loc = {'data': rs.uniform(-0.5, 0.5, (5, 325)), 'weight': rs.uniform(-0.5, 0.5, (10, 325)),
               'bias': rs.uniform(-0.5, 0.5, (10,))}
        np.random.seed(seed)
        fc_ok.append(_passes(tu.check_numeric_gradient, fc, loc))
    records['numeric_fc'] = fc_ok
    # numeric_grad on a bound executor: each element moved by +-eps/2 and rounded to the
    # executor's type (float32: a product, exact in both), the moving statistics of BatchNorm
    # restored before every forward (float64)
    at = {'a': xa.astype(np.float32), 'b': xb.astype(np.float32)}
    exe = (prod * sa).bind(mx.cpu(), args={k: mx.nd.array(v) for k, v in at.items()})
    num = tu.numeric_grad(exe, at, eps=1e-2, dtype=np.float32)
    arrays['numeric_grad/float32/a'], arrays['numeric_grad/float32/b'] = num['a'], num['b']
    arrays['numeric_grad/float32/restored'] = exe.arg_dict['a'].asnumpy()
    f64 = np.float64
    at = {'a': xa, 'bn_gamma': np.array([0.5, 2., 1.5]), 'bn_beta': np.array([0.1, -0.2, 0.3]),
          'b': xb}
    aux = {'bn_moving_mean': np.array([0.2, 0.1, -0.1]), 'bn_moving_var': np.array([1.5, .5, 2.])}
    exe = (mx.sym.BatchNorm(sa, name='bn') * sb).bind(
        mx.cpu(), args={k: mx.nd.array(v, dtype=f64) for k, v in at.items()},
        aux_states={k: mx.nd.array(v, dtype=f64) for k, v in aux.items()})
    num = tu.numeric_grad(exe, at, aux, eps=1e-2, dtype=f64)
    for k in sorted(num):
        arrays['numeric_grad/float64/' + k] = num[k]
    arrays['numeric_grad/float64/aux'] = exe.aux_dict['bn_moving_var'].asnumpy()
    # a graph that reads values on the host (box_nms): one forward per moved value
    at = {'a': np.array([[0, .9, .1, .1, .5, .5], [0, .6, .12, .12, .52, .52],
                         [1, .3, .6, .6, .9, .9]], np.float32),
          'b': np.arange(18, dtype=np.float32).reshape(3, 6)}
    exe = (mx.sym.contrib.box_nms(sa, overlap_thresh=0.5, id_index=0) * sb).bind(
        mx.cpu(), args={k: mx.nd.array(v) for k, v in at.items()})
    num = tu.numeric_grad(exe, at, eps=1e-2, dtype=np.float32)
    arrays['numeric_grad/host/a'], arrays['numeric_grad/host/b'] = num['a'], num['b']
    arrays['numeric_grad/host/restored'] = exe.arg_dict['a'].asnumpy()
    arrays['simple_forward'] = tu.simple_forward(prod, a=xa, b=xb)
    ctx_list = [{'ctx': mx.cpu(0), 'a': (2, 3), 'b': (2, 3),
                 'type_dict': {'a': np.float64, 'b': np.float64}},
                {'ctx': mx.cpu(0), 'a': (2, 3), 'b': (2, 3),
                 'type_dict': {'a': np.float32, 'b': np.float32}}]
    np.random.seed(7)
    gt = tu.check_consistency(prod, ctx_list)
    for k in sorted(gt):
        key = 'consistency/' + ('out' if k not in ('a', 'b') else k)
        arrays[key] = gt[k].asnumpy()

    # mx.engine
    records['bulk_sizes'] = [mx.engine.set_bulk_size(5), mx.engine.set_bulk_size(0)]
    with mx.engine.bulk(9):
        inner = mx.engine.set_bulk_size(9)
    records['bulk_scope'] = [inner, mx.engine.set_bulk_size(0)]

    # mx.util
    os.environ.pop('MXCOMPAT_TEST_UNSET', None)
    records['util'] = [mx.util.is_np_shape(), mx.util.set_np_shape(False),
                       mx.util.is_np_array(), mx.util.getenv('MXCOMPAT_TEST_UNSET')]
    with tu.environment('MXCOMPAT_TEST_SET', '42'):
        records['environment'] = [os.environ.get('MXCOMPAT_TEST_SET'),
                                  mx.util.getenv('MXCOMPAT_TEST_SET')]
    records['environment_after'] = os.environ.get('MXCOMPAT_TEST_SET')
    records['ufunc_option'] = [mx.util.np_ufunc_legal_option(k, v) for k, v in
                               [('casting', 'unsafe'), ('casting', 'bad'), ('order', 'C'),
                                ('dtype', 'float32'), ('dtype', 'int16'), ('subok', True),
                                ('where', None), ('nope', 1)]]

    # mx.profiler
    records['dumps_empty'] = mx.profiler.dumps()
    records['is_cd_run'] = tu.is_cd_run()
    records['has_tvm_ops'] = tu.has_tvm_ops()
    records['is_op_runnable'] = tu.is_op_runnable()
    return arrays, records


def write(mx, outdir):
    import mxnet.test_utils as tu
    arrays, records = run_scenarios(mx, tu)
    np.savez_compressed(os.path.join(outdir, 'values.npz'), **arrays)
    with open(os.path.join(outdir, 'records.json'), 'w') as f:
        json.dump(records, f, indent=1, sort_keys=True)
