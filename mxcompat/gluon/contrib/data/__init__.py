"""Contrib datasets and samplers (``mx.gluon.contrib.data``)."""
from . import sampler
from .sampler import IntervalSampler

__all__ = ['IntervalSampler']
