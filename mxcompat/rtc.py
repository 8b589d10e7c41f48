"""CUDA kernels compiled at run time (``mx.rtc``), through NVRTC and the CUDA driver.

The source is compiled once to PTX by NVRTC (the library torch's CUDA build ships), loaded per
device with the driver's ``cuModuleLoadData``, and launched on torch's current stream of that
device, so a kernel is ordered with the operators around it as in MXNet's engine.
"""
import ctypes
import functools
import re

import numpy as np
import torch

from .base import MXNetError, string_types
from .ndarray.ndarray import NDArray

__all__ = ['CudaModule', 'CudaKernel']

# the C++ types a kernel's signature may name, as MXNet's mx.rtc accepts them
_CPP_TYPES = {'float': np.float32, 'double': np.float64, '__half': np.float16,
              'uint8_t': np.uint8, 'int': np.int32, 'int32_t': np.int32, 'int8_t': np.int8,
              'char': np.int8, 'int64_t': np.int64}
_ARGUMENT = re.compile(r'^(const)?\s?(\w+)\s?(\*)?\s?(\w+)?$')
_NVRTC_SUCCESS = 0
_CUDA_SUCCESS = 0
_CUDA_ERROR_NOT_FOUND = 500


@functools.lru_cache(maxsize=None)
def _libraries():
    """(NVRTC, CUDA driver) as ctypes libraries, loaded once (torch's loaders make a new
    handle per call); MXNetError where torch has no CUDA."""
    if torch.version.cuda is None:
        raise MXNetError('Compile with USE_CUDA=1 and ENABLE_CUDA_RTC=1 to have CUDA runtime '
                         'compilation. (mx.rtc needs a CUDA build of torch; this one, %s, has '
                         'no CUDA.)' % torch.__version__)
    from torch.cuda import _utils  # (torch's loaders find the libraries of its CUDA build)
    nvrtc = getattr(_utils, '_get_gpu_rtc_library', None) or _utils._get_nvrtc_library
    driver = getattr(_utils, '_get_gpu_runtime_library', None) or _utils._get_cuda_library
    return nvrtc(), driver()


def _driver_check(libcuda, result, what):
    if result != _CUDA_SUCCESS:
        text = ctypes.c_char_p()
        libcuda.cuGetErrorString(result, ctypes.byref(text))
        raise MXNetError('mx.rtc: %s failed: %s' % (what, (text.value or b'CUDA error %d'
                                                               % result).decode()))


def _compile(source, options, exports):
    """PTX of ``source`` and the lowered names of ``exports`` (C++ names, templates)."""
    nvrtc, _ = _libraries()

    def check(result, what):
        if result != _NVRTC_SUCCESS:
            nvrtc.nvrtcGetErrorString.restype = ctypes.c_char_p
            raise MXNetError('mx.rtc: %s failed: %s'
                             % (what, nvrtc.nvrtcGetErrorString(result).decode()))

    program = ctypes.c_void_p()
    check(nvrtc.nvrtcCreateProgram(ctypes.byref(program), source.encode(), b'source.cu', 0,
                                   None, None), 'nvrtcCreateProgram')
    try:
        for name in exports:
            check(nvrtc.nvrtcAddNameExpression(program, name.encode()), 'exporting %r' % name)
        flags = (ctypes.c_char_p * max(len(options), 1))(*[o.encode() for o in options])
        if nvrtc.nvrtcCompileProgram(program, len(options), flags) != _NVRTC_SUCCESS:
            size = ctypes.c_size_t()
            nvrtc.nvrtcGetProgramLogSize(program, ctypes.byref(size))
            log = ctypes.create_string_buffer(size.value)
            nvrtc.nvrtcGetProgramLog(program, log)
            raise MXNetError('mx.rtc.CudaModule: the source does not compile:\n%s'
                             % log.value.decode(errors='replace'))
        size = ctypes.c_size_t()
        check(nvrtc.nvrtcGetPTXSize(program, ctypes.byref(size)), 'nvrtcGetPTXSize')
        ptx = ctypes.create_string_buffer(size.value)
        check(nvrtc.nvrtcGetPTX(program, ptx), 'nvrtcGetPTX')
        lowered = {}
        for name in exports:
            low = ctypes.c_char_p()
            check(nvrtc.nvrtcGetLoweredName(program, name.encode(), ctypes.byref(low)),
                  'nvrtcGetLoweredName(%r)' % name)
            lowered[name] = low.value.decode()
    finally:
        nvrtc.nvrtcDestroyProgram(ctypes.byref(program))
    return ptx.raw, lowered


class CudaModule(object):
    r"""Compile and run CUDA code from Python.

    Kernels declared ``extern "C"`` are found by their name; C++ kernels (templates included)
    by the names given in `exports`::

        source = r'''
        extern "C" __global__ void axpy(const float *x, float *y, float alpha) {
            int i = threadIdx.x + blockIdx.x * blockDim.x;
            y[i] += alpha * x[i];
        }
        '''
        module = mx.rtc.CudaModule(source)
        func = module.get_kernel("axpy", "const float *x, float *y, float alpha")
        x = mx.nd.ones((10,), ctx=mx.gpu(0))
        y = mx.nd.zeros((10,), ctx=mx.gpu(0))
        func.launch([x, y, 3.0], mx.gpu(0), (1, 1, 1), (10, 1, 1))

    Parameters
    ----------
    source : str
        Complete source code.
    options : tuple of str
        Compiler flags, e.g. ``"-I/usr/local/cuda/include"``.
    exports : tuple of str
        Names of kernels to export (C++ names, e.g. ``'axpy<float>'``).
    """
    def __init__(self, source, options=(), exports=()):
        if isinstance(options, string_types):
            options = (options,)
        if isinstance(exports, string_types):
            exports = (exports,)
        self._ptx, self._lowered = _compile(source, tuple(options), tuple(exports))
        self._modules = {}  # device id -> the driver's module handle

    def _function(self, name, device_id):
        """The driver's handle of kernel `name` on device `device_id`."""
        _, libcuda = _libraries()
        module = self._modules.get(device_id)
        if module is None:
            module = ctypes.c_void_p()
            with torch.cuda.device(device_id):
                torch.cuda.synchronize()  # makes torch's context of the device current
                _driver_check(libcuda, libcuda.cuModuleLoadData(ctypes.byref(module),
                                                                self._ptx), 'loading the module')
            self._modules[device_id] = module
        function = ctypes.c_void_p()
        result = libcuda.cuModuleGetFunction(ctypes.byref(function), module, name.encode())
        if result == _CUDA_ERROR_NOT_FOUND:
            raise MXNetError("Cannot find cuda kernel with name '%s'. Please either prepend kernel "
                             "definition with 'extern \"C\"' or add its name to exports when "
                             "creating CudaModule." % name)
        _driver_check(libcuda, result, 'cuModuleGetFunction(%r)' % name)
        return function

    def __del__(self):
        modules = getattr(self, '_modules', None)
        if modules:
            try:
                libcuda = _libraries()[1]
                for module in modules.values():
                    libcuda.cuModuleUnload(module)
            except Exception:  # interpreter shutdown: the driver may be gone already
                pass

    def get_kernel(self, name, signature):
        r"""Get a CUDA kernel from the compiled module.

        Parameters
        ----------
        name : str
            Name of the kernel.
        signature : str
            The kernel's arguments, e.g. ``"const float *x, double *y, int alpha"`` or
            ``"const float *, double *, int"``: ``*`` marks an array (an NDArray at launch),
            ``const`` an array the kernel only reads.

        Returns
        -------
        CudaKernel
            A kernel that can be launched on a GPU.
        """
        arrays, dtypes = [], []
        for argument in re.sub(r'\s+', ' ', signature).split(','):
            argument = ' '.join(argument.split())
            match = _ARGUMENT.match(argument)
            if not match or match.group(2) == 'const':
                raise ValueError('Invalid function prototype "%s". Must be in the form of '
                                 '"(const) type (*) (name)"' % argument)
            if match.group(2) not in _CPP_TYPES:
                raise TypeError('Unsupported kernel argument type %s. Supported types are: %s.'
                                % (argument, ','.join(_CPP_TYPES)))
            arrays.append(bool(match.group(3)))
            dtypes.append(np.dtype(_CPP_TYPES[match.group(2)]))
        return CudaKernel(self, self._lowered.get(name, name), name, arrays, dtypes)


class CudaKernel(object):
    """A kernel of a :class:`CudaModule`, made by :meth:`CudaModule.get_kernel`."""
    def __init__(self, module, lowered_name, name, is_ndarray, dtypes):
        self._module = module
        self._lowered_name = lowered_name
        self._name = name
        self._is_ndarray = is_ndarray
        self._dtypes = dtypes
        self._functions = {}  # device id -> handle

    def launch(self, args, ctx, grid_dims, block_dims, shared_mem=0):
        """Launch the kernel.

        Parameters
        ----------
        args : tuple of NDArray or numbers
            The kernel's arguments: NDArrays (on `ctx`, of the signature's type) for pointer
            arguments, numbers for the others.
        ctx : Context
            The GPU to launch the kernel on.
        grid_dims : tuple of 3 integers
            Grid dimensions.
        block_dims : tuple of 3 integers
            Block dimensions.
        shared_mem : int, optional
            Bytes of dynamically allocated shared memory.
        """
        assert ctx.device_type == 'gpu', "Cuda kernel can only be launched on GPU"
        assert len(grid_dims) == 3, "grid_dims must be a tuple of 3 integers"
        assert len(block_dims) == 3, "block_dims must be a tuple of 3 integers"
        assert len(args) == len(self._dtypes), "CudaKernel(%s) expects %d arguments but got %d" \
            % (self._name, len(self._dtypes), len(args))
        device = torch.device('cuda', ctx.device_id)
        values, writes = [], []  # (ctypes values kept alive), (array, its contiguous copy)
        for i, (arg, is_nd, dtype) in enumerate(zip(args, self._is_ndarray, self._dtypes)):
            if is_nd:
                assert isinstance(arg, NDArray), \
                    "The %d-th argument is expected to be a NDArray but got %s" % (i, type(arg))
                if arg.dtype != dtype:
                    raise MXNetError('The %d-th argument is expected to be an NDArray of %s type, '
                                     'but got %s instead.' % (i, dtype.name, np.dtype(arg.dtype).name))
                tensor = arg._t
                if tensor.device != device:
                    raise MXNetError('The %d-th argument lives on %s; the kernel launches on %s: '
                                     'copy it there with as_in_context' % (i, arg.context, ctx))
                if not tensor.is_contiguous():
                    dense = tensor.contiguous()
                    writes.append((tensor, dense))
                    tensor = dense
                values.append(ctypes.c_void_p(tensor.data_ptr()))
            else:
                assert isinstance(arg, (int, float, np.generic)), \
                    "The %d-th argument is expected to be a number, but got %s" % (i, type(arg))
                values.append(np.array(arg, dtype=dtype))
        pointers = (ctypes.c_void_p * max(len(values), 1))(*[
            ctypes.addressof(v) if isinstance(v, ctypes.c_void_p) else v.ctypes.data
            for v in values])
        _, libcuda = _libraries()
        function = self._functions.get(ctx.device_id)
        if function is None:
            function = self._functions[ctx.device_id] = \
                self._module._function(self._lowered_name, ctx.device_id)
        stream = ctypes.c_void_p(torch.cuda.current_stream(device).cuda_stream)
        with torch.cuda.device(device):
            _driver_check(libcuda, libcuda.cuLaunchKernel(
                function, *(ctypes.c_uint(int(d)) for d in grid_dims),
                *(ctypes.c_uint(int(d)) for d in block_dims), ctypes.c_uint(int(shared_mem)),
                stream, pointers, None), 'launching %s' % self._name)
        for tensor, dense in writes:
            tensor.copy_(dense)
