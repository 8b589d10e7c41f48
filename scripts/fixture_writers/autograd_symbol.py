"""``mx.autograd.get_symbol`` from real MXNet 1.9.1: the graph recorded under ``record()``,
as JSON, for arithmetic on NDArrays (array and scalar operators), inputs outside the graph
(MXNet's ``null<N>`` variables), multi-output operators, operators with parameters, Gluon
layers, and hybridized blocks inlined or recorded as one ``_CachedOp`` node (``inline_limit``);
and the error for an array that is not in a graph.

``run(mx)`` gives, per scenario, the JSON's nodes (op, name, attrs, inputs) and heads, with
the numbers of MXNet's process-wide counters left out of the names (``var3``, ``null7`` and
``node_12`` become ``var``, ``null`` and ``node_``). The same ``run`` executes under mxcompat in
tests/test_autograd_symbol.py."""
import json
import os
import re

import numpy as np


def _graph(mx, y):
    g = json.loads(mx.autograd.get_symbol(y).tojson())
    nodes = [{'op': n['op'], 'name': re.sub(r'\d+$', '', n['name']),
              'attrs': n.get('attrs', {}), 'inputs': n['inputs']} for n in g['nodes']]
    return {'nodes': nodes, 'heads': g['heads']}


def _scenarios(mx):
    nd, autograd, gluon = mx.nd, mx.autograd, mx.gluon

    def var(*shape):
        x = nd.array(np.arange(1, 1 + int(np.prod(shape)), dtype=np.float32).reshape(shape))
        x.attach_grad()
        return x

    def arithmetic():
        x = var(1)
        with autograd.record():
            return x * x + 2 * x - 1

    def two_variables():
        x, z = var(1), var(1)
        with autograd.record():
            return x * x + 2 * z - 1

    def reflected_and_compare():
        x = var(3)
        with autograd.record():
            return (1 - x) / (2 / x) + (x > 1) - (-x) ** 2

    def constant_input():
        x, c = var(2), nd.ones((2,))
        with autograd.record():
            return nd.relu(x * c) + c

    def multi_output():
        x = var(4)
        with autograd.record():
            a, b = nd.split(x, num_outputs=2, axis=0)
            return b * a

    def operator_params():
        x, w, b = var(2, 3), var(4, 3), var(4)
        with autograd.record():
            h = nd.FullyConnected(x, w, b, num_hidden=4)
            return nd.softmax(nd.Activation(h, act_type='tanh'), axis=1)

    def gluon_dense():
        net = gluon.nn.Dense(3, in_units=2, prefix='d_')
        net.initialize()
        with autograd.record():
            return net(nd.ones((1, 2)))

    def hybrid(limit):
        def build():
            net = gluon.nn.HybridSequential(prefix='net_')
            with net.name_scope():
                for _ in range(3):
                    net.add(gluon.nn.Dense(4, in_units=4))
            net.initialize()
            net.hybridize(inline_limit=limit)
            with autograd.record():
                return net(nd.zeros((1, 4)))
        return build

    def hybrid_then_imperative():
        net = gluon.nn.HybridSequential(prefix='hs_')
        with net.name_scope():
            net.add(gluon.nn.Dense(4, in_units=4, activation='relu'))
        net.initialize()
        net.hybridize(inline_limit=0)
        with autograd.record():
            return nd.sum(net(nd.ones((2, 4))) * 2)

    def attach_grad_on_output():
        x = var(2)
        with autograd.record():
            y = x * 3
        y.attach_grad()  # a new variable: its history is cut
        with autograd.record():
            return y + 1

    def numpy_mode():
        mx.npx.set_np()
        try:
            x = mx.np.array([1.0, 2.0])
            x.attach_grad()
            with autograd.record():
                h = mx.np.exp(x * x + 2 - x) / 3
                return mx.npx.relu(h) + mx.np.sum(h)
        finally:
            mx.npx.reset_np()

    def numpy_hybrid():
        mx.npx.set_np()
        try:
            net = gluon.nn.HybridSequential(prefix='nph_')
            with net.name_scope():
                net.add(gluon.nn.Dense(3, in_units=2), gluon.nn.Dense(2, in_units=3))
            net.initialize()
            net.hybridize()
            with autograd.record():
                return net(mx.np.ones((2, 2))).sum()
        finally:
            mx.npx.reset_np()

    def numpy_gluon():
        # (NumPy-mode layers, not hybridized: each converts its arrays to legacy ones and back)
        mx.npx.set_np()
        try:
            net = gluon.nn.Sequential(prefix='npg_')
            with net.name_scope():
                net.add(gluon.nn.Dense(3, in_units=2, activation='relu'),
                        gluon.nn.Dense(2, in_units=3))
            net.initialize()
            with autograd.record():
                return net(mx.np.ones((2, 2))).sum()
        finally:
            mx.npx.reset_np()

    def numpy_ufunc_scalar():
        mx.npx.set_np()
        try:
            x = mx.np.array([1.0, -2.0])
            x.attach_grad()
            with autograd.record():
                return mx.np.subtract(mx.np.add(x, 2), 0.5) * mx.np.multiply(x, 3)
        finally:
            mx.npx.reset_np()

    return {'arithmetic': arithmetic, 'numpy_mode': numpy_mode, 'numpy_hybrid': numpy_hybrid,
            'numpy_gluon': numpy_gluon,
            'numpy_ufunc_scalar': numpy_ufunc_scalar, 'attach_grad_on_output': attach_grad_on_output, 'two_variables': two_variables,
            'reflected_and_compare': reflected_and_compare, 'constant_input': constant_input,
            'multi_output': multi_output, 'operator_params': operator_params,
            'gluon_dense': gluon_dense, 'hybrid_inlined': hybrid(3),
            'hybrid_cached_op': hybrid(0), 'hybrid_default_limit': hybrid(2),
            'hybrid_then_imperative': hybrid_then_imperative}


def cached_op_block(mx):
    """A block recorded as one ``_CachedOp`` node, with weights drawn from a generator
    seeded by name, and its input: ``(net, x)``."""
    gluon = mx.gluon
    net = gluon.nn.HybridSequential(prefix='cop_')
    with net.name_scope():
        net.add(gluon.nn.Dense(3, in_units=2, activation='relu'), gluon.nn.Dense(2, in_units=3))
    net.initialize()
    for name, p in sorted(net.collect_params().items()):
        rs = np.random.RandomState(sum(map(ord, name)))
        p.set_data(mx.nd.array(rs.uniform(-1, 1, p.shape).astype(np.float32)))
    net.hybridize(inline_limit=0)
    return net, mx.nd.array(np.array([[1.0, -2.0], [0.5, 3.0]], np.float32))


def run(mx):
    out = {}
    for name, build in _scenarios(mx).items():
        out[name] = _graph(mx, build())
    net, x = cached_op_block(mx)
    with mx.autograd.record():
        y = net(x) * 2
    out['cached_op_output'] = y.asnumpy().tolist()
    try:
        mx.autograd.get_symbol(mx.nd.ones((2,)))
        out['not_recorded'] = None
    except mx.base.MXNetError as err:
        out['not_recorded'] = str(err).strip().splitlines()[-1].split('MXNetError: ', 1)[-1]
    return out


def write(mx, outdir):
    with open(os.path.join(outdir, 'autograd_symbol.json'), 'w') as f:
        json.dump(run(mx), f, indent=1, sort_keys=True)
