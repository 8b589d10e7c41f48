"""``mx.np.genfromtxt``: NumPy's text reader, with the result on an MXNet context."""
import numpy as onp

from ..context import current_context
from ..util import set_module
from .multiarray import array

__all__ = ['genfromtxt']


@set_module('mxnet.numpy')
def genfromtxt(*args, **kwargs):
    """Load data from a text file, as NumPy's ``genfromtxt`` does, into an ``ndarray``.

    Takes NumPy's arguments, and ``ctx``: the device of the result (the current context by
    default). The array keeps the type NumPy reads (float64 for numbers by default).
    """
    ctx = kwargs.pop('ctx', None) or current_context()
    values = onp.genfromtxt(*args, **kwargs)
    return array(values, dtype=values.dtype, ctx=ctx)
