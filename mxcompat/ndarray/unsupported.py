"""The one documented list of MXNet 1.9.1 ``mx.nd`` names that mxcompat does not support.

Each name exists in mxcompat (so imports keep working) and raises NotImplementedError naming
itself when used. Only sparse-storage and internal names belong here.
"""

SPARSE = 'sparse storage is not supported by mxcompat'
INTERNAL = "an internal helper of MXNet's C API with no meaning on torch"

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
    'NDArray:handle': INTERNAL + ' (mxcompat returns the data address as ctypes.c_void_p)',
}


def unsupported(key):
    """A callable that raises NotImplementedError for the unsupported name ``key``."""
    space, name = key.split(':')

    def fn(*args, **kwargs):
        raise NotImplementedError('mx.%s.%s is not supported: %s' % (space, name, UNSUPPORTED[key]))
    fn.__name__ = name
    return fn
