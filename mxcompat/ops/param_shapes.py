"""Shape rules for operator inputs that symbols leave unspecified (weights, labels, states).

Each rule takes the list of input shapes (None when unknown, 0 for an unknown dimension) and
the operator's parameters, and returns the list with the shapes it can derive from the data,
as MXNet's shape inference does. Output shapes never need a rule: they come from running the
implementation on meta tensors (symbol/inference.py).
"""

__all__ = ['fully_connected', 'convolution', 'deconvolution', 'channel_params', 'norm_params',
           'group_norm', 'embedding', 'prelu', 'softmax_label', 'same_as_data', 'svm_label',
           'rnn', 'upsampling', 'kl_sparse_reg', 'sequence_length', 'softmax_length']


def _prod(dims):
    out = 1
    for d in dims:
        out *= d
    return out


def _set(shapes, i, shape):
    # a partially known shape (0 = unknown dim) is completed too; inference merges the two
    if i < len(shapes) and (shapes[i] is None or 0 in shapes[i]):
        shapes[i] = tuple(shape)
    return shapes


def _require(shapes, i, shape):
    # the only shape the input may have: inference merges it with the one known, and a
    # conflict between the two raises MXNet's "Shape inconsistent"
    if i < len(shapes):
        shapes[i] = tuple(shape)
    return shapes


def fully_connected(shapes, p):
    data = shapes[0]
    if data is None:
        return shapes
    num_in = _prod(data[1:]) if p['flatten'] else data[-1]
    if p['flatten'] and any(d == 0 for d in data[1:]):
        num_in = 0
    _require(shapes, 1, (p['num_hidden'], num_in))
    if not p['no_bias']:
        _require(shapes, 2, (p['num_hidden'],))
    return shapes


def _channel_axis(layout, ndim):
    if layout and layout.startswith('N') and layout.endswith('C'):
        return ndim - 1
    return 1


def convolution(shapes, p):
    data = shapes[0]
    if data is None:
        return shapes
    layout = p.get('layout')
    axis = _channel_axis(layout, len(data))
    groups = p['num_group']
    cin = data[axis] // groups if data[axis] else 0
    kernel = tuple(p['kernel'])
    if axis == 1:
        _set(shapes, 1, (p['num_filter'], cin) + kernel)
    else:
        _set(shapes, 1, (p['num_filter'],) + kernel + (cin,))
    if not p['no_bias']:
        _set(shapes, 2, (p['num_filter'],))
    return shapes


def deconvolution(shapes, p):
    data = shapes[0]
    if data is None:
        return shapes
    layout = p.get('layout')
    axis = _channel_axis(layout, len(data))
    kernel = tuple(p['kernel'])
    cout = p['num_filter'] // p['num_group']
    if axis == 1:
        _set(shapes, 1, (data[axis], cout) + kernel)
    else:
        _set(shapes, 1, (data[axis],) + kernel + (cout,))
    if not p['no_bias']:
        _set(shapes, 2, (p['num_filter'],))
    return shapes


def channel_params(shapes, p):
    """BatchNorm-style: every input after data is per-channel along ``axis`` (default 1)."""
    data = shapes[0]
    if data is None:
        return shapes
    axis = p.get('axis', 1)
    c = data[axis % len(data)] if data else 0
    for i in range(1, len(shapes)):
        _set(shapes, i, (c,))
    return shapes


def norm_params(shapes, p):
    """LayerNorm/InstanceNorm: gamma and beta along ``axis`` (InstanceNorm: axis 1)."""
    return channel_params(shapes, {'axis': p.get('axis', 1)})


def group_norm(shapes, p):
    if shapes[0] is None:
        return shapes
    for i in (1, 2):
        _set(shapes, i, (p['num_groups'],))
    return shapes


def embedding(shapes, p):
    return _set(shapes, 1, (p['input_dim'], p['output_dim']))


def prelu(shapes, p):
    data = shapes[0]
    if data is None or p.get('act_type') != 'prelu' or len(shapes) < 2:
        return shapes
    return _set(shapes, 1, (data[1],))


def softmax_label(shapes, p):
    data = shapes[0]
    if data is None:
        return shapes
    if p.get('multi_output'):
        return _set(shapes, 1, (data[0], _prod(data[2:])))
    return _set(shapes, 1, tuple(data[:-1]))


def same_as_data(shapes, p):
    if shapes[0] is None:
        return shapes
    for i in range(1, len(shapes)):
        _set(shapes, i, shapes[0])
    return shapes


def svm_label(shapes, p):
    if shapes[0] is None:
        return shapes
    return _set(shapes, 1, (shapes[0][0],))


def rnn_param_size(mode, num_layers, input_size, state_size, bidirectional, projection_size):
    """Length of the fused RNN operator's flat parameter vector, in MXNet's layout."""
    gates = {'rnn_relu': 1, 'rnn_tanh': 1, 'lstm': 4, 'gru': 3}[mode]
    dirs = 2 if bidirectional else 1
    hidden_out = projection_size or state_size
    size = 0
    for layer in range(num_layers):
        in_size = input_size if layer == 0 else hidden_out * dirs
        per_dir = gates * state_size * (in_size + hidden_out) + 2 * gates * state_size
        if projection_size:
            per_dir += projection_size * state_size
        size += per_dir * dirs
    return size


def rnn(shapes, p):
    data = shapes[0]
    if data is None:
        return shapes
    dirs = 2 if p['bidirectional'] else 1
    proj = p.get('projection_size')
    size = rnn_param_size(p['mode'], p['num_layers'], data[2], p['state_size'],
                          p['bidirectional'], proj)
    _set(shapes, 1, (size,))
    _set(shapes, 2, (p['num_layers'] * dirs, data[1], proj or p['state_size']))
    if p['mode'] == 'lstm':
        _set(shapes, 3, (p['num_layers'] * dirs, data[1], p['state_size']))
    return shapes


def upsampling(shapes, p):
    data = shapes[0]
    if data is None or p.get('sample_type') != 'bilinear':
        return shapes
    k = 2 * p['scale'] - p['scale'] % 2
    return _set(shapes, 1, (data[1], 1, k, k))


def kl_sparse_reg(shapes, p):
    if shapes[0] is None:
        return shapes
    return _set(shapes, 1, (shapes[0][1],))


def sequence_length(shapes, p):
    data = shapes[0]
    if data is None or len(shapes) < 2:
        return shapes
    axis = p.get('axis', 0)
    return _set(shapes, 1, (data[1 - axis],))


def softmax_length(shapes, p):
    data = shapes[0]
    if data is None or len(shapes) < 2:
        return shapes
    axis = p.get('axis', -1) % len(data)
    return _set(shapes, 1, tuple(d for i, d in enumerate(data) if i != axis))
