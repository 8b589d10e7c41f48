"""The float32 CPU matrix products of a compiled graph: oneDNN's or MKL's, whichever is faster.

torch calls MKL's sgemm for a float32 ``mm`` / ``addmm`` on the CPU; MXNet 1.9.1 computed its
FullyConnected layers with oneDNN (MKL-DNN). Which of the two is faster depends on the CPU and
the shapes: on an AMD EPYC, oneDNN's inner product took half of sgemm's time for an MLP's
products (64x784 by 784x256: 115 against 240 microseconds, one thread). So when inductor
compiles a graph (a static hybridized graph, a fused training step), a pass over its
post-grad graph times both kernels once per process for each product's shapes and layouts and
calls oneDNN's where it is faster. The results are the same product, summed in another order.
"""
import time

import torch

__all__ = ['inductor_options']

_MIN_MACS = 1 << 16  # smaller products: the call costs more than either kernel's difference
_REPEATS = 3
_FASTER = {}  # (shapes, strides, bias) -> whether oneDNN's kernel is the faster


@torch.library.custom_op('mxcompat::onednn_mm', mutates_args=())
def onednn_mm(a: torch.Tensor, b: torch.Tensor, bias: torch.Tensor | None) -> torch.Tensor:
    """``a @ b`` (+ ``bias``) by oneDNN's inner product (float32, on the CPU)."""
    return torch.ops.mkldnn._linear_pointwise(a, b.t(), bias, 'none', [], '')


@onednn_mm.register_fake
def _(a, b, bias):
    return a.new_empty((a.shape[0], b.shape[1]))


def inductor_options(kwargs):
    """torch.compile keyword arguments ``kwargs`` with the GEMM choice among inductor's
    options, where inductor compiles with options (no mode, no pass of the user's)."""
    options = kwargs.get('options')
    if options is None or 'post_grad_custom_post_pass' in options or \
            kwargs.get('backend', 'inductor') != 'inductor' or \
            not torch.backends.mkldnn.is_available():
        return kwargs
    return dict(kwargs, options=dict(options, post_grad_custom_post_pass=_pass()))


def _pass():
    # inductor's package takes most of a second to import: only when a graph compiles
    from torch._inductor.custom_graph_pass import CustomGraphPass

    class GemmChoice(CustomGraphPass):
        def __call__(self, graph):
            _choose(graph)

        def uuid(self):
            return 'mxcompat-gemm-choice-1'
    return GemmChoice()


def _choose(graph):
    aten = torch.ops.aten
    for node in list(graph.nodes):
        if node.op != 'call_function':
            continue
        if node.target is aten.mm.default and not node.kwargs:
            bias, (a, b) = None, node.args
        elif node.target is aten.addmm.default and len(node.args) == 3 and all(
                node.kwargs.get(k, 1) == 1 for k in ('beta', 'alpha')) and \
                set(node.kwargs) <= {'beta', 'alpha'}:
            bias, a, b = node.args
        else:
            continue
        vals = [x.meta.get('val') if x is not None else None for x in (a, b, bias)]
        if not _worth_asking(*vals):
            continue
        with graph.inserting_before(node):
            new = graph.call_function(torch.ops.mxcompat.onednn_mm.default, (a, b, bias))
        new.meta.update(node.meta)
        node.replace_all_uses_with(new)
        graph.erase_node(node)


def _worth_asking(a, b, bias):
    if a is None or b is None or a.dtype != torch.float32 or b.dtype != torch.float32 or \
            a.device.type != 'cpu' or b.device.type != 'cpu' or a.dim() != 2 or b.dim() != 2:
        return False
    (m, k), n = a.shape, b.shape[1]
    if bias is not None and (bias.dtype != torch.float32 or tuple(bias.shape) != (n,)):
        return False
    if not all(isinstance(s, int) for s in (m, k, n)) or m * k * n < _MIN_MACS:
        return False
    key = (m, k, n, tuple(a.stride()), tuple(b.stride()), bias is not None)
    faster = _FASTER.get(key)
    if faster is None:
        faster = _FASTER[key] = _onednn_faster(a, b, bias)
    return faster


def _onednn_faster(a, b, bias):
    """Times both kernels on random arrays laid out as ``a``, ``b`` (and ``bias``)."""
    def like(t):
        size = 1 + sum((s - 1) * st for s, st in zip(t.shape, t.stride()))
        return torch.randn(size).as_strided(t.shape, t.stride())
    a, b = like(a), like(b)
    bias = like(bias) if bias is not None else None
    mkl = (lambda: torch.mm(a, b)) if bias is None else (lambda: torch.addmm(bias, a, b))
    onednn = lambda: torch.ops.mxcompat.onednn_mm(a, b, bias)  # noqa: E731
    best = {}
    for fn in (mkl, onednn) * (_REPEATS + 1):
        start = time.perf_counter()
        fn()
        elapsed = time.perf_counter() - start
        best[fn] = min(best.get(fn, elapsed), elapsed)
    return best[onednn] < best[mkl]
