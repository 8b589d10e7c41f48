"""Neural network module (``mx.gluon``)."""
from .parameter import *  # noqa: F401,F403
from .block import *  # noqa: F401,F403
from . import nn
from . import utils
