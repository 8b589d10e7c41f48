"""Neural network module (``mx.gluon``)."""
from .parameter import *  # noqa: F401,F403
from .block import *  # noqa: F401,F403
from . import nn
from . import utils
from . import data
from .trainer import Trainer
from . import loss
from . import rnn, contrib, model_zoo
