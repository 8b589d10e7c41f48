"""Control-flow operators ``_foreach``, ``_while_loop`` and ``_cond``.

Each runs one or more subgraphs (Symbols held by the node, written to JSON in the node's
"subgraphs" field as MXNet does) in a Python loop over torch calls, so gradients come from
torch.autograd through every iteration. ``mx.sym.contrib.foreach / while_loop / cond`` build
these nodes; the locations parameters say which operator input feeds which subgraph input
(subgraph inputs are numbered in ``list_inputs()`` order).
"""
import weakref

import torch

from ..base import MXNetError
from .registry import register, REQUIRED, Int, Shape

_GRAPHS = {}  # id(subgraph Symbol) -> _Graph, dropped with the Symbol


class _Graph:
    """A subgraph lowered once (symbol/lowering.py): call with its inputs, in
    ``list_inputs()`` order, to get its outputs."""
    __slots__ = ('run', 'symbol')

    def __init__(self, symbol):
        from ..symbol.lowering import Lowered
        self.symbol = symbol
        self.run = Lowered(symbol)

    def __call__(self, inputs):
        return self.run(inputs)

    def out_shapes(self, inputs):
        """Output shapes for inputs of these shapes (for loops that run no iteration)."""
        known = dict(zip(self.symbol.list_inputs(), (tuple(t.shape) for t in inputs)))
        return self.symbol.infer_shape(**known)[1]


def _graph(symbol):
    # keyed by identity: Symbol's == builds an operator
    g = _GRAPHS.get(id(symbol))
    if g is None or g.symbol is not symbol:
        g = _GRAPHS[id(symbol)] = _Graph(symbol)
        weakref.finalize(symbol, _GRAPHS.pop, id(symbol), None)
    return g


def _subgraphs(name, subgraphs, n, made_by=None):
    """The ``n`` subgraphs of a node of operator ``name``, lowered; ``made_by`` says what
    builds such nodes (default: ``mx.sym.contrib``'s function of the name)."""
    if not subgraphs or len(subgraphs) != n:
        raise MXNetError('%s needs %d subgraph(s); build it with %s'
                         % (name, n, made_by or 'mx.sym.contrib.' + name.strip('_')))
    return [_graph(s) for s in subgraphs]


def _outputs(res):
    """The outputs as every implementation of the table returns them: a tuple, or the
    tensor itself where there is one."""
    return res[0] if len(res) == 1 else tuple(res)


def _scalar(pred, name):
    """The condition ``pred`` as a 0-d tensor."""
    if pred.numel() != 1:
        raise MXNetError('%s: the condition must be a scalar (one element), got shape %s'
                         % (name, tuple(pred.shape)))
    return pred.reshape(())


def _as_bool(pred, name):
    return bool(_scalar(pred, name).item())


def _sub_shapes(symbol, known):
    """{input name: shape} inferred inside a subgraph from the shapes in ``known``."""
    names = symbol.list_inputs()
    given = {n: s for n, s in known.items() if s is not None and n in names}
    args, _, aux = symbol.infer_shape_partial(**given)
    found = dict(zip(symbol.list_arguments(), args))
    found.update(zip(symbol.list_auxiliary_states(), aux))
    return {n: (tuple(s) if s else None) for n, s in found.items()}


def _step_shape(shape):
    """Shape of one iteration's slice (MXNet keeps 1-D data as slices of shape (1,))."""
    return tuple(shape[1:]) if len(shape) > 1 else (1,)


def _foreach_shapes(in_shapes, p):
    sub = p['subgraphs'][0]
    names = sub.list_inputs()
    nd = len(p['in_data_locs'])
    locs = list(p['in_data_locs']) + list(p['in_state_locs']) + list(p['remain_locs'])
    known = {}
    for k, (loc, s) in enumerate(zip(locs, in_shapes)):
        if s is not None:
            known[names[loc]] = _step_shape(s) if k < nd else s
    found = _sub_shapes(sub, known)
    out = []
    for k, (loc, s) in enumerate(zip(locs, in_shapes)):
        f = found.get(names[loc])
        if f is None:
            out.append(None)
        elif k >= nd:
            out.append(f)
        elif s is not None and len(s) > 1:  # the length comes from the data itself
            out.append((s[0],) + f)
        else:
            out.append(None)
    return out


@register('_foreach', merges=False, inputs=('*data',), key_var_num_args='num_args',
          params={'num_args': (Int, REQUIRED), 'num_outputs': (Int, REQUIRED),
                  'num_out_data': (Int, REQUIRED), 'in_state_locs': (Shape, REQUIRED),
                  'in_data_locs': (Shape, REQUIRED), 'remain_locs': (Shape, REQUIRED)},
          input_rule=lambda p: ['data%d' % i for i in range(p['num_args'] - 1)],
          num_outputs=lambda p: p['num_outputs'], infer_shape=_foreach_shapes)
def foreach(*inputs, num_args, num_outputs, num_out_data, in_state_locs, in_data_locs,
            remain_locs, subgraphs=None):
    """Run a for loop over an NDArray with user-defined computation"""
    body, = _subgraphs('_foreach', subgraphs, 1)
    nd, ns = len(in_data_locs), len(in_state_locs)
    data, states = inputs[:nd], list(inputs[nd:nd + ns])
    sub = [None] * len(inputs)
    for loc, v in zip(remain_locs, inputs[nd + ns:]):
        sub[loc] = v
    length = data[0].shape[0]
    for d in data[1:]:
        if d.shape[0] != length:
            raise MXNetError('_foreach: all data arrays must have the same length on axis 0, '
                             'got %d and %d' % (length, d.shape[0]))
    if length == 0:
        raise MXNetError('_foreach: the data arrays have length 0 on axis 0')
    outs = [[] for _ in range(num_out_data)]
    for i in range(length):
        for loc, d in zip(in_data_locs, data):
            sub[loc] = d[i] if d.dim() > 1 else d[i:i + 1]
        for loc, s in zip(in_state_locs, states):
            sub[loc] = s
        res = body(sub)
        for k in range(num_out_data):
            outs[k].append(res[k])
        states = res[num_out_data:]
    return _outputs([torch.stack(o) for o in outs] + list(states))


def _while_shapes(in_shapes, p):
    out = [None] * len(in_shapes)
    for sub, locs in zip(p['subgraphs'], (p['cond_input_locs'], p['func_input_locs'])):
        names = sub.list_inputs()
        found = _sub_shapes(sub, {names[j]: in_shapes[loc] for j, loc in enumerate(locs)})
        for j, loc in enumerate(locs):
            if in_shapes[loc] is None and found.get(names[j]) is not None:
                out[loc] = found[names[j]]
    return out


@register('_while_loop', merges=False, inputs=('*data',), key_var_num_args='num_args',
          params={'num_args': (Int, REQUIRED), 'num_outputs': (Int, REQUIRED),
                  'num_out_data': (Int, REQUIRED), 'max_iterations': (Int, REQUIRED),
                  'cond_input_locs': (Shape, REQUIRED), 'func_input_locs': (Shape, REQUIRED),
                  'func_var_locs': (Shape, REQUIRED)},
          input_rule=lambda p: ['data%d' % i for i in range(p['num_args'] - 2)],
          num_outputs=lambda p: p['num_outputs'], infer_shape=_while_shapes)
def while_loop(*inputs, num_args, num_outputs, num_out_data, max_iterations, cond_input_locs,
               func_input_locs, func_var_locs, subgraphs=None):
    """Run a while loop over with user-defined condition and computation"""
    cond_g, func_g = _subgraphs('_while_loop', subgraphs, 2)
    cond_in = [inputs[j] for j in cond_input_locs]
    func_in = [inputs[j] for j in func_input_locs]
    # where each new loop variable also feeds the condition
    to_cond = []
    for loc in func_var_locs:
        pos = func_input_locs[loc]
        hits = [j for j, c in enumerate(cond_input_locs) if c == pos]
        to_cond.append(hits[-1] if hits else -1)
    if torch.compiler.is_exporting():
        return _while_masked(cond_g, func_g, cond_in, func_in, to_cond, func_var_locs,
                             num_out_data, max_iterations)
    outs = [[] for _ in range(num_out_data)]
    step = 0
    while step < max_iterations and _as_bool(cond_g(cond_in)[0], '_while_loop'):
        res = func_g(func_in)
        for k in range(num_out_data):
            outs[k].append(res[k])
        for i, new in enumerate(res[num_out_data:]):
            func_in[func_var_locs[i]] = new
            if to_cond[i] != -1:
                cond_in[to_cond[i]] = new
        step += 1
    stacked = []
    if num_out_data:
        if step:
            shapes = [tuple(o[0].shape) for o in outs]
        else:
            shapes = [tuple(s) for s in func_g.out_shapes(func_in)[:num_out_data]]
        ref = func_in[0] if func_in else inputs[0]
        for k, shape in enumerate(shapes):
            # MXNet leaves the rows past the last iteration uninitialised; they are 0 here
            pad = torch.zeros((max_iterations - step,) + shape, dtype=outs[k][0].dtype
                              if step else ref.dtype, device=ref.device)
            stacked.append(torch.cat([torch.stack(outs[k]), pad]) if step else pad)
    return _outputs(stacked + [func_in[loc] for loc in func_var_locs])


def _while_masked(cond_g, func_g, cond_in, func_in, to_cond, func_var_locs, num_out_data,
                  max_iterations):
    """``_while_loop`` for torch.export, which cannot read the condition in Python: all
    ``max_iterations`` steps run, and from the first whose condition is false on the loop
    variables keep their values and the outputs are 0, which are the eager loop's results."""
    active = None
    outs = [[] for _ in range(num_out_data)]
    for _ in range(max_iterations):
        pred = _scalar(cond_g(cond_in)[0], '_while_loop') != 0
        active = pred if active is None else active & pred
        res = func_g(func_in)
        for k in range(num_out_data):
            outs[k].append(torch.where(active, res[k], torch.zeros_like(res[k])))
        for i, new in enumerate(res[num_out_data:]):
            loc = func_var_locs[i]
            func_in[loc] = new = torch.where(active, new, func_in[loc])
            if to_cond[i] != -1:
                cond_in[to_cond[i]] = new
    return _outputs([torch.stack(o) for o in outs] + [func_in[loc] for loc in func_var_locs])


def _cond_shapes(in_shapes, p):
    out = [None] * len(in_shapes)
    locs_all = (p['cond_input_locs'], p['then_input_locs'], p['else_input_locs'])
    for sub, locs in zip(p['subgraphs'], locs_all):
        names = sub.list_inputs()
        found = _sub_shapes(sub, {names[j]: in_shapes[loc] for j, loc in enumerate(locs)})
        for j, loc in enumerate(locs):
            if in_shapes[loc] is None and found.get(names[j]) is not None:
                out[loc] = found[names[j]]
    return out


@register('_cond', merges=False, inputs=('*data',), key_var_num_args='num_args',
          params={'num_args': (Int, REQUIRED), 'num_outputs': (Int, REQUIRED),
                  'cond_input_locs': (Shape, REQUIRED), 'then_input_locs': (Shape, REQUIRED),
                  'else_input_locs': (Shape, REQUIRED)},
          input_rule=lambda p: ['data%d' % i for i in range(p['num_args'] - 3)],
          num_outputs=lambda p: p['num_outputs'], infer_shape=_cond_shapes)
def cond(*inputs, num_args, num_outputs, cond_input_locs, then_input_locs, else_input_locs,
         subgraphs=None):
    """Run a if-then-else using user-defined condition and computation"""
    pred_g, then_g, else_g = _subgraphs('_cond', subgraphs, 3)
    if _as_bool(pred_g([inputs[j] for j in cond_input_locs])[0], '_cond'):
        res = then_g([inputs[j] for j in then_input_locs])
    else:
        res = else_g([inputs[j] for j in else_input_locs])
    return _outputs(res)


@register('_CachedOp', merges=False, inputs=('*data',),
          num_outputs=lambda p: len(p['subgraphs'][0].list_outputs()))
def cached_op(*inputs, subgraphs=None):
    """Run a hybridized block's graph: the node ``autograd.get_symbol`` shows for the call
    of a block that is not inlined (MXNet's ``inline_limit``)."""
    graph, = _subgraphs('_CachedOp', subgraphs, 1, 'mx.autograd.get_symbol of a hybridized '
                        "block's output")
    return _outputs(graph(list(inputs)))
