"""Inception V3 (Szegedy et al. 2015), implemented in Gluon."""
import os

from .... import base
from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ...contrib.nn import HybridConcurrent
from ..model_store import load_pretrained

__all__ = ['Inception3', 'inception_v3']

_SETTING_NAMES = ('channels', 'kernel_size', 'strides', 'padding')


def _make_basic_conv(**kwargs):
    """Conv (no bias) + BatchNorm(eps 1e-3) + relu."""
    out = nn.HybridSequential(prefix='')
    out.add(nn.Conv2D(use_bias=False, **kwargs))
    out.add(nn.BatchNorm(epsilon=0.001))
    out.add(nn.Activation('relu'))
    return out


def _make_branch(use_pool, *conv_settings):
    """An optional pooling ('avg' 3x3/1 or 'max' 3x3/2) followed by basic convolutions, each
    given as (channels, kernel_size, strides, padding) with None for the default."""
    out = nn.HybridSequential(prefix='')
    if use_pool == 'avg':
        out.add(nn.AvgPool2D(pool_size=3, strides=1, padding=1))
    elif use_pool == 'max':
        out.add(nn.MaxPool2D(pool_size=3, strides=2))
    for setting in conv_settings:
        out.add(_make_basic_conv(**{k: v for k, v in zip(_SETTING_NAMES, setting)
                                    if v is not None}))
    return out


def _concurrent(prefix, *branches):
    """HybridConcurrent over the channels of the branches built (in order) by the
    callables ``branches`` inside its name scope."""
    out = HybridConcurrent(axis=1, prefix=prefix)
    with out.name_scope():
        for make in branches:
            out.add(make())
    return out


def _make_A(pool_features, prefix):
    return _concurrent(
        prefix,
        lambda: _make_branch(None, (64, 1, None, None)),
        lambda: _make_branch(None, (48, 1, None, None), (64, 5, None, 2)),
        lambda: _make_branch(None, (64, 1, None, None), (96, 3, None, 1), (96, 3, None, 1)),
        lambda: _make_branch('avg', (pool_features, 1, None, None)))


def _make_B(prefix):
    return _concurrent(
        prefix,
        lambda: _make_branch(None, (384, 3, 2, None)),
        lambda: _make_branch(None, (64, 1, None, None), (96, 3, None, 1), (96, 3, 2, None)),
        lambda: _make_branch('max'))


def _make_C(channels_7x7, prefix):
    c = channels_7x7
    return _concurrent(
        prefix,
        lambda: _make_branch(None, (192, 1, None, None)),
        lambda: _make_branch(None, (c, 1, None, None), (c, (1, 7), None, (0, 3)),
                             (192, (7, 1), None, (3, 0))),
        lambda: _make_branch(None, (c, 1, None, None), (c, (7, 1), None, (3, 0)),
                             (c, (1, 7), None, (0, 3)), (c, (7, 1), None, (3, 0)),
                             (192, (1, 7), None, (0, 3))),
        lambda: _make_branch('avg', (192, 1, None, None)))


def _make_D(prefix):
    return _concurrent(
        prefix,
        lambda: _make_branch(None, (192, 1, None, None), (320, 3, 2, None)),
        lambda: _make_branch(None, (192, 1, None, None), (192, (1, 7), None, (0, 3)),
                             (192, (7, 1), None, (3, 0)), (192, 3, 2, None)),
        lambda: _make_branch('max'))


def _split_3x3(*first):
    """A branch, then (1x3 | 3x1) convolutions of its output concatenated."""
    seq = nn.HybridSequential(prefix='')
    seq.add(_make_branch(None, *first))
    split = HybridConcurrent(axis=1, prefix='')
    seq.add(split)
    split.add(_make_branch(None, (384, (1, 3), None, (0, 1))))
    split.add(_make_branch(None, (384, (3, 1), None, (1, 0))))
    return seq


def _make_E(prefix):
    return _concurrent(
        prefix,
        lambda: _make_branch(None, (320, 1, None, None)),
        lambda: _split_3x3((384, 1, None, None)),
        lambda: _split_3x3((448, 1, None, None), (384, 3, None, 1)),
        lambda: _make_branch('avg', (192, 1, None, None)))


def make_aux(classes):
    """The auxiliary classifier head."""
    out = nn.HybridSequential(prefix='')
    out.add(nn.AvgPool2D(pool_size=5, strides=3))
    out.add(_make_basic_conv(channels=128, kernel_size=1))
    out.add(_make_basic_conv(channels=768, kernel_size=5))
    out.add(nn.Flatten())
    out.add(nn.Dense(classes))
    return out


class Inception3(HybridBlock):
    r"""Inception v3 model from
    `"Rethinking the Inception Architecture for Computer Vision"
    <http://arxiv.org/abs/1512.00567>`_ paper.

    Parameters
    ----------
    classes : int, default 1000
        Number of classification classes.
    """
    def __init__(self, classes=1000, **kwargs):
        super(Inception3, self).__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            add = self.features.add
            add(_make_basic_conv(channels=32, kernel_size=3, strides=2))
            add(_make_basic_conv(channels=32, kernel_size=3))
            add(_make_basic_conv(channels=64, kernel_size=3, padding=1))
            add(nn.MaxPool2D(pool_size=3, strides=2))
            add(_make_basic_conv(channels=80, kernel_size=1))
            add(_make_basic_conv(channels=192, kernel_size=3))
            add(nn.MaxPool2D(pool_size=3, strides=2))
            add(_make_A(32, 'A1_'))
            add(_make_A(64, 'A2_'))
            add(_make_A(64, 'A3_'))
            add(_make_B('B_'))
            for c, prefix in ((128, 'C1_'), (160, 'C2_'), (160, 'C3_'), (192, 'C4_')):
                add(_make_C(c, prefix))
            add(_make_D('D_'))
            add(_make_E('E1_'))
            add(_make_E('E2_'))
            add(nn.AvgPool2D(pool_size=8))
            add(nn.Dropout(0.5))
            self.output = nn.Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def inception_v3(pretrained=False, ctx=cpu(), root=os.path.join(base.data_dir(), 'models'),
                 **kwargs):
    r"""Inception v3 model from
    `"Rethinking the Inception Architecture for Computer Vision"
    <http://arxiv.org/abs/1512.00567>`_ paper.

    Parameters
    ----------
    pretrained : bool, default False
        Whether to load the pretrained weights for model.
    ctx : Context, default CPU
        The context in which to load the pretrained weights.
    root : str, default $MXNET_HOME/models
        Location for keeping the model parameters.
    """
    net = Inception3(**kwargs)
    if pretrained:
        load_pretrained(net, 'inceptionv3', ctx, root)
    return net
