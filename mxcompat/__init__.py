"""mxcompat: run Apache MXNet 1.x code unchanged on PyTorch.

``import mxcompat as mx`` gives MXNet's API; ``mxcompat.install()`` makes ``import mxnet``
resolve to mxcompat as well.
"""
__version__ = '1.9.1'

from . import cpu_memory
cpu_memory.keep_freed_memory()
from . import base
from .base import MXNetError
from . import context
from .context import Context, cpu, gpu, cpu_pinned, current_context, num_gpus, gpu_memory_info
from . import ndarray
from . import ndarray as nd
from . import autograd
from . import random
from . import runtime
from . import engine, util, operator, profiler, log, registry
from .util import (is_np_shape, set_np_shape, np_shape, use_np_shape, is_np_array, np_array,
                   use_np_array, use_np)
from .utils.alias import install, uninstall
from . import name
from . import attribute
from .attribute import AttrScope
from . import symbol
from . import symbol as sym
from . import executor
from . import contrib
from . import io, metric, callback, monitor
from . import optimizer
from . import initializer
from . import initializer as init
from . import lr_scheduler
from . import model, module, executor_manager, kvstore
from . import module as mod, kvstore as kv
from .contrib import svrg_optimization  # (needs mx.mod and mx.optimizer, imported above)
from . import recordio
from . import image
from . import image as img
from . import gluon
from . import rnn
from . import visualization
from . import visualization as viz
from . import numpy, numpy_extension
from . import numpy as np, numpy_extension as npx
from . import numpy_op_signature, numpy_dispatch_protocol, numpy_op_fallback
from . import monitor as mon
from . import rtc
from . import test_utils
from .utils.library_guards import install as _guard_libraries
_guard_libraries()  # libraries that refuse torch >= 2 import when mxnet is mxcompat
del _guard_libraries
from .utils.mxnet_api import install as _install_unsupported
_install_unsupported()  # MXNet 1.9.1 names mxcompat lacks raise NotImplementedError naming them
del _install_unsupported
