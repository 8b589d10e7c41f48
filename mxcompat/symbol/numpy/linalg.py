"""``mx.sym.np.linalg``: ``mx.np.linalg``'s functions over the symbol front end."""
from ...numpy import linalg as _linalg
from . import _npi, _SPACE, _rebind_module, _Symbol, Symbol

__all__ = [n for n in _linalg.__all__  # NumPy's own functions read data: mx.np only
           if getattr(_linalg, n) is not getattr(_linalg.fallback_linalg, n, None)]
_rebind_module(_linalg, __all__, {'_npi': _npi, '_sum': _SPACE['sum'], '_abs': _SPACE['abs'],
                                  '_max': _SPACE['max'], '_min': _SPACE['min'],
                                  'ndarray': _Symbol, 'NDArray': Symbol}, globals())
