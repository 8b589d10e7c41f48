"""The hybridized forward: a Symbol graph compiled to one Python function of torch calls.

``HybridBlock.hybridize()`` traces ``hybrid_forward`` into a Symbol, as MXNet does. The graph
is then turned into Python source, one line per operator node calling the operator's torch
implementation from the operator table with its parameters already converted, and compiled
once. A forward pass is a single Python call with no per-operator wrapping, so it costs less
than the imperative path, and it is an ordinary torch program: autograd, hooks and
``torch.compile`` (``hybridize(compile=True)``, a torch.compile ``backend=`` or ``mode=``) all
apply to it.
"""
import linecache
import sys

import torch

from ..autograd import is_training
from ..base import MXNetError
from ..ndarray.ndarray import wrap

__all__ = ['CachedGraph', 'torch_backends']

_BACKENDS = None


def torch_backends():
    """Names of the torch.compile backends."""
    global _BACKENDS
    if _BACKENDS is None:
        try:
            from torch._dynamo import list_backends
            _BACKENDS = frozenset(list_backends(exclude_tags=())) | {'inductor'}
        except Exception:  # torch without dynamo
            _BACKENDS = frozenset()
    return _BACKENDS


def _slot(node, k):
    return 'v%d_%d' % (node, k)


class CachedGraph(object):
    """A Symbol graph as a compiled Python function.

    Calling it with the tensors of ``symbol.list_inputs()`` (in that order) returns the list
    of output tensors.

    Parameters
    ----------
    sym : Symbol
        The graph.
    flags : dict
        MXNet's CachedOp flags (static_alloc, static_shape, ...), kept for reference.
    compile_options : dict or None
        torch.compile keyword arguments; None runs the function as it is.
    """
    def __init__(self, sym, flags=None, compile_options=None):
        self.symbol = sym
        self.flags = dict(flags or {})
        self._compile_options = compile_options
        self._compiled = {}
        nodes = sym._nodes()
        self._nodes = nodes
        self._filename = '<hybridized graph %x>' % id(self)
        g = {'_Tensor': torch.Tensor}
        index = {}
        args = []
        lines = []
        line_node = {}
        # each value is dropped after its last use, so that the graph holds no more memory than
        # the same calls made eagerly (autograd keeps what the backward pass needs)
        last_use = {}
        for j, node in enumerate(nodes):
            index[id(node)] = j
            for inp, k in node.inputs:
                if inp.op is not None:
                    last_use[_slot(index[id(inp)], k)] = j
        kept = {_slot(index[id(node)], k) for node, k in sym._outputs}
        dying = {}
        for j, node in enumerate(nodes):
            if node.op is not None:
                for k in range(node.num_visible_outputs()):
                    slot = _slot(j, k)
                    if slot not in kept:
                        dying.setdefault(last_use.get(slot, j), []).append(slot)
        for j, node in enumerate(nodes):
            if node.op is None:
                args.append('a%d' % j)
                continue
            ins = []
            for inp, k in node.inputs:
                i = index[id(inp)]
                ins.append('a%d' % i if inp.op is None else _slot(i, k))
            op = node.op
            pos = op.call_positions(node.params)
            if pos is not None:
                placed = ['None'] * len(op.inputs)
                for p, v in zip(pos, ins):
                    placed[p] = v
                ins = placed
            g['_f%d' % j] = op.fn
            if op.takes_positionally() and len(ins) == len(op.inputs) and \
                    node.params.keys() == op.params.keys():
                for i, pname in enumerate(op.params):
                    g['_p%d_%d' % (j, i)] = node.params[pname]
                    ins.append('_p%d_%d' % (j, i))
                call = '_f%d(%s)' % (j, ', '.join(ins))
            else:
                g['_k%d' % j] = dict(node.params)
                call = '_f%d(%s, **_k%d)' % (j, ', '.join(ins), j) if ins else \
                    '_f%d(**_k%d)' % (j, j)
            nout = node.num_visible_outputs()  # hidden outputs are never consumed
            line_node[len(lines) + 2] = node
            if nout == 1:
                lines.append('    %s = %s' % (_slot(j, 0), call))
                # a single-output implementation may return a 1-tuple
                lines.append('    if not isinstance(%s, _Tensor): %s = %s[0]'
                             % (_slot(j, 0), _slot(j, 0), _slot(j, 0)))
            else:
                lines.append('    r%d = %s' % (j, call))
                for k in range(nout):
                    lines.append('    %s = r%d[%d]' % (_slot(j, k), j, k))
                lines.append('    del r%d' % j)
            if j in dying:
                lines.append('    del %s' % ', '.join(dying[j]))
        outs = []
        for node, k in sym._outputs:
            j = index[id(node)]
            # a graph input returned as an output is copied, so that the two stay distinct
            outs.append('a%d.clone()' % j if node.op is None else _slot(j, k))
        lines.append('    return [%s]' % ', '.join(outs))
        src = 'def graph(%s):\n%s\n' % (', '.join(args), '\n'.join(lines))
        self.source = src
        self._line_node = line_node
        # tracebacks through the graph show its source lines
        linecache.cache[self._filename] = (len(src), None, src.splitlines(True), self._filename)
        exec(compile(src, self._filename, 'exec'), g)
        self._fn = g['graph']

    def __call__(self, tensors):
        fn = self._fn
        if self._compile_options is not None:
            fn = self._compiled_fn()
        try:
            return fn(*tensors)
        except MXNetError as err:
            node = self._failed_node(sys.exc_info()[2])
            if node is None:
                raise
            raise MXNetError('Error in operator %s(name="%s"): %s'
                             % (node.op.name, node.name, err)) from None

    def _compiled_fn(self):
        # operators read the train mode when they run: one compiled function per mode
        mode = is_training()
        fn = self._compiled.get(mode)
        if fn is None:
            fn = self._compiled[mode] = torch.compile(self._fn, **self._compile_options)
        return fn

    def _failed_node(self, tb):
        node = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self._filename:
                node = self._line_node.get(tb.tb_lineno)
            tb = tb.tb_next
        return node

    def run_monitored(self, tensors, callback, monitor_all=False):
        """Run the graph node by node, calling ``callback(name, op_name, NDArray)`` on each
        operator's outputs (and inputs with ``monitor_all``), as MXNet's op hooks do."""
        values = {}
        it = iter(tensors)
        for node in self._nodes:
            if node.op is None:
                values[(id(node), 0)] = next(it)
                continue
            ins = [values[(id(i), k)] for i, k in node.inputs]
            op = node.op
            if monitor_all:
                for iname, t in zip(op.monitor_inputs(node.params), ins):
                    callback('%s_%s' % (node.name, iname), op.name, wrap(t.detach()))
            pos = op.call_positions(node.params)
            call_ins = ins
            if pos is not None:
                call_ins = [None] * len(op.inputs)
                for p, v in zip(pos, ins):
                    call_ins[p] = v
            res = op.fn(*call_ins, **node.params)
            if isinstance(res, torch.Tensor):
                res = (res,)
            for k, r in enumerate(res):
                values[(id(node), k)] = r
            for oname, r in zip(node.output_names(), res):
                callback(oname, op.name, wrap(r.detach()))
        return [values[(id(n), k)].clone() if n.op is None else values[(id(n), k)]
                for n, k in self.symbol._outputs]
