"""``mx.sym.np.random``: ``mx.np.random``'s functions over the symbol front end (the same
random table entries)."""
from ...numpy import random as _random
from . import _symbol_function, _rebind_module, Symbol

__all__ = list(_random.__all__)
_OPS = {'_uniform': '_random_uniform', '_normal': '_random_normal',
        '_sample_uniform': '_sample_uniform', '_sample_normal': '_sample_normal',
        '_randint': '_random_randint', '_exponential': '_random_exponential',
        '_gamma': '_random_gamma', '_shuffle': '_shuffle'}
_overrides = {k: _symbol_function(v) for k, v in _OPS.items()}
_overrides['NDArray'] = Symbol
_rebind_module(_random, __all__, _overrides, globals())
