"""Contrib datasets and samplers (``mx.gluon.contrib.data``)."""
from . import sampler, text
from .sampler import IntervalSampler

__all__ = ['IntervalSampler']
