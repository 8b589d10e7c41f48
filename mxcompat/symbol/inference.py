"""Shape and type inference over a symbol graph.

An operator's output shapes come from running its torch implementation on ``meta`` tensors
(no data, no compute), so every operator of the table infers shapes without a hand-written
rule. Operators whose parameters have shapes that depend on the data (FullyConnected's weight,
BatchNorm's gamma, ...) declare an ``infer_shape`` rule in the table that completes the unknown
input shapes; operators registered with ``infer_shape='same'`` give all inputs one shape.
"""
import itertools

import torch

from ..base import MXNetError, gc_paused, dtype_torch, dtype_np, dtype_from_flag, to_shape
from .lowering import place

__all__ = ['infer_shape', 'infer_type', 'run_meta', 'entry_shapes', 'consumer_sized_params']


_LOW_FLOATS = (torch.float16, torch.bfloat16)


def _fixed_dtypes(node):
    """{input position: torch dtype} of the inputs whose type ``node``'s operator fixes
    (``input_dtypes`` of its table entry)."""
    fixed = node.op.input_dtypes
    if not fixed:
        return {}
    return {j: dtype_torch(fixed[name])
            for j, name in enumerate(node.op.list_inputs(node.params)) if name in fixed}


def _known(shape):
    return shape is not None and all(d > 0 for d in shape)


def _merge(old, new):
    """Combine two partial shapes (0 = unknown dim); None when they disagree."""
    if old is None:
        return new
    if len(old) != len(new):  # a complete shape of other rank contradicts a partial one too
        if _known(new):
            return None
        return old if _known(old) else new
    out = []
    for o, n in zip(old, new):
        if o > 0 and n > 0 and o != n:
            return None
        out.append(o if o > 0 else n)
    return tuple(out)


def _var_shape(node):
    s = node.attrs.get('__shape__')
    if s is None:
        return None
    shape = to_shape(s)
    if -1 in shape:  # NumPy-shape mode's unknown size: 0 here, as in the legacy semantics
        shape = tuple(0 if d == -1 else d for d in shape)
    return shape if shape else None


def _var_dtype(node):
    d = node.attrs.get('__dtype__')
    if d is None:
        return None
    return dtype_torch(dtype_from_flag(int(d)))


# run_meta results by operator, attributes, input shapes and dtypes: an unrolled RNN repeats
# the same few nodes many times, and meta kernels cost about a millisecond each
_META_CACHE = {}
_META_CACHE_SIZE = 8192


def run_meta(node, in_shapes, in_dtypes, partial=False, meta_only=False):
    """Output (shapes, dtypes) of ``node`` for known input shapes, or None if it cannot tell.

    With ``partial`` the shapes hold unknown (0) dimensions, and an error means "unknown".
    With ``meta_only`` an implementation that cannot run on meta tensors gives None rather
    than running on real ones (the sizes ``run_partial`` tries are large)."""
    if node.op.same_type and in_shapes and not partial:
        # the output is any input, when they agree (see the operator's ``same_type``)
        first = in_shapes[0]
        types = _meta_dtypes(node, in_dtypes)
        if all(s == first for s in in_shapes) and all(d is types[0] for d in types):
            return [tuple(first)], [types[0]]
    if node.subgraphs:
        return _run_meta(node, in_shapes, in_dtypes, partial, meta_only)
    key = (node.op, tuple(sorted(node.attrs.items())), tuple(in_shapes), tuple(in_dtypes),
           partial, meta_only)
    try:
        res = _META_CACHE[key]
    except KeyError:
        res = _run_meta(node, in_shapes, in_dtypes, partial, meta_only)
        if len(_META_CACHE) >= _META_CACHE_SIZE:
            _META_CACHE.clear()
        _META_CACHE[key] = res
    except TypeError:  # an unhashable attribute value
        return _run_meta(node, in_shapes, in_dtypes, partial, meta_only)
    return None if res is None else (list(res[0]), list(res[1]))


# sizes that stand in for unknown (0) dims in the runs of ``run_partial``: the first two divide
# by every small group count, kernel and reshape factor, and exceed every small kernel; the
# last, where the operator accepts it, finds the dims that are clamped to the input's size
# (a slice's end)
_PROBES = (5040, 7560, 1)


def run_partial(node, in_shapes, in_dtypes):
    """Output (shapes, dtypes) of ``node`` for input shapes with unknown (0) dims, or None if it
    cannot tell: an output dim is known when it does not depend on the unknown dims, as in
    MXNet's shape functions (a Convolution over data of unknown width has an unknown width and
    ``num_filter`` channels, whatever its padding). The node runs on meta tensors for each of
    ``_PROBES``, the unknown dims of its first input standing for that size and those of its
    other inputs taken from the operator's ``infer_shape`` rule (a grouped Convolution's
    weight) or standing for the same size; the output dims that differ between the runs are
    unknown. An operator that cannot run the first two runs runs with the unknown dims as zero
    sizes."""
    first = dts = None
    for k, probe in enumerate(_PROBES):
        trial = _probe_shapes(node, in_shapes, probe)
        res = None if trial is None else run_meta(node, trial, in_dtypes, partial=True,
                                                  meta_only=True)
        if res is None:
            if k < 2:
                return run_meta(node, in_shapes, in_dtypes, partial=True)
            continue
        if first is None:
            first, dts = [tuple(s) for s in res[0]], res[1]
            continue
        if any(len(a) != len(b) for a, b in zip(first, res[0])):
            return None
        first = [tuple(x if x == y else 0 for x, y in zip(a, b)) for a, b in zip(first, res[0])]
    return first, dts


def _probe_shapes(node, in_shapes, probe):
    """``in_shapes`` with the unknown dims of the first input set to ``probe``, and those of the
    others completed by the operator's shape rule from it, else set to ``probe`` too."""
    fill = (lambda s: tuple(d or probe for d in s))
    trial = [fill(in_shapes[0])] + [s if _known(s) else None for s in in_shapes[1:]]
    rule = node.op.infer_shape
    if rule is not None and rule != 'same' and any(s is None for s in trial):
        try:
            new = rule(list(trial), node.params)
        except Exception:  # pylint: disable=broad-except
            return None
        if isinstance(new, tuple) and len(new) == 2 and isinstance(new[0], list):
            new = new[0]
        trial = [t if t is not None or n is None else tuple(n) for t, n in zip(trial, new)]
    return [fill(s if t is None else t) for s, t in zip(in_shapes, trial)]


def infers_range(params):
    """Whether an ``arange(infer_range=True)`` without ``stop`` takes its size from its
    consumers."""
    return bool(params.get('infer_range')) and params.get('stop') is None


def sized_by_consumers(params):
    """Whether an operator without inputs leaves its output's size to inference from its
    consumers, as MXNet does: an ``arange(infer_range=True)`` without ``stop``, or a ``shape``
    that is ``()`` (unknown in MXNet's legacy shape semantics) or has 0 or -1 sizes (a
    ``shape`` that is no tuple, as ``_npi_gamma``'s number, is no output shape)."""
    shape = params.get('shape')
    return infers_range(params) or shape == () or \
        isinstance(shape, tuple) and any(d <= 0 for d in shape)


def consumer_sized_params(symbol, known):
    """Parameters, by ``id(node)``, for the operators without inputs whose ``shape`` is
    unknown (``()``, or 0 or -1 dims: the zeros of an RNN cell's ``begin_state``): the shape
    that inference finds for their output, and for an ``arange(infer_range=True)`` the
    ``stop`` of that size, as MXNet does; ``known`` maps argument and auxiliary names to
    shapes. None when there are none."""
    pending = [n for n in symbol._nodes()
               if n.op is not None and not n.inputs and sized_by_consumers(n.params)]
    if not pending:
        return None
    internals = symbol.get_internals()
    names = set(internals.list_inputs())
    outs = internals.infer_shape_partial(**{k: v for k, v in known.items()
                                            if k in names})[1]
    found = {(id(n), i): s for (n, i), s in zip(internals._outputs, outs)}
    sized = {}
    for node in pending:
        shape = found.get((id(node), 0))
        if shape and all(d > 0 for d in shape):
            params = dict(node.params)
            if infers_range(params):  # arange(infer_range=True): stop from the size
                params['stop'] = params['start'] + \
                    shape[0] // params['repeat'] * params['step']
            else:
                params['shape'] = tuple(shape)
            sized[id(node)] = params
    return sized


def _meta_dtypes(node, in_dtypes):
    """The torch dtypes of ``node``'s inputs in a meta run: an input of unknown dtype (a
    variable declared without one) takes the floating dtype of the others, as MXNet's type
    inference gives it (or the type its operator fixes): shape inference never fails on
    dtypes."""
    fixed = _fixed_dtypes(node)
    default = next((d for d in in_dtypes if d is not None and d.is_floating_point),
                   torch.float32)
    return [d or fixed.get(j, default) for j, d in enumerate(in_dtypes)]


def _run_meta(node, in_shapes, in_dtypes, partial, meta_only=False):
    op = node.op
    for s in in_shapes:
        if any(d < 0 for d in s):
            raise MXNetError('input shape %s has a negative size' % (tuple(s),))
    try:
        present = [torch.empty(s, dtype=d, device='meta')
                   for s, d in zip(in_shapes, _meta_dtypes(node, in_dtypes))]
    except RuntimeError as err:  # a size whose bytes overflow torch's storage arithmetic
        if meta_only:
            return None
        raise MXNetError('input shapes %s are too large: %s'
                         % ([tuple(s) for s in in_shapes], err)) from None
    params = node.params
    args = place(op, params, present)
    if not args and sized_by_consumers(params):
        shape = params.get('shape')
        if infers_range(params) or shape == ():
            return None  # no size known at all
        # ones/zeros/full(shape=(2, -1)): 0 and -1 sizes run as 0, which inference finds
        params = dict(params, shape=tuple(max(d, 0) for d in shape))
    try:
        with torch.no_grad():
            res = op.fn(*args, **params)
    except MXNetError:
        if partial:
            return None
        raise
    except Exception:  # data-dependent implementations cannot run on meta tensors
        if meta_only:
            return None
        try:
            real = [None if a is None else torch.zeros(a.shape, dtype=a.dtype) for a in args]
            with torch.no_grad():
                res = op.fn(*real, **params)
        except MXNetError:
            if partial:
                return None
            raise
        except Exception:
            return None
    if isinstance(res, torch.Tensor):
        res = (res,)
    return tuple(tuple(r.shape) for r in res), tuple(r.dtype for r in res)


def _entries_state(sym, given, var_attr_fn):
    nodes = sym._nodes()
    state = {}
    for n in nodes:
        if n.op is None:
            v = given.get(n.name)
            if v is None:
                v = var_attr_fn(n)
            state[id(n)] = [v]
        else:
            state[id(n)] = [None] * n.num_outputs()
    return nodes, state


def _given(sym, args, kwargs, what):
    names = sym.list_arguments()
    given = {}
    if args:
        if len(args) > len(names):
            raise MXNetError('infer_%s: too many positional arguments (%d > %d arguments)'
                             % (what, len(args), len(names)))
        for k, v in zip(names, args):
            if v is not None:
                given[k] = v
    inputs = set(sym.list_inputs())
    for k, v in kwargs.items():
        if k not in inputs:
            raise MXNetError('infer_%s: %s is not an argument of the symbol; its arguments are %s'
                             % (what, k, ', '.join(sym.list_arguments())))
        if v is not None:
            given[k] = v
    return given


def infer_shape(sym, args, kwargs, partial):
    """((arg_shapes, out_shapes, aux_shapes), complete)."""
    given = {k: tuple(v) for k, v in _given(sym, args, kwargs, 'shape').items()}
    nodes, shapes, _ = entry_shapes(sym, given)
    return _collect(sym, nodes, shapes, partial, ())


def infer_bound_shapes(sym, shapes, dtypes):
    """Partial shape inference as ``bind`` runs it, with the bound arrays' shapes and torch
    dtypes (name -> value): ``(arg_shapes, out_shapes, aux_shapes)``, unknown shapes as ()."""
    nodes, entries, _ = entry_shapes(sym, {k: tuple(v) for k, v in shapes.items()}, dtypes)
    return _collect(sym, nodes, entries, True, ())[0]


@gc_paused
def entry_shapes(sym, given, given_dtypes=None):
    """Shapes and torch dtypes of every entry of the graph: ``(nodes, shapes, dtypes)`` where
    ``shapes[id(node)][k]`` is the shape of output ``k`` of ``node`` (None if unknown) and
    ``dtypes[id(node)]`` the list of its output dtypes (None if not found), for input shapes
    ``given`` (name -> shape) and optional input dtypes (name -> torch dtype)."""
    nodes, shapes = _entries_state(sym, given, _var_shape)
    given_dtypes = given_dtypes or {}
    dtypes = {id(n): [given_dtypes.get(n.name) or _var_dtype(n)] if n.op is None else None
              for n in nodes}
    checked = set()  # nodes run with all input shapes known
    # nodes run with all input shapes known that gave their output shapes: nothing about
    # them changes later (a disagreement with them raises when the other side runs)
    done = set()
    for _ in range(3):
        changed = False
        for n in nodes:
            if n.op is None or id(n) in done:
                continue
            in_shapes = [shapes[id(i)][k] for i, k in n.inputs]
            rule = n.op.infer_shape
            if rule is not None:
                if rule == 'same':  # inputs and output share one shape
                    merged = None
                    for s in in_shapes + shapes[id(n)][:1]:
                        if s is None:
                            continue
                        m = s if merged is None else _merge(merged, s)
                        if m is None:
                            raise MXNetError(
                                'Shape inconsistent in operator %s(name="%s"): the inputs '
                                'must have one shape, got %s and %s'
                                % (n.op.name, n.name, tuple(merged), tuple(s)))
                        merged = m
                    new_in = [merged] * len(in_shapes)
                else:
                    try:
                        new_in = rule(list(in_shapes), n.params)
                    except MXNetError:
                        raise
                    except (ValueError, TypeError, IndexError) as err:
                        raise MXNetError('infer_shape error in operator %s(name="%s"): %s'
                                         % (n.op.name, n.name, err)) from None
                    if isinstance(new_in, tuple) and len(new_in) == 2 and \
                            isinstance(new_in[0], list):
                        new_in = new_in[0]
                for (i, k), old, new in zip(n.inputs, in_shapes, new_in):
                    if new is None:
                        continue
                    merged = _merge(old, tuple(new))
                    if merged is None:
                        raise MXNetError(
                            'Error in operator %s: Shape inconsistent, Provided = %s, inferred '
                            'shape=(%s) (input %s has shape %s; %s(name="%s") requires %s)'
                            % (n.name, _dims(old), ','.join(str(d) for d in new), i.name,
                               tuple(old), n.op.name, n.name, tuple(new)))
                    if merged != old:
                        shapes[id(i)][k] = merged
                        changed = True
                in_shapes = [shapes[id(i)][k] for i, k in n.inputs]
            complete_in = all(_known(s) for s in in_shapes)
            if id(n) not in checked and all(s is not None for s in in_shapes) and \
                    (complete_in or any(o is None or not _known(o) for o in shapes[id(n)])):
                # unknown dims (0) run as zero-size dims, and come out as 0 where they matter;
                # with every input known the node runs once even if its outputs were filled in
                # from its consumers, so that a conflict between the two raises as in MXNet
                in_dt = _one_float([_entry_dtype(dtypes, i, k) for i, k in n.inputs])
                try:
                    res = run_meta(n, in_shapes, in_dt) if complete_in else \
                        run_partial(n, in_shapes, in_dt)
                except MXNetError as err:
                    raise MXNetError('Error in operator %s: %s' % (n.name, err)) from None
                if complete_in:
                    checked.add(id(n))
                    if res is not None and all(_known(o) for o in res[0]):
                        done.add(id(n))
                if res is not None:
                    outs, out_dt = res
                    merged = []
                    for old, o in zip(shapes[id(n)], outs):
                        m = o if old is None else _merge(old, o)
                        if m is None:
                            if complete_in:
                                raise MXNetError(
                                    'Error in operator %s: Shape inconsistent, Provided = %s, '
                                    'inferred shape=%s' % (n.name, _dims(old), _dims(o)))
                            m = o
                        merged.append(m)
                    if merged != shapes[id(n)]:
                        shapes[id(n)] = merged
                        dtypes[id(n)] = list(out_dt)
                        changed = True
            if any(s is not None and not _known(s) for s in in_shapes):
                solved = _solve_unknown_dims(n, in_shapes, shapes[id(n)],
                                             _one_float([_entry_dtype(dtypes, i, k)
                                                         for i, k in n.inputs]))
                if solved is not None:
                    for (i, k), new in zip(n.inputs, solved):
                        shapes[id(i)][k] = new
                    changed = True
        if not changed:
            break
    return nodes, shapes, dtypes


def _one_float(in_dtypes):
    """``in_dtypes`` with every floating-point dtype replaced by the first one: MXNet infers
    shapes without looking at types, so a float32 input met by a float64 one (a data variable of
    unknown type next to a float64 parameter, in the deferred initialization of a float64
    network) must not make shape inference fail."""
    first = next((d for d in in_dtypes if d is not None and d.is_floating_point), None)
    if first is None:
        return in_dtypes
    return [first if d is not None and d.is_floating_point else d for d in in_dtypes]


def _solve_unknown_dims(node, in_shapes, out_shapes, in_dtypes):
    """Fill the unknown (0) dims of ``node``'s inputs from its outputs, as MXNet's backward
    shape inference does (e.g. the batch size of an RNN ``begin_state`` of shape (0, H) from
    the FullyConnected it feeds). Tries the dims seen around the node and keeps the one
    assignment under which the node runs and gives the outputs known so far; None if there
    is no such single assignment."""
    if any(s is None for s in in_shapes):
        return None
    holes = [(j, d) for j, s in enumerate(in_shapes) for d, v in enumerate(s) if v == 0]
    if not holes or len(holes) > 3:
        return None
    joined = _solve_concat(node, in_shapes, out_shapes, holes)
    if joined is not None:
        return joined
    seen = {v for s in list(in_shapes) + list(out_shapes) if s is not None for v in s if v > 0}
    if len(holes) == 1 and len(out_shapes) == 1 and _known(out_shapes[0]):
        # a size-preserving operator (keeps_size) fixes the one missing dim by the sizes
        known_in = 1
        for s in in_shapes:
            for v in s:
                known_in *= max(v, 1)
        out_size = 1
        for v in out_shapes[0]:
            out_size *= v
        if out_size % known_in == 0:
            size = out_size // known_in
            if node.op.keeps_size:  # sizes agree: that is the only solution
                (j, d), = holes
                trial = [list(s) for s in in_shapes]
                trial[j][d] = size
                trial = [tuple(s) for s in trial]
                res = run_meta(node, trial, in_dtypes, partial=True)
                return trial if res is not None and tuple(res[0][0]) == out_shapes[0] \
                    else None
            seen.add(size)
    if not seen or len(seen) > 8:
        return None
    def fill(values):
        trial = [list(s) for s in in_shapes]
        for (j, d), v in zip(holes, values):
            trial[j][d] = v
        return [tuple(s) for s in trial]


    def fits(trial):
        res = run_meta(node, trial, in_dtypes, partial=True)
        return res is not None and all(old is None or _merge(old, tuple(o)) is not None
                                       for old, o in zip(out_shapes, res[0]))

    found = None
    for combo in itertools.product(sorted(seen), repeat=len(holes)):
        if fits(fill(combo)):
            if found is not None:
                return None
            found = combo
    if found is None:
        return None
    # every dim must be pinned down: with other values in place of any of them (one, or
    # several at once, which elementwise operators accept when they agree) the node must not
    # fit (an FC whose batch size is still unknown at its output would accept any guess; a
    # Reshape fails for a size that does not divide, but takes a multiple)
    others = (max(seen) + 1, 2 * max(seen) * min(seen))
    for mask in range(1, 1 << len(holes)):
        for other in others:
            if fits(fill(tuple(other if mask >> k & 1 else v for k, v in enumerate(found)))):
                return None
    return fill(found)


def _solve_concat(node, in_shapes, out_shapes, holes):
    """The inputs of an operator that joins them along ``dim`` (``concat_fill`` in its table
    entry: Concat, ``_rnn_param_concat``) whose unknown sizes along it (as many as
    ``concat_fill``: one for Concat, two for a bidirectional layer's first input-to-hidden
    weights) share equally what its known output leaves, as MXNet infers them; None
    otherwise."""
    fill = node.op.concat_fill
    if not fill or len(out_shapes) != 1 or not out_shapes[0] or not _known(out_shapes[0]):
        return None
    ndim = len(in_shapes[0])
    axis = node.params.get('dim', 1)
    axis = axis + ndim if axis < 0 else axis
    if any(d != axis for _, d in holes) or len(holes) > fill:
        return None
    residual = out_shapes[0][axis] - sum(s[axis] for s in in_shapes)
    if residual <= 0 or residual % len(holes):
        return None
    trial = [list(s) for s in in_shapes]
    for j, d in holes:
        trial[j][d] = residual // len(holes)
    return [tuple(s) for s in trial]


def _dims(shape):
    return '[%s]' % ','.join(str(d) for d in shape)


def _entry_dtype(dtypes, node, k):
    d = dtypes.get(id(node))
    if d is None or k >= len(d):
        return None
    return d[k]


def _collect(sym, nodes, state, partial, unknown):
    aux_ids = sym._aux_ids()
    arg = [state[id(n)][0] for n in nodes if n.op is None and id(n) not in aux_ids]
    aux = [state[id(n)][0] for n in nodes if n.op is None and id(n) in aux_ids]
    out = [state[id(n)][i] for n, i in sym._outputs]
    complete = all(s is not None and (not isinstance(s, tuple) or _known(s) or s == ())
                   for s in arg + aux + out)
    if partial or complete:
        fix = (lambda s: unknown if s is None else s)
        return ([fix(s) for s in arg], [fix(s) for s in out], [fix(s) for s in aux]), complete
    return (arg, out, aux), complete


@gc_paused
def infer_type(sym, args, kwargs, partial, var_shapes=None):
    """((arg_types, out_types, aux_types), complete); types are numpy types. ``var_shapes``:
    (arg_shapes, aux_shapes) already inferred (``simple_bind``'s), in place of a partial shape
    inference from the variables' attributes."""
    given = {k: dtype_torch(v) for k, v in _given(sym, args, kwargs, 'type').items()}
    nodes, types = _entries_state(sym, given, _var_dtype)
    # shapes help run the implementations exactly; unknown shapes fall back to a rule
    shape_state = {}
    if var_shapes is None:
        (arg_s, _, aux_s), _ = infer_shape(sym, (), {}, partial=True)
    else:
        arg_s, aux_s = var_shapes
    aux_ids = sym._aux_ids()
    it_arg, it_aux = iter(arg_s), iter(aux_s)
    for n in nodes:
        if n.op is None:
            s = next(it_aux) if id(n) in aux_ids else next(it_arg)
            shape_state[id(n)] = [s if s else None]  # () is "unknown" in partial results
    for _ in range(3):
        changed = False
        for n in nodes:
            if n.op is None:
                continue
            in_types = [types[id(i)][k] for i, k in n.inputs]
            rule = n.op.infer_type
            if rule is not None:  # the operator's own type rule
                if any(t is None for t in types[id(n)]):
                    res = rule(in_types, n.params)
                    if res is not None:
                        for (i, k), t, new in zip(n.inputs, in_types, res[0]):
                            if t is None and new is not None and i.op is None:
                                types[id(i)][k] = new
                                changed = True
                        if all(t is not None for t in res[1]):
                            types[id(n)] = list(res[1])
                            changed = True
                continue
            fixed = _fixed_dtypes(n)
            for j, t in fixed.items():
                i, k = n.inputs[j]
                if in_types[j] is None and i.op is None:
                    types[id(i)][k] = in_types[j] = t
                    changed = True
            known = next((t for j, t in enumerate(in_types) if t is not None and
                          j not in fixed), None)
            if known is not None:
                fill = known
                if n.op.float32_params and in_types[0] in _LOW_FLOATS:
                    fill = torch.float32
                for j, ((i, k), t) in enumerate(zip(n.inputs, in_types)):
                    if t is None and i.op is None and 'dtype' not in n.params:
                        types[id(i)][k] = fill if j else known
                        changed = True
                in_types = [types[id(i)][k] for i, k in n.inputs]
            dt = n.params.get('dtype')
            if dt not in (None, 'None') and all(t is None for t in types[id(n)]) and \
                    n.op.dtype_output:
                types[id(n)] = [dtype_torch(dt)]  # a cast's output type needs no input type
                changed = True
            if all(t is not None for t in in_types) and any(t is None for t in types[id(n)]):
                in_shapes = [shape_state.get(id(i), [None] * (k + 1))[k] for i, k in n.inputs]
                res = None
                if all(s is not None and _known(s) for s in in_shapes):
                    res = run_meta(n, in_shapes, in_types)
                if res is not None:
                    shape_state[id(n)] = list(res[0])
                    types[id(n)] = list(res[1])
                else:
                    dt = n.params.get('dtype')
                    out_t = dtype_torch(dt) if dt not in (None, 'None') else \
                        (in_types[0] if in_types else torch.float32)
                    types[id(n)] = [out_t] * len(types[id(n)])
                changed = True
        if not changed:
            break
    (arg, out, aux), complete = _collect(sym, nodes, types, partial, None)
    conv = (lambda t: None if t is None else dtype_np(t))
    return ([conv(t) for t in arg], [conv(t) for t in out], [conv(t) for t in aux]), complete
