"""Experimental contributions (``mx.contrib``): the contrib operators under their MXNet paths."""
from . import amp, autograd, ndarray, symbol
from . import ndarray as nd
from . import symbol as sym
