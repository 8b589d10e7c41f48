"""Helpers shared by the Python data iterators (``mx.io.utils``)."""
from collections import OrderedDict

import numpy as np
import torch
try:
    import h5py
except ImportError:
    h5py = None

from ..ndarray import NDArray, array
from ..ndarray.sparse import CSRNDArray, array as sparse_array

_DENSE_TYPES = (np.ndarray, NDArray) + ((h5py.Dataset,) if h5py else ())


def _is_scipy_sparse(v):
    """True for a scipy.sparse matrix."""
    return hasattr(v, 'tocsr') and hasattr(v, 'nnz')


def _init_data(data, allow_empty, default_name):
    """Canonical form of iterator inputs: a list of (name, array) sorted by name.

    A single array is named ``default_name``; the i-th array of a list is named
    ``'_%d_%s' % (i, default_name)`` (a one-element list keeps ``default_name``).
    Anything that is not an NDArray (or an h5py.Dataset) is converted with ``mx.nd.array``
    (a scipy.sparse matrix with ``mx.nd.sparse.array``, into a CSRNDArray).
    """
    assert (data is not None) or allow_empty
    if data is None:
        data = []
    if isinstance(data, _DENSE_TYPES) or _is_scipy_sparse(data):
        data = [data]
    if isinstance(data, list):
        if not allow_empty:
            assert len(data) > 0
        if len(data) == 1:
            data = OrderedDict([(default_name, data[0])])
        else:
            data = OrderedDict(('_%d_%s' % (i, default_name), d) for i, d in enumerate(data))
    if not isinstance(data, dict):
        raise TypeError('Input must be NDArray, numpy.ndarray, h5py.Dataset '
                        'a list of them or dict with them as values')
    for k, v in data.items():
        if _is_scipy_sparse(v):
            data[k] = sparse_array(v)
        elif not isinstance(v, (NDArray, h5py.Dataset) if h5py else NDArray):
            try:
                data[k] = array(v)
            except Exception:
                raise TypeError(("Invalid type '%s' for %s, " % (type(v), k)) +
                                'should be NDArray, numpy.ndarray or h5py.Dataset') from None
    return sorted(data.items())


def _has_instance(data, dtype):
    """True if some array of a canonical (name, array) list is an instance of ``dtype``."""
    return any(isinstance(arr, dtype) for _, arr in data)


def _getdata_by_idx(data, idx):
    """Reorders every array of a canonical list along axis 0 by ``idx`` (h5py data is kept).

    As in MXNet, the reordered dense arrays are rebuilt with ``mx.nd.array`` (so they become
    float32); CSRNDArrays stay CSRNDArrays of their dtype.
    """
    out = []
    for k, v in data:
        if h5py and isinstance(v, h5py.Dataset):
            out.append((k, v))
        elif isinstance(v, CSRNDArray):
            out.append((k, v._same_stype(v._t.detach()[torch.from_numpy(np.asarray(idx))])))
        else:
            out.append((k, array(v.asnumpy()[idx], v.context)))
    return out


def _slice_along_batch_axis(data, s, batch_axis):
    """``data[s]`` along ``batch_axis`` (a copy, as MXNet's slice_axis)."""
    return data.slice_axis(axis=batch_axis, begin=s.start, end=s.stop)
