"""``mx.sym.npx``: the NumPy-extension operators over symbols (``F.npx`` of a hybridized
NumPy-mode block), the table's ``_npx_*`` entries with :class:`_Symbol` results."""
from ..numpy import _npi
from ...numpy_extension._entries import export as _export
from . import image, random

__all__ = _export(globals(), _npi, '_npx_') + ['image', 'random']
