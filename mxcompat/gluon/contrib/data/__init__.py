"""Contrib datasets and samplers (``mx.gluon.contrib.data``)."""
<<<<<<< HEAD
from . import sampler
=======
from . import text
>>>>>>> text
from .sampler import IntervalSampler

__all__ = ['IntervalSampler']
