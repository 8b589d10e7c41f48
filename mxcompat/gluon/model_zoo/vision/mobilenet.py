"""MobileNet (Howard et al. 2017) and MobileNetV2 (Sandler et al. 2018), implemented in
Gluon."""
import os

from .... import base
from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ..model_store import load_pretrained

__all__ = ['MobileNet', 'MobileNetV2', 'mobilenet1_0', 'mobilenet_v2_1_0', 'mobilenet0_75',
           'mobilenet_v2_0_75', 'mobilenet0_5', 'mobilenet_v2_0_5', 'mobilenet0_25',
           'mobilenet_v2_0_25', 'get_mobilenet', 'get_mobilenet_v2']


class RELU6(nn.HybridBlock):
    """min(max(x, 0), 6)."""
    def __init__(self, **kwargs):
        super(RELU6, self).__init__(**kwargs)

    def hybrid_forward(self, F, x):
        return F.clip(x, 0, 6, name='relu6')


def _add_conv(out, channels=1, kernel=1, stride=1, pad=0, num_group=1, active=True,
              relu6=False):
    """Conv (no bias) + BatchNorm (+ relu or relu6) appended to ``out``."""
    out.add(nn.Conv2D(channels, kernel, stride, pad, groups=num_group, use_bias=False))
    out.add(nn.BatchNorm(scale=True))
    if active:
        out.add(RELU6() if relu6 else nn.Activation('relu'))


def _add_conv_dw(out, dw_channels, channels, stride, relu6=False):
    """Depthwise 3x3 then pointwise 1x1."""
    _add_conv(out, channels=dw_channels, kernel=3, stride=stride, pad=1,
              num_group=dw_channels, relu6=relu6)
    _add_conv(out, channels=channels, relu6=relu6)


class LinearBottleneck(nn.HybridBlock):
    r"""LinearBottleneck used in MobileNetV2 model from the
    `"Inverted Residuals and Linear Bottlenecks: Mobile Networks for Classification,
    Detection and Segmentation" <https://arxiv.org/abs/1801.04381>`_ paper.

    Parameters
    ----------
    in_channels : int
        Number of input channels.
    channels : int
        Number of output channels.
    t : int
        Layer expansion ratio.
    stride : int
        stride
    """
    def __init__(self, in_channels, channels, t, stride, **kwargs):
        super(LinearBottleneck, self).__init__(**kwargs)
        self.use_shortcut = stride == 1 and in_channels == channels
        wide = in_channels * t
        with self.name_scope():
            self.out = nn.HybridSequential()
            _add_conv(self.out, wide, relu6=True)
            _add_conv(self.out, wide, kernel=3, stride=stride, pad=1, num_group=wide,
                      relu6=True)
            _add_conv(self.out, channels, active=False, relu6=True)

    def hybrid_forward(self, F, x):
        out = self.out(x)
        return F.elemwise_add(out, x) if self.use_shortcut else out


class MobileNet(HybridBlock):
    r"""MobileNet model from the
    `"MobileNets: Efficient Convolutional Neural Networks for Mobile Vision Applications"
    <https://arxiv.org/abs/1704.04861>`_ paper.

    Parameters
    ----------
    multiplier : float, default 1.0
        The width multiplier for controling the model size. Only multipliers that are no
        less than 0.25 are supported. The actual number of channels is equal to the original
        channel size multiplied by this multiplier.
    classes : int, default 1000
        Number of classes for the output layer.
    """
    def __init__(self, multiplier=1.0, classes=1000, **kwargs):
        super(MobileNet, self).__init__(**kwargs)
        scale = lambda widths: [int(w * multiplier) for w in widths]
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            with self.features.name_scope():
                _add_conv(self.features, channels=int(32 * multiplier), kernel=3, pad=1,
                          stride=2)
                dw_channels = scale([32, 64] + [128] * 2 + [256] * 2 + [512] * 6 + [1024])
                channels = scale([64] + [128] * 2 + [256] * 2 + [512] * 6 + [1024] * 2)
                strides = [1, 2] * 3 + [1] * 5 + [2, 1]
                for dwc, c, s in zip(dw_channels, channels, strides):
                    _add_conv_dw(self.features, dw_channels=dwc, channels=c, stride=s)
                self.features.add(nn.GlobalAvgPool2D())
                self.features.add(nn.Flatten())
            self.output = nn.Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


class MobileNetV2(nn.HybridBlock):
    r"""MobileNetV2 model from the
    `"Inverted Residuals and Linear Bottlenecks: Mobile Networks for Classification,
    Detection and Segmentation" <https://arxiv.org/abs/1801.04381>`_ paper.

    Parameters
    ----------
    multiplier : float, default 1.0
        The width multiplier for controling the model size. The actual number of channels
        is equal to the original channel size multiplied by this multiplier.
    classes : int, default 1000
        Number of classes for the output layer.
    """
    def __init__(self, multiplier=1.0, classes=1000, **kwargs):
        super(MobileNetV2, self).__init__(**kwargs)
        scale = lambda widths: [int(w * multiplier) for w in widths]
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='features_')
            with self.features.name_scope():
                _add_conv(self.features, int(32 * multiplier), kernel=3, stride=2, pad=1,
                          relu6=True)
                ins = scale([32, 16] + [24] * 2 + [32] * 3 + [64] * 4 + [96] * 3 + [160] * 3)
                outs = scale([16] + [24] * 2 + [32] * 3 + [64] * 4 + [96] * 3 + [160] * 3
                             + [320])
                ts = [1] + [6] * 16
                strides = [1, 2] * 2 + [1, 1, 2] + [1] * 6 + [2] + [1] * 3
                for in_c, c, t, s in zip(ins, outs, ts, strides):
                    self.features.add(LinearBottleneck(in_channels=in_c, channels=c, t=t,
                                                       stride=s))
                last = int(1280 * multiplier) if multiplier > 1.0 else 1280
                _add_conv(self.features, last, relu6=True)
                self.features.add(nn.GlobalAvgPool2D())
            self.output = nn.HybridSequential(prefix='output_')
            with self.output.name_scope():
                self.output.add(nn.Conv2D(classes, 1, use_bias=False, prefix='pred_'),
                                nn.Flatten())

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def _suffix(multiplier):
    """'1.0', '0.75', '0.5', '0.25': the multiplier as the model store spells it."""
    s = '{0:.2f}'.format(multiplier)
    return s[:-1] if s in ('1.00', '0.50') else s


def get_mobilenet(multiplier, pretrained=False, ctx=cpu(),
                  root=os.path.join(base.data_dir(), 'models'), **kwargs):
    r"""MobileNet model from the
    `"MobileNets: Efficient Convolutional Neural Networks for Mobile Vision Applications"
    <https://arxiv.org/abs/1704.04861>`_ paper.

    Parameters
    ----------
    multiplier : float
        The width multiplier for controling the model size.
    pretrained : bool, default False
        Whether to load the pretrained weights for model.
    ctx : Context, default CPU
        The context in which to load the pretrained weights.
    root : str, default $MXNET_HOME/models
        Location for keeping the model parameters.
    """
    net = MobileNet(multiplier, **kwargs)
    if pretrained:
        load_pretrained(net, 'mobilenet%s' % _suffix(multiplier), ctx, root)
    return net


def get_mobilenet_v2(multiplier, pretrained=False, ctx=cpu(),
                     root=os.path.join(base.data_dir(), 'models'), **kwargs):
    r"""MobileNetV2 model from the
    `"Inverted Residuals and Linear Bottlenecks: Mobile Networks for Classification,
    Detection and Segmentation" <https://arxiv.org/abs/1801.04381>`_ paper.

    Parameters
    ----------
    multiplier : float
        The width multiplier for controling the model size.
    pretrained : bool, default False
        Whether to load the pretrained weights for model.
    ctx : Context, default CPU
        The context in which to load the pretrained weights.
    root : str, default $MXNET_HOME/models
        Location for keeping the model parameters.
    """
    net = MobileNetV2(multiplier, **kwargs)
    if pretrained:
        load_pretrained(net, 'mobilenetv2_%s' % _suffix(multiplier), ctx, root)
    return net


def _factory(getter, multiplier, name):
    def make(**kwargs):
        return getter(multiplier, **kwargs)
    make.__name__ = name
    make.__doc__ = '%s with width multiplier %s (see ``%s``).' % (
        'MobileNetV2' if getter is get_mobilenet_v2 else 'MobileNet', multiplier,
        getter.__name__)
    return make


mobilenet1_0 = _factory(get_mobilenet, 1.0, 'mobilenet1_0')
mobilenet0_75 = _factory(get_mobilenet, 0.75, 'mobilenet0_75')
mobilenet0_5 = _factory(get_mobilenet, 0.5, 'mobilenet0_5')
mobilenet0_25 = _factory(get_mobilenet, 0.25, 'mobilenet0_25')
mobilenet_v2_1_0 = _factory(get_mobilenet_v2, 1.0, 'mobilenet_v2_1_0')
mobilenet_v2_0_75 = _factory(get_mobilenet_v2, 0.75, 'mobilenet_v2_0_75')
mobilenet_v2_0_5 = _factory(get_mobilenet_v2, 0.5, 'mobilenet_v2_0_5')
mobilenet_v2_0_25 = _factory(get_mobilenet_v2, 0.25, 'mobilenet_v2_0_25')
