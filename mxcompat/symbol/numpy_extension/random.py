"""``mx.sym.npx.random``: ``mx.npx.random``'s samplers over the symbol front end (the same
random table entries)."""
from ...numpy_extension import random as _random
from ..numpy import _npi, _rebind_module, _Symbol, Symbol, random as _np_random

__all__ = ['bernoulli', 'normal_n', 'uniform_n']
_rebind_module(_random, __all__, {'_npi': _npi, 'NDArray': Symbol, 'ndarray': _Symbol,
                                  '_two_params': _np_random._SPACE['_two_params']}, globals())
