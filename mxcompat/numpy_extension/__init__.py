"""``mx.npx``: MXNet's NumPy-extension interface: the NumPy-mode switches, device helpers,
``save`` / ``load`` of ``mx.np`` arrays, and the operators NumPy lacks (``relu``, ``softmax``,
``fully_connected``, ``batch_norm``, ``reshape`` with MXNet's codes, ...).

Every operator here is the operator table's ``_npx_*`` entry (an alias on the legacy entry it
shares, e.g. ``_npx_fully_connected`` on ``FullyConnected``), generated as ``mx.nd``'s functions
are, with ``mx.np.ndarray`` results and MXNet's argument names.
"""
from ..context import Context, cpu, gpu, cpu_pinned, current_context, num_gpus, \
    gpu_memory_info
from ..ndarray.ndarray import waitall
from ..numpy.multiarray import _npi, ndarray as _ndarray
from . import image, random
from ._entries import export as _export
from ..util import is_np_shape, is_np_array, set_np, reset_np, get_cuda_compute_capability, \
    set_module

__all__ = ['Context', 'cpu', 'gpu', 'cpu_pinned', 'current_context', 'num_gpus',
           'gpu_memory_info', 'waitall', 'is_np_shape', 'is_np_array', 'set_np', 'reset_np',
           'get_cuda_compute_capability', 'save', 'load', 'image', 'random']

__all__ += _export(globals(), _npi, '_npx_', 'mxnet.numpy_extension')


@set_module('mxnet.numpy_extension')
def save(file, arr):
    """Saves a list of `ndarray`s or a dict of `str`->`ndarray` to file (MXNet's ``.params``
    format: zero-dimensional and zero-size arrays are kept).

    Parameters
    ----------
    file : str
        Filename to which the data is saved.
    arr : `ndarray` or list of `ndarray`s or dict of `str` to `ndarray`
        The data to be saved.
    """
    if isinstance(arr, _ndarray):
        arr = [arr]
    elif isinstance(arr, dict):
        bad = [k for k, v in arr.items() if not isinstance(v, _ndarray)]
        if bad:
            raise TypeError('Only accepts dict str->ndarray or list of ndarrays; %r is not an '
                            'mx.np.ndarray' % bad[0])
    elif isinstance(arr, (list, tuple)):
        if not all(isinstance(v, _ndarray) for v in arr):
            raise TypeError('Only accepts dict str->ndarray or list of ndarrays')
    else:
        raise ValueError("data needs to either be a ndarray, dict of (str, ndarray) pairs or "
                         "a list of ndarrays.")
    from ..ndarray import save as _save
    _save(file, arr)


@set_module('mxnet.numpy_extension')
def load(file):
    """Loads an array dictionary or list from a file saved by ``npx.save`` or ``mx.nd.save``.

    Parameters
    ----------
    file : str
        The filename.

    Returns
    -------
    result : list of ndarrays or dict of str -> ndarray
    """
    from ..ndarray import load as _load
    data = _load(file)
    if isinstance(data, dict):
        return {k: v.as_np_ndarray() for k, v in data.items()}
    return [v.as_np_ndarray() for v in data]

