"""Predefined and pretrained models (``mx.gluon.model_zoo``)."""
from . import model_store
from . import vision
