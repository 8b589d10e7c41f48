"""Samplers of ``mx.gluon.contrib.data`` (``IntervalSampler`` lives in gluon.data.sampler)."""
from ...data.sampler import IntervalSampler

__all__ = ['IntervalSampler']
