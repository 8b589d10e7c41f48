"""What real MXNet's bind does to a symbol beyond running it: common subexpression elimination
(``Executor.get_optimized_symbol``), the check that fails a bind with gradients through an
operator without one, the memory plan ``Executor.debug_str`` reports, ``Symbol.debug_str``,
and shape / type inference errors and results that these passes rely on.

Binds run with ``MXNET_SUBGRAPH_BACKEND=NONE``: the pip wheel otherwise fuses operators with
its oneDNN (MKLDNN) backend before eliminating common expressions, which a build without it
(a GPU build) does not. The case builders are shared with tests/test_symbol_passes.py.
"""
import json
import os
import re


def _cse_cases(mx):
    with mx.name.NameManager():  # operator names from a fresh counter: _plus0, ...
        return _cse_symbols(mx)


def _cse_symbols(mx):
    a, b, c = mx.sym.var('a'), mx.sym.var('b'), mx.sym.var('c')
    d = a + 1
    return {
        'different-scalars': (a + 1) + (a + 2),
        'repeated-sum': (a + b) + (a + b),
        'nested': ((a + b) + c) + ((a + b) + c),
        'group-copy': mx.sym.Group([a * d, a * d]),
        'group-copy3': mx.sym.Group([a * d, a * d, a * d]),
        'group-chain': mx.sym.Group([a * d + b, a * d + b]),
        'dropout': mx.sym.Dropout(a) + mx.sym.Dropout(a),
        'fc-shared-weight': mx.sym.FullyConnected(a, weight=b, num_hidden=4, no_bias=True,
                                                  name='f1') +
        mx.sym.FullyConnected(a, weight=b, num_hidden=4, no_bias=True, name='f2'),
        'user-attr': mx.sym.exp(a) * mx.sym.exp(a) + mx.sym.exp(a, attr={'foo': 'x'}),
        'activation': mx.sym.Activation(a, act_type='relu') + mx.sym.Activation(a, act_type='relu'),
        'slice-channel': mx.sym.SliceChannel(a, num_outputs=2)[0] +
        mx.sym.SliceChannel(a, num_outputs=2)[0],
        'concat': mx.sym.concat(a, b) + mx.sym.concat(a, b),
        'rrelu': mx.sym.LeakyReLU(a, act_type='rrelu')[0] +
        mx.sym.LeakyReLU(a, act_type='rrelu')[0],
        'batchnorm': mx.sym.BatchNorm(a, gamma=b, beta=c, name='bn1') +
        mx.sym.BatchNorm(a, gamma=b, beta=c, name='bn2'),
        'random-like': mx.sym.random.uniform_like(a) + mx.sym.random.uniform_like(a),
        'reduce': mx.sym.sum(a, axis=1) + mx.sym.sum(a, axis=1),
        'dot': mx.sym.dot(a, b) + mx.sym.dot(a, b),
    }


def cse_case(mx, cid):
    """(symbol, input shapes) of a common-subexpression case."""
    sym = _cse_cases(mx)[cid]
    if cid == 'batchnorm':
        return sym, {n: (4, 4) if n == 'a' else (4,) for n in sym.list_inputs()}
    return sym, {n: (4, 4) for n in sym.list_inputs()}


CSE_CASES = ('different-scalars', 'repeated-sum', 'nested', 'group-copy', 'group-copy3',
             'group-chain', 'dropout', 'fc-shared-weight', 'user-attr', 'activation',
             'slice-channel', 'concat', 'rrelu', 'batchnorm', 'random-like', 'reduce', 'dot')


def grad_case(mx, cid):
    """A symbol for the gradient check (all arguments of shape (3, 3))."""
    x, y = mx.sym.var('x'), mx.sym.var('y')
    amc = mx.sym.argmax_channel(x)
    return {
        'no-gradient': lambda: amc,
        'blocked': lambda: mx.sym.BlockGrad(amc) + mx.sym.sum(x, axis=1),
        'blocked-later': lambda: mx.sym.BlockGrad(amc * 2),
        'zero-gradient-after': lambda: mx.sym.floor(amc),
        'comparison-after': lambda: amc > 1,
        'argmax-after': lambda: mx.sym.argmax(mx.sym.reshape(amc, shape=(1, 3)), axis=1),
        'shuffle': lambda: mx.sym.shuffle(x) * x,
        'two-inputs': lambda: mx.sym.khatri_rao(x, y),
        'group': lambda: mx.sym.Group([amc, x * 2]),
        'zeros-like': lambda: mx.sym.zeros_like(amc) + 1,
        'batch-take': lambda: mx.sym.batch_take(x, mx.sym.var('i')),
        'batch-take-stopped': lambda: mx.sym.stop_gradient(mx.sym.batch_take(x, mx.sym.var('i'))),
    }[cid]()


GRAD_CASES = ('no-gradient', 'blocked', 'blocked-later', 'zero-gradient-after',
              'comparison-after', 'argmax-after', 'shuffle', 'two-inputs', 'group',
              'zeros-like', 'batch-take', 'batch-take-stopped')
GRAD_REQS = ('write', 'null', 'y-only')


def grad_req(sym, req):
    if req == 'y-only':
        return {'y': 'write'}
    return req


def grad_shapes(sym):
    return {n: (3,) if n == 'i' else (3, 3) for n in sym.list_arguments()}


def plan_case(mx, cid):
    """(symbol, input shapes) of a memory-plan case."""
    x = mx.sym.var('x')
    chain = x
    for _ in range(10):
        chain = chain * chain
    fc = mx.sym.FullyConnected(x, num_hidden=1000)
    return {
        'mul-chain': (chain, {'x': (10, 3, 256, 256)}),
        'mul-chain-stopped': (mx.sym.stop_gradient(chain), {'x': (10, 3, 256, 256)}),
        'mlp': (mx.sym.FullyConnected(mx.sym.Activation(fc, act_type='relu'), num_hidden=1000),
                {'x': (1000, 500)}),
        'exp-exp': (mx.sym.exp(mx.sym.exp(x)), {'x': (1000, 1000)}),
    }[cid]


PLAN_CASES = ('mul-chain', 'mul-chain-stopped', 'mlp', 'exp-exp')


def shape_case(mx, cid):
    """(symbol, shapes given to infer_shape) of a shape-inference case."""
    v, x = mx.sym.var('V'), mx.sym.var('x')
    w = mx.sym.var('w')
    return {
        # the sum's shape comes back from x + V before transpose(V) is inferred forwards
        'conflict-late': (mx.sym.transpose(v) + (x + v), {'x': (2, 3)}),
        'conflict-direct': (x + mx.sym.transpose(x), {'x': (2, 3)}),
        'square-ok': (mx.sym.transpose(v) + (x + v), {'x': (3, 3)}),
        'fc-backward': (mx.sym.FullyConnected(w, num_hidden=4, no_bias=True) +
                        mx.sym.FullyConnected(x, num_hidden=4), {'x': (5, 3), 'w': (0, 2)}),
        'batch-take': (mx.sym.batch_take(x, mx.sym.var('i')), {'x': (4, 3), 'i': (4,)}),
        # an explicit axis=None (sort the flattened array), not sort's default axis=-1
        'sort-flat': (mx.sym.sort(x, axis=None), {'x': (3, 4)}),
        # a variable without a dtype next to a float64 constant: shapes need no dtypes
        'float64-constant': (mx.sym.broadcast_mul(x, mx.sym.ones((2, 3), dtype='float64')),
                             {'x': (2, 3)}),
        # a weight of one row where num_hidden asks for 10 (its bias is inferred as (10,))
        'fc-weight-rows': (mx.sym.FullyConnected(x, num_hidden=10, name='fc'),
                           {'x': (5, 4), 'fc_weight': (1, 4)}),
    }[cid]


SHAPE_CASES = ('conflict-late', 'conflict-direct', 'square-ok', 'fc-backward', 'batch-take',
               'sort-flat', 'float64-constant', 'fc-weight-rows')


def partial_shape_case(mx, cid):
    """A symbol whose variables declare shapes with unknown (0) dims, for infer_shape_partial:
    an output dim that depends on an unknown input dim is unknown, whatever the padding; one
    that does not (a Convolution's num_filter) is known."""
    S = mx.sym
    return {
        'conv1d-grouped-pad': S.Convolution(S.var('data', shape=(1, 0, 0)), kernel=(2,),
                                            num_filter=2, num_group=2, pad=(1,), stride=(2,)),
        'conv1d-channels': S.Convolution(S.var('data', shape=(1, 0, 5)), kernel=(2,),
                                         num_filter=2, pad=(1,)),
        'conv2d-batch-width': S.Convolution(S.var('data', shape=(0, 3, 5, 0)), kernel=(3, 3),
                                            num_filter=2, pad=(1, 1)),
        'deconv-width': S.Deconvolution(S.var('data', shape=(1, 3, 0)), kernel=(3,),
                                        num_filter=2, pad=(1,)),
        'deconv-channels': S.Deconvolution(S.var('data', shape=(1, 0, 4)), kernel=(3,),
                                           num_filter=2, pad=(1,)),
        'pool-channels': S.Pooling(S.var('data', shape=(2, 0, 3, 4)), kernel=(2, 2),
                                   pad=(1, 1), pool_type='max'),
        'conv-fc-chain': S.FullyConnected(S.Convolution(S.var('data', shape=(0, 2, 6)),
                                                        kernel=(3,), num_filter=4, pad=(2,)),
                                          num_hidden=3),
    }[cid]


PARTIAL_CASES = ('conv1d-grouped-pad', 'conv1d-channels', 'conv2d-batch-width', 'deconv-width',
                 'deconv-channels', 'pool-channels', 'conv-fc-chain')


def arange_infer_range(mx):
    """Outputs of ``arange(infer_range=True)`` graphs, whose size comes from the consumer."""
    outs = []
    for sym in (mx.sym.arange(start=0, stop=None, infer_range=True) + mx.sym.zeros(shape=[5]),
                mx.sym.arange(start=2, step=0.5, repeat=2, infer_range=True) +
                mx.sym.zeros(shape=[6])):
        exe = sym.bind(ctx=mx.cpu(), args={})
        exe.forward()
        outs.append(exe.outputs[0].asnumpy().tolist())
    return outs


def ones_unknown_dims(mx):
    """Outputs of graphs whose ``ones`` have -1 (unknown) sizes that inference finds through a
    transpose."""
    outs = []
    for s1, s2 in (([2, 3], [-1, -1]), ([2, -1], [3, -1])):
        sym = mx.sym.ones(shape=s1) + mx.sym.transpose(mx.sym.ones(shape=s2))
        exe = sym.bind(mx.cpu(), args={})
        outs.append(exe.forward()[0].asnumpy().tolist())
    return outs


def empty_shape_inputless(mx):
    """Operators without inputs given shape () (unknown in MXNet's legacy shape semantics),
    sized by their consumer: zeros, and a randn given a Symbol it ignores (as
    test_random.py's symbolic check calls it). Shapes and zeros' output."""
    x = mx.sym.var('X')
    z = mx.sym.zeros(shape=()) + x
    exe = z.bind(mx.current_context(), args={'X': mx.nd.ones((3, 4))})
    r = mx.sym.random.randn(data=mx.sym.ones((3, 4)), loc=1.0, scale=2.0, dtype='float32') + x
    rexe = r.bind(mx.current_context(), args={'X': mx.nd.zeros((3, 4))})
    return {'zeros_shapes': [[list(s) for s in ss]
                             for ss in z.get_internals().infer_shape_partial(X=(3, 4))],
            'zeros_out': exe.forward()[0].asnumpy().tolist(),
            'randn_arguments': r.list_arguments(),
            'randn_out_shape': list(rexe.forward()[0].shape)}


def variadic_auto_variables(mx):
    """The variables variadic operators make when given num_args and no inputs (or fewer
    inputs than they list, as bilinear UpSampling's data and weight), with the attributes
    MXNet gives them, and shapes inferred through them."""
    syms = {'concat': mx.sym.Concat(num_args=2, dim=0, name='c'),
            'stack': mx.sym.stack(num_args=3, name='s'),
            'add_n': mx.sym.add_n(num_args=2, name='n'),
            'crop': mx.sym.Crop(num_args=2, name='cr'),
            'upsampling_nearest': mx.sym.UpSampling(num_args=2, scale=2, sample_type='nearest',
                                                    name='un'),
            'upsampling_bilinear': mx.sym.UpSampling(num_args=1, scale=2, num_filter=2,
                                                     sample_type='bilinear', name='ub'),
            'upsampling_bilinear_data': mx.sym.UpSampling(mx.sym.var('d'), scale=2,
                                                          num_filter=2, sample_type='bilinear',
                                                          name='ud')}
    out = {k: [[n['name'], n.get('attrs', {})] for n in json.loads(s.tojson())['nodes']]
           for k, s in syms.items()}
    out['concat_shape'] = [list(s) for s in
                           syms['concat'].infer_shape(c_arg0=(2, 3), c_arg1=(1, 3))[1]]
    out['bilinear_shapes'] = [[list(s) for s in ss] for ss in
                              syms['upsampling_bilinear'].infer_shape(ub_data=(2, 2, 2, 10))]
    return out


def simple_bind_keywords(mx):
    """simple_bind's shape keywords: a tuple naming no input (and a non-tuple, as MXNet's
    check_consistency passes ``args_grad``) is ignored; a list is no shape."""
    y = mx.sym.var('x') * 2
    exe = y.simple_bind(mx.cpu(), x=(2, 3), foo=(4,), args_grad=[mx.nd.zeros((2, 3))])
    return {'shapes': {k: list(v.shape) for k, v in exe.arg_dict.items()},
            'list_shape_raises': _error(lambda: y.simple_bind(mx.cpu(), x=[2, 3])) != 'ok'}


def arith_names(mx):
    """(operator, name) of the node that each Python operator on a Symbol makes, with scalars
    on either side and with another Symbol, under a fresh NameManager."""
    import json as _json
    exprs = [lambda x: x + 1, lambda x: 1 + x, lambda x: x - 1, lambda x: 1 - x,
             lambda x: x * 2, lambda x: 2 * x, lambda x: x / 2, lambda x: 2 / x,
             lambda x: x % 2, lambda x: 2 % x, lambda x: x ** 2, lambda x: 2 ** x,
             lambda x: -x, lambda x: abs(x), lambda x: x > 1, lambda x: 1 < x,
             lambda x: x == 1, lambda x: x != 1, lambda x: x >= 1, lambda x: x <= 1,
             lambda x: x + x, lambda x: x - x, lambda x: x * x, lambda x: x / x,
             lambda x: x % x, lambda x: x ** x, lambda x: x > x, lambda x: x == x]
    out = []
    with mx.name.NameManager():
        x = mx.sym.var('x')
        for fn in exprs:
            node = _json.loads(fn(x).tojson())['nodes'][-1]
            out.append([node['op'], node['name']])
    return out


def group_attrs(mx):
    """attr and list_attr of symbols with several outputs: a group of two nodes (list_attr
    gives its first output's attributes, attr nothing), a group of one node twice, a node with
    two outputs and one of them."""
    S = mx.sym
    x = S.var('x', attr={'a': '1'})
    split = S.SliceChannel(x, num_outputs=2, attr={'__k__': 'w'})
    relu = S.relu(x, attr={'__k__': 'r'})
    out = []
    for sym in (S.Group([S.sin(x, attr={'__k__': 'v'}), S.FullyConnected(x, num_hidden=2)]),
                S.Group([relu, relu]), split, split[1]):
        out.append([sym.list_attr(), sym.attr('__k__')])
    return out


def nondiff_grads(mx):
    """The 'write' gradients an executor leaves after a backward pass through a
    non-differentiable operator (the arrays held 5 before)."""
    sym = mx.sym.broadcast_logical_and(mx.sym.var('a'), mx.sym.var('b'))
    exe = sym.simple_bind(mx.cpu(), a=(2, 3), b=(2, 1))
    for g in exe.grad_arrays:
        g[:] = 5
    exe.arg_arrays[0][:] = mx.nd.array([[0.5, 0, 2], [1, 0, 3]])
    exe.arg_arrays[1][:] = mx.nd.array([[1], [0]])
    exe.forward(is_train=True)
    exe.backward(mx.nd.ones((2, 3)))
    return [g.asnumpy().tolist() for g in exe.grad_arrays]


def debug_case(mx, cid):
    with mx.name.NameManager():
        return _debug_symbol(mx, cid)


def _debug_symbol(mx, cid):
    a = mx.sym.var('a', lr_mult=2.0)
    fc = mx.sym.FullyConnected(a, num_hidden=3, name='fc')
    sc = mx.sym.SliceChannel(fc, num_outputs=3, axis=1, name='sc')
    with mx.AttrScope(ctx_group='dev1', foo='bar'):
        e = mx.sym.exp(a, name='e', attr={'__lr_mult__': '2'})
    return {
        'group-bn': mx.sym.Group([sc[0] + sc[2], mx.sym.BatchNorm(fc, name='bn')]),
        'attrs': mx.sym.Activation(e, act_type='relu', name='act'),
    }[cid]


DEBUG_CASES = ('group-bn', 'attrs')


def _lstm_group(mx):
    stack = mx.rnn.SequentialRNNCell()
    stack.add(mx.rnn.LSTMCell(num_hidden=20, prefix='lstm_l0_'))
    begin = stack.begin_state(func=mx.sym.Variable)
    _, states = stack.unroll(2, begin_state=begin, inputs=mx.sym.Variable('data'))
    return mx.sym.Group(states)


def _error(fn):
    try:
        fn()
    except Exception as err:  # MXNet raises MXNetError (a RuntimeError) from C++
        return 'error: ' + str(err).strip().split('\n')[-1][:200]
    return 'ok'


def write(mx, outdir):
    os.environ['MXNET_SUBGRAPH_BACKEND'] = 'NONE'
    facts = {'cse': {}, 'cse_off': {}, 'grad': {}, 'plan': {}, 'shape': {}, 'debug': {}}
    for cid in CSE_CASES:
        sym, shapes = cse_case(mx, cid)
        exe = sym.simple_bind(mx.cpu(), grad_req='null', **shapes)
        opt = exe.get_optimized_symbol()
        facts['cse'][cid] = {'internals': len(sym.get_internals()),
                             'optimized_internals': len(opt.get_internals()),
                             'outputs': opt.list_outputs(), 'arguments': opt.list_arguments()}
    os.environ['MXNET_ELIMINATE_COMMON_EXPR'] = '0'
    for cid in ('repeated-sum', 'group-copy'):
        sym, shapes = cse_case(mx, cid)
        opt = sym.simple_bind(mx.cpu(), grad_req='null', **shapes).get_optimized_symbol()
        facts['cse_off'][cid] = {'optimized_internals': len(opt.get_internals()),
                                 'outputs': opt.list_outputs()}
    del os.environ['MXNET_ELIMINATE_COMMON_EXPR']
    for cid in GRAD_CASES:
        sym = grad_case(mx, cid)
        shapes = grad_shapes(sym)
        types = {'x': 'float32', 'i': 'int32'} if 'i' in shapes else None
        res = {}
        for req in GRAD_REQS:
            if req == 'y-only' and 'y' not in shapes:
                continue
            r = grad_req(sym, req)
            res['simple_bind-' + req] = _error(
                lambda: sym.simple_bind(mx.cpu(), grad_req=r, type_dict=types, **shapes))
            args = {n: mx.nd.ones(s, dtype=(types or {}).get(n, 'float32'))
                    for n, s in shapes.items()}
            grads = {n: mx.nd.zeros(s) for n, s in shapes.items()}
            res['bind-' + req] = _error(lambda: sym.bind(mx.current_context(), args,
                                                         args_grad=grads, grad_req=r))
        facts['grad'][cid] = res
    for cid in PLAN_CASES:
        sym, shapes = plan_case(mx, cid)
        res = {}
        for req in ('write', 'null'):
            text = sym.simple_bind(mx.cpu(), grad_req=req, **shapes).debug_str()
            res[req] = int(re.search(r'Total (\d+) MB allocated', text).group(1))
            res['tail-' + req] = text[text.index('Total '):]
        facts['plan'][cid] = res
    for cid in SHAPE_CASES:
        sym, shapes = shape_case(mx, cid)
        try:
            arg, out, aux = sym.infer_shape(**shapes)
            facts['shape'][cid] = {'arg': [list(s) for s in arg], 'out': [list(s) for s in out]}
        except Exception as err:
            facts['shape'][cid] = {'error': str(err).strip().split('\n')[0][:300]}
        facts['shape'][cid]['partial'] = _error(lambda: sym.infer_shape_partial(**shapes))
    facts['partial'] = {cid: [[list(s) for s in ss]
                              for ss in partial_shape_case(mx, cid).infer_shape_partial()]
                        for cid in PARTIAL_CASES}
    sym, _ = shape_case(mx, 'batch-take')
    facts['batch_take_types'] = [[t.__name__ for t in ts] for ts in sym.infer_type(x='float32')]
    lstm = _lstm_group(mx)
    facts['lstm_partial'] = [[list(s) for s in ss]
                             for ss in lstm.infer_shape_partial(data=(5, 2, 10))]
    facts['lstm_unknown'] = [[list(s) for s in ss] for ss in lstm.infer_shape_partial()]
    for cid in DEBUG_CASES:
        facts['debug'][cid] = debug_case(mx, cid).debug_str()
    facts['nondiff_grads'] = nondiff_grads(mx)
    facts['arith_names'] = arith_names(mx)
    facts['group_attrs'] = group_attrs(mx)
    facts['arange_infer_range'] = arange_infer_range(mx)
    facts['ones_unknown_dims'] = ones_unknown_dims(mx)
    facts['empty_shape_inputless'] = empty_shape_inputless(mx)
    facts['variadic_auto_variables'] = variadic_auto_variables(mx)
    facts['simple_bind_keywords'] = simple_bind_keywords(mx)
    del os.environ['MXNET_SUBGRAPH_BACKEND']
    with open(os.path.join(outdir, 'symbol_passes.json'), 'w') as f:
        json.dump(facts, f, indent=1, sort_keys=True)
