"""mx.rtc: CUDA kernels compiled at run time. Without CUDA, making a CudaModule raises what
MXNet built without CUDA runtime compilation raises (fixture from real MXNet 1.9.1); with CUDA,
the kernels of MXNet's own test_cuda_rtc (tests/python/gpu) and an exported template compute
what numpy computes from the same inputs, and bad launches raise MXNet's errors."""
import json
import os

import numpy as np
import pytest
import torch

import mxcompat as mx
from mxcompat.base import MXNetError

FIXTURE = os.path.join(os.path.dirname(__file__), 'fixtures', 'rtc', 'rtc.json')

SOURCE = r'''
extern "C" __global__ void axpy(const float *x, float *y, float alpha) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    y[i] += alpha * x[i];
}

extern "C" __global__ void saxpy(const float *x, float *y, float alpha) {
    extern __shared__ float smem[];
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    smem[threadIdx.x] = x[i];
    y[i] += alpha * smem[threadIdx.x];
}

template<typename DType>
__global__ void scale(const DType *x, DType *y, DType alpha) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    y[i] = alpha * x[i];
}
'''


@pytest.mark.skipif(torch.version.cuda is not None, reason='torch has CUDA here')
def test_without_cuda_raises_mxnets_error():
    with open(FIXTURE) as f:
        expected = json.load(f)['no_cuda']
    with pytest.raises(MXNetError) as err:
        mx.rtc.CudaModule(SOURCE)
    assert type(err.value).__name__ == expected['class']
    assert str(err.value).startswith(expected['message'])


@pytest.mark.gpu
def test_kernels_of_mxnets_gpu_test():
    module = mx.rtc.CudaModule(SOURCE, exports=['scale<float>', 'scale<double>'])
    gpu = mx.gpu(0)
    xs = np.random.RandomState(0).uniform(-1, 1, 10).astype(np.float32)
    x, y = mx.nd.array(xs, ctx=gpu), mx.nd.zeros((10,), ctx=gpu)
    want = np.zeros(10, np.float32)
    axpy = module.get_kernel('axpy', 'const float *x, float *y, float alpha')
    axpy.launch([x, y, 3.0], gpu, (1, 1, 1), (10, 1, 1))
    want += np.float32(3.0) * xs
    np.testing.assert_array_equal(y.asnumpy(), want)
    saxpy = module.get_kernel('saxpy', 'const float *, float *, float')
    saxpy.launch([x, y, 4.0], gpu, (1, 1, 1), (10, 1, 1), 10 * 4)
    saxpy.launch([x, y, 5.0], gpu, (2, 1, 1), (5, 1, 1), 5 * 4)
    want += np.float32(4.0) * xs
    want += np.float32(5.0) * xs
    np.testing.assert_array_equal(y.asnumpy(), want)
    for dtype, cpp in (('float32', 'float'), ('float64', 'double')):
        k = module.get_kernel('scale<%s>' % cpp, 'const %s *x, %s *y, %s alpha' % (cpp, cpp, cpp))
        x64, out = x.astype(dtype), mx.nd.zeros((10,), ctx=gpu, dtype=dtype)
        k.launch([x64, out, 0.5], gpu, (1, 1, 1), (10, 1, 1))
        np.testing.assert_array_equal(out.asnumpy(), xs.astype(dtype) * np.array(0.5, dtype))


@pytest.mark.gpu
def test_bad_launches_raise():
    module = mx.rtc.CudaModule(SOURCE)
    gpu = mx.gpu(0)
    axpy = module.get_kernel('axpy', 'const float *x, float *y, float alpha')
    x = mx.nd.ones((10,), ctx=gpu)
    with pytest.raises(MXNetError, match='expected to be an NDArray of float32 type'):
        axpy.launch([x.astype('float64'), x, 1.0], gpu, (1, 1, 1), (10, 1, 1))
    with pytest.raises(AssertionError, match='expects 3 arguments but got 2'):
        axpy.launch([x, x], gpu, (1, 1, 1), (10, 1, 1))
    with pytest.raises(AssertionError, match='only be launched on GPU'):
        axpy.launch([x, x, 1.0], mx.cpu(), (1, 1, 1), (10, 1, 1))
    with pytest.raises(MXNetError, match='Cannot find cuda kernel'):
        module.get_kernel('missing', 'float *x').launch([x], gpu, (1, 1, 1), (1, 1, 1))
    with pytest.raises(ValueError, match='Invalid function prototype'):
        module.get_kernel('axpy', 'const *x')
    with pytest.raises(TypeError, match='Unsupported kernel argument type'):
        module.get_kernel('axpy', 'bool *x')
    with pytest.raises(MXNetError, match='does not compile'):
        mx.rtc.CudaModule('__global__ void broken( {')
