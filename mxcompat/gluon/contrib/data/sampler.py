"""Dataset samplers of ``mx.gluon.contrib.data`` (IntervalSampler lives with the other samplers
in ``mx.gluon.data.sampler``)."""
from ...data.sampler import IntervalSampler

__all__ = ['IntervalSampler']
