"""``mx.sym.npx``: the NumPy-extension operators over symbols (``F.npx`` of a hybridized
NumPy-mode block), the table's ``_npx_*`` entries with :class:`_Symbol` results."""
from ..numpy import _npi
from ...numpy_extension._entries import entries as _entries
from . import image, random

globals().update(_entries(_npi, '_npx_'))
__all__ = sorted(_entries(_npi, '_npx_')) + ['image', 'random']
