"""Contrib datasets and samplers (``mx.gluon.contrib.data``)."""
from ...data.sampler import IntervalSampler
from . import text

__all__ = ['IntervalSampler']
