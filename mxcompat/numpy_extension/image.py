"""``mx.npx.image``: MXNet's image functions (those of ``mx.image``) and the image operators
of the table (``_npx__image_*``: ``to_tensor``, ``normalize``, ``resize``, ``crop``, the flips
and the random colour changes) with ``mx.np.ndarray`` results."""
from ..image import *  # noqa: F401,F403
from ..numpy.multiarray import _npi
from ._entries import entries

__all__ = []
for _name, _fn in entries(_npi, '_npx__image_').items():
    _fn.__name__ = _fn.__qualname__ = _name
    _fn.__module__ = 'mxnet.numpy_extension.image'
    globals()[_name] = _fn
    __all__.append(_name)
