"""``mx.sym.np.random``: ``mx.np.random``'s functions over the symbol front end (the same
random table entries)."""
from ...numpy import random as _random
from . import _npi, _rebind_module, _Symbol, Symbol

__all__ = list(_random.__all__)
_SPACE = _rebind_module(_random, __all__, {'_npi': _npi, 'NDArray': Symbol, 'ndarray': _Symbol},
                        globals())
