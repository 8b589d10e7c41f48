"""Which ``mx.nd`` results share memory with their input, from real MXNet 1.9.1: the array
methods ``reshape``, ``expand_dims``, basic slices and integer indexing are views (a write into
the result reaches the source); operators (``nd.reshape``, ``transpose``, ``depth_to_space``,
``split``, ``broadcast_to``, ...) return new arrays. Each case writes -1 into the result and
stores the source afterwards. The outputs of a hybridized block share memory neither with its
input nor with each other, also where one output is a reshape of another (MXNet's graph
executor lets a reshape share its input's memory only inside the graph): the ``graph/``
cases write into the first output and store the input and the other outputs. The same
``run(mx)`` executes under mxcompat in tests/test_nd_result_memory.py."""
import os

import numpy as np

_CASES = (
    ('method/reshape', lambda nd, a: a.reshape((-1,))),
    ('method/expand_dims', lambda nd, a: a.expand_dims(0)),
    ('method/flatten', lambda nd, a: a.flatten()),
    ('method/T', lambda nd, a: a.T),
    ('method/astype-nocopy', lambda nd, a: a.astype('float32', copy=False)),
    ('method/astype-copy', lambda nd, a: a.astype('float32')),
    ('method/copy', lambda nd, a: a.copy()),
    ('index/slice', lambda nd, a: a[0:1]),
    ('index/int', lambda nd, a: a[0]),
    ('op/reshape', lambda nd, a: nd.reshape(a, shape=(-1,))),
    ('op/Reshape-0', lambda nd, a: nd.Reshape(a, shape=(0, 0))),
    ('op/transpose', lambda nd, a: nd.transpose(a)),
    ('op/expand_dims', lambda nd, a: nd.expand_dims(a, 0)),
    ('op/flatten', lambda nd, a: nd.flatten(a)),
    ('op/squeeze', lambda nd, a: nd.squeeze(a.expand_dims(0))),
    ('op/swapaxes', lambda nd, a: nd.swapaxes(a, 0, 1)),
    ('op/slice_axis', lambda nd, a: nd.slice_axis(a, axis=0, begin=0, end=1)),
    ('op/broadcast_to', lambda nd, a: nd.broadcast_to(a[0:1], shape=(2, 3))),
    ('op/split', lambda nd, a: nd.split(a, 2, axis=0)[0]),
    ('op/concat-1', lambda nd, a: nd.concat(a, dim=0)),
    ('op/identity', lambda nd, a: nd.identity(a)),
    ('op/BlockGrad', lambda nd, a: nd.BlockGrad(a)),
    ('op/depth_to_space-1', lambda nd, a: nd.depth_to_space(a.reshape((1, 6, 1, 1)), 1)),
    ('op/space_to_depth-1', lambda nd, a: nd.space_to_depth(a.reshape((1, 6, 1, 1)), 1)),
)


# hybridized blocks: the outputs of hybrid_forward(F, x), y = relu(x)
_GRAPHS = (
    ('output-and-its-reshape', lambda F, x, y: (y, F.reshape(y, shape=(-1,)))),
    ('input-reshape', lambda F, x, y: (F.reshape(x, shape=(-1,)), y)),
    ('output-and-its-expand_dims', lambda F, x, y: (y, F.expand_dims(y, 0))),
    ('reshape-chain-and-source', lambda F, x, y: (F.flatten(F.expand_dims(y, 0)), y)),
    ('internal-reshapes', lambda F, x, y: (
        F.reshape(F.reshape(y, shape=(-1,)) * 2, shape=(2, 3)), F.squeeze(F.expand_dims(y, 0)))),
)


def _graph_block(mx, fn):
    class Block(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):  # pylint: disable=arguments-differ
            return fn(F, x, F.relu(x))
    block = Block()
    block.hybridize()
    return block


def run(mx):
    """{case id: the source array after a write of -1 into the case's result}."""
    out = {}
    for cid, fn in _CASES:
        src = mx.nd.array(np.arange(6, dtype=np.float32).reshape(2, 3))
        fn(mx.nd, src)[:] = -1
        out[cid] = src.asnumpy()
    for cid, fn in _GRAPHS:
        block = _graph_block(mx, fn)
        x = mx.nd.array(np.arange(6, dtype=np.float32).reshape(2, 3) - 2)
        for _ in range(2):  # (the second call runs the cached graph)
            outs = block(x)
        outs[0][:] = -1
        out['graph/%s/input' % cid] = x.asnumpy()
        for k, o in enumerate(outs):
            out['graph/%s/output%d' % (cid, k)] = o.asnumpy()
    return out


def write(mx, outdir):
    tmp = os.path.join(outdir, 'nd_result_memory.tmp.npz')
    np.savez_compressed(tmp, **run(mx))
    os.replace(tmp, os.path.join(outdir, 'nd_result_memory.npz'))
