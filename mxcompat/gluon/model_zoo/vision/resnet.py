"""ResNets (He et al. 2015, v1; He et al. 2016, v2), implemented in Gluon."""
import os

from .... import base
from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ..model_store import load_pretrained

__all__ = ['ResNetV1', 'ResNetV2', 'BasicBlockV1', 'BasicBlockV2', 'BottleneckV1',
           'BottleneckV2', 'resnet18_v1', 'resnet34_v1', 'resnet50_v1', 'resnet101_v1',
           'resnet152_v1', 'resnet18_v2', 'resnet34_v2', 'resnet50_v2', 'resnet101_v2',
           'resnet152_v2', 'get_resnet']


def _conv3x3(channels, stride, in_channels):
    return nn.Conv2D(channels, kernel_size=3, strides=stride, padding=1, use_bias=False,
                     in_channels=in_channels)


def _projection(channels, stride, in_channels, with_bn):
    """The 1x1 strided convolution of a downsampling shortcut."""
    conv = nn.Conv2D(channels, kernel_size=1, strides=stride, use_bias=False,
                     in_channels=in_channels)
    if not with_bn:
        return conv
    seq = nn.HybridSequential(prefix='')
    seq.add(conv)
    seq.add(nn.BatchNorm())
    return seq


class _ResidualV1(HybridBlock):
    """Post-activation residual unit: relu(body(x) + shortcut(x))."""
    def hybrid_forward(self, F, x):
        shortcut = self.downsample(x) if self.downsample else x
        return F.Activation(self.body(x) + shortcut, act_type='relu')


class BasicBlockV1(_ResidualV1):
    r"""BasicBlock V1 from `"Deep Residual Learning for Image Recognition"
    <http://arxiv.org/abs/1512.03385>`_ paper. This is used for ResNet V1 for 18, 34 layers.

    Parameters
    ----------
    channels : int
        Number of output channels.
    stride : int
        Stride size.
    downsample : bool, default False
        Whether to downsample the input.
    in_channels : int, default 0
        Number of input channels. Default is 0, to infer from the graph.
    """
    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super(BasicBlockV1, self).__init__(**kwargs)
        self.body = nn.HybridSequential(prefix='')
        self.body.add(_conv3x3(channels, stride, in_channels), nn.BatchNorm(),
                      nn.Activation('relu'), _conv3x3(channels, 1, channels), nn.BatchNorm())
        self.downsample = _projection(channels, stride, in_channels, True) \
            if downsample else None


class BottleneckV1(_ResidualV1):
    r"""Bottleneck V1 from `"Deep Residual Learning for Image Recognition"
    <http://arxiv.org/abs/1512.03385>`_ paper. This is used for ResNet V1 for 50, 101, 152
    layers.

    Parameters
    ----------
    channels : int
        Number of output channels.
    stride : int
        Stride size.
    downsample : bool, default False
        Whether to downsample the input.
    in_channels : int, default 0
        Number of input channels. Default is 0, to infer from the graph.
    """
    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super(BottleneckV1, self).__init__(**kwargs)
        mid = channels // 4
        self.body = nn.HybridSequential(prefix='')
        self.body.add(nn.Conv2D(mid, kernel_size=1, strides=stride), nn.BatchNorm(),
                      nn.Activation('relu'), _conv3x3(mid, 1, mid), nn.BatchNorm(),
                      nn.Activation('relu'), nn.Conv2D(channels, kernel_size=1, strides=1),
                      nn.BatchNorm())
        self.downsample = _projection(channels, stride, in_channels, True) \
            if downsample else None


class _ResidualV2(HybridBlock):
    """Pre-activation residual unit: the shortcut branches off after the first BN + relu."""
    def hybrid_forward(self, F, x):
        shortcut = x
        x = F.Activation(self.bn1(x), act_type='relu')
        if self.downsample:
            shortcut = self.downsample(x)
        x = self.conv1(x)
        for bn, conv in self._tail:
            x = conv(F.Activation(bn(x), act_type='relu'))
        return x + shortcut


class BasicBlockV2(_ResidualV2):
    r"""BasicBlock V2 from `"Identity Mappings in Deep Residual Networks"
    <https://arxiv.org/abs/1603.05027>`_ paper. This is used for ResNet V2 for 18, 34 layers.

    Parameters
    ----------
    channels : int
        Number of output channels.
    stride : int
        Stride size.
    downsample : bool, default False
        Whether to downsample the input.
    in_channels : int, default 0
        Number of input channels. Default is 0, to infer from the graph.
    """
    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super(BasicBlockV2, self).__init__(**kwargs)
        self.bn1 = nn.BatchNorm()
        self.conv1 = _conv3x3(channels, stride, in_channels)
        self.bn2 = nn.BatchNorm()
        self.conv2 = _conv3x3(channels, 1, channels)
        self.downsample = _projection(channels, stride, in_channels, False) \
            if downsample else None

    @property
    def _tail(self):
        return [(self.bn2, self.conv2)]


class BottleneckV2(_ResidualV2):
    r"""Bottleneck V2 from `"Identity Mappings in Deep Residual Networks"
    <https://arxiv.org/abs/1603.05027>`_ paper. This is used for ResNet V2 for 50, 101, 152
    layers.

    Parameters
    ----------
    channels : int
        Number of output channels.
    stride : int
        Stride size.
    downsample : bool, default False
        Whether to downsample the input.
    in_channels : int, default 0
        Number of input channels. Default is 0, to infer from the graph.
    """
    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super(BottleneckV2, self).__init__(**kwargs)
        mid = channels // 4
        self.bn1 = nn.BatchNorm()
        self.conv1 = nn.Conv2D(mid, kernel_size=1, strides=1, use_bias=False)
        self.bn2 = nn.BatchNorm()
        self.conv2 = _conv3x3(mid, stride, mid)
        self.bn3 = nn.BatchNorm()
        self.conv3 = nn.Conv2D(channels, kernel_size=1, strides=1, use_bias=False)
        self.downsample = _projection(channels, stride, in_channels, False) \
            if downsample else None

    @property
    def _tail(self):
        return [(self.bn2, self.conv2), (self.bn3, self.conv3)]


def _stage(block, num_units, channels, stride, index, in_channels):
    stage = nn.HybridSequential(prefix='stage%d_' % index)
    with stage.name_scope():
        stage.add(block(channels, stride, channels != in_channels, in_channels=in_channels,
                        prefix=''))
        for _ in range(num_units - 1):
            stage.add(block(channels, 1, False, in_channels=channels, prefix=''))
    return stage


def _stem(features, channels, thumbnail):
    if thumbnail:
        features.add(_conv3x3(channels, 1, 0))
    else:
        features.add(nn.Conv2D(channels, 7, 2, 3, use_bias=False), nn.BatchNorm(),
                     nn.Activation('relu'), nn.MaxPool2D(3, 2, 1))


class _ResNet(HybridBlock):
    def hybrid_forward(self, F, x):
        return self.output(self.features(x))

    def _make_layer(self, block, layers, channels, stride, stage_index, in_channels=0):
        return _stage(block, layers, channels, stride, stage_index, in_channels)


class ResNetV1(_ResNet):
    r"""ResNet V1 model from `"Deep Residual Learning for Image Recognition"
    <http://arxiv.org/abs/1512.03385>`_ paper.

    Parameters
    ----------
    block : HybridBlock
        Class for the residual block. Options are BasicBlockV1, BottleneckV1.
    layers : list of int
        Numbers of layers in each block
    channels : list of int
        Numbers of channels in each block. Length should be one larger than layers list.
    classes : int, default 1000
        Number of classification classes.
    thumbnail : bool, default False
        Enable thumbnail.
    """
    def __init__(self, block, layers, channels, classes=1000, thumbnail=False, **kwargs):
        super(ResNetV1, self).__init__(**kwargs)
        assert len(layers) == len(channels) - 1
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            _stem(self.features, channels[0], thumbnail)
            for i, num_units in enumerate(layers):
                self.features.add(_stage(block, num_units, channels[i + 1], 1 if i == 0 else 2,
                                         i + 1, channels[i]))
            self.features.add(nn.GlobalAvgPool2D())
            self.output = nn.Dense(classes, in_units=channels[-1])


class ResNetV2(_ResNet):
    r"""ResNet V2 model from `"Identity Mappings in Deep Residual Networks"
    <https://arxiv.org/abs/1603.05027>`_ paper.

    Parameters
    ----------
    block : HybridBlock
        Class for the residual block. Options are BasicBlockV2, BottleneckV2.
    layers : list of int
        Numbers of layers in each block
    channels : list of int
        Numbers of channels in each block. Length should be one larger than layers list.
    classes : int, default 1000
        Number of classification classes.
    thumbnail : bool, default False
        Enable thumbnail.
    """
    def __init__(self, block, layers, channels, classes=1000, thumbnail=False, **kwargs):
        super(ResNetV2, self).__init__(**kwargs)
        assert len(layers) == len(channels) - 1
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            self.features.add(nn.BatchNorm(scale=False, center=False))
            _stem(self.features, channels[0], thumbnail)
            in_channels = channels[0]
            for i, num_units in enumerate(layers):
                self.features.add(_stage(block, num_units, channels[i + 1], 1 if i == 0 else 2,
                                         i + 1, in_channels))
                in_channels = channels[i + 1]
            self.features.add(nn.BatchNorm(), nn.Activation('relu'), nn.GlobalAvgPool2D(),
                              nn.Flatten())
            self.output = nn.Dense(classes, in_units=in_channels)


# depth -> (residual unit, units per stage, channels: stem then each stage)
resnet_spec = {18: ('basic_block', [2, 2, 2, 2], [64, 64, 128, 256, 512]),
               34: ('basic_block', [3, 4, 6, 3], [64, 64, 128, 256, 512]),
               50: ('bottle_neck', [3, 4, 6, 3], [64, 256, 512, 1024, 2048]),
               101: ('bottle_neck', [3, 4, 23, 3], [64, 256, 512, 1024, 2048]),
               152: ('bottle_neck', [3, 8, 36, 3], [64, 256, 512, 1024, 2048])}
resnet_net_versions = [ResNetV1, ResNetV2]
resnet_block_versions = [{'basic_block': BasicBlockV1, 'bottle_neck': BottleneckV1},
                         {'basic_block': BasicBlockV2, 'bottle_neck': BottleneckV2}]


def get_resnet(version, num_layers, pretrained=False, ctx=cpu(),
               root=os.path.join(base.data_dir(), 'models'), **kwargs):
    r"""ResNet V1 model from `"Deep Residual Learning for Image Recognition"
    <http://arxiv.org/abs/1512.03385>`_ paper.
    ResNet V2 model from `"Identity Mappings in Deep Residual Networks"
    <https://arxiv.org/abs/1603.05027>`_ paper.

    Parameters
    ----------
    version : int
        Version of ResNet. Options are 1, 2.
    num_layers : int
        Numbers of layers. Options are 18, 34, 50, 101, 152.
    pretrained : bool, default False
        Whether to load the pretrained weights for model.
    ctx : Context, default CPU
        The context in which to load the pretrained weights.
    root : str, default $MXNET_HOME/models
        Location for keeping the model parameters.
    """
    assert num_layers in resnet_spec, 'Invalid number of layers: %d. Options are %s' % (
        num_layers, str(resnet_spec.keys()))
    block_type, layers, channels = resnet_spec[num_layers]
    assert 1 <= version <= 2, 'Invalid resnet version: %d. Options are 1 and 2.' % version
    net = resnet_net_versions[version - 1](resnet_block_versions[version - 1][block_type],
                                           layers, channels, **kwargs)
    if pretrained:
        load_pretrained(net, 'resnet%d_v%d' % (num_layers, version), ctx, root)
    return net


def _factory(version, depth):
    def make(**kwargs):
        return get_resnet(version, depth, **kwargs)
    make.__name__ = 'resnet%d_v%d' % (depth, version)
    make.__doc__ = ('ResNet-%d V%d model (see ``get_resnet``).\n\n    Parameters\n    ----------\n'
                    '    pretrained : bool, default False\n    ctx : Context, default CPU\n'
                    '    root : str, default $MXNET_HOME/models\n' % (depth, version))
    return make


resnet18_v1, resnet34_v1, resnet50_v1, resnet101_v1, resnet152_v1 = [
    _factory(1, d) for d in (18, 34, 50, 101, 152)]
resnet18_v2, resnet34_v2, resnet50_v2, resnet101_v2, resnet152_v2 = [
    _factory(2, d) for d in (18, 34, 50, 101, 152)]
