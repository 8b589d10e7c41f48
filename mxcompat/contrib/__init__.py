"""Experimental contributions (``mx.contrib``): the contrib operators under their MXNet paths."""
from . import autograd, ndarray, symbol
from . import ndarray as nd
from . import symbol as sym
