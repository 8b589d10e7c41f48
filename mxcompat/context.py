"""Device contexts: MXNet's Context mapped onto ``torch.device``."""
import threading
import warnings

import torch

from . import cpu_memory
from .base import MXNetError

__all__ = ['Context', 'cpu', 'gpu', 'cpu_pinned', 'current_context', 'num_gpus',
           'gpu_memory_info']


class _ContextType(type):
    """Gives Context MXNet's deprecated class-level ``default_ctx`` property."""

    @property
    def default_ctx(cls):
        warnings.warn('Context.default_ctx has been deprecated. Please use '
                      'Context.current_context() instead. Please use '
                      'test_utils.set_default_context to set a default context',
                      DeprecationWarning)
        return current_context()

    @default_ctx.setter
    def default_ctx(cls, val):
        warnings.warn('Context.default_ctx has been deprecated. Please use '
                      'Context.current_context() instead. Please use '
                      'test_utils.set_default_context to set a default context',
                      DeprecationWarning)
        cls._default_ctx.value = val


class Context(metaclass=_ContextType):
    """Constructs a context.

    MXNet can run operations on CPU and different GPUs. A context describes the device type
    and ID on which computation should be carried out. In mxcompat each context maps onto a
    ``torch.device``; CPU contexts with different ids share host memory but stay distinct
    contexts, as in MXNet.

    Parameters
    ----------
    device_type : {'cpu', 'gpu'} or Context.
        String representing the device type.
    device_id : int (default=0)
        The device id of the device, needed for GPU.

    Examples
    --------
    >>> with mx.Context('gpu', 1):
    ...     gpu_array = mx.nd.ones((2, 3))
    >>> gpu_array.context
    gpu(1)
    """
    _default_ctx = threading.local()
    devtype2str = {1: 'cpu', 2: 'gpu', 3: 'cpu_pinned', 5: 'cpu_shared'}
    devstr2type = {'cpu': 1, 'gpu': 2, 'cpu_pinned': 3, 'cpu_shared': 5}
    __slots__ = ('device_typeid', 'device_id', '_old_ctx', '_torch_device')

    def __init__(self, device_type, device_id=0):
        if isinstance(device_type, Context):
            self.device_typeid = device_type.device_typeid
            self.device_id = device_type.device_id
        else:
            if device_type not in Context.devstr2type:
                raise MXNetError("Invalid device_type %r: use 'cpu', 'gpu', 'cpu_pinned' or "
                                 "'cpu_shared'" % (device_type,))
            self.device_typeid = Context.devstr2type[device_type]
            self.device_id = int(device_id)
        self._old_ctx = None
        self._torch_device = None

    @property
    def device_type(self):
        """Returns the device type of current context, e.g. 'cpu' or 'gpu'."""
        return Context.devtype2str[self.device_typeid]

    @property
    def torch_device(self):
        """The ``torch.device`` this context computes on."""
        dev = self._torch_device
        if dev is None:
            dev = torch.device('cuda', self.device_id) if self.device_typeid == 2 \
                else torch.device('cpu')
            self._torch_device = dev
        return dev

    def __hash__(self):
        return hash((self.device_typeid, self.device_id))

    def __eq__(self, other):
        return isinstance(other, Context) and self.device_typeid == other.device_typeid \
            and self.device_id == other.device_id

    def __ne__(self, other):
        return not self.__eq__(other)

    def __str__(self):
        return '%s(%d)' % (self.device_type, self.device_id)

    def __repr__(self):
        return self.__str__()

    def __enter__(self):
        if not hasattr(Context._default_ctx, 'value'):
            Context._default_ctx.value = Context('cpu', 0)
        self._old_ctx = Context._default_ctx.value
        Context._default_ctx.value = self
        return self

    def __exit__(self, ptype, value, trace):
        Context._default_ctx.value = self._old_ctx

    def empty_cache(self):
        """Empties the memory cache for the current contexts device: torch's CUDA cache on a
        GPU; on a CPU, the freed memory mxcompat keeps for reuse (see ``mxcompat.cpu_memory``)."""
        if self.device_typeid == 2:
            if torch.cuda.is_available():
                with torch.cuda.device(self.device_id):
                    torch.cuda.empty_cache()
        else:
            cpu_memory.release_freed_memory()


def cpu(device_id=0):
    """Returns a CPU context.

    Parameters
    ----------
    device_id : int, optional
        The device id of the device. `device_id` is not needed for CPU.
        This is included to make interface compatible with GPU.

    Returns
    -------
    context : Context
        The corresponding CPU context.
    """
    return Context('cpu', device_id)


def cpu_pinned(device_id=0):
    """Returns a CPU pinned memory context. Copying from CPU pinned memory to GPU
    is faster than from normal CPU memory.

    Returns
    -------
    context : Context
        The corresponding CPU pinned memory context.
    """
    return Context('cpu_pinned', device_id)


def gpu(device_id=0):
    """Returns a GPU context.

    Parameters
    ----------
    device_id : int, optional
        The device id of the device, needed for GPU.

    Returns
    -------
    context : Context
        The corresponding GPU context.
    """
    return Context('gpu', device_id)


def num_gpus():
    """Query CUDA for the number of GPUs present.

    Returns
    -------
    count : int
        The number of GPUs.
    """
    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def gpu_memory_info(device_id=0):
    """Query CUDA for the free and total bytes of GPU global memory.

    Parameters
    ----------
    device_id : int, optional
        The device id of the GPU device.

    Returns
    -------
    (free, total) : (int, int)
    """
    if device_id < 0 or device_id >= num_gpus():
        raise MXNetError('gpu_memory_info: invalid device_id %d (%d GPUs present)'
                         % (device_id, num_gpus()))
    return torch.cuda.mem_get_info(device_id)


def current_context():
    """Returns the current context.

    By default, `mx.cpu()` is used for all the computations and it can be overridden by using
    `with mx.Context(x)` statement where x can be cpu(device_id) or gpu(device_id).

    Returns
    -------
    default_ctx : Context
    """
    if not hasattr(Context._default_ctx, 'value'):
        Context._default_ctx.value = Context('cpu', 0)
    return Context._default_ctx.value


_CPU0 = Context('cpu', 0)
_CUDA_CTX = {}


def context_of_device(device):
    """The Context for a ``torch.device`` (cpu(0) for host memory)."""
    if device.type == 'cpu':
        return _CPU0
    ctx = _CUDA_CTX.get(device.index)
    if ctx is None:
        ctx = _CUDA_CTX[device.index] = Context('gpu', device.index or 0)
    return ctx


def torch_device(ctx):
    """The ``torch.device`` for a Context, a device string ('cpu', 'gpu(0)') or None (current)."""
    if ctx is None:
        return current_context().torch_device
    if isinstance(ctx, Context):
        return ctx.torch_device
    if isinstance(ctx, torch.device):
        return ctx
    if isinstance(ctx, str):
        s = ctx.strip()
        for name in ('cpu_pinned', 'cpu_shared', 'cpu', 'gpu'):
            if s.startswith(name):
                rest = s[len(name):].strip('()') or '0'
                return Context(name, int(rest)).torch_device
    raise MXNetError('Invalid ctx %r: pass a Context such as mx.cpu() or mx.gpu(0)' % (ctx,))


def as_context(ctx):
    """A Context from a Context, device string or None (current context)."""
    if ctx is None:
        return current_context()
    if isinstance(ctx, Context):
        return ctx
    if isinstance(ctx, torch.device):
        return context_of_device(ctx)
    if isinstance(ctx, str):
        s = ctx.strip()
        for name in ('cpu_pinned', 'cpu_shared', 'cpu', 'gpu'):
            if s.startswith(name):
                rest = s[len(name):].strip('()') or '0'
                return Context(name, int(rest))
    raise MXNetError('Invalid ctx %r: pass a Context such as mx.cpu() or mx.gpu(0)' % (ctx,))
