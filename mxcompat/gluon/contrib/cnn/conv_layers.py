"""Deformable convolution layers (Dai et al. 2017; Zhu et al. 2018, "v2"): an ordinary
convolution of the input predicts the sampling offsets (and, modulated, the masks) of a
deformable convolution."""
from ....base import numeric_types
from ...block import HybridBlock
from ...nn import Activation

__all__ = ['DeformableConvolution', 'ModulatedDeformableConvolution']


class _DeformableBase(HybridBlock):
    """Shared construction: ``offset_per_tap`` offset-convolution channels per kernel tap
    and deformable group (2 for offsets, 3 for offsets and a mask)."""
    offset_per_tap = 2

    def _setup(self, channels, kernel_size, strides, padding, dilation, groups,
               num_deformable_group, layout, use_bias, in_channels, adj, offset_use_bias):
        self._channels = channels
        self._in_channels = in_channels
        assert layout in ('NCHW', 'NHWC'), "Only supports 'NCHW' and 'NHWC' layout for now"
        if isinstance(kernel_size, numeric_types):
            kernel_size = (kernel_size,) * 2
        n = len(kernel_size)
        strides, padding, dilation = [(v,) * n if isinstance(v, numeric_types) else v
                                      for v in (strides, padding, dilation)]
        taps = kernel_size[0] * kernel_size[1]
        offset_channels = self.offset_per_tap * taps * num_deformable_group
        self.offset_split_index = 2 * taps * num_deformable_group
        self._kwargs_offset = {
            'kernel': kernel_size, 'stride': strides, 'dilate': dilation, 'pad': padding,
            'num_filter': offset_channels, 'num_group': groups, 'no_bias': not offset_use_bias,
            'layout': layout}
        self._kwargs_deformable_conv = {
            'kernel': kernel_size, 'stride': strides, 'dilate': dilation, 'pad': padding,
            'num_filter': channels, 'num_group': groups,
            'num_deformable_group': num_deformable_group, 'no_bias': not use_bias,
            'layout': layout}
        if adj:
            self._kwargs_offset['adj'] = adj
            self._kwargs_deformable_conv['adj'] = adj
        per_group = in_channels // groups
        if layout == 'NCHW':
            self._offset_weight_shape = (offset_channels, per_group) + tuple(kernel_size)
        else:
            self._offset_weight_shape = (offset_channels,) + tuple(kernel_size) + (per_group,)
        self._offset_channels = offset_channels
        self._weight_shape = (channels, 0) + tuple(kernel_size)

    def _offset_params(self, init_w, init_b, use_bias):
        self.offset_weight = self.params.get('offset_weight', shape=self._offset_weight_shape,
                                             init=init_w, allow_deferred_init=True)
        self.offset_bias = self.params.get(
            'offset_bias', shape=(self._offset_channels,), init=init_b,
            allow_deferred_init=True) if use_bias else None

    def _conv_params(self, init_w, init_b, use_bias):
        self.deformable_conv_weight = self.params.get(
            'deformable_conv_weight', shape=self._weight_shape, init=init_w,
            allow_deferred_init=True)
        self.deformable_conv_bias = self.params.get(
            'deformable_conv_bias', shape=(self._channels,), init=init_b,
            allow_deferred_init=True) if use_bias else None

    def _offsets(self, F, x, offset_weight, offset_bias):
        if offset_bias is None:
            return F.Convolution(x, offset_weight, cudnn_off=True, **self._kwargs_offset)
        return F.Convolution(x, offset_weight, offset_bias, cudnn_off=True,
                             **self._kwargs_offset)

    def __repr__(self):
        kw = self._kwargs_deformable_conv
        n = len(kw['kernel'])
        s = '{name}({mapping}, kernel_size={kernel}, stride={stride}'
        if kw['pad'] != (0,) * n:
            s += ', padding={pad}'
        if kw['dilate'] != (1,) * n:
            s += ', dilation={dilate}'
        if kw['num_group'] != 1:
            s += ', groups={num_group}'
        if self.deformable_conv_bias is None:
            s += ', bias=False'
        if self.act:
            s += ', {}'.format(self.act)
        s += ')'
        shape = self.deformable_conv_weight.shape
        return s.format(name=self.__class__.__name__,
                        mapping='{0} -> {1}'.format(shape[1] if shape[1] else None, shape[0]),
                        **kw)


_DOC_PARAMS = """
    Parameters
    ----------
    channels : int
        The dimensionality of the output space, i.e. the number of output channels
        (filters) in the convolution.
    kernel_size : int or tuple/list of 2 int, default (1, 1)
    strides : int or tuple/list of 2 int, default (1, 1)
    padding : int or a tuple/list of 2 int, default (0, 0)
    dilation : int or tuple/list of 2 int, default (1, 1)
    groups : int, default 1
        Controls the connections between inputs and outputs.
    num_deformable_group : int, default 1
        Number of deformable group partitions.
    layout : str, default 'NCHW'
        Dimension ordering of data and weight: 'NCHW' or 'NHWC'.
    use_bias : bool, default True
        Whether the layer for generating the output features uses a bias vector.
    in_channels : int, default 0
        The number of input channels to this layer (inferred when 0).
    activation : str
        Activation function to use. See :func:`~mxnet.ndarray.Activation`.
    weight_initializer, bias_initializer : str or `Initializer`
        Initializers of the deformable convolution's weight and bias.
    offset_weight_initializer, offset_bias_initializer : str or `Initializer`, default zeros
        Initializers of the convolution that predicts the offsets.
    offset_use_bias : bool, default True
        Whether the layer for generating the offset features uses a bias vector.
"""


class DeformableConvolution(_DeformableBase):
    """2-D Deformable Convolution v_1 (Dai, 2017). The offsets of every kernel tap are
    predicted by a convolution of the input (``offset_weight``/``offset_bias``).
    """ + _DOC_PARAMS
    def __init__(self, channels, kernel_size=(1, 1), strides=(1, 1), padding=(0, 0),
                 dilation=(1, 1), groups=1, num_deformable_group=1, layout='NCHW',
                 use_bias=True, in_channels=0, activation=None, weight_initializer=None,
                 bias_initializer='zeros', offset_weight_initializer='zeros',
                 offset_bias_initializer='zeros', offset_use_bias=True,
                 op_name='DeformableConvolution', adj=None, prefix=None, params=None):
        super(DeformableConvolution, self).__init__(prefix=prefix, params=params)
        with self.name_scope():
            self._op_name = op_name
            self._setup(channels, kernel_size, strides, padding, dilation, groups,
                        num_deformable_group, layout, use_bias, in_channels, adj,
                        offset_use_bias)
            self._offset_params(offset_weight_initializer, offset_bias_initializer,
                                offset_use_bias)
            self._conv_params(weight_initializer, bias_initializer, use_bias)
            self.act = Activation(activation, prefix=activation + '_') if activation else None

    def hybrid_forward(self, F, x, offset_weight, deformable_conv_weight, offset_bias=None,
                       deformable_conv_bias=None):
        offset = self._offsets(F, x, offset_weight, offset_bias)
        extra = {} if deformable_conv_bias is None else {'bias': deformable_conv_bias}
        out = F.contrib.DeformableConvolution(data=x, offset=offset,
                                              weight=deformable_conv_weight, name='fwd',
                                              **extra, **self._kwargs_deformable_conv)
        return self.act(out) if self.act else out

    def _alias(self):
        return 'deformable_conv'


class ModulatedDeformableConvolution(_DeformableBase):
    """2-D Deformable Convolution v2 (Dai, 2018): besides the offsets, the offset
    convolution predicts one modulation mask per kernel tap (``2 * sigmoid``).
    """ + _DOC_PARAMS
    offset_per_tap = 3
    __repr__ = HybridBlock.__repr__  # MXNet gives this block the generic Block repr

    def __init__(self, channels, kernel_size=(1, 1), strides=(1, 1), padding=(0, 0),
                 dilation=(1, 1), groups=1, num_deformable_group=1, layout='NCHW',
                 use_bias=True, in_channels=0, activation=None, weight_initializer=None,
                 bias_initializer='zeros', offset_weight_initializer='zeros',
                 offset_bias_initializer='zeros', offset_use_bias=True,
                 op_name='ModulatedDeformableConvolution', adj=None, prefix=None,
                 params=None):
        super(ModulatedDeformableConvolution, self).__init__(prefix=prefix, params=params)
        with self.name_scope():
            self._op_name = op_name
            self._setup(channels, kernel_size, strides, padding, dilation, groups,
                        num_deformable_group, layout, use_bias, in_channels, adj,
                        offset_use_bias)
            self._conv_params(weight_initializer, bias_initializer, use_bias)
            self._offset_params(offset_weight_initializer, offset_bias_initializer,
                                offset_use_bias)
            self.act = Activation(activation, prefix=activation + '_') if activation else None

    def hybrid_forward(self, F, x, offset_weight, deformable_conv_weight, offset_bias=None,
                       deformable_conv_bias=None):
        offset = self._offsets(F, x, offset_weight, offset_bias)
        offset_t = F.slice_axis(offset, axis=1, begin=0, end=self.offset_split_index)
        mask = F.sigmoid(F.slice_axis(offset, axis=1, begin=self.offset_split_index,
                                      end=self._offset_channels)) * 2
        extra = {} if deformable_conv_bias is None else {'bias': deformable_conv_bias}
        out = F.contrib.ModulatedDeformableConvolution(
            data=x, offset=offset_t, mask=mask, weight=deformable_conv_weight, name='fwd',
            **extra, **self._kwargs_deformable_conv)
        return self.act(out) if self.act else out

    def _alias(self):
        return 'modulated_deformable_conv'
