"""``mx.npx.image``: MXNet's image functions (those of ``mx.image``) and the image operators
of the table (``_npx__image_*``: ``to_tensor``, ``normalize``, ``resize``, ``crop``, the flips
and the random colour changes) with ``mx.np.ndarray`` results."""
from ..image import *  # noqa: F401,F403
from ..numpy.multiarray import _npi
from ._entries import export

__all__ = export(globals(), _npi, '_npx__image_', 'mxnet.numpy_extension.image')
