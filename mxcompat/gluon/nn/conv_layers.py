"""Convolution, pooling and padding layers (``mx.gluon.nn.Conv2D``, ``MaxPool2D``, ...)."""
from ... import symbol
from ...base import numeric_types
from ..block import HybridBlock
from .activations import Activation

__all__ = ['Conv1D', 'Conv2D', 'Conv3D',
           'Conv1DTranspose', 'Conv2DTranspose', 'Conv3DTranspose',
           'MaxPool1D', 'MaxPool2D', 'MaxPool3D',
           'AvgPool1D', 'AvgPool2D', 'AvgPool3D',
           'GlobalMaxPool1D', 'GlobalMaxPool2D', 'GlobalMaxPool3D',
           'GlobalAvgPool1D', 'GlobalAvgPool2D', 'GlobalAvgPool3D',
           'ReflectionPad2D']

_LAYOUTS = {1: ('NCW', 'NWC'), 2: ('NCHW', 'NHWC'), 3: ('NCDHW', 'NDHWC')}


def _tuple(value, n, what):
    if isinstance(value, numeric_types):
        return (value,) * n
    value = tuple(value)
    assert len(value) == n, '%s must be a number or a list of %d ints' % (what, n)
    return value


def _param_shapes(op_name, layout, in_channels, kwargs):
    """Weight and bias shapes of the operator, from symbolic shape inference with the
    unknown batch/spatial sizes (and a deferred `in_channels`) left as 0."""
    dshape = [0] * len(layout)
    dshape[layout.find('N')] = 1
    dshape[layout.find('C')] = in_channels
    data = symbol.var('data', shape=tuple(dshape))
    return getattr(symbol, op_name)(data, **kwargs).infer_shape_partial()[0]


class _Conv(HybridBlock):
    """Abstract nD convolution layer (private, used as implementation base).

    Parameters
    ----------
    channels : int
        The number of output channels in the convolution.
    kernel_size, strides, padding, dilation : tuple of n ints
    groups : int
        Number of groups the input and output channels are split into.
    layout : str
        Dimension ordering of data and weight ('NCHW', 'NHWC', ...).
    in_channels : int, default 0
        The number of input channels; 0 defers initialization to the first forward.
    activation : str
        Activation function applied to the output (None: linear).
    use_bias : bool
        Whether the layer uses a bias vector.
    weight_initializer, bias_initializer : str or `Initializer`
    """
    def __init__(self, channels, kernel_size, strides, padding, dilation,
                 groups, layout, in_channels=0, activation=None, use_bias=True,
                 weight_initializer=None, bias_initializer='zeros',
                 op_name='Convolution', adj=None, prefix=None, params=None):
        super(_Conv, self).__init__(prefix=prefix, params=params)
        n = len(kernel_size)
        with self.name_scope():
            self._channels = channels
            self._in_channels = in_channels
            self._op_name = op_name
            self._kwargs = {
                'kernel': kernel_size, 'stride': _tuple(strides, n, 'strides'),
                'dilate': _tuple(dilation, n, 'dilation'), 'pad': _tuple(padding, n, 'padding'),
                'num_filter': channels, 'num_group': groups,
                'no_bias': not use_bias, 'layout': layout}
            if adj is not None:
                self._kwargs['adj'] = adj
            shapes = _param_shapes(op_name, layout, in_channels, self._kwargs)
            self.weight = self.params.get('weight', shape=shapes[1], init=weight_initializer,
                                          allow_deferred_init=True)
            if use_bias:
                self.bias = self.params.get('bias', shape=shapes[2], init=bias_initializer,
                                            allow_deferred_init=True)
            else:
                self.bias = None
            self.act = Activation(activation, prefix=activation + '_') \
                if activation is not None else None

    def hybrid_forward(self, F, x, weight, bias=None):
        op = getattr(F, self._op_name)
        if bias is None:
            out = op(x, weight, name='fwd', **self._kwargs)
        else:
            out = op(x, weight, bias, name='fwd', **self._kwargs)
        if self.act is not None:
            out = self.act(out)
        return out

    def _alias(self):
        return 'conv'

    def __repr__(self):
        kw = self._kwargs
        n = len(kw['kernel'])
        shape = self.weight.shape
        parts = ['{0} -> {1}'.format(shape[1] if shape[1] else None, shape[0]),
                 'kernel_size={0}'.format(kw['kernel']), 'stride={0}'.format(kw['stride'])]
        if kw['pad'] != (0,) * n:
            parts.append('padding={0}'.format(kw['pad']))
        if kw['dilate'] != (1,) * n:
            parts.append('dilation={0}'.format(kw['dilate']))
        # MXNet 1.9.1 never prints output_padding (it tests an attribute it does not set).
        if kw['num_group'] != 1:
            parts.append('groups={0}'.format(kw['num_group']))
        if self.bias is None:
            parts.append('bias=False')
        if self.act:
            parts.append(str(self.act))
        return '{0}({1})'.format(self.__class__.__name__, ', '.join(parts))


def _conv_init(self, cls, ndim, transpose, channels, kernel_size, strides, padding,
               output_padding, dilation, groups, layout, activation, use_bias,
               weight_initializer, bias_initializer, in_channels, kwargs):
    allowed = _LAYOUTS[ndim] if ndim > 1 else ('NCW',)
    assert layout in allowed, 'Only supports %s layout for now' % \
        ' and '.join("'%s'" % l for l in allowed)
    kernel_size = _tuple(kernel_size, ndim, 'kernel_size')
    op_name = kwargs.pop('op_name', 'Deconvolution' if transpose else 'Convolution')
    adj = _tuple(output_padding, ndim, 'output_padding') if transpose else None
    super(cls, self).__init__(
        channels, kernel_size, strides, padding, dilation, groups, layout, in_channels,
        activation, use_bias, weight_initializer, bias_initializer, op_name=op_name, adj=adj,
        **kwargs)
    if transpose:
        self.outpad = adj


class Conv1D(_Conv):
    r"""1D convolution layer (e.g. temporal convolution); layout 'NCW'.

    Inputs: 3D tensor `(batch_size, in_channels, width)`.
    Outputs: `(batch_size, channels, out_width)` with
    ``out_width = floor((width+2*padding-dilation*(kernel_size-1)-1)/stride)+1``.
    """
    def __init__(self, channels, kernel_size, strides=1, padding=0, dilation=1,
                 groups=1, layout='NCW', activation=None, use_bias=True,
                 weight_initializer=None, bias_initializer='zeros',
                 in_channels=0, **kwargs):
        _conv_init(self, Conv1D, 1, False, channels, kernel_size, strides, padding, None,
                   dilation, groups, layout, activation, use_bias, weight_initializer,
                   bias_initializer, in_channels, kwargs)


class Conv2D(_Conv):
    r"""2D convolution layer (e.g. spatial convolution over images); layout 'NCHW' or 'NHWC'.

    Inputs: 4D tensor `(batch_size, in_channels, height, width)` for 'NCHW'.
    Outputs: `(batch_size, channels, out_height, out_width)`.
    """
    def __init__(self, channels, kernel_size, strides=(1, 1), padding=(0, 0),
                 dilation=(1, 1), groups=1, layout='NCHW',
                 activation=None, use_bias=True, weight_initializer=None,
                 bias_initializer='zeros', in_channels=0, **kwargs):
        _conv_init(self, Conv2D, 2, False, channels, kernel_size, strides, padding, None,
                   dilation, groups, layout, activation, use_bias, weight_initializer,
                   bias_initializer, in_channels, kwargs)


class Conv3D(_Conv):
    r"""3D convolution layer (e.g. spatial convolution over volumes); layout 'NCDHW' or
    'NDHWC'.

    Inputs: 5D tensor `(batch_size, in_channels, depth, height, width)` for 'NCDHW'.
    """
    def __init__(self, channels, kernel_size, strides=(1, 1, 1), padding=(0, 0, 0),
                 dilation=(1, 1, 1), groups=1, layout='NCDHW',
                 activation=None, use_bias=True, weight_initializer=None,
                 bias_initializer='zeros', in_channels=0, **kwargs):
        _conv_init(self, Conv3D, 3, False, channels, kernel_size, strides, padding, None,
                   dilation, groups, layout, activation, use_bias, weight_initializer,
                   bias_initializer, in_channels, kwargs)


class Conv1DTranspose(_Conv):
    r"""Transposed 1D convolution layer (sometimes called Deconvolution); layout 'NCW'.

    ``out_width = (width-1)*strides-2*padding+kernel_size+output_padding``.
    """
    def __init__(self, channels, kernel_size, strides=1, padding=0, output_padding=0,
                 dilation=1, groups=1, layout='NCW', activation=None, use_bias=True,
                 weight_initializer=None, bias_initializer='zeros',
                 in_channels=0, **kwargs):
        _conv_init(self, Conv1DTranspose, 1, True, channels, kernel_size, strides, padding,
                   output_padding, dilation, groups, layout, activation, use_bias,
                   weight_initializer, bias_initializer, in_channels, kwargs)


class Conv2DTranspose(_Conv):
    r"""Transposed 2D convolution layer (sometimes called Deconvolution); layout 'NCHW' or
    'NHWC'.

    ``out_height = (height-1)*strides[0]-2*padding[0]+kernel_size[0]+output_padding[0]``.
    """
    def __init__(self, channels, kernel_size, strides=(1, 1), padding=(0, 0),
                 output_padding=(0, 0), dilation=(1, 1), groups=1, layout='NCHW',
                 activation=None, use_bias=True, weight_initializer=None,
                 bias_initializer='zeros', in_channels=0, **kwargs):
        _conv_init(self, Conv2DTranspose, 2, True, channels, kernel_size, strides, padding,
                   output_padding, dilation, groups, layout, activation, use_bias,
                   weight_initializer, bias_initializer, in_channels, kwargs)


class Conv3DTranspose(_Conv):
    r"""Transposed 3D convolution layer (sometimes called Deconvolution); layout 'NCDHW' or
    'NDHWC'.
    """
    def __init__(self, channels, kernel_size, strides=(1, 1, 1), padding=(0, 0, 0),
                 output_padding=(0, 0, 0), dilation=(1, 1, 1), groups=1, layout='NCDHW',
                 activation=None, use_bias=True, weight_initializer=None,
                 bias_initializer='zeros', in_channels=0, **kwargs):
        _conv_init(self, Conv3DTranspose, 3, True, channels, kernel_size, strides, padding,
                   output_padding, dilation, groups, layout, activation, use_bias,
                   weight_initializer, bias_initializer, in_channels, kwargs)


class _Pooling(HybridBlock):
    """Abstract class for different pooling layers."""
    def __init__(self, pool_size, strides, padding, ceil_mode, global_pool,
                 pool_type, layout, count_include_pad=None, **kwargs):
        super(_Pooling, self).__init__(**kwargs)
        n = len(pool_size)
        strides = pool_size if strides is None else _tuple(strides, n, 'strides')
        self._kwargs = {
            'kernel': pool_size, 'stride': strides, 'pad': _tuple(padding, n, 'padding'),
            'global_pool': global_pool, 'pool_type': pool_type, 'layout': layout,
            'pooling_convention': 'full' if ceil_mode else 'valid'}
        if count_include_pad is not None:
            self._kwargs['count_include_pad'] = count_include_pad

    def _alias(self):
        return 'pool'

    def hybrid_forward(self, F, x):
        return F.Pooling(x, name='fwd', **self._kwargs)

    def __repr__(self):
        kw = self._kwargs
        return ('{name}(size={k}, stride={s}, padding={p}, ceil_mode={c}, global_pool={g}, '
                'pool_type={t}, layout={l})').format(
                    name=self.__class__.__name__, k=kw['kernel'], s=kw['stride'], p=kw['pad'],
                    c=kw['pooling_convention'] == 'full', g=kw['global_pool'],
                    t=kw['pool_type'], l=kw['layout'])


def _pool_layout(ndim, layout):
    assert layout in _LAYOUTS[ndim], 'Only %s layouts are valid for %dD Pooling' % (
        ' and '.join(_LAYOUTS[ndim]), ndim)


def _make_pool(ndim, pool_type):
    default_layout = _LAYOUTS[ndim][0]
    default_size = 2 if ndim == 1 else (2,) * ndim
    name = '%sPool%dD' % ('Max' if pool_type == 'max' else 'Avg', ndim)

    if pool_type == 'max':
        def __init__(self, pool_size=default_size, strides=None, padding=0,
                     layout=default_layout, ceil_mode=False, **kwargs):
            _pool_layout(ndim, layout)
            super(cls, self).__init__(_tuple(pool_size, ndim, 'pool_size'), strides, padding,
                                      ceil_mode, False, 'max', layout, **kwargs)
    else:
        def __init__(self, pool_size=default_size, strides=None, padding=0,
                     layout=default_layout, ceil_mode=False, count_include_pad=True, **kwargs):
            _pool_layout(ndim, layout)
            super(cls, self).__init__(_tuple(pool_size, ndim, 'pool_size'), strides, padding,
                                      ceil_mode, False, 'avg', layout, count_include_pad,
                                      **kwargs)
    doc = ('%s pooling operation for %dD data (layout %s).\n\n    Parameters\n    ----------\n'
           '    pool_size : int or tuple of %d ints\n        Size of the pooling windows.\n'
           '    strides : int, tuple or None\n        Factor by which to downscale '
           '(None: pool_size).\n    padding : int or tuple\n        Implicit zero padding.\n'
           '    layout : str\n        %s.\n    ceil_mode : bool, default False\n'
           '        When True, use ceil instead of floor to compute the output shape.\n'
           % ('Max' if pool_type == 'max' else 'Average', ndim, default_layout, ndim,
              ' or '.join(_LAYOUTS[ndim])))
    if pool_type == 'avg':
        doc += ('    count_include_pad : bool, default True\n'
                '        When False, padded values are excluded from the average.\n')
    cls = type(name, (_Pooling,), {'__init__': __init__, '__doc__': doc,
                                   '__module__': __name__})
    __init__.__qualname__ = name + '.__init__'
    return cls


def _make_global_pool(ndim, pool_type):
    default_layout = _LAYOUTS[ndim][0]
    name = 'Global%sPool%dD' % ('Max' if pool_type == 'max' else 'Avg', ndim)

    def __init__(self, layout=default_layout, **kwargs):
        _pool_layout(ndim, layout)
        super(cls, self).__init__((1,) * ndim, None, 0, True, True, pool_type, layout,
                                  **kwargs)
    doc = ('Global %s pooling operation for %dD data: one value per channel.\n\n'
           '    Parameters\n    ----------\n    layout : str, default %r\n        %s.\n'
           % ('max' if pool_type == 'max' else 'average', ndim, default_layout,
              ' or '.join(_LAYOUTS[ndim])))
    cls = type(name, (_Pooling,), {'__init__': __init__, '__doc__': doc,
                                   '__module__': __name__})
    __init__.__qualname__ = name + '.__init__'
    return cls


MaxPool1D, MaxPool2D, MaxPool3D = [_make_pool(n, 'max') for n in (1, 2, 3)]
AvgPool1D, AvgPool2D, AvgPool3D = [_make_pool(n, 'avg') for n in (1, 2, 3)]
GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPool3D = [_make_global_pool(n, 'max')
                                                     for n in (1, 2, 3)]
GlobalAvgPool1D, GlobalAvgPool2D, GlobalAvgPool3D = [_make_global_pool(n, 'avg')
                                                     for n in (1, 2, 3)]


class ReflectionPad2D(HybridBlock):
    r"""Pads the input tensor using the reflection of the input boundary.

    Parameters
    ----------
    padding: int or tuple of 8 ints
        An integer pads H and W on both sides; a tuple is MXNet's `pad_width`.

    Inputs: 4D tensor `(N, C, H_in, W_in)`. Outputs: `(N, C, H_in + 2p, W_in + 2p)`.
    """
    def __init__(self, padding=0, **kwargs):
        super(ReflectionPad2D, self).__init__(**kwargs)
        if isinstance(padding, numeric_types):
            padding = (0, 0, 0, 0, padding, padding, padding, padding)
        assert len(padding) == 8
        self._padding = padding

    def hybrid_forward(self, F, x):
        return F.pad(x, mode='reflect', pad_width=self._padding)
