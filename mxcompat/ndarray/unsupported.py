"""The one documented list of MXNet 1.9.1 ``mx.nd`` names that mxcompat does not support.

Each name exists in mxcompat (so imports keep working) and raises NotImplementedError naming
itself when used. Only sparse-storage and internal names belong here.
"""

SPARSE = 'sparse storage is not supported by mxcompat'
INTERNAL = "an internal helper of MXNet's C API with no meaning on torch"
QUANTIZED = ("an internal INT8 operator that MXNet's quantization graph pass "
             "(mx.contrib.quantization) substitutes for oneDNN; not called by user code")

UNSUPPORTED = {
    'nd:cast_storage': SPARSE,
    'nd.contrib:SparseEmbedding': SPARSE,
    'nd.contrib:getnnz': SPARSE,
    'nd.contrib:edge_id': SPARSE + ' (CSR graph operator)',
    'nd.contrib:dgl_adjacency': SPARSE + ' (CSR graph operator)',
    'nd.contrib:dgl_csr_neighbor_non_uniform_sample': SPARSE + ' (CSR graph operator)',
    'nd.contrib:dgl_csr_neighbor_uniform_sample': SPARSE + ' (CSR graph operator)',
    'nd.contrib:dgl_graph_compact': SPARSE + ' (CSR graph operator)',
    'nd.contrib:dgl_subgraph': SPARSE + ' (CSR graph operator)',
    'nd:_ndarray_cls': INTERNAL,
    'nd:_new_empty_handle': INTERNAL,
    'nd:get_indexing_dispatch_code': INTERNAL,
    'nd:indexing_key_expand_implicit_axes': INTERNAL,
    'nd:get_oshape_of_gather_nd_op': INTERNAL,
    'NDArray:as_np_ndarray': 'the mx.np (NumPy-compatible) interface is not supported by '
                             'mxcompat',
    'NDArray:handle': INTERNAL + ' (mxcompat returns the data address as ctypes.c_void_p)',
    'nd:imdecode': INTERNAL + ' (the deprecated _imdecode wrapper, which crashes in MXNet 1.9.1 '
                   'itself; use mx.image.imdecode)',
}
UNSUPPORTED.update(('nd.contrib:quantized_%s' % n, QUANTIZED) for n in (
    'act', 'batch_norm', 'concat', 'conv', 'elemwise_add', 'elemwise_mul', 'embedding',
    'fully_connected', 'rnn'))


def install(spaces):
    """Put a NotImplementedError-raising callable under every unsupported name that a
    namespace does not define itself; ``spaces`` maps 'nd', 'nd.contrib', ... to modules."""
    for key in UNSUPPORTED:
        space, name = key.split(':')
        module = spaces.get(space)
        if module is not None and not hasattr(module, name):
            setattr(module, name, unsupported(key))


def unsupported(key):
    """A callable that raises NotImplementedError for the unsupported name ``key``."""
    space, name = key.split(':')

    def fn(*args, **kwargs):
        raise NotImplementedError('mx.%s.%s is not supported: %s' % (space, name, UNSUPPORTED[key]))
    fn.__name__ = name
    return fn
