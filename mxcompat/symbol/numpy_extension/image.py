"""``mx.sym.npx.image``: the image operators of ``mx.npx.image`` over symbols (``F.npx.image``
of a hybridized NumPy-mode block)."""
from ..numpy import _npi
from ...numpy_extension._entries import entries

globals().update(entries(_npi, '_npx__image_'))
__all__ = sorted(entries(_npi, '_npx__image_'))
