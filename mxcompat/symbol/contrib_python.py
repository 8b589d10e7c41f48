"""The Python-level functions of ``mx.sym.contrib``: control flow (``foreach``,
``while_loop``, ``cond``) and ``rand_zipfian``.

The control-flow functions trace the user's Python function on fresh variables inside an
``AttrScope(__subgraph_name__=...)``, cut the traced graph loose from the symbols around it
(every entry coming from outside becomes a variable named after that entry), and make one
``_foreach`` / ``_while_loop`` / ``_cond`` node that holds the subgraph(s), exactly as MXNet
1.9.1 builds them, so names, inputs and ``tojson()`` agree with MXNet.
"""
import math

from .. import attribute, name as _name
from ..attribute import AttrScope
from ..ops import registry
from . import op as _op, symbol
from .random import uniform
from ..ndarray.contrib_python import _regroup, zipfian_counts
from .symbol import Node, Symbol, _mirror_hidden

__all__ = ['rand_zipfian', 'foreach', 'while_loop', 'cond']

_SUBGRAPH_KEY = '__subgraph_name__'


def rand_zipfian(true_classes, num_sampled, range_max):
    """Draw random samples from an approximately log-uniform or Zipfian distribution.

    This operation randomly samples *num_sampled* candidates the range of integers [0, range_max).
    The elements of sampled_candidates are drawn with replacement from the base distribution.

    The base distribution for this operator is an approximately log-uniform or Zipfian distribution:

    P(class) = (log(class + 2) - log(class + 1)) / log(range_max + 1)

    This sampler is useful when the true classes approximately follow such a distribution.

    Additionaly, it also returns the number of times each of the true classes and the sampled
    classes is expected to occur.

    Parameters
    ----------
    true_classes : Symbol
        The target classes in 1-D.
    num_sampled: int
        The number of classes to randomly sample.
    range_max: int
        The number of possible classes.

    Returns
    -------
    samples: Symbol
        The sampled candidate classes in 1-D `int64` dtype.
    expected_count_true: Symbol
        The expected count for true classes in 1-D `float64` dtype.
    expected_count_sample: Symbol
        The expected count for sampled candidates in 1-D `float64` dtype.
    """
    assert isinstance(true_classes, Symbol), 'unexpected type %s' % type(true_classes)
    rand = uniform(0, math.log(range_max + 1), shape=(num_sampled,), dtype='float64')
    return zipfian_counts(rand, true_classes, num_sampled, range_max)


def _flatten(args, inout_str):
    """Flat list of the Symbols in a nested list, and the nesting format."""
    if isinstance(args, Symbol):
        n = len(args.list_outputs())
        return [args], n if n > 1 else 0
    assert isinstance(args, (list, tuple)), \
        '%s must be (nested) list of Symbol, but got %s of type %s' \
        % (inout_str, str(args), str(type(args)))
    flat, fmts = [], []
    for item in args:
        sub, fmt = _flatten(item, inout_str)
        flat.extend(sub)
        fmts.append(fmt)
    return flat, fmts


def _check_data(inputs, in_type, msg):
    items = inputs if isinstance(inputs, list) else [inputs]
    assert all(isinstance(i, in_type) for i in items), msg


def _uniq_name(sym):
    """Name of the variable standing for ``sym`` inside a subgraph ('data-0')."""
    return '%s-%d' % (sym.name, sym._outputs[0][1])


def _unique_subgraph_name(base):
    outer = attribute.current()._attr.get(_SUBGRAPH_KEY, '')
    if outer:
        base = outer + '$' + base
    counts = AttrScope._subgraph_names  # looked up each time: MXNet's tests replace it
    counts[base] += 1
    return base + str(counts[base] - 1)


def _in_subgraph(sym, name):
    return sym.list_attr().get(_SUBGRAPH_KEY, '') == name


def _guarded(syms, name, input_names, taken=()):
    """Pass through identity every output that is an input of the subgraph, comes from
    outside it, or is named in ``taken`` (the nodes of a subgraph's inputs and outputs must
    differ)."""
    return [_op.identity(o) if o.name in input_names or o.name in taken or
            not _in_subgraph(o, name) else o for o in syms]


def _cut(graph):
    """Cut ``graph`` out of the graph around it: nodes marked with the subgraph name of its
    first output are kept (copied); every entry coming from another node becomes a new
    variable named after that entry. Returns (subgraph, {variable name: outer entry Symbol})."""
    first = graph._outputs[0][0].attrs.get(_SUBGRAPH_KEY)
    if first is None:
        return graph, {}
    copies, cut_vars, outer = {}, {}, {}
    for node in graph._nodes():
        if node.attrs.get(_SUBGRAPH_KEY) != first:
            continue
        entries = []
        for src, k in node.inputs:
            if src.attrs.get(_SUBGRAPH_KEY) == first:
                entries.append((copies[id(src)], k))
                continue
            var = cut_vars.get((id(src), k))
            if var is None:
                entry = Symbol([(src, k)])
                var = cut_vars[(id(src), k)] = Node(None, entry.list_outputs()[0])
                outer[var.name] = entry
            entries.append((var, 0))
        copies[id(node)] = Node(node.op, node.name, node.attrs, entries, node.subgraphs)
    return Symbol([(copies[id(n)], i) for n, i in graph._outputs]), outer


def _copy_var(sym):
    node = sym._outputs[0][0]
    return Symbol([(Node(None, node.name, node.attrs), 0)])


def _input_syms(graph):
    """{name: Symbol} of the variables ``graph`` reads."""
    return {n.name: Symbol([(n, 0)]) for n in graph._nodes() if n.op is None}


def _union_inputs(graphs, reuse):
    """Cut each graph loose; return the cut graphs, the union of the outer Symbols they read
    and, per graph, the position in that union of each of its inputs. ``reuse(inputs)`` maps
    input names to outer Symbols to use for them, given the union so far; other inputs are the
    cut entries or copies of variables made inside."""
    inputs, position, cut_graphs, locs = [], {}, [], []
    for graph in graphs:
        known = reuse(inputs)
        graph, cut = _cut(graph)
        inner = _input_syms(graph)
        names = graph.list_inputs()
        assert len(set(names)) == len(names), \
            "The inputs of the subgraph don't have unique names: " + str(names)
        input_locs = []
        for in_name in names:
            if in_name in known:
                sym = known[in_name]
            elif in_name in cut:
                sym = cut[in_name]
            else:
                sym = _copy_var(inner[in_name])
            if id(sym) not in position:
                position[id(sym)] = len(inputs)
                inputs.append(sym)
            input_locs.append(position[id(sym)])
        cut_graphs.append(graph)
        locs.append(input_locs)
    return cut_graphs, inputs, locs


def _make_node(op_name, subgraphs, inputs, params):
    op = registry.get(op_name)
    attrs = dict(attribute.current().get(None) or {})
    attrs = _mirror_hidden(attrs)
    for k, v in params.items():
        attrs[k] = str(v)
    entries = [s._outputs[0] for s in inputs]
    node = Node(op, _name.current().get(None, op_name.lower()), attrs, entries, subgraphs)
    return Symbol([(node, i) for i in range(node.num_outputs())])


def foreach(body, data, init_states, name='foreach'):
    """Run a for loop with user-defined computation over Symbols on dimension 0.

    This operator simulates a for loop and body has the computation for an iteration
    of the for loop. It runs the computation in body on each slice from the input
    NDArrays.

    body takes two arguments as input and outputs a tuple of two elements,
    as illustrated below:

    out, states = body(data1, states)

    data1 can be either a symbol or a list of symbols. If data is a symbol,
    data1 is a symbol. Otherwise, data1 is a list of symbols and has the same
    size as data. states is a list of symbols and have the same size as init_states.
    Similarly, out can be either a symbol or a list of symbols, which are concatenated
    as the first output of foreach; states from the last execution of body
    are the second output of foreach.

    Parameters
    ----------
    body : a Python function.
        Define computation in an iteration.
    data: a symbol or a list of symbols.
        The input data.
    init_states: a Symbol or nested lists of symbols.
        The initial values of the loop states.
    name: string.
        The name of the operator.

    Returns
    -------
    outputs: a Symbol or nested lists of Symbols.
        The output data concatenated from the output of all iterations.
    states: a Symbol or nested lists of Symbols.
        The loop states in the last iteration.

    Examples
    --------
    >>> step = lambda data, states: (data + states[0], [states[0] * 2])
    >>> data = mx.sym.var('data')
    >>> states = [mx.sym.var('state')]
    >>> outs, states = mx.sym.contrib.foreach(step, data, states)
    """
    flat_data, data_fmt = _flatten(data, 'foreach input')
    _check_data(flat_data, Symbol, 'data should be a symbol or a nested list of symbols')
    flat_states, state_fmt0 = _flatten(init_states, 'foreach states')
    _check_data(flat_states, Symbol,
                'init_states should be a symbol or a nested list of symbols')

    name = _unique_subgraph_name(name)
    with AttrScope(**{_SUBGRAPH_KEY: name}):
        in_eles, _ = _regroup([symbol.var(_uniq_name(s)) for s in flat_data], data_fmt)
        states, _ = _regroup([symbol.var(_uniq_name(s)) for s in flat_states], state_fmt0)
        sym_out, sym_states = body(in_eles, states)
        sym_out, out_fmt = _flatten(sym_out, 'foreach output')
        sym_states, state_fmt = _flatten(sym_states, 'foreach loop_vars')
        assert state_fmt0 == state_fmt, 'The input and output loop_vars have different format'
        _check_data(sym_out, Symbol,
                    'the output should be an NDArray or a nested list of NDArrays')
        _check_data(sym_states, Symbol,
                    'the output states should be an NDArray or a nested list of NDArrays')
        num_out_data, num_states = len(sym_out), len(sym_states)
        input_names = set(symbol.Group(sym_out + sym_states).list_inputs())
        graph = symbol.Group(
            _guarded(sym_out, name, input_names) +
            _guarded(sym_states, name, input_names, {o.name for o in sym_out}))

    graph, cut = _cut(graph)
    inner_vars = _input_syms(graph)
    names = graph.list_inputs()
    assert len(set(names)) == len(names), \
        "The inputs of the subgraph don't have unique names: " + str(names)
    data_names = [_uniq_name(s) for s in flat_data]
    state_names = [_uniq_name(s) for s in flat_states]
    ordered = list(flat_data) + list(flat_states)
    in_data_locs, in_state_locs, remain_locs = [], [], []
    for dname in data_names:
        if dname not in names:
            raise AssertionError('the data arrays have to be used in the loop body')
        in_data_locs.append(names.index(dname))
    for sname in state_names:
        if sname not in names:
            raise AssertionError('the state arrays have to be used in the loop body')
        in_state_locs.append(names.index(sname))
    for i, in_name in enumerate(names):
        if in_name in cut:
            ordered.append(cut[in_name])
            remain_locs.append(i)
        elif in_name not in data_names and in_name not in state_names:
            # a variable created inside the body: the outer graph gets its own copy
            ordered.append(_copy_var(inner_vars[in_name]))
            remain_locs.append(i)

    num_outputs = num_out_data + num_states
    ret = _make_node('_foreach', [graph], ordered, {
        'num_args': len(ordered) + 1, 'num_outputs': num_outputs,
        'num_out_data': num_out_data, 'in_state_locs': in_state_locs,
        'in_data_locs': in_data_locs, 'remain_locs': remain_locs})
    outs, _ = _regroup([ret[i] for i in range(num_out_data)], out_fmt)
    states, _ = _regroup([ret[num_out_data + i] for i in range(num_states)], state_fmt)
    return outs, states


def _to_python_scalar(inputs, type_, name):
    """``inputs`` (a Python number, NumPy or MXNet scalar) as a Python ``type_``."""
    if hasattr(inputs, 'asscalar'):
        inputs = inputs.asscalar()
    try:
        return type_(inputs)
    except (TypeError, ValueError):
        raise ValueError('Cannot convert %s to python %s' % (name, type_.__name__)) from None


def while_loop(cond, func, loop_vars, max_iterations=None, name='while_loop'):
    """Run a while loop with user-defined computation and loop condition.

    This operator simulates a while loop which iterately does customized computation
    as long as the condition is satisfied.

    `loop_vars` is a Symbol or nested lists of Symbols on which the computation uses.

    `cond` is a user-defined function, used as the loop condition.
    It consumes `loop_vars`, and produces a scalar MXNet symbol,
    indicating the termination of the loop.
    The loop ends when `cond` returns false (zero).
    The `cond` is variadic, and its signature should be
    `cond(*loop_vars) => Symbol`.

    `func` is a user-defined function, used as the loop body.
    It also consumes `loop_vars`, and produces `step_output` and `new_loop_vars` at each step.
    In each step, `step_output` should contain the same number elements.
    Through all steps, the i-th element of `step_output` should have the same shape and dtype.
    Also, `new_loop_vars` should contain the same number of elements as `loop_vars`,
    and the corresponding element should have the same shape and dtype.
    The `func` is variadic, and its signature should be
    `func(*loop_vars) =>
    (Symbol or nested List[Symbol] step_output, Symbol or nested List[Symbol] new_loop_vars)`.

    `max_iterations` is a scalar that defines the maximum number of iterations allowed.

    This function returns two lists.
    The first list has the length of `|step_output|`,
    in which the i-th element are all i-th elements of
    `step_output` from all steps, stacked along axis 0.
    The second list has the length of `|loop_vars|`,
    which represents final states of loop variables.

    .. warning::

       For now, the axis 0 of all Symbols in the first list are `max_iterations`,
       due to lack of dynamic shape inference. Rows past the last iteration are 0 in
       mxcompat (MXNet leaves them uninitialised).

    Parameters
    ----------
    cond: a Python function.
        The loop condition.
    func: a Python function.
        The loop body.
    loop_vars: a Symbol or nested lists of Symbol.
        The initial values of the loop variables.
    max_iterations: a python int.
        Maximum number of iterations.

    Returns
    ------
    outputs: a Symbol or nested lists of Symbols
        stacked output from each step
    states: a Symbol or nested lists of Symbols
        final state

    Examples
    --------
    >>> cond = lambda i, s: i <= 5
    >>> func = lambda i, s: ([i + s], [i + 1, s + i])
    >>> loop_vars = (mx.sym.var('i'), mx.sym.var('s'))
    >>> outputs, states = mx.sym.contrib.while_loop(cond, func, loop_vars, max_iterations=10)
    """
    def cond_wrapper(loop_vars):
        result = cond(*loop_vars)
        if not isinstance(result, Symbol):
            raise ValueError('Return of cond must be a Symbol')
        return [], [result], [], []

    def func_wrapper(loop_vars):
        step_output, new_loop_vars = func(*loop_vars)
        step_output = [] if step_output is None else step_output
        new_loop_vars = [] if new_loop_vars is None else new_loop_vars
        if isinstance(step_output, tuple):
            step_output = list(step_output)
        if isinstance(new_loop_vars, tuple):
            new_loop_vars = list(new_loop_vars)
        step_output, out_fmt = _flatten(step_output, 'while output')
        new_loop_vars, var_fmt = _flatten(new_loop_vars, 'while loop_vars')
        if len(loop_vars) != len(new_loop_vars):
            raise ValueError('The number of loop_vars should be consistent during the loop')
        return step_output, new_loop_vars, out_fmt, var_fmt

    def create_subgraph(graph_vars, graph_func, subgraph_name):
        subgraph_name = _unique_subgraph_name(subgraph_name)
        with AttrScope(**{_SUBGRAPH_KEY: subgraph_name}):
            graph_vars, var_fmt = _flatten(graph_vars, 'while loop_vars')
            new_vars, _ = _regroup([symbol.var(_uniq_name(s)) for s in graph_vars], var_fmt)
            outputs, final_state, out_fmt, _ = graph_func(new_vars)
            input_names = set(symbol.Group(outputs + final_state).list_inputs())
            graph = symbol.Group(_guarded(outputs + final_state, subgraph_name, input_names))
        return graph, len(outputs), len(outputs) + len(final_state), out_fmt

    flat_vars, init_fmt = _flatten(loop_vars, 'while loop_vars')
    _check_data(flat_vars, Symbol, 'loop_vars should be a symbol or a nested list of symbols')
    if max_iterations is None:
        raise ValueError('max_iterations should be specified')
    max_iterations = _to_python_scalar(max_iterations, int, 'max_iteration')
    if len(loop_vars) == 0:
        raise ValueError('loop_vars should contain at least one element')
    cond_g, num_out_data, num_outputs, _ = create_subgraph(loop_vars, cond_wrapper,
                                                           name + '_cond')
    assert num_out_data == 0
    assert num_outputs == 1
    func_g, num_out_data, num_outputs, out_fmt = create_subgraph(loop_vars, func_wrapper,
                                                                 name + '_func')
    # a loop variable is one input of both subgraphs; any other outer entry is cut separately
    loop_vars_by_name = {_uniq_name(s): s for s in flat_vars}
    graphs, inputs, locs = _union_inputs([cond_g, func_g], lambda _: loop_vars_by_name)
    func_names = graphs[1].list_inputs()
    func_var_locs = [func_names.index(_uniq_name(v)) if _uniq_name(v) in func_names else -1
                     for v in flat_vars]
    for i, loc in enumerate(func_var_locs, 1):
        if loc == -1:
            raise ValueError("The %d-th loop_var doesn't involve into the computation" % i)
    result = _make_node('_while_loop', graphs, inputs, {
        'cond_input_locs': locs[0], 'func_input_locs': locs[1],
        'func_var_locs': func_var_locs, 'max_iterations': max_iterations,
        'num_args': len(inputs) + 2, 'num_out_data': num_out_data,
        'num_outputs': num_outputs})
    outputs, _ = _regroup([result[i] for i in range(num_out_data)], out_fmt)
    final_vars, _ = _regroup([result[i] for i in range(num_out_data, num_outputs)], init_fmt)
    return outputs, final_vars


def cond(pred, then_func, else_func, name='cond'):
    """Run an if-then-else using user-defined condition and computation

    This operator simulates a if-like branch which chooses to do one of
    the two customized computations according to the specified condition.

    `pred` is a scalar MXNet Symbol,
    indicating which branch of computation should be used.

    `then_func` is a user-defined function, used as computation of the then branch.
    It produces `outputs`, which is a list of Symbols.
    The signature of `then_func` should be
    `then_func() => nested List[Symbol]`.

    `else_func` is a user-defined function, used as computation of the else branch.
    It produces `outputs`, which is a list of Symbols.
    The signature of `else_func` should be
    `else_func() => nested List[Symbol]`.

    The `outputs` produces by `then_func` and `else_func` should have the same number
    of elements, all of which should be in the same shape, of the same dtype and stype.

    This function returns a list of symbols, representing the computation result.

    Parameters
    ----------
    pred: a MXNet Symbol representing a scalar.
        The branch condition.
    then_func: a Python function.
        The computation to be executed if `pred` is true.
    else_func: a Python function.
        The computation to be executed if `pred` is false.

    Returns
    -------
    outputs: a Symbol or nested lists of Symbols, representing the result of computation.

    Examples
    --------
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> pred = a * b < 5
    >>> then_func = lambda: (a + 5) * (b + 5)
    >>> else_func = lambda: (a - 5) * (b - 5)
    >>> outputs = mx.sym.contrib.cond(pred, then_func, else_func)
    """
    def create_subgraph(graph_func, subgraph_name):
        subgraph_name = _unique_subgraph_name(subgraph_name)
        with AttrScope(**{_SUBGRAPH_KEY: subgraph_name}):
            outputs, out_fmt = _flatten(graph_func(), 'cond outputs')
            input_names = set(symbol.Group(outputs).list_inputs())
            graph = symbol.Group(_guarded(outputs, subgraph_name, input_names))
        return graph, len(outputs), out_fmt

    cond_g, cond_num_outputs, _ = create_subgraph(lambda: pred, name + '_pred')
    if cond_num_outputs != 1:
        raise ValueError('pred should always be a single output')
    then_g, then_num_outputs, then_fmt = create_subgraph(then_func, name + '_then')
    else_g, else_num_outputs, _ = create_subgraph(else_func, name + '_else')
    if then_num_outputs != else_num_outputs:
        raise ValueError('Number of outputs differs between then-branch and else-branch')
    # an input already taken for an earlier subgraph is reused by its name
    graphs, inputs, locs = _union_inputs([cond_g, then_g, else_g],
                                         lambda seen: {s.name: s for s in seen})
    result = _make_node('_cond', graphs, inputs, {
        'cond_input_locs': locs[0], 'then_input_locs': locs[1], 'else_input_locs': locs[2],
        'num_args': len(inputs) + 3, 'num_outputs': then_num_outputs})
    outputs, _ = _regroup([result[i] for i in range(then_num_outputs)], then_fmt)
    return outputs
