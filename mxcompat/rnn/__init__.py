"""Recurrent neural network module (MXNet's legacy symbolic ``mx.rnn`` API)."""
from . import rnn_cell
from .rnn_cell import *  # noqa: F401,F403
from . import rnn
from .rnn import *  # noqa: F401,F403
from . import io
from .io import *  # noqa: F401,F403
