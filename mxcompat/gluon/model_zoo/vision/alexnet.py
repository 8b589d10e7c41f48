"""AlexNet (Krizhevsky 2014, "One weird trick"), implemented in Gluon."""
import os

from .... import base
from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ..model_store import load_pretrained

__all__ = ['AlexNet', 'alexnet']


class AlexNet(HybridBlock):
    r"""AlexNet model from the `"One weird trick..." <https://arxiv.org/abs/1404.5997>`_
    paper.

    Parameters
    ----------
    classes : int, default 1000
        Number of classes for the output layer.
    """
    def __init__(self, classes=1000, **kwargs):
        super(AlexNet, self).__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix='')
            with self.features.name_scope():
                # (channels, kernel, stride, padding, max-pool after)
                for ch, k, s, p, pool in ((64, 11, 4, 2, True), (192, 5, 1, 2, True),
                                          (384, 3, 1, 1, False), (256, 3, 1, 1, False),
                                          (256, 3, 1, 1, True)):
                    self.features.add(nn.Conv2D(ch, kernel_size=k, strides=s, padding=p,
                                                activation='relu'))
                    if pool:
                        self.features.add(nn.MaxPool2D(pool_size=3, strides=2))
                self.features.add(nn.Flatten())
                for _ in range(2):
                    self.features.add(nn.Dense(4096, activation='relu'))
                    self.features.add(nn.Dropout(0.5))
            self.output = nn.Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def alexnet(pretrained=False, ctx=cpu(), root=os.path.join(base.data_dir(), 'models'),
            **kwargs):
    r"""AlexNet model from the `"One weird trick..." <https://arxiv.org/abs/1404.5997>`_
    paper.

    Parameters
    ----------
    pretrained : bool, default False
        Whether to load the pretrained weights for model.
    ctx : Context, default CPU
        The context in which to load the pretrained weights.
    root : str, default $MXNET_HOME/models
        Location for keeping the model parameters.
    """
    net = AlexNet(**kwargs)
    if pretrained:
        load_pretrained(net, 'alexnet', ctx, root)
    return net
