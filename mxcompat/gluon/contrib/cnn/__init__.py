"""Contrib convolutional layers (``mx.gluon.contrib.cnn``)."""
from . import conv_layers
from .conv_layers import *  # noqa: F401,F403
