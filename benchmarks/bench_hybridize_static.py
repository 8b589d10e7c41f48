"""``hybridize(static_alloc=True, static_shape=True)`` (the graph compiled; a recorded training
step with its loss block and ``backward`` one compiled function, gluon/fused_step.py) against
the default ``hybridize()`` and plain PyTorch eager, on the CPU, with
``MXCOMPAT_COMPILE_STATIC=1`` (static graphs compile at their first call, not their 50th).

    python benchmarks/bench_hybridize_static.py [--rounds 5] [--only NAME ...] [--json FILE]

The training steps of bench_gluon.py (MLP 784-256-256-10, batch 64, SGD) and bench_layers.py
(ResNet-18 v1, batch 16 x 3x32x32, SGD with momentum): forward under ``autograd.record()``,
``SoftmaxCrossEntropyLoss``, ``backward``, ``gluon.Trainer.step``, against the same model in
torch eager (``torch.optim.SGD``). The first-call tables hold the compile times of the static
rows (the first call compiles the forward graph, the second the joint training step; a graph
with BatchNorm, whose backward updates moving statistics, compiles forward and backward
graphs) and the graph build of the default ``hybridize()``; the per-call tables hold the
steady state after compilation.
"""
import os
import sys

os.environ['MXCOMPAT_COMPILE_STATIC'] = '1'  # before mxcompat is imported, here and in workers

from bench_gluon import _inputs, _mx_step, _torch_step, NEEDS as MLP_NEEDS
from bench_layers import _images, _mx_resnet, _torch_resnet, RESNET_NEEDS, BATCH
from harness import Workload, main

INPUTS = 'MLP 784-256-256-10 batch 64; ResNet-18 v1 batch %d x 3x32x32' % BATCH
STATIC = dict(static_alloc=True, static_shape=True)

WORKLOADS = [
    Workload('mlp step hybridized', _inputs, _mx_step(active=True), _torch_step,
             needs=MLP_NEEDS, first_call=True),
    Workload('mlp step static', _inputs, _mx_step(**STATIC), _torch_step, needs=MLP_NEEDS,
             first_call=True),
    Workload('resnet18_v1 step hybridized', _images, _mx_resnet(active=True), _torch_resnet,
             needs=RESNET_NEEDS, items=BATCH, first_call=True),
    Workload('resnet18_v1 step static', _images, _mx_resnet(**STATIC), _torch_resnet,
             needs=RESNET_NEEDS, items=BATCH, first_call=True),
]

if __name__ == '__main__':
    sys.exit(main(suite='bench_hybridize_static'))
