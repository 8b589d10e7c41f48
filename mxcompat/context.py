"""Device contexts: MXNet's Context mapped onto ``torch.device``."""
import os
import threading
import warnings

import torch

from . import cpu_memory
from .base import MXNetError

__all__ = ['Context', 'cpu', 'gpu', 'cpu_pinned', 'current_context', 'num_gpus',
           'gpu_memory_info', 'allow_tf32']


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
            if self.device_typeid == 2:
                _check_gpu(self.device_id)
                dev = torch.device('cuda', self.device_id)
            else:
                dev = torch.device('cpu')
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


def _check_gpu(device_id):
    """MXNetError unless GPU ``device_id`` exists (MXNet fails on the first array placed on a
    GPU it does not have, not when the Context is made)."""
    count = num_gpus()
    if device_id < 0 or device_id >= count:
        if count == 0:
            why = ('no CUDA GPU is available to PyTorch (torch %s, torch.cuda.is_available() is '
                   'False)' % torch.__version__)
        else:
            why = '%d GPU%s present' % (count, '' if count == 1 else 's')
        raise MXNetError('gpu(%d) is not available: %s. Use mx.cpu(), or install a CUDA build '
                         'of PyTorch on a machine with an NVIDIA GPU' % (device_id, why))


def allow_tf32(enabled=True):
    """Lets float32 convolutions, RNNs and matrix products on NVIDIA GPUs (Ampere and later)
    run in TensorFloat-32, as PyTorch does by default for cuDNN.

    mxcompat computes float32 as float32 by default, as MXNet 1.9.1 does: on import it turns
    PyTorch's TF32 switches off, unless the environment variable ``MXCOMPAT_ALLOW_TF32=1`` is
    set. TF32 keeps float32's range with a 10-bit mantissa: convolutions and matrix products run
    several times faster on tensor cores, and results differ from float32 at about 1e-3.

    Parameters
    ----------
    enabled : bool, default True
        Whether TF32 is allowed from now on (in this process, for torch code too).

    Returns
    -------
    bool
        Whether it was allowed before the call.
    """
    before = torch.backends.cudnn.allow_tf32 and torch.backends.cuda.matmul.allow_tf32
    torch.backends.cudnn.allow_tf32 = bool(enabled)
    torch.backends.cuda.matmul.allow_tf32 = bool(enabled)
    return before


allow_tf32(os.environ.get('MXCOMPAT_ALLOW_TF32', '0').strip().lower() in ('1', 'true', 'yes'))


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


def mixed_context_error(opname, tensors):
    """MXNetError for an operator whose input tensors live on different devices (None when
    they share one), worded as MXNet words it."""
    first = None
    for i, t in enumerate(tensors):
        if not isinstance(t, torch.Tensor):
            continue
        if first is None:
            first = t.device
        elif t.device != first:
            return MXNetError(
                'Operator %s require all inputs live on the same context. But the first '
                'argument is on %s while the %d-th argument is on %s; copy the arrays to one '
                'context with as_in_context()'
                % (opname, context_of_device(first), i + 1, context_of_device(t.device)))
    return None


def operator_error(opname, tensors, err):
    """The error to raise for ``err``, which the operator ``opname`` raised on the input
    tensors ``tensors``: MXNet's error for inputs on different devices; ``err`` itself where
    mxcompat raised it (an MXNetError, a NotImplementedError naming an MXNet API) or where it
    is torch's out-of-memory error; else (torch refused the inputs: their types, their shapes)
    an MXNetError, as MXNet reports an invalid input, naming the operator and the inputs."""
    mixed = mixed_context_error(opname, tensors)
    if mixed is not None:
        return mixed
    if isinstance(err, (MXNetError, torch.OutOfMemoryError)) or \
            isinstance(err, NotImplementedError) and not _torch_dispatch_error(err):
        return err
    inputs = ', '.join('%s %s' % (str(t.dtype)[6:], tuple(t.shape)) for t in tensors
                       if isinstance(t, torch.Tensor))
    return MXNetError('Operator %s: %s (inputs: %s)'
                      % (opname, str(err).strip().split('\n')[0], inputs))


def _torch_dispatch_error(err):
    """Whether the NotImplementedError ``err`` is torch's for a type or device its kernel
    lacks (``"lcm_cpu" not implemented for 'Float'``)."""
    text = str(err)
    return "not implemented for '" in text or text.startswith("Could not run '")


def current_context():
    """Returns the current context.

    By default, `mx.cpu()` is used for all the computations and it can be overridden by using
    `with mx.Context(x)` statement where x can be cpu(device_id) or gpu(device_id).

    Returns
    -------
    default_ctx : Context
    """
    try:
        return Context._default_ctx.value
    except AttributeError:  # (a try costs nothing where it succeeds, unlike hasattr)
        Context._default_ctx.value = Context('cpu', 0)
        return Context._default_ctx.value


def swap_context(ctx):
    """Make ``ctx`` the current context (as ``with ctx:``, without touching the shared
    Context object); returns the previous one."""
    prev = current_context()
    Context._default_ctx.value = ctx
    return prev


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
