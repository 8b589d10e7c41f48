"""Image iterators and image augmentation functions (``mx.image``, also ``mx.img``)."""
from . import image
from .image import *  # noqa: F401,F403
from . import detection
from . import detection as det
from .detection import *  # noqa: F401,F403
