"""``mx.np.set_printoptions``: how ``mx.np`` arrays print (they print through NumPy)."""
import numpy as onp

from ..util import set_module

__all__ = ['set_printoptions']


@set_module('mxnet.numpy')
def set_printoptions(precision=None, threshold=None, **kwargs):
    """Set how arrays are printed: NumPy's options, which ``mx.np`` arrays print with.

    Parameters
    ----------
    precision : int or None, optional
        Digits of precision for floating-point output (NumPy's default: 8).
    threshold : int, optional
        Number of elements above which an array is summarized (NumPy's default: 1000).
    """
    if kwargs:
        raise NotImplementedError('mxnet.numpy.set_printoptions supports the parameters '
                                  'precision and threshold only (got %s); use '
                                  'numpy.set_printoptions for the others'
                                  % ', '.join(sorted(kwargs)))
    onp.set_printoptions(precision=precision, threshold=threshold)
