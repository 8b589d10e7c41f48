"""Runtime feature detection (``mx.runtime``), describing mxcompat on torch."""
import collections

import torch

__all__ = ['Feature', 'Features', 'feature_list']


class Feature:
    """Compile-time feature description, member fields: `name` and `enabled`."""
    __slots__ = ('name', 'enabled', 'index')

    def __init__(self, name, enabled, index=0):
        self.name = name
        self.enabled = enabled
        self.index = index

    def __repr__(self):
        return '%s %s' % ('✔' if self.enabled else '✖', self.name)


def _features():
    cuda = torch.cuda.is_available()
    nccl = cuda and torch.distributed.is_available() and torch.distributed.is_nccl_available()
    # MXNet's feature names; those that describe MXNet's own build (MKLDNN, OpenCV, TVM...)
    # are reported disabled, so code takes its portable paths
    table = [
        ('CUDA', cuda), ('CUDNN', cuda and torch.backends.cudnn.is_available()),
        ('NCCL', nccl), ('CUDA_RTC', False), ('TENSORRT', False), ('CPU_SSE', True),
        ('CPU_SSE2', True), ('CPU_SSE3', True), ('CPU_SSE4_1', False), ('CPU_SSE4_2', False),
        ('CPU_SSE4A', False), ('CPU_AVX', False), ('CPU_AVX2', False),
        ('OPENMP', torch.backends.openmp.is_available()), ('SSE', False), ('F16C', False),
        ('JEMALLOC', False), ('BLAS_OPEN', False), ('BLAS_ATLAS', False), ('BLAS_MKL', False),
        ('BLAS_APPLE', False), ('LAPACK', True), ('MKLDNN', False), ('OPENCV', False),
        ('CAFFE', False), ('PROFILER', True), ('DIST_KVSTORE', torch.distributed.is_available()),
        ('CXX14', False), ('INT64_TENSOR_SIZE', True), ('SIGNAL_HANDLER', False),
        ('DEBUG', False), ('TVM_OP', False)]
    return [Feature(n, bool(e), i) for i, (n, e) in enumerate(table)]


def feature_list():
    """Check the library for compile-time features.

    Returns
    -------
    list
        List of :class:`.Feature` objects
    """
    return _features()


class Features(collections.OrderedDict):
    """Map of feature names to their description (a :class:`.Feature`)."""
    instance = None

    def __new__(cls):
        if cls.instance is None:
            cls.instance = super(Features, cls).__new__(cls)
            super(Features, cls.instance).__init__([(f.name, f) for f in feature_list()])
        return cls.instance

    def __init__(self):  # filled once in __new__
        pass

    def __repr__(self):
        return str(list(self.values()))

    def is_enabled(self, feature_name):
        """Check for a particular feature by name.

        Parameters
        ----------
        feature_name: str
            The name of a valid feature as string for example 'CUDA'

        Returns
        -------
        Boolean
            True if it's enabled, False if it's disabled, RuntimeError if the feature is not
            known
        """
        feature_name = feature_name.upper()
        if feature_name not in self:
            raise RuntimeError('Feature \'{}\' is unknown, known features are: {}'.format(
                feature_name, list(self.keys())))
        return self[feature_name].enabled
