"""Contrib neural network module (``mx.gluon.contrib``)."""
from . import nn
from . import rnn
from . import cnn
from . import data
from . import estimator
