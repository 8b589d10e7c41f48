"""``mx.sym.npx.image``: the image operators of ``mx.npx.image`` over symbols (``F.npx.image``
of a hybridized NumPy-mode block)."""
from ..numpy import _npi
from ...numpy_extension._entries import export

__all__ = export(globals(), _npi, '_npx__image_')
