"""A module is like a FeedForward model, but we would like to make it easier to compose,
similar to Torch modules (``mx.mod``)."""
from .base_module import BaseModule
from .module import Module
from .bucketing_module import BucketingModule
from .sequential_module import SequentialModule
from .python_module import PythonModule, PythonLossModule

__all__ = ['BaseModule', 'Module', 'BucketingModule', 'SequentialModule', 'PythonModule',
           'PythonLossModule']
