"""Image transforms (``mx.gluon.data.vision.transforms``).

Each transform is a Block (or HybridBlock where MXNet's is one) built on the ``mx.nd.image``
operators or the ``mx.image`` functions, so one implementation serves both APIs.
"""
import random

import numpy as np

from ...block import Block, HybridBlock
from ...nn import Sequential, HybridSequential
from .... import image
from ....base import numeric_types

__all__ = ['Compose', 'Cast', 'ToTensor', 'Normalize', 'Rotate', 'RandomRotation',
           'RandomResizedCrop', 'CropResize', 'CenterCrop', 'Resize', 'RandomFlipLeftRight',
           'RandomFlipTopBottom', 'RandomBrightness', 'RandomContrast', 'RandomSaturation',
           'RandomHue', 'RandomColorJitter', 'RandomLighting', 'RandomApply',
           'Block', 'HybridBlock', 'Sequential', 'HybridSequential']


class Compose(Sequential):
    """Sequentially composes multiple transforms.

    Consecutive HybridBlocks are grouped into one hybridized HybridSequential, as MXNet does.

    Parameters
    ----------
    transforms : list of transform Blocks
        The list of transforms to be composed.
    """
    def __init__(self, transforms):
        super(Compose, self).__init__()
        run = []
        for t in list(transforms) + [None]:
            if isinstance(t, HybridBlock):
                run.append(t)
                continue
            if len(run) == 1:
                self.add(run[0])
            elif run:
                group = HybridSequential()
                for h in run:
                    group.add(h)
                group.hybridize()
                self.add(group)
            run = []
            if t is not None:
                self.add(t)


class Cast(HybridBlock):
    """Cast inputs to a specific data type.

    Parameters
    ----------
    dtype : str, default 'float32'
        The target data type.
    """
    def __init__(self, dtype='float32'):
        super(Cast, self).__init__()
        self._dtype = dtype

    def hybrid_forward(self, F, x):
        return F.cast(x, self._dtype)


class ToTensor(HybridBlock):
    """Converts an image NDArray of shape (H x W x C) in [0, 255] to a float32 tensor of shape
    (C x H x W) in [0, 1). A batch (N x H x W x C) becomes (N x C x H x W)."""
    def hybrid_forward(self, F, x):
        return F.image.to_tensor(x)


class Normalize(HybridBlock):
    """Normalize a (C x H x W) or (N x C x H x W) tensor with per-channel mean and std:
    ``out[c] = (in[c] - mean[c]) / std[c]``.

    Parameters
    ----------
    mean : float or tuple of floats, default 0.0
    std : float or tuple of floats, default 1.0
    """
    def __init__(self, mean=0.0, std=1.0):
        super(Normalize, self).__init__()
        self._mean = mean
        self._std = std

    def hybrid_forward(self, F, x):
        return F.image.normalize(x, self._mean, self._std)


def _check_float32(x):
    if x.dtype is not np.float32:
        raise TypeError("This transformation only supports float32. "
                        "Consider calling it after ToTensor")


class Rotate(Block):
    """Rotate a (C x H x W) or (N x C x H x W) float32 image by ``rotation_degrees``.

    Parameters
    ----------
    rotation_degrees : float
        Degrees, counter-clockwise.
    zoom_in : bool
        Zoom in so that no padding shows.
    zoom_out : bool
        Zoom out so that the whole rotated image fits.
    """
    def __init__(self, rotation_degrees, zoom_in=False, zoom_out=False):
        super(Rotate, self).__init__()
        self._args = (rotation_degrees, zoom_in, zoom_out)

    def forward(self, x):
        _check_float32(x)
        return image.imrotate(x, *self._args)


class RandomRotation(Block):
    """Rotate the float32 input by a random angle drawn uniformly from ``angle_limits``.

    Parameters
    ----------
    angle_limits : tuple of 2 floats
        (lower, upper) degrees.
    zoom_in, zoom_out : bool
        See :class:`Rotate`.
    rotate_with_proba : float in [0, 1]
        Probability of rotating at all.
    """
    def __init__(self, angle_limits, zoom_in=False, zoom_out=False, rotate_with_proba=1.0):
        super(RandomRotation, self).__init__()
        lower, upper = angle_limits
        if lower >= upper:
            raise ValueError("`angle_limits` must be an ordered tuple")
        if rotate_with_proba < 0 or rotate_with_proba > 1:
            raise ValueError("Probability of rotating the image should be between 0 and 1")
        self._args = (angle_limits, zoom_in, zoom_out)
        self._rotate_with_proba = rotate_with_proba

    def forward(self, x):
        if np.random.random() > self._rotate_with_proba:
            return x
        _check_float32(x)
        return image.random_rotate(x, *self._args)


def _pair(size):
    return (size, size) if isinstance(size, numeric_types) else size


class RandomResizedCrop(Block):
    """Crop a random area of the (H x W x C) input and resize it to ``size``.

    Parameters
    ----------
    size : int or tuple of (W, H)
        Output size.
    scale : tuple of two floats
        Range of the cropped area as a fraction of the input area.
    ratio : tuple of two floats
        Range of the crop's aspect ratio.
    interpolation : int
        Interpolation method (see ``mx.image.imresize``).
    """
    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0), interpolation=1):
        super(RandomResizedCrop, self).__init__()
        self._args = (_pair(size), scale, ratio, interpolation)

    def forward(self, x):
        return image.random_size_crop(x, *self._args)[0]


class CropResize(HybridBlock):
    """Crop the rectangle (x, y, width, height) of the input and optionally resize it.

    Parameters
    ----------
    x, y : int
        Upper-left corner of the crop.
    width, height : int
        Size of the crop.
    size : int or tuple of (W, H), optional
        Resize the crop to this size.
    interpolation : int, optional
        Interpolation method for the resize.
    """
    def __init__(self, x, y, width, height, size=None, interpolation=None):
        super(CropResize, self).__init__()
        self._x, self._y, self._width, self._height = x, y, width, height
        self._size = size
        self._interpolation = interpolation

    def hybrid_forward(self, F, x):
        out = F.image.crop(x, self._x, self._y, self._width, self._height)
        if self._size:
            out = F.image.resize(out, self._size, False, self._interpolation)
        return out


class CenterCrop(Block):
    """Crop the centre of the (H x W x C) input to ``size``, resizing when it is larger than
    the input.

    Parameters
    ----------
    size : int or tuple of (W, H)
    interpolation : int
    """
    def __init__(self, size, interpolation=1):
        super(CenterCrop, self).__init__()
        self._args = (_pair(size), interpolation)

    def forward(self, x):
        return image.center_crop(x, *self._args)[0]


class Resize(HybridBlock):
    """Resize an (H x W x C) or (N x H x W x C) image to ``size``.

    Parameters
    ----------
    size : int or tuple of (W, H)
        With an int and ``keep_ratio``, the shorter side becomes ``size``.
    keep_ratio : bool
        Keep the aspect ratio (only with an int size).
    interpolation : int
        Interpolation method (OpenCV's codes).
    """
    def __init__(self, size, keep_ratio=False, interpolation=1):
        super(Resize, self).__init__()
        self._keep = keep_ratio
        self._size = size
        self._interpolation = interpolation

    def hybrid_forward(self, F, x):
        return F.image.resize(x, self._size, self._keep, self._interpolation)


class RandomFlipLeftRight(HybridBlock):
    """Flip the input left-right with probability 0.5."""
    def hybrid_forward(self, F, x):
        return F.image.random_flip_left_right(x)


class RandomFlipTopBottom(HybridBlock):
    """Flip the input top-bottom with probability 0.5."""
    def hybrid_forward(self, F, x):
        return F.image.random_flip_top_bottom(x)


def _factor_range(amount):
    return (max(0, 1 - amount), 1 + amount)


class RandomBrightness(HybridBlock):
    """Scale the brightness by a factor drawn from [max(0, 1 - brightness), 1 + brightness]."""
    def __init__(self, brightness):
        super(RandomBrightness, self).__init__()
        self._args = _factor_range(brightness)

    def hybrid_forward(self, F, x):
        return F.image.random_brightness(x, *self._args)


class RandomContrast(HybridBlock):
    """Scale the contrast by a factor drawn from [max(0, 1 - contrast), 1 + contrast]."""
    def __init__(self, contrast):
        super(RandomContrast, self).__init__()
        self._args = _factor_range(contrast)

    def hybrid_forward(self, F, x):
        return F.image.random_contrast(x, *self._args)


class RandomSaturation(HybridBlock):
    """Scale the saturation by a factor drawn from [max(0, 1 - saturation), 1 + saturation]."""
    def __init__(self, saturation):
        super(RandomSaturation, self).__init__()
        self._args = _factor_range(saturation)

    def hybrid_forward(self, F, x):
        return F.image.random_saturation(x, *self._args)


class RandomHue(HybridBlock):
    """Shift the hue by a factor drawn from [max(0, 1 - hue), 1 + hue]."""
    def __init__(self, hue):
        super(RandomHue, self).__init__()
        self._args = _factor_range(hue)

    def hybrid_forward(self, F, x):
        return F.image.random_hue(x, *self._args)


class RandomColorJitter(HybridBlock):
    """Randomly jitter brightness, contrast, saturation and hue (in random order).

    Parameters
    ----------
    brightness, contrast, saturation, hue : float
        Jitter amounts; 0 disables the corresponding change.
    """
    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0):
        super(RandomColorJitter, self).__init__()
        self._args = (brightness, contrast, saturation, hue)

    def hybrid_forward(self, F, x):
        return F.image.random_color_jitter(x, *self._args)


class RandomLighting(HybridBlock):
    """AlexNet-style PCA lighting noise with standard deviation ``alpha``."""
    def __init__(self, alpha):
        super(RandomLighting, self).__init__()
        self._alpha = alpha

    def hybrid_forward(self, F, x):
        return F.image.random_lighting(x, self._alpha)


class RandomApply(Sequential):
    """Apply ``transforms`` with probability ``p`` (drawn with Python's ``random``).

    Parameters
    ----------
    transforms : Block
        The transformation(s) to apply.
    p : float
        Probability of applying them.
    """
    def __init__(self, transforms, p=0.5):
        super(RandomApply, self).__init__()
        self.transforms = transforms
        self.p = p

    def forward(self, x):
        if self.p < random.random():
            return x
        return self.transforms(x)
