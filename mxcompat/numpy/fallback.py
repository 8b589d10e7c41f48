"""The ``mx.np`` functions that MXNet runs with official NumPy (MXNet 1.9.1's
``mxnet.numpy.fallback``).

Each name is NumPy's own function. Given ``mx.np`` arrays, NumPy hands the call to
``mx.np.ndarray.__array_function__`` / ``__array_ufunc__``, which runs the function on
``asnumpy()`` copies and wraps array results as ``mx.np.ndarray`` on the inputs' context
(scalars stay NumPy scalars); this is refused inside ``autograd.record()``, as in MXNet.
A name the installed NumPy no longer has (e.g. ``alltrue`` or ``msort`` in NumPy 2) is left out.
"""
import warnings

import numpy as onp

_MXNET_FALLBACK = [
    'allclose', 'alltrue', 'apply_along_axis', 'apply_over_axes', 'argpartition', 'argwhere',
    'array_equal', 'array_equiv', 'choose', 'compress', 'corrcoef', 'correlate',
    'count_nonzero', 'cov', 'digitize', 'divmod', 'extract', 'flatnonzero', 'float_power',
    'frexp', 'heaviside', 'histogram2d', 'histogram_bin_edges', 'histogramdd', 'i0', 'in1d',
    'interp', 'intersect1d', 'isclose', 'isin', 'ix_', 'lexsort', 'min_scalar_type', 'mirr',
    'modf', 'msort', 'nanargmax', 'nanargmin', 'nancumprod', 'nancumsum', 'nanmax',
    'nanmedian', 'nanmin', 'nanpercentile', 'nanprod', 'nanquantile', 'ndim', 'npv',
    'partition', 'piecewise', 'packbits', 'poly', 'polyadd', 'polydiv', 'polyfit', 'polyint',
    'polymul', 'polysub', 'positive', 'ppmt', 'promote_types', 'ptp', 'pv', 'rate', 'real',
    'result_type', 'rollaxis', 'roots', 'searchsorted', 'select', 'setdiff1d', 'setxor1d',
    'signbit', 'size', 'spacing', 'take_along_axis', 'trapz', 'tril_indices_from',
    'trim_zeros', 'triu_indices_from', 'union1d', 'unpackbits', 'unwrap', 'vander']
# defined here but, as in MXNet, not exported by ``from fallback import *``
_MXNET_UNLISTED = ['nanstd', 'nansum', 'nanvar', 'pmt']


def _numpy_functions(names, module):
    """{name: module.name} for the names the installed NumPy still has."""
    found = {}
    with warnings.catch_warnings():  # NumPy warns on access to its deprecated names
        warnings.simplefilter('ignore')
        for name in names:
            try:
                found[name] = getattr(module, name)
            except AttributeError:  # removed from the installed NumPy
                pass
    return found


globals().update(_numpy_functions(_MXNET_FALLBACK + _MXNET_UNLISTED, onp))
__all__ = [n for n in _MXNET_FALLBACK if n in globals()]
