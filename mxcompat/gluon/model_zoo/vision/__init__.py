"""Model zoo for pre-defined and pre-trained computer-vision models.

Each model can be built with random weights by ``get_model('resnet18_v1')`` or with the
weights of MXNet's model store by ``get_model('resnet18_v1', pretrained=True)`` (the file is
looked up in ``$MXNET_HOME/models`` and downloaded when missing).
"""
from .alexnet import *  # noqa: F401,F403
from .densenet import *  # noqa: F401,F403
from .inception import *  # noqa: F401,F403
from .resnet import *  # noqa: F401,F403
from .squeezenet import *  # noqa: F401,F403
from .vgg import *  # noqa: F401,F403
from .mobilenet import *  # noqa: F401,F403

_models = {
    'resnet18_v1': resnet18_v1, 'resnet34_v1': resnet34_v1, 'resnet50_v1': resnet50_v1,
    'resnet101_v1': resnet101_v1, 'resnet152_v1': resnet152_v1,
    'resnet18_v2': resnet18_v2, 'resnet34_v2': resnet34_v2, 'resnet50_v2': resnet50_v2,
    'resnet101_v2': resnet101_v2, 'resnet152_v2': resnet152_v2,
    'vgg11': vgg11, 'vgg13': vgg13, 'vgg16': vgg16, 'vgg19': vgg19,
    'vgg11_bn': vgg11_bn, 'vgg13_bn': vgg13_bn, 'vgg16_bn': vgg16_bn, 'vgg19_bn': vgg19_bn,
    'alexnet': alexnet,
    'densenet121': densenet121, 'densenet161': densenet161, 'densenet169': densenet169,
    'densenet201': densenet201,
    'squeezenet1.0': squeezenet1_0, 'squeezenet1.1': squeezenet1_1,
    'inceptionv3': inception_v3,
    'mobilenet1.0': mobilenet1_0, 'mobilenet0.75': mobilenet0_75,
    'mobilenet0.5': mobilenet0_5, 'mobilenet0.25': mobilenet0_25,
    'mobilenetv2_1.0': mobilenet_v2_1_0, 'mobilenetv2_0.75': mobilenet_v2_0_75,
    'mobilenetv2_0.5': mobilenet_v2_0_5, 'mobilenetv2_0.25': mobilenet_v2_0_25,
}


def get_model(name, **kwargs):
    """Returns a pre-defined model by name

    Parameters
    ----------
    name : str
        Name of the model.
    pretrained : bool
        Whether to load the pretrained weights for model.
    classes : int
        Number of classes for the output layer.
    ctx : Context, default CPU
        The context in which to load the pretrained weights.
    root : str, default '$MXNET_HOME/models'
        Location for keeping the model parameters.

    Returns
    -------
    gluon.HybridBlock
        The model.
    """
    name = name.lower()
    if name not in _models:
        raise ValueError('Model %s is not supported. Available options are\n\t%s'
                         % (name, '\n\t'.join(sorted(_models.keys()))))
    return _models[name](**kwargs)
