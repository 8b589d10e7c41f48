"""mx.rtc from real MXNet 1.9.1: what a build without CUDA runtime compilation raises when a
CudaModule is made (the pip build of MXNet has none; a CPU-only torch stands in for it in
tests/test_rtc.py)."""
import json
import os

SOURCE = r'''
extern "C" __global__ void axpy(const float *x, float *y, float alpha) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    y[i] += alpha * x[i];
}
'''


def run(mx):
    out = {}
    try:
        mx.rtc.CudaModule(SOURCE)
        out['no_cuda'] = None
    except mx.base.MXNetError as err:
        message = str(err).strip().splitlines()[-1]
        out['no_cuda'] = {'class': 'MXNetError',
                          'message': message.split('MXNetError: ', 1)[-1]}
    return out


def write(mx, outdir):
    with open(os.path.join(outdir, 'rtc.json'), 'w') as f:
        json.dump(run(mx), f, indent=1, sort_keys=True)
