"""Per-operator overhead of ``mx.np`` / ``mx.npx`` on small arrays: mxcompat vs plain PyTorch
(vs real MXNet).

    python benchmarks/bench_numpy.py                                 # mxcompat and torch
    python benchmarks/bench_numpy.py --mxnet-python ~/mxnet-oracle/bin/python
    python benchmarks/bench_numpy.py --only np.exp 'x[1:3]' --rounds 9 --cpu-time

Each row times one call written as a NumPy-mode MXNet user writes it (``a + b``,
``np.exp(a)``, ``npx.relu(a)``, ...) on ``mx.np.ndarray`` inputs, after ``npx.set_np()``,
against the same computation written in torch. Where MXNet's function returns new memory
and torch's a view (``a.reshape(-1)``, ``a.T``, ``np.expand_dims``), the torch side copies
too (``.clone()``; ``.contiguous()`` for ``a.T``, whose copy MXNet lays out row-major): a
view is not the same result. Inputs are those of ``bench_ops.py``
(SIZE x SIZE float32, a 1 x SIZE row for broadcasting). The npx training step is timed twice:
against torch's fused ``cross_entropy`` (what a torch user writes) and against the same graph
in torch (``log_softmax`` and a gather squeezed to one entry per sample, as the step's
``log_softmax`` and ``pick``).
"""
import sys

from harness import Workload, main
from bench_ops import _one, _two, _row, _dense, _mlp, attach_grads


def _np(fn):
    """The mx-side builder: switches NumPy mode on and hands ``fn`` ``mx.np`` arrays."""
    def build(mx, **arrays):
        mx.npx.set_np()
        return fn(mx, **{k: v.as_np_ndarray() for k, v in arrays.items()})
    return build


def _idx(size, rs):
    return {'a': rs.uniform(-1, 1, (size, size)).astype('float32'),
            'i': rs.randint(0, size, (size // 2,)).astype('int64')}


def _scalar_of(mx, a):
    return lambda: a[1, 2].item()


def _np_mlp_step(mx, x, y, w1, b1, w2, b2):
    """One SGD step of a two-layer MLP written with mx.np / npx under autograd."""
    params = attach_grads(w1, b1, w2, b2)
    npx, autograd = mx.npx, mx.autograd
    hidden, classes, lr = w1.shape[0], w2.shape[0], 0.01 / x.shape[0]
    label = y.astype('int64')

    def step():
        with autograd.record():
            h = npx.relu(npx.fully_connected(x, w1, b1, num_hidden=hidden))
            out = npx.fully_connected(h, w2, b2, num_hidden=classes)
            loss = -npx.pick(npx.log_softmax(out), label).sum()
        loss.backward()
        for p in params:
            p -= lr * p.grad
    return step


def _torch_mlp(fused):
    """The same step in plain torch (eager, in-place SGD): the loss as torch's fused
    cross-entropy (what a torch user writes), or (``fused=False``) as the mx.np step writes it,
    ``log_softmax`` and a gather of the labels' entries, squeezed to one per sample as
    ``npx.pick`` gives them (the same graph)."""
    def build(torch, x, y, w1, b1, w2, b2):
        F = torch.nn.functional
        params = [t.requires_grad_() for t in (w1, b1, w2, b2)]
        label = y.long()
        picked = label[:, None]
        lr = 0.01 / x.shape[0]

        def loss_of(out):
            if fused:
                return F.cross_entropy(out, label, reduction='sum')
            return -F.log_softmax(out, -1).gather(1, picked).squeeze(1).sum()

        def step():
            h = F.relu(F.linear(x, params[0], params[1]))
            loss = loss_of(F.linear(h, params[2], params[3]))
            for p in params:
                p.grad = None
            loss.backward()
            with torch.no_grad():
                for p in params:
                    p -= lr * p.grad
        return step
    return build


def _fc(mx, x, w, b):
    hidden = w.shape[0]
    return lambda: mx.npx.fully_connected(x, w, b, num_hidden=hidden)


W = Workload
WORKLOADS = [
    # creation
    W('np.zeros', _one, _np(lambda mx, a: lambda: mx.np.zeros(a.shape)),
      lambda torch, a: lambda: torch.zeros(a.shape), needs=('np.zeros',)),
    W('np.ones', _one, _np(lambda mx, a: lambda: mx.np.ones(a.shape)),
      lambda torch, a: lambda: torch.ones(a.shape), needs=('np.ones',)),
    W('np.array(list)', _one, _np(lambda mx, a: (lambda l: lambda: mx.np.array(l))(
        a.asnumpy()[0].tolist())), lambda torch, a: (lambda l: lambda: torch.tensor(l))(
        a[0].tolist()), needs=('np.array',)),
    W('np.arange', _one, _np(lambda mx, a: lambda: mx.np.arange(a.shape[0])),
      lambda torch, a: lambda: torch.arange(a.shape[0], dtype=torch.float32),
      needs=('np.arange',)),
    # element-wise binary, broadcasting
    W('a + b', _two, _np(lambda mx, a, b: lambda: a + b), lambda torch, a, b: lambda: a + b),
    W('a * row', _row, _np(lambda mx, a, b: lambda: a * b), lambda torch, a, b: lambda: a * b),
    W('a + 1.0', _one, _np(lambda mx, a: lambda: a + 1.0), lambda torch, a: lambda: a + 1.0),
    W('1 - a', _one, _np(lambda mx, a: lambda: 1 - a), lambda torch, a: lambda: 1 - a),
    W('np.maximum(a, 0)', _one, _np(lambda mx, a: lambda: mx.np.maximum(a, 0)),
      lambda torch, a: lambda: torch.clamp_min(a, 0), needs=('np.maximum',)),
    W('np.add(a, row)', _row, _np(lambda mx, a, b: lambda: mx.np.add(a, b)),
      lambda torch, a, b: lambda: torch.add(a, b), needs=('np.add',)),
    W('np.maximum', _two, _np(lambda mx, a, b: lambda: mx.np.maximum(a, b)),
      lambda torch, a, b: lambda: torch.maximum(a, b), needs=('np.maximum',)),
    # unary
    W('np.exp', _one, _np(lambda mx, a: lambda: mx.np.exp(a)),
      lambda torch, a: lambda: torch.exp(a), needs=('np.exp',)),
    W('np.tanh', _one, _np(lambda mx, a: lambda: mx.np.tanh(a)),
      lambda torch, a: lambda: torch.tanh(a), needs=('np.tanh',)),
    W('npx.relu', _one, _np(lambda mx, a: lambda: mx.npx.relu(a)),
      lambda torch, a: lambda: torch.relu(a), needs=('npx.relu',)),
    W('npx.sigmoid', _one, _np(lambda mx, a: lambda: mx.npx.sigmoid(a)),
      lambda torch, a: lambda: torch.sigmoid(a), needs=('npx.sigmoid',)),
    # reductions
    W('np.sum(axis=1)', _one, _np(lambda mx, a: lambda: mx.np.sum(a, axis=1)),
      lambda torch, a: lambda: torch.sum(a, dim=1), needs=('np.sum',)),
    W('a.mean(axis=0)', _one, _np(lambda mx, a: lambda: a.mean(axis=0)),
      lambda torch, a: lambda: a.mean(dim=0)),
    W('np.max(axis=1)', _one, _np(lambda mx, a: lambda: mx.np.max(a, axis=1)),
      lambda torch, a: lambda: torch.amax(a, dim=1), needs=('np.max',)),
    # products
    W('np.dot', _two, _np(lambda mx, a, b: lambda: mx.np.dot(a, b)),
      lambda torch, a, b: lambda: torch.matmul(a, b), needs=('np.dot',)),
    W('np.matmul', _two, _np(lambda mx, a, b: lambda: mx.np.matmul(a, b)),
      lambda torch, a, b: lambda: torch.matmul(a, b), needs=('np.matmul',)),
    # shapes
    W('a.reshape(-1)', _one, _np(lambda mx, a: lambda: a.reshape(-1)),
      lambda torch, a: lambda: a.reshape(-1).clone()),
    W('a.T', _one, _np(lambda mx, a: lambda: a.T), lambda torch, a: lambda: a.T.contiguous()),
    W('np.expand_dims', _one, _np(lambda mx, a: lambda: mx.np.expand_dims(a, 0)),
      lambda torch, a: lambda: torch.unsqueeze(a, 0).clone(), needs=('np.expand_dims',)),
    W('np.concatenate', _two, _np(lambda mx, a, b: lambda: mx.np.concatenate([a, b], axis=0)),
      lambda torch, a, b: lambda: torch.cat([a, b], 0), needs=('np.concatenate',)),
    W('np.stack', _two, _np(lambda mx, a, b: lambda: mx.np.stack([a, b])),
      lambda torch, a, b: lambda: torch.stack([a, b]), needs=('np.stack',)),
    # indexing
    W('x[1:3]', _one, _np(lambda mx, a: lambda: a[1:3]), lambda torch, a: lambda: a[1:3]),
    W('x[idx]', _idx, _np(lambda mx, a, i: lambda: a[i]), lambda torch, a, i: lambda: a[i]),
    # softmax, dense
    W('npx.softmax', _one, _np(lambda mx, a: lambda: mx.npx.softmax(a)),
      lambda torch, a: lambda: torch.softmax(a, -1), needs=('npx.softmax',)),
    W('npx.log_softmax', _one, _np(lambda mx, a: lambda: mx.npx.log_softmax(a)),
      lambda torch, a: lambda: torch.log_softmax(a, -1), needs=('npx.log_softmax',)),
    W('npx.fully_connected', _dense, _np(_fc),
      lambda torch, x, w, b: lambda: torch.nn.functional.linear(x, w, b),
      needs=('npx.fully_connected',)),
    # random
    W('np.random.normal', _one, _np(lambda mx, a: lambda: mx.np.random.normal(size=a.shape)),
      lambda torch, a: lambda: torch.randn(a.shape), needs=('np.random.normal',)),
    W('np.random.uniform', _one, _np(lambda mx, a: lambda: mx.np.random.uniform(size=a.shape)),
      lambda torch, a: lambda: torch.rand(a.shape), needs=('np.random.uniform',)),
    # to the host
    W('a[1, 2].item()', _one, _np(_scalar_of), lambda torch, a: lambda: a[1, 2].item()),
    W('asnumpy', _one, _np(lambda mx, a: lambda: a.asnumpy()),
      lambda torch, a: lambda: a.numpy().copy()),
    # training
    W('np mlp train step', _mlp, _np(_np_mlp_step), _torch_mlp(fused=True),
      needs=('npx.fully_connected', 'npx.relu', 'npx.pick', 'npx.log_softmax')),
    W('np mlp step, same graph', _mlp, _np(_np_mlp_step), _torch_mlp(fused=False),
      needs=('npx.fully_connected', 'npx.relu', 'npx.pick', 'npx.log_softmax')),
]

if __name__ == '__main__':
    sys.exit(main(suite='bench_numpy'))
