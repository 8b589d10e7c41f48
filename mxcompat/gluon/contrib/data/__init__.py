"""Contrib datasets and samplers (``mx.gluon.contrib.data``)."""
from ...data.sampler import IntervalSampler

__all__ = ['IntervalSampler']
