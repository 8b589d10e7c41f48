"""``mx.contrib.amp``: automatic mixed precision (not supported by mxcompat yet)."""
from . import amp
from .amp import *  # noqa: F401,F403
