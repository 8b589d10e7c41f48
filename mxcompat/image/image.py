"""Read individual image files and perform augmentations (``mx.image`` / ``mx.img``).

MXNet does image I/O with OpenCV 3.4 linked into libmxnet. mxcompat uses ``cv2`` when it is
installed and otherwise:

* decodes with Pillow. Baseline JPEGs decode to the same pixels as MXNet (both use libjpeg;
  measured max abs difference 0 on the test fixtures, colour and ``flag=0`` grayscale), PNGs
  are lossless, and colour-to-gray conversion uses libpng's/OpenCV's integer formulas
  (difference 0). Progressive or arithmetic-coded JPEGs may differ by libjpeg version
  (typically at most 1-2 levels), and truncated files raise an error where OpenCV returns a
  partly grey image. EXIF orientation is applied exactly when MXNet applies it (non-JFIF JPEGs);
* resizes with a port of OpenCV's ``cv::resize`` (see :mod:`mxcompat.image._resize`):
  identical to MXNet for uint8 and float32 images with nearest, bilinear, bicubic and area
  interpolation on the fixtures, and for Lanczos on uint8 (float32 Lanczos within 2e-4);
* pads borders (``copyMakeBorder``) exactly.
"""
import json
import logging
import os
import random
import warnings
from numbers import Number

import numpy as np
import torch

from . import _codec, _resize
from .. import ndarray as nd
from .. import recordio
from ..base import MXNetError, numeric_types
from ..io.io import DataBatch, DataIter
from ..ndarray import NDArray
from ..ndarray.ndarray import _on_ctx, wrap

__all__ = ['imread', 'imresize', 'imdecode', 'scale_down', 'copyMakeBorder', 'resize_short',
           'fixed_crop', 'random_crop', 'center_crop', 'color_normalize', 'random_size_crop',
           'imrotate', 'random_rotate', 'Augmenter', 'SequentialAug', 'ResizeAug',
           'ForceResizeAug', 'RandomCropAug', 'RandomSizedCropAug', 'CenterCropAug',
           'RandomOrderAug', 'BrightnessJitterAug', 'ContrastJitterAug', 'SaturationJitterAug',
           'HueJitterAug', 'ColorJitterAug', 'LightingAug', 'ColorNormalizeAug', 'RandomGrayAug',
           'HorizontalFlipAug', 'CastAug', 'CreateAugmenter', 'ImageIter']


def _write_out(result, out, opname, ctx=None):
    """Return ``result`` (a host tensor) as an NDArray, copied into ``out`` when given, else on
    ``ctx`` (the input's context, as MXNet's image operators give; cpu(0) when None, as its
    decoders give)."""
    if out is None:
        return wrap(result) if ctx is None else _on_ctx(result.to(ctx.torch_device), ctx)
    if tuple(out.shape) != tuple(result.shape):
        raise MXNetError('%s: out has shape %s but the result has shape %s'
                         % (opname, out.shape, tuple(result.shape)))
    out.to_torch().copy_(result)
    return out


def _decode_tensor(buf, flag, to_rgb, opname):
    if flag < 0:
        raise MXNetError('%s: flag must be 0 (grayscale) or 1 (color), got %d' % (opname, flag))
    return torch.from_numpy(_codec.decode(buf, flag, to_rgb))


def imread(filename, flag=1, to_rgb=True, out=None):
    """Read and decode an image to an NDArray.

    Parameters
    ----------
    filename : str
        Name of the image file to be loaded.
    flag : {0, 1}, default 1
        1 for three channel color output. 0 for grayscale output.
    to_rgb : bool, default True
        True for RGB formatted output (MXNet default). False for BGR formatted output (OpenCV
        default).
    out : NDArray, optional
        Output buffer. Use `None` for automatic allocation.

    Returns
    -------
    NDArray
        An (H, W, 3) or (H, W, 1) uint8 `NDArray` containing the image.
    """
    try:
        with open(filename, 'rb') as f:
            buf = f.read()
    except OSError as err:
        raise MXNetError("Imread: '%s' couldn't open file: %s"
                         % (filename, err.strerror or err)) from None
    return _write_out(_decode_tensor(buf, flag, to_rgb, 'imread'), out, 'imread')


def imdecode(buf, flag=1, to_rgb=True, out=None):
    """Decode an image to an NDArray.

    Parameters
    ----------
    buf : str/bytes/bytearray or numpy.ndarray
        Binary image data as string or numpy ndarray.
    flag : int, optional, default=1
        1 for three channel color output. 0 for grayscale output.
    to_rgb : int, optional, default=1
        1 for RGB formatted output (MXNet default). 0 for BGR formatted output (OpenCV default).
    out : NDArray, optional
        Output buffer. Use `None` for automatic allocation.

    Returns
    -------
    NDArray
        An (H, W, 3) or (H, W, 1) uint8 `NDArray` containing the image.
    """
    if isinstance(buf, NDArray):
        if buf.dtype != np.uint8:
            raise MXNetError('imdecode: Input needs to be uint8 buffer, got %s'
                             % np.dtype(buf.dtype).name)
        buf = buf.asnumpy().tobytes()
    elif isinstance(buf, np.ndarray):
        buf = buf.tobytes()
    elif not isinstance(buf, (bytes, bytearray)):
        raise ValueError('buf must be of type bytes, bytearray or numpy.ndarray,'
                         'if you would like to input type str, please convert to bytes')
    return _write_out(_decode_tensor(bytes(buf), flag, to_rgb, 'imdecode'), out, 'imdecode')


def imresize(src, w, h, interp=1, out=None):
    """Resize image as OpenCV's ``cv2.resize`` does.

    Parameters
    ----------
    src : NDArray
        Source image, (H, W, C), uint8, float32 or float64.
    w : int, required
        Width of resized image.
    h : int, required
        Height of resized image.
    interp : int, optional, default=1
        Interpolation method: 0 nearest, 1 bilinear, 2 bicubic, 3 area, 4 Lanczos (8x8).
    out : NDArray, optional
        The output NDArray to hold the result.

    Returns
    -------
    NDArray
        The resized (h, w, C) image, with the dtype of `src`.
    """
    return _write_out(_resize.resize(src.to_torch().detach().cpu(), int(w), int(h),
                                     int(interp)), out, 'imresize', src.context)


def scale_down(src_size, size):
    """Scales down crop size if it's larger than image size.

    If width/height of the crop is larger than the width/height of the image, sets the
    width/height to the width/height of the image, keeping the aspect ratio of the crop.

    Parameters
    ----------
    src_size : tuple of int
        Size of the image in (width, height) format.
    size : tuple of int
        Size of the crop in (width, height) format.

    Returns
    -------
    tuple of int
        A tuple containing the scaled crop size in (width, height) format.

    Example
    --------
    >>> mx.img.scale_down((640, 480), (720, 120))
    (640, 106)
    """
    w, h = size
    sw, sh = src_size
    if sh < h:
        w, h = float(w * sh) / h, sh
    if sw < w:
        w, h = sw, float(h * sw) / w
    return int(w), int(h)


# OpenCV's numbering (MXNet's docstring lists another order): replicate, reflect, wrap, reflect-101
_BORDER_MODES = {1: 'edge', 2: 'symmetric', 3: 'wrap', 4: 'reflect'}
_BORDER_DTYPES = (np.float32, np.float64, np.uint8, np.int32)


def copyMakeBorder(src, top, bot, left, right, type=0, value=0.0, values=(), out=None):
    """Pad image border as OpenCV's ``cv2.copyMakeBorder`` does.

    Parameters
    ----------
    src : NDArray
        source image, (H, W, C)
    top, bot, left, right : int, required
        Margins.
    type : int, optional, default=0
        Filling type, OpenCV's ``cv2.BORDER_*`` values: 0 constant, 1 replicate
        (aaaaaa|abcdefgh|hhhhhhh), 2 reflect (fedcba|abcdefgh|hgfedcb), 3 wrap
        (cdefgh|abcdefgh|abcdefg), 4 reflect-101 (gfedcb|abcdefgh|gfedcba). OpenCV's
        BORDER_ISOLATED flag (16) is accepted.
    value : double, optional, default=0
        (Deprecated! Use ``values`` instead.) Fill with single value.
    values : tuple of <double>, optional, default=[]
        Fill with value (RGB[A] or gray), up to 4 channels.
    out : NDArray, optional
        The output NDArray to hold the result.

    Returns
    -------
    NDArray
        The padded image.
    """
    if src.dtype not in _BORDER_DTYPES:
        raise MXNetError('copyMakeBorder: dtype %s is not supported (use float32, float64, '
                         'uint8 or int32)' % np.dtype(src.dtype).name)
    if len(src.shape) != 3:
        raise MXNetError('copyMakeBorder: expected an (H, W, C) image, got shape %s'
                         % (src.shape,))
    if min(top, bot, left, right) < 0:
        raise MXNetError('copyMakeBorder: margins must be non-negative')
    kind = int(type) & ~16
    a = src.asnumpy()
    pad = ((top, bot), (left, right), (0, 0))
    if kind == 0:
        channels = a.shape[2]
        fill = list(values) if len(values) else [value, value, value]
        fill = (fill + [0.0] * 4)[:4]
        res = np.empty((a.shape[0] + top + bot, a.shape[1] + left + right, channels), a.dtype)
        for c in range(channels):
            v = fill[c] if c < 4 else 0.0
            if a.dtype.kind in 'iu':
                info = np.iinfo(a.dtype)
                v = min(max(np.rint(v), info.min), info.max)
            res[:, :, c] = v
        res[top:top + a.shape[0], left:left + a.shape[1]] = a
    elif kind in _BORDER_MODES:
        res = np.pad(a, pad, mode=_BORDER_MODES[kind])
    else:
        raise MXNetError('copyMakeBorder: unknown border type %r (use 0-4)' % (type,))
    return _write_out(torch.from_numpy(np.ascontiguousarray(res)), out, 'copyMakeBorder',
                      src.context)


def _get_interp_method(interp, sizes=()):
    """The interpolation method (0-4) for a resize.

    Parameters
    ----------
    interp : int
        0-4 as in :func:`imresize`; 9 picks bicubic for enlarging, area for shrinking and
        bilinear otherwise (bicubic when `sizes` is not given); 10 picks one of 0-4 at random.
    sizes : tuple of int
        (old_height, old_width, new_height, new_width).

    Returns
    -------
    int
        interp method from 0 to 4
    """
    if interp == 9:
        if not sizes:
            return 2
        assert len(sizes) == 4
        oh, ow, nh, nw = sizes
        if nh > oh and nw > ow:
            return 2
        if nh < oh and nw < ow:
            return 3
        return 1
    if interp == 10:
        return random.randint(0, 4)
    if interp not in (0, 1, 2, 3, 4):
        raise ValueError('Unknown interp method %d' % interp)
    return interp


def resize_short(src, size, interp=2):
    """Resizes shorter edge to size, keeping the aspect ratio.

    Parameters
    ----------
    src : NDArray
        The original image.
    size : int
        The length to be set for the shorter edge.
    interp : int, optional, default=2
        Interpolation method (see :func:`_get_interp_method`).

    Returns
    -------
    NDArray
        An 'NDArray' containing the resized image.
    """
    h, w, _ = src.shape
    if h > w:
        new_h, new_w = size * h // w, size
    else:
        new_h, new_w = size, size * w // h
    return imresize(src, new_w, new_h, interp=_get_interp_method(interp, (h, w, new_h, new_w)))


def fixed_crop(src, x0, y0, w, h, size=None, interp=2):
    """Crop src at fixed location, and (optionally) resize it to size.

    Parameters
    ----------
    src : NDArray
        Input image
    x0 : int
        Left boundary of the cropping area
    y0 : int
        Top boundary of the cropping area
    w : int
        Width of the cropping area
    h : int
        Height of the cropping area
    size : tuple of (w, h)
        Optional, resize to new size after cropping
    interp : int, optional, default=2
        Interpolation method. See resize_short for details.

    Returns
    -------
    NDArray
        An `NDArray` containing the cropped image.
    """
    out = src[y0:y0 + h, x0:x0 + w]
    if size is not None and (w, h) != size:
        sizes = (h, w, size[1], size[0])
        out = imresize(out, *size, interp=_get_interp_method(interp, sizes))
    return out


def random_crop(src, size, interp=2):
    """Randomly crop `src` with `size` (width, height); upsample if `src` is smaller.

    Parameters
    ----------
    src: Source image `NDArray`
    size: Size of the crop formatted as (width, height).
    interp: int, optional, default=2
        Interpolation method. See resize_short for details.

    Returns
    -------
    NDArray
        An `NDArray` containing the cropped image.
    Tuple
        (x, y, width, height) of the crop in the original image.
    """
    h, w, _ = src.shape
    new_w, new_h = scale_down((w, h), size)
    x0 = random.randint(0, w - new_w)
    y0 = random.randint(0, h - new_h)
    out = fixed_crop(src, x0, y0, new_w, new_h, size, interp)
    return out, (x0, y0, new_w, new_h)


def center_crop(src, size, interp=2):
    """Crops the image `src` to the given `size` around its center; upsamples if `src` is
    smaller than `size`.

    Parameters
    ----------
    src : NDArray
        Binary source image data.
    size : list or tuple of int
        The desired output image size (width, height).
    interp : int, optional, default=2
        Interpolation method. See resize_short for details.

    Returns
    -------
    NDArray
        The cropped image.
    Tuple
        (x, y, width, height) of the crop in the original image.
    """
    h, w, _ = src.shape
    new_w, new_h = scale_down((w, h), size)
    x0 = int((w - new_w) / 2)
    y0 = int((h - new_h) / 2)
    out = fixed_crop(src, x0, y0, new_w, new_h, size, interp)
    return out, (x0, y0, new_w, new_h)


def color_normalize(src, mean, std=None):
    """Normalize src with mean and std (in place, as MXNet does).

    Parameters
    ----------
    src : NDArray
        Input image
    mean : NDArray
        RGB mean to be subtracted
    std : NDArray
        RGB standard deviation to be divided

    Returns
    -------
    NDArray
        An `NDArray` containing the normalized image.
    """
    if mean is not None:
        src -= mean
    if std is not None:
        src /= std
    return src


def random_size_crop(src, size, area, ratio, interp=2, **kwargs):
    """Randomly crop src with size. Randomize area and aspect ratio.

    Parameters
    ----------
    src : NDArray
        Input image
    size : tuple of (int, int)
        Size of the crop formatted as (width, height).
    area : float in (0, 1] or tuple of (float, float)
        If tuple, minimum area and maximum area to be maintained after cropping
        If float, minimum area to be maintained after cropping, maximum area is set to 1.0
    ratio : tuple of (float, float)
        Aspect ratio range as (min_aspect_ratio, max_aspect_ratio)
    interp: int, optional, default=2
        Interpolation method. See resize_short for details.

    Returns
    -------
    NDArray
        An `NDArray` containing the cropped image.
    Tuple
        (x, y, width, height) of the crop in the original image.
    """
    h, w, _ = src.shape
    src_area = h * w
    if 'min_area' in kwargs:
        warnings.warn('`min_area` is deprecated. Please use `area` instead.',
                      DeprecationWarning)
        area = kwargs.pop('min_area')
    assert not kwargs, 'unexpected keyword arguments for `random_size_crop`.'
    if isinstance(area, numeric_types):
        area = (area, 1.0)
    for _ in range(10):
        target_area = random.uniform(area[0], area[1]) * src_area
        log_ratio = (np.log(ratio[0]), np.log(ratio[1]))
        new_ratio = np.exp(random.uniform(*log_ratio))
        new_w = int(round(np.sqrt(target_area * new_ratio)))
        new_h = int(round(np.sqrt(target_area / new_ratio)))
        if new_w <= w and new_h <= h:
            x0 = random.randint(0, w - new_w)
            y0 = random.randint(0, h - new_h)
            out = fixed_crop(src, x0, y0, new_w, new_h, size, interp)
            return out, (x0, y0, new_w, new_h)
    return center_crop(src, size, interp)


def imrotate(src, rotation_degrees, zoom_in=False, zoom_out=False):
    """Rotates the input image(s) by the given angle(s), counter-clockwise, about the center.

    Parameters
    ----------
    src : NDArray
        float32 image (C, H, W) or batch of images (N, C, H, W).
    rotation_degrees: scalar or NDArray
        Rotation in degrees: a scalar, or for a batch one angle per image.
    zoom_in: bool
        If True, zoom in so that no padding shows in the result.
    zoom_out: bool
        If True, zoom out so that the whole original image is in the result.

    Returns
    -------
    NDArray
        An `NDArray` containing the rotated image(s).
    """
    if zoom_in and zoom_out:
        raise ValueError('`zoom_in` and `zoom_out` cannot be both True')
    if src.dtype is not np.float32:
        raise TypeError('Only `float32` images are supported by this function')
    expanded = False
    if src.ndim == 3:
        expanded = True
        src = src.expand_dims(axis=0)
        if not isinstance(rotation_degrees, Number):
            raise TypeError('When a single image is passed the rotation angle is '
                            'required to be a scalar.')
    elif src.ndim != 4:
        raise ValueError('Only 3D and 4D are supported by this function')
    if isinstance(rotation_degrees, Number):
        rotation_degrees = nd.array([rotation_degrees] * len(src), ctx=src.context)
    if len(src) != len(rotation_degrees):
        raise ValueError('The number of images must be equal to the number of rotation angles')

    ctx = src.context
    theta = (np.pi * rotation_degrees.as_in_context(ctx) / 180)
    theta = theta.expand_dims(axis=1).expand_dims(axis=2)
    _, _, h, w = src.shape
    # pixel coordinates relative to the image center, rotated, then normalized to [-1, 1]
    hc, wc = float(h - 1) / 2, float(w - 1) / 2
    ys = (nd.repeat(nd.arange(h, ctx=ctx).astype('float32').reshape((h, 1)), w, axis=1)
          - hc).expand_dims(axis=0)
    xs = (nd.repeat(nd.arange(w, ctx=ctx).astype('float32').reshape((1, w)), h, axis=0)
          - wc).expand_dims(axis=0)
    cos, sin = nd.cos(theta), nd.sin(theta)
    x_rot = (xs * cos - ys * sin) / wc
    y_rot = (xs * sin + ys * cos) / hc
    hh, ww = nd.array([h], ctx=ctx), nd.array([w], ctx=ctx)
    if zoom_in or zoom_out:
        rho = nd.sqrt(hh * hh + ww * ww)
        phi = nd.arctan(hh / ww)
        abs_theta = nd.abs(theta)
        cx1 = nd.abs(rho * nd.cos(phi + abs_theta))
        cy1 = nd.abs(rho * nd.sin(phi + abs_theta))
        cx2 = nd.abs(rho * nd.cos(phi - abs_theta))
        cy2 = nd.abs(rho * nd.sin(phi - abs_theta))
        max_x, max_y = nd.maximum(cx1, cx2), nd.maximum(cy1, cy2)
        if zoom_out:
            scale = nd.maximum(max_x / ww, max_y / hh)
        else:
            scale = nd.minimum(ww / max_x, hh / max_y)
        scale = scale.expand_dims(axis=3)
    else:
        scale = 1
    grid = nd.concat(x_rot.expand_dims(axis=1), y_rot.expand_dims(axis=1), dim=1) * scale
    rotated = nd.BilinearSampler(src, grid)
    return rotated[0] if expanded else rotated


def random_rotate(src, angle_limits, zoom_in=False, zoom_out=False):
    """Rotates `src` by a random angle drawn uniformly from `angle_limits` (numpy's RNG).

    Parameters
    ----------
    src : NDArray
        float32 image (C, H, W) or batch of images (N, C, H, W).
    angle_limits: tuple
        (lower, upper) limits of the angle in degrees.
    zoom_in: bool
        If True, zoom in so that no padding shows in the result.
    zoom_out: bool
        If True, zoom out so that the whole original image is in the result.

    Returns
    -------
    NDArray
        An `NDArray` containing the rotated image(s).
    """
    if src.ndim == 3:
        rotation_degrees = np.random.uniform(*angle_limits)
    else:
        rotation_degrees = nd.array(np.random.uniform(*angle_limits, size=src.shape[0]))
    return imrotate(src, rotation_degrees, zoom_in=zoom_in, zoom_out=zoom_out)


class Augmenter(object):
    """Image Augmenter base class."""
    def __init__(self, **kwargs):
        self._kwargs = kwargs
        for k, v in self._kwargs.items():
            if isinstance(v, NDArray):
                v = v.asnumpy()
            if isinstance(v, np.ndarray):
                self._kwargs[k] = v.tolist()

    def dumps(self):
        """Saves the Augmenter to string.

        Returns
        -------
        str
            JSON formatted string that describes the Augmenter.
        """
        return json.dumps([self.__class__.__name__.lower(), self._kwargs])

    def __call__(self, src):
        """Abstract implementation body"""
        raise NotImplementedError('Must override implementation.')


class SequentialAug(Augmenter):
    """Composing a sequential augmenter list.

    Parameters
    ----------
    ts : list of augmenters
        A series of augmenters to be applied in sequential order.
    """
    def __init__(self, ts):
        super(SequentialAug, self).__init__()
        self.ts = ts

    def dumps(self):
        """The augmenters' dumps, nested (not a JSON string, as in MXNet)."""
        return [self.__class__.__name__.lower(), [x.dumps() for x in self.ts]]

    def __call__(self, src):
        for aug in self.ts:
            src = aug(src)
        return src


class ResizeAug(Augmenter):
    """Make resize shorter edge to size augmenter.

    Parameters
    ----------
    size : int
        The length to be set for the shorter edge.
    interp : int, optional, default=2
        Interpolation method. See resize_short for details.
    """
    def __init__(self, size, interp=2):
        super(ResizeAug, self).__init__(size=size, interp=interp)
        self.size = size
        self.interp = interp

    def __call__(self, src):
        return resize_short(src, self.size, self.interp)


class ForceResizeAug(Augmenter):
    """Force resize to size regardless of aspect ratio.

    Parameters
    ----------
    size : tuple of (int, int)
        The desired size as in (width, height)
    interp : int, optional, default=2
        Interpolation method. See resize_short for details.
    """
    def __init__(self, size, interp=2):
        super(ForceResizeAug, self).__init__(size=size, interp=interp)
        self.size = size
        self.interp = interp

    def __call__(self, src):
        sizes = (src.shape[0], src.shape[1], self.size[1], self.size[0])
        return imresize(src, *self.size, interp=_get_interp_method(self.interp, sizes))


class RandomCropAug(Augmenter):
    """Make random crop augmenter.

    Parameters
    ----------
    size : tuple of (int, int)
        Size of the crop formatted as (width, height).
    interp : int, optional, default=2
        Interpolation method. See resize_short for details.
    """
    def __init__(self, size, interp=2):
        super(RandomCropAug, self).__init__(size=size, interp=interp)
        self.size = size
        self.interp = interp

    def __call__(self, src):
        return random_crop(src, self.size, self.interp)[0]


class RandomSizedCropAug(Augmenter):
    """Make random crop with random resizing and random aspect ratio jitter augmenter.

    Parameters
    ----------
    size : tuple of (int, int)
        Size of the crop formatted as (width, height).
    area : float in (0, 1] or tuple of (float, float)
        If tuple, minimum area and maximum area to be maintained after cropping
        If float, minimum area to be maintained after cropping, maximum area is set to 1.0
    ratio : tuple of (float, float)
        Aspect ratio range as (min_aspect_ratio, max_aspect_ratio)
    interp: int, optional, default=2
        Interpolation method. See resize_short for details.
    """
    def __init__(self, size, area, ratio, interp=2, **kwargs):
        super(RandomSizedCropAug, self).__init__(size=size, area=area, ratio=ratio,
                                                 interp=interp)
        self.size = size
        if 'min_area' in kwargs:
            warnings.warn('`min_area` is deprecated. Please use `area` instead.',
                          DeprecationWarning)
            self.area = kwargs.pop('min_area')
        else:
            self.area = area
        self.ratio = ratio
        self.interp = interp
        assert not kwargs, 'unexpected keyword arguments for `RandomSizedCropAug`.'

    def __call__(self, src):
        return random_size_crop(src, self.size, self.area, self.ratio, self.interp)[0]


class CenterCropAug(Augmenter):
    """Make center crop augmenter.

    Parameters
    ----------
    size : list or tuple of int
        The desired output image size (width, height).
    interp : int, optional, default=2
        Interpolation method. See resize_short for details.
    """
    def __init__(self, size, interp=2):
        super(CenterCropAug, self).__init__(size=size, interp=interp)
        self.size = size
        self.interp = interp

    def __call__(self, src):
        return center_crop(src, self.size, self.interp)[0]


class RandomOrderAug(Augmenter):
    """Apply list of augmenters in random order.

    Parameters
    ----------
    ts : list of augmenters
        A series of augmenters to be applied in random order
    """
    def __init__(self, ts):
        super(RandomOrderAug, self).__init__()
        self.ts = ts

    def dumps(self):
        """The augmenters' dumps, nested (not a JSON string, as in MXNet)."""
        return [self.__class__.__name__.lower(), [x.dumps() for x in self.ts]]

    def __call__(self, src):
        random.shuffle(self.ts)
        for t in self.ts:
            src = t(src)
        return src


class BrightnessJitterAug(Augmenter):
    """Random brightness jitter augmentation.

    Parameters
    ----------
    brightness : float
        The brightness jitter ratio range, [0, 1]
    """
    def __init__(self, brightness):
        super(BrightnessJitterAug, self).__init__(brightness=brightness)
        self.brightness = brightness

    def __call__(self, src):
        alpha = 1.0 + random.uniform(-self.brightness, self.brightness)
        src *= alpha
        return src


_LUMA = (0.299, 0.587, 0.114)


class ContrastJitterAug(Augmenter):
    """Random contrast jitter augmentation.

    Parameters
    ----------
    contrast : float
        The contrast jitter ratio range, [0, 1]
    """
    def __init__(self, contrast):
        super(ContrastJitterAug, self).__init__(contrast=contrast)
        self.contrast = contrast
        self.coef = nd.array([[_LUMA]])

    def __call__(self, src):
        alpha = 1.0 + random.uniform(-self.contrast, self.contrast)
        gray = src * self.coef
        gray = (3.0 * (1.0 - alpha) / gray.size) * nd.sum(gray)
        src *= alpha
        src += gray
        return src


class SaturationJitterAug(Augmenter):
    """Random saturation jitter augmentation.

    Parameters
    ----------
    saturation : float
        The saturation jitter ratio range, [0, 1]
    """
    def __init__(self, saturation):
        super(SaturationJitterAug, self).__init__(saturation=saturation)
        self.saturation = saturation
        self.coef = nd.array([[_LUMA]])

    def __call__(self, src):
        alpha = 1.0 + random.uniform(-self.saturation, self.saturation)
        gray = src * self.coef
        gray = nd.sum(gray, axis=2, keepdims=True)
        gray *= (1.0 - alpha)
        src *= alpha
        src += gray
        return src


class HueJitterAug(Augmenter):
    """Random hue jitter augmentation (a rotation of the chroma plane in YIQ space).

    Parameters
    ----------
    hue : float
        The hue jitter ratio range, [0, 1]
    """
    def __init__(self, hue):
        super(HueJitterAug, self).__init__(hue=hue)
        self.hue = hue
        self.tyiq = np.array([[0.299, 0.587, 0.114],
                              [0.596, -0.274, -0.321],
                              [0.211, -0.523, 0.311]])
        self.ityiq = np.array([[1.0, 0.956, 0.621],
                               [1.0, -0.272, -0.647],
                               [1.0, -1.107, 1.705]])

    def __call__(self, src):
        alpha = random.uniform(-self.hue, self.hue)
        u, w = np.cos(alpha * np.pi), np.sin(alpha * np.pi)
        rot = np.array([[1.0, 0.0, 0.0], [0.0, u, -w], [0.0, w, u]])
        t = np.dot(np.dot(self.ityiq, rot), self.tyiq).T
        return nd.dot(src, nd.array(t))


class ColorJitterAug(RandomOrderAug):
    """Apply random brightness, contrast and saturation jitter in random order.

    Parameters
    ----------
    brightness : float
        The brightness jitter ratio range, [0, 1]
    contrast : float
        The contrast jitter ratio range, [0, 1]
    saturation : float
        The saturation jitter ratio range, [0, 1]
    """
    def __init__(self, brightness, contrast, saturation):
        ts = []
        if brightness > 0:
            ts.append(BrightnessJitterAug(brightness))
        if contrast > 0:
            ts.append(ContrastJitterAug(contrast))
        if saturation > 0:
            ts.append(SaturationJitterAug(saturation))
        super(ColorJitterAug, self).__init__(ts)


class LightingAug(Augmenter):
    """Add PCA based noise.

    Parameters
    ----------
    alphastd : float
        Noise level
    eigval : 3x1 np.array
        Eigen values
    eigvec : 3x3 np.array
        Eigen vectors
    """
    def __init__(self, alphastd, eigval, eigvec):
        super(LightingAug, self).__init__(alphastd=alphastd, eigval=eigval, eigvec=eigvec)
        self.alphastd = alphastd
        self.eigval = eigval
        self.eigvec = eigvec

    def __call__(self, src):
        alpha = np.random.normal(0, self.alphastd, size=(3,))
        rgb = np.dot(self.eigvec * alpha, self.eigval)
        src += nd.array(rgb)
        return src


class ColorNormalizeAug(Augmenter):
    """Mean and std normalization.

    Parameters
    ----------
    mean : NDArray
        RGB mean to be subtracted
    std : NDArray
        RGB standard deviation to be divided
    """
    def __init__(self, mean, std):
        super(ColorNormalizeAug, self).__init__(mean=mean, std=std)
        self.mean = mean if mean is None or isinstance(mean, NDArray) else nd.array(mean)
        self.std = std if std is None or isinstance(std, NDArray) else nd.array(std)

    def __call__(self, src):
        return color_normalize(src, self.mean, self.std)


class RandomGrayAug(Augmenter):
    """Randomly convert to gray image (keeping 3 channels).

    Parameters
    ----------
    p : float
        Probability to convert to grayscale
    """
    def __init__(self, p):
        super(RandomGrayAug, self).__init__(p=p)
        self.p = p
        self.mat = nd.array([[0.21, 0.21, 0.21],
                             [0.72, 0.72, 0.72],
                             [0.07, 0.07, 0.07]])

    def __call__(self, src):
        if random.random() < self.p:
            src = nd.dot(src, self.mat)
        return src


class HorizontalFlipAug(Augmenter):
    """Random horizontal flip.

    Parameters
    ----------
    p : float
        Probability to flip image horizontally
    """
    def __init__(self, p):
        super(HorizontalFlipAug, self).__init__(p=p)
        self.p = p

    def __call__(self, src):
        if random.random() < self.p:
            src = nd.flip(src, axis=1)
        return src


class CastAug(Augmenter):
    """Cast to float32 (or the given type)."""
    def __init__(self, typ='float32'):
        super(CastAug, self).__init__(type=typ)
        self.typ = typ

    def __call__(self, src):
        return src.astype(self.typ)


_PCA_EIGVAL = np.array([55.46, 4.794, 1.148])
_PCA_EIGVEC = np.array([[-0.5675, 0.7192, 0.4009],
                        [-0.5808, -0.0045, -0.8140],
                        [-0.5836, -0.6948, 0.4203]])
_DEFAULT_MEAN = (123.68, 116.28, 103.53)
_DEFAULT_STD = (58.395, 57.12, 57.375)


def CreateAugmenter(data_shape, resize=0, rand_crop=False, rand_resize=False, rand_mirror=False,
                    mean=None, std=None, brightness=0, contrast=0, saturation=0, hue=0,
                    pca_noise=0, rand_gray=0, inter_method=2):
    """Creates an augmenter list.

    Parameters
    ----------
    data_shape : tuple of int
        Shape for output data (C, H, W).
    resize : int
        Resize shorter edge if larger than 0 at the begining
    rand_crop : bool
        Whether to enable random cropping other than center crop
    rand_resize : bool
        Whether to enable random sized cropping, require rand_crop to be enabled
    rand_mirror : bool
        Whether to apply horizontal flip to image with probability 0.5
    mean : np.ndarray or None or True
        Mean pixel values for [r, g, b] (True: ImageNet's)
    std : np.ndarray or None or True
        Standard deviations for [r, g, b] (True: ImageNet's)
    brightness : float
        Brightness jittering range (percent)
    contrast : float
        Contrast jittering range (percent)
    saturation : float
        Saturation jittering range (percent)
    hue : float
        Hue jittering range (percent)
    pca_noise : float
        Pca noise level (percent)
    rand_gray : float
        [0, 1], probability to convert to grayscale for all channels (3 channels are kept)
    inter_method : int, default=2
        Interpolation method for all resizing operations (see :func:`_get_interp_method`).

    Returns
    -------
    list of Augmenter
    """
    auglist = []
    if resize > 0:
        auglist.append(ResizeAug(resize, inter_method))
    crop_size = (data_shape[2], data_shape[1])
    if rand_resize:
        assert rand_crop
        auglist.append(RandomSizedCropAug(crop_size, 0.08, (3.0 / 4.0, 4.0 / 3.0), inter_method))
    elif rand_crop:
        auglist.append(RandomCropAug(crop_size, inter_method))
    else:
        auglist.append(CenterCropAug(crop_size, inter_method))
    if rand_mirror:
        auglist.append(HorizontalFlipAug(0.5))
    auglist.append(CastAug())
    if brightness or contrast or saturation:
        auglist.append(ColorJitterAug(brightness, contrast, saturation))
    if hue:
        auglist.append(HueJitterAug(hue))
    if pca_noise > 0:
        auglist.append(LightingAug(pca_noise, _PCA_EIGVAL, _PCA_EIGVEC))
    if rand_gray > 0:
        auglist.append(RandomGrayAug(rand_gray))
    if mean is True:
        mean = nd.array(_DEFAULT_MEAN)
    elif mean is not None:
        assert isinstance(mean, (np.ndarray, NDArray)) and mean.shape[0] in [1, 3]
    if std is True:
        std = nd.array(_DEFAULT_STD)
    elif std is not None:
        assert isinstance(std, (np.ndarray, NDArray)) and std.shape[0] in [1, 3]
    if mean is not None or std is not None:
        auglist.append(ColorNormalizeAug(mean, std))
    return auglist


class ImageIter(DataIter):
    """Image data iterator with a large number of augmentation choices.

    Reads from a .rec file (`path_imgrec`, with `path_imgidx` for shuffling and partitioning)
    or from image files listed in `path_imglist` / `imglist` under `path_root`.

    Parameters
    ----------
    batch_size : int
        Number of examples per batch.
    data_shape : tuple
        Data shape in (channels, height, width) format; only 3 channels are supported.
    label_width : int, optional
        Number of labels per example. The default label width is 1.
    path_imgrec : str
        Path to image record file (.rec).
    path_imglist : str
        Path to image list (.lst): tab separated index, one or more labels and relative path.
    imglist: list
        A list of images with the label(s): each item is [label(s)..., imgpath].
    path_root : str
        Root folder of image files.
    path_imgidx : str
        Path to image index file. Needed for partition and shuffling when using .rec source.
    shuffle : bool
        Whether to shuffle all images at the start of each iteration or not.
    part_index : int
        Partition index.
    num_parts : int
        Total number of partitions.
    aug_list : list of Augmenter, optional
        The augmenters; by default ``CreateAugmenter(data_shape, **kwargs)``.
    data_name : str
        Data name for provided symbols.
    label_name : str
        Label name for provided symbols.
    dtype : str
        Label data type. Default: float32. Other options: int32, int64, float64
    last_batch_handle : str, optional
        'pad' (default: fill the last batch with images from the start), 'discard' or
        'roll_over' (carry the remaining images into the next epoch).
    kwargs : ...
        More arguments for creating augmenter. See mx.image.CreateAugmenter.
    """
    def __init__(self, batch_size, data_shape, label_width=1,
                 path_imgrec=None, path_imglist=None, path_root=None, path_imgidx=None,
                 shuffle=False, part_index=0, num_parts=1, aug_list=None, imglist=None,
                 data_name='data', label_name='softmax_label', dtype='float32',
                 last_batch_handle='pad', **kwargs):
        super(ImageIter, self).__init__()
        assert path_imgrec or path_imglist or (isinstance(imglist, list))
        assert dtype in ['int32', 'float32', 'int64', 'float64'], dtype + ' label not supported'
        class_name = self.__class__.__name__
        if path_imgrec:
            logging.info('%s: loading recordio %s...', class_name, path_imgrec)
            if path_imgidx:
                self.imgrec = recordio.MXIndexedRecordIO(path_imgidx, path_imgrec, 'r')
                self.imgidx = list(self.imgrec.keys)
            else:
                self.imgrec = recordio.MXRecordIO(path_imgrec, 'r')
                self.imgidx = None
        else:
            self.imgrec = None

        imgkeys = None
        if path_imglist:
            logging.info('%s: loading image list %s...', class_name, path_imglist)
            self.imglist, imgkeys = {}, []
            with open(path_imglist) as fin:
                for line in iter(fin.readline, ''):
                    fields = line.strip().split('\t')
                    key = int(fields[0])
                    self.imglist[key] = (nd.array(fields[1:-1], dtype=dtype), fields[-1])
                    imgkeys.append(key)
        elif isinstance(imglist, list):
            logging.info('%s: loading image list...', class_name)
            self.imglist, imgkeys = {}, []
            for index, img in enumerate(imglist, 1):
                key = str(index)
                if len(img) > 2:
                    label = nd.array(img[:-1], dtype=dtype)
                elif isinstance(img[0], numeric_types):
                    label = nd.array([img[0]], dtype=dtype)
                else:
                    label = nd.array(img[0], dtype=dtype)
                self.imglist[key] = (label, img[-1])
                imgkeys.append(key)
        else:
            self.imglist = None
        self.path_root = path_root

        self.check_data_shape(data_shape)
        self.provide_data = [(data_name, (batch_size,) + data_shape)]
        if label_width > 1:
            self.provide_label = [(label_name, (batch_size, label_width))]
        else:
            self.provide_label = [(label_name, (batch_size,))]
        self.batch_size = batch_size
        self.data_shape = data_shape
        self.label_width = label_width
        self.shuffle = shuffle
        if self.imgrec is None:
            self.seq = imgkeys
        elif shuffle or num_parts > 1 or path_imgidx:
            assert self.imgidx is not None
            self.seq = self.imgidx
        else:
            self.seq = None
        if num_parts > 1:
            assert part_index < num_parts
            per_part = len(self.seq) // num_parts
            self.seq = self.seq[part_index * per_part:(part_index + 1) * per_part]
        self.auglist = CreateAugmenter(data_shape, **kwargs) if aug_list is None else aug_list
        self.cur = 0
        self._allow_read = True
        self.last_batch_handle = last_batch_handle
        self.num_image = len(self.seq) if self.seq is not None else None
        self._cache_data = None
        self._cache_label = None
        self._cache_idx = None
        self.reset()

    def reset(self):
        """Resets the iterator to the beginning of the data."""
        if self.seq is not None and self.shuffle:
            random.shuffle(self.seq)
        if self.last_batch_handle != 'roll_over' or self._cache_data is None:
            if self.imgrec is not None:
                self.imgrec.reset()
            self.cur = 0
            self._allow_read = True

    def hard_reset(self):
        """Resets the iterator and ignore roll over data"""
        if self.seq is not None and self.shuffle:
            random.shuffle(self.seq)
        if self.imgrec is not None:
            self.imgrec.reset()
        self.cur = 0
        self._allow_read = True
        self._cache_data = None
        self._cache_label = None
        self._cache_idx = None

    def next_sample(self):
        """Helper function for reading in next sample."""
        if self._allow_read is False:
            raise StopIteration
        if self.seq is None:
            s = self.imgrec.read()
            if s is None:
                if self.last_batch_handle != 'discard':
                    self.imgrec.reset()
                raise StopIteration
            header, img = recordio.unpack(s)
            return header.label, img
        if self.cur >= self.num_image:
            if self.last_batch_handle != 'discard':
                self.cur = 0
            raise StopIteration
        idx = self.seq[self.cur]
        self.cur += 1
        if self.imgrec is not None:
            header, img = recordio.unpack(self.imgrec.read_idx(idx))
            if self.imglist is None:
                return header.label, img
            return self.imglist[idx][0], img
        label, fname = self.imglist[idx]
        return label, self.read_image(fname)

    def _batchify(self, batch_data, batch_label, start=0):
        """Fill the batch from position `start`; returns the number of filled samples."""
        i = start
        try:
            while i < self.batch_size:
                label, s = self.next_sample()
                data = self.imdecode(s)
                try:
                    self.check_valid_image(data)
                except RuntimeError as e:
                    logging.debug('Invalid image, skipping:  %s', str(e))
                    continue
                data = self.augmentation_transform(data)
                assert i < self.batch_size, \
                    'Batch size must be multiples of augmenter output length'
                batch_data[i] = self.postprocess_data(data)
                batch_label[i] = label
                i += 1
        except StopIteration:
            if not i:
                raise
        return i

    def _new_batch(self):
        c, h, w = self.data_shape
        return nd.zeros((self.batch_size, c, h, w)), nd.empty(self.provide_label[0][1])

    def next(self):
        """Returns the next batch of data."""
        if self._cache_data is not None:
            assert self._cache_label is not None, "_cache_label didn't have values"
            assert self._cache_idx is not None, "_cache_idx didn't have values"
            batch_data, batch_label, i = self._cache_data, self._cache_label, self._cache_idx
        else:
            batch_data, batch_label = self._new_batch()
            i = self._batchify(batch_data, batch_label)
        pad = self.batch_size - i
        if pad != 0:
            if self.last_batch_handle == 'discard':
                raise StopIteration
            if self.last_batch_handle == 'roll_over' and self._cache_data is None:
                self._cache_data, self._cache_label, self._cache_idx = batch_data, batch_label, i
                raise StopIteration
            self._batchify(batch_data, batch_label, i)
            if self.last_batch_handle == 'pad':
                self._allow_read = False
            else:
                self._cache_data = self._cache_label = self._cache_idx = None
        return DataBatch([batch_data], [batch_label], pad=pad)

    def check_data_shape(self, data_shape):
        """Checks if the input data shape is valid"""
        if not len(data_shape) == 3:
            raise ValueError('data_shape should have length 3, with dimensions CxHxW')
        if not data_shape[0] == 3:
            raise ValueError('This iterator expects inputs to have 3 channels.')

    def check_valid_image(self, data):
        """Checks if the input data is valid"""
        if len(data[0].shape) == 0:
            raise RuntimeError('Data shape is wrong')

    def imdecode(self, s):
        """Decodes a string or byte string to an NDArray (see mx.img.imdecode)."""
        try:
            return imdecode(s)
        except Exception as e:
            if self.seq is not None:
                idx = self.seq[(self.cur % self.num_image) - 1]
            else:
                idx = (self.cur % self.num_image) - 1 if self.num_image else self.cur - 1
            where = ('filename: {}'.format(self.imglist[idx][1]) if self.imglist is not None
                     else 'index: {}'.format(idx))
            raise RuntimeError('Broken image {}, {}'.format(where, e)) from None

    def read_image(self, fname):
        """Reads an input image `fname` and returns the decoded raw bytes."""
        with open(os.path.join(self.path_root, fname), 'rb') as fin:
            return fin.read()

    def augmentation_transform(self, data):
        """Transforms input data with specified augmentation."""
        for aug in self.auglist:
            data = aug(data)
        return data

    def postprocess_data(self, datum):
        """Final postprocessing step before image is loaded into the batch."""
        return nd.transpose(datum, axes=(2, 0, 1))
