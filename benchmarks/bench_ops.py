"""Per-operator overhead on small arrays: mxcompat vs plain PyTorch (vs real MXNet).

    python benchmarks/bench_ops.py                                   # mxcompat and torch
    python benchmarks/bench_ops.py --mxnet-python ~/mxnet-oracle/bin/python
    python benchmarks/bench_ops.py --only add FullyConnected --rounds 9 --size 256

Each row times one call written as an MXNet user writes it (``a + b``, ``mx.nd.relu(a)``,
...) against the same computation written in torch. For mxcompat and MXNet every batch of calls
ends with ``mx.nd.waitall()``, so MXNet's asynchronous engine is timed to completion.
"""
import sys

from harness import Workload, main


def _one(size, rs):
    return {'a': rs.uniform(-1, 1, (size, size)).astype('float32')}


def _two(size, rs):
    return {'a': rs.uniform(-1, 1, (size, size)).astype('float32'),
            'b': rs.uniform(-1, 1, (size, size)).astype('float32')}


def _row(size, rs):
    return {'a': rs.uniform(-1, 1, (size, size)).astype('float32'),
            'b': rs.uniform(-1, 1, (1, size)).astype('float32')}


def _dense(size, rs):
    return {'x': rs.uniform(-1, 1, (size, size)).astype('float32'),
            'w': rs.uniform(-1, 1, (size, size)).astype('float32'),
            'b': rs.uniform(-1, 1, (size,)).astype('float32')}


def _mlp(size, rs):
    return {'x': rs.uniform(-1, 1, (size, size)).astype('float32'),
            'y': rs.randint(0, 10, (size,)).astype('float32'),
            'w1': rs.uniform(-0.1, 0.1, (size, size)).astype('float32'),
            'b1': rs.uniform(-0.1, 0.1, (size,)).astype('float32'),
            'w2': rs.uniform(-0.1, 0.1, (10, size)).astype('float32'),
            'b2': rs.uniform(-0.1, 0.1, (10,)).astype('float32')}


def attach_grads(*params):
    """The arrays ``params``, each with a gradient buffer attached, as a list."""
    for p in params:
        p.attach_grad()
    return list(params)


def _mx_mlp_step(mx, x, y, w1, b1, w2, b2):
    """One SGD step of a two-layer MLP, as in MXNet's NDArray + autograd tutorials."""
    params = attach_grads(w1, b1, w2, b2)
    nd, autograd = mx.nd, mx.autograd
    # constants of the model, as a script writes them
    hidden, classes, rescale = w1.shape[0], w2.shape[0], 1.0 / x.shape[0]

    def step():
        with autograd.record():
            h = nd.relu(nd.FullyConnected(x, w1, b1, num_hidden=hidden))
            out = nd.FullyConnected(h, w2, b2, num_hidden=classes)
            loss = -nd.pick(nd.log_softmax(out), y)
        loss.backward()
        for p in params:
            nd.sgd_update(p, p.grad, lr=0.01, rescale_grad=rescale, out=p)
    return step


def _mx_dense(mx, x, w, b):
    hidden = w.shape[0]  # a constant of the model, as a script writes it
    return lambda: mx.nd.FullyConnected(x, w, b, num_hidden=hidden)


def _torch_mlp_step(torch, x, y, w1, b1, w2, b2):
    """The same step in plain torch (eager, torch.optim.SGD)."""
    F = torch.nn.functional
    params = [torch.nn.Parameter(t) for t in (w1, b1, w2, b2)]
    opt = torch.optim.SGD(params, lr=0.01)
    label = y.long()

    def step():
        h = F.relu(F.linear(x, params[0], params[1]))
        loss = F.cross_entropy(F.linear(h, params[2], params[3]), label)
        opt.zero_grad(set_to_none=False)
        loss.backward()
        opt.step()
    return step


WORKLOADS = [
    Workload('add', _two, lambda mx, a, b: lambda: a + b,
             lambda torch, a, b: lambda: a + b),
    Workload('mul', _two, lambda mx, a, b: lambda: a * b,
             lambda torch, a, b: lambda: a * b),
    Workload('scalar add', _one, lambda mx, a: lambda: a + 1.0,
             lambda torch, a: lambda: a + 1.0),
    Workload('relu', _one, lambda mx, a: lambda: mx.nd.relu(a),
             lambda torch, a: lambda: torch.relu(a), needs=('relu',)),
    Workload('exp', _one, lambda mx, a: lambda: mx.nd.exp(a),
             lambda torch, a: lambda: torch.exp(a), needs=('exp',)),
    Workload('sum', _one, lambda mx, a: lambda: mx.nd.sum(a),
             lambda torch, a: lambda: torch.sum(a), needs=('sum',)),
    Workload('dot', _two, lambda mx, a, b: lambda: mx.nd.dot(a, b),
             lambda torch, a, b: lambda: torch.matmul(a, b), needs=('dot',)),
    Workload('FullyConnected', _dense, _mx_dense,
             lambda torch, x, w, b: lambda: torch.nn.functional.linear(x, w, b),
             needs=('FullyConnected',)),
    Workload('broadcast_add', _row, lambda mx, a, b: lambda: mx.nd.broadcast_add(a, b),
             lambda torch, a, b: lambda: a + b, needs=('broadcast_add',)),
    Workload('reshape', _one, lambda mx, a: lambda: a.reshape((-1,)),
             lambda torch, a: lambda: a.reshape(-1)),
    Workload('slice', _one, lambda mx, a: lambda: a[1:3],
             lambda torch, a: lambda: a[1:3]),
    Workload('mlp train step', _mlp, _mx_mlp_step, _torch_mlp_step,
             needs=('FullyConnected', 'relu', 'pick', 'log_softmax', 'sgd_update')),
]

if __name__ == '__main__':
    sys.exit(main(suite='bench_ops'))
