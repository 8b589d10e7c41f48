"""Sparse storage types from real MXNet: CSRNDArray and RowSparseNDArray built from their
parts, from dense arrays and as zeros (their ``data``/``indices``/``indptr``, values and
storage types), copies keeping the storage type, NDArrayIter over CSR data (its batches and
its refusal of ``last_batch_handle='pad'``), and a Module whose variables are ``csr`` and
``row_sparse`` (the storage types of its bound arrays and initialised parameters, and its
forward output), simple_bind's arrays, and a kvstore's pull and row_sparse_pull of a
row_sparse value. The same ``run(mx)`` executes under mxcompat in tests/test_sparse_storage.py.
"""
import os

import numpy as np


def _parts(prefix, arr, out):
    out[prefix + '/stype'] = np.array(arr.stype)
    out[prefix + '/class'] = np.array(type(arr).__name__)
    out[prefix + '/dense'] = arr.asnumpy()
    out[prefix + '/dtype'] = np.array(np.dtype(arr.dtype).name)
    for part in ('data', 'indices', 'indptr'):
        if hasattr(arr, part):
            out['%s/%s' % (prefix, part)] = getattr(arr, part).asnumpy()


def run(mx):
    """{case id: numpy array}."""
    out = {}
    sp = mx.nd.sparse
    dense = np.array([[0, 1.5, 0, 0], [0, 0, 0, 0], [2, 0, -3, 0]], np.float32)
    _parts('csr/parts', sp.csr_matrix(([1.5, 2, -3], [1, 0, 2], [0, 1, 1, 3]), shape=(3, 4)),
           out)
    _parts('csr/tostype', mx.nd.array(dense).tostype('csr'), out)
    _parts('csr/zeros', mx.nd.zeros((2, 3), stype='csr'), out)
    _parts('csr/float64', sp.csr_matrix(dense.astype(np.float64)), out)
    _parts('rsp/parts', sp.row_sparse_array(([[1, 2], [3, 4]], [0, 2]), shape=(4, 2)), out)
    _parts('rsp/tostype', mx.nd.array(dense).tostype('row_sparse'), out)
    _parts('rsp/zeros', sp.zeros('row_sparse', (3, 2)), out)
    csr = mx.nd.array(dense).tostype('csr')
    _parts('csr/copy', csr.copy(), out)
    _parts('csr/astype', csr.astype('float64'), out)
    _parts('csr/todense', csr.tostype('default'), out)

    # NDArrayIter over CSR data: 'discard' only; its batches are dense slices
    data = mx.nd.array(np.arange(40, dtype=np.float32).reshape(10, 4) % 7).tostype('csr')
    try:
        mx.io.NDArrayIter(data, np.arange(10), 3)
        out['iter/pad-raises'] = np.array('')
    except NotImplementedError as err:
        out['iter/pad-raises'] = np.array(type(err).__name__)
    it = mx.io.NDArrayIter(data, np.arange(10), 3, last_batch_handle='discard')
    for i, batch in enumerate(it):
        out['iter/batch%d/stype' % i] = np.array(batch.data[0].stype)
        out['iter/batch%d/data' % i] = batch.data[0].asnumpy()
        out['iter/batch%d/label' % i] = batch.label[0].asnumpy()

    # a Module with csr data and a row_sparse weight
    x = mx.sym.var('data', stype='csr')
    v = mx.sym.var('v', shape=(4, 1), stype='row_sparse', init=mx.init.Zero())
    net = mx.sym.LinearRegressionOutput(mx.sym.dot(x, v), mx.sym.var('label'), name='out')
    out['module/attr'] = np.array(x.attr_dict()['data']['__storage_type__'])
    it = mx.io.NDArrayIter(data, {'label': np.zeros((10, 1))}, 5, last_batch_handle='discard')
    mod = mx.mod.Module(net, data_names=['data'], label_names=['label'])
    mod.bind(data_shapes=it.provide_data, label_shapes=it.provide_label)
    execs = mod._exec_group.execs[0]
    out['module/arg-stypes'] = np.array([a.stype for a in execs.arg_arrays])
    mod.init_params()
    out['module/param-stype'] = np.array(mod.get_params()[0]['v'].stype)
    mod.set_params({'v': mx.nd.array([[1.], [-2.], [0.5], [3.]]).tostype('row_sparse')}, {})
    mod.forward(next(it), is_train=False)
    out['module/output'] = mod.get_outputs()[0].asnumpy()

    # simple_bind allocates arguments by the variables' stype and stype_dict
    net = mx.sym.dot(mx.sym.var('data', stype='csr'), mx.sym.var('w'))
    ex = net.simple_bind(mx.cpu(), data=(3, 4), w=(4, 2))
    out['simple_bind/arg-stypes'] = np.array([a.stype for a in ex.arg_arrays])
    ex = net.simple_bind(mx.cpu(), data=(3, 4), w=(4, 2), stype_dict={'w': 'row_sparse'})
    out['simple_bind/stype_dict'] = np.array([a.stype for a in ex.arg_arrays])

    # a kvstore holding a row_sparse value: pull ignores row_sparse outputs unless told not to,
    # row_sparse_pull gives the requested rows (zeros elsewhere), one row_ids per output
    kv = mx.kv.create('local')
    kv.init('w', mx.nd.array(np.arange(12).reshape(4, 3) + 1.).tostype('row_sparse'))
    got = mx.nd.ones((4, 3)).tostype('row_sparse')
    kv.pull('w', out=got)
    out['kv/pull-ignored'] = got.asnumpy()
    kv.pull('w', out=got, ignore_sparse=False)
    out['kv/pull'] = got.asnumpy()
    got = sp.zeros('row_sparse', (4, 3))
    kv.row_sparse_pull('w', out=got, row_ids=mx.nd.array([2, 0, 2], dtype='int64'))
    out['kv/rows'] = got.asnumpy()
    out['kv/rows-indices'] = got.indices.asnumpy()
    outs = [sp.zeros('row_sparse', (4, 3)), sp.zeros('row_sparse', (4, 3), ctx=mx.cpu(1))]
    kv.row_sparse_pull('w', out=outs, row_ids=[mx.nd.array([1]), mx.nd.array([3])])
    out['kv/rows-per-device'] = np.stack([o.asnumpy() for o in outs])
    kv.push('w', mx.nd.ones((4, 3)).tostype('row_sparse'))
    kv.row_sparse_pull('w', out=got, row_ids=mx.nd.array([0, 1, 2, 3]))
    out['kv/rows-after-push'] = got.asnumpy()
    return out


def write(mx, outdir):
    out = run(mx)
    tmp = os.path.join(outdir, 'sparse_storage.tmp.npz')
    np.savez_compressed(tmp, **out)
    os.replace(tmp, os.path.join(outdir, 'sparse_storage.npz'))
