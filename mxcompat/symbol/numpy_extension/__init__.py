"""``mx.sym.npx``: the NumPy-extension operators over symbols (``F.npx`` of a hybridized
NumPy-mode block), the table's ``_npx_*`` entries with :class:`_Symbol` results."""
from ..numpy import _npi

__all__ = []
for _full in dir(_npi):
    if _full.startswith('_npx_') and not _full.startswith('_npx__'):
        globals()[_full[len('_npx_'):]] = getattr(_npi, _full)
        __all__.append(_full[len('_npx_'):])

from . import random  # noqa: E402
__all__.append('random')
