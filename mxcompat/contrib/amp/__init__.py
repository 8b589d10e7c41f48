"""``mx.contrib.amp``: automatic mixed precision."""
from . import amp, lists, loss_scaler
from .amp import *  # noqa: F401,F403
