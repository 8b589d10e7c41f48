"""Image decoding and encoding as MXNet's OpenCV build does it, with OpenCV or Pillow.

When ``cv2`` is importable it is used (the same library MXNet links). Otherwise Pillow decodes:
JPEG through libjpeg(-turbo) as OpenCV does (identical pixels for baseline JPEGs, colour and
grayscale), PNG losslessly, and the colour-to-gray conversions use the integer formulas of
libpng (PNG) and OpenCV (other formats), so decoded pixels match MXNet's.

An image whose header claims more than :data:`MAX_PIXELS` pixels (width x height) is refused
with MXNetError before it is decoded; the limit is 2**27 (134 million) unless the environment
variable ``MXCOMPAT_IMAGE_MAX_PIXELS`` sets another when mxcompat is imported (or the program
assigns ``mxcompat.image._codec.MAX_PIXELS``). Pillow's own limit (``PIL.Image.MAX_IMAGE_PIXELS``,
whose double it refuses) applies too; with OpenCV, OpenCV's (``CV_IO_MAX_IMAGE_PIXELS``).
"""
import io as _io
import os as _os
import struct as _struct

import numpy as np

from ..base import MXNetError

try:
    import cv2
except ImportError:
    cv2 = None

__all__ = ['decode', 'cv_imdecode', 'cv_imencode', 'jpeg_header', 'decode_jpeg_into',
           'MAX_PIXELS']

MAX_PIXELS = int(_os.environ.get('MXCOMPAT_IMAGE_MAX_PIXELS') or 2 ** 27)
"""The most pixels (width x height) an image to decode may claim in its header."""


def _check_pixels(width, height):
    if width * height > MAX_PIXELS:
        raise MXNetError('Decoding failed: the image header claims %dx%d pixels, more than the '
                         'limit of %d; set MXCOMPAT_IMAGE_MAX_PIXELS to decode larger images'
                         % (width, height, MAX_PIXELS))


def _pil_open(buf):
    """A Pillow image of ``buf`` with its header read and its size checked, not yet decoded."""
    Image, _ = _pil()
    try:
        im = Image.open(_io.BytesIO(buf))
    except Exception as err:  # Pillow raises many types for bad data
        raise MXNetError('Decoding failed. Invalid image file. (%s)' % err) from None
    _check_pixels(*im.size)
    return im


def _cv_imdecode(buf, flag):
    """``cv2.imdecode(buf, flag)`` after the pixels the header claims are checked (read by
    Pillow, for the formats it knows); OpenCV's errors and failures as MXNetError."""
    Image = _pil()[0]
    try:
        size = Image.open(_io.BytesIO(buf)).size
    except Image.DecompressionBombError as err:  # as the Pillow path refuses it
        raise MXNetError('Decoding failed. Invalid image file. (%s)' % err) from None
    except Exception:  # Pillow lacks the format or the header is bad: OpenCV will tell
        size = None
    if size is not None:
        _check_pixels(*size)
    try:
        img = cv2.imdecode(np.frombuffer(buf, dtype=np.uint8), flag)
    except cv2.error as err:
        raise MXNetError('Decoding failed. Invalid image file. (%s)' % err) from None
    if img is None:
        raise MXNetError('Decoding failed. Invalid image file.')
    return img


def _is_jfif(buf):
    return buf[:4] == b'\xff\xd8\xff\xe0' and buf[6:11] == b'JFIF\0'


def _is_png(buf):
    return buf[:4] == b'\x89PNG'


def _pil():
    try:
        from PIL import Image, ImageOps
    except ImportError:
        raise MXNetError('mx.image needs OpenCV (cv2) or Pillow to decode images: '
                         'pip install Pillow') from None
    return Image, ImageOps


def _png_gray(rgb):
    """libpng's png_set_rgb_to_gray(0.299, 0.587) on 8-bit RGB (what OpenCV uses for PNG)."""
    r, g, b = (rgb[..., i].astype(np.uint32) for i in range(3))
    gray = ((9797 * r + 19234 * g + 3737 * b) >> 15).astype(np.uint8)
    same = (rgb[..., 0] == rgb[..., 1]) & (rgb[..., 0] == rgb[..., 2])
    return np.where(same, rgb[..., 0], gray)


def _cv_gray(rgb):
    """OpenCV's cvtColor(BGR2GRAY) on 8-bit data."""
    r, g, b = (rgb[..., i].astype(np.uint32) for i in range(3))
    return ((4899 * r + 9617 * g + 1868 * b + 8192) >> 14).astype(np.uint8)


def _pil_decode(buf, color, apply_orientation):
    """(H, W, 3) RGB or (H, W) gray uint8 array decoded with Pillow."""
    _, ImageOps = _pil()
    im = _pil_open(buf)
    try:
        if not color and im.format == 'JPEG' and im.mode in ('RGB', 'YCbCr'):
            im.draft('L', im.size)  # libjpeg outputs luma directly, as OpenCV asks it to
        im.load()
        if apply_orientation and im.format == 'JPEG':
            im = ImageOps.exif_transpose(im)
    except Exception as err:  # Pillow raises many types for bad data
        raise MXNetError('Decoding failed. Invalid image file. (%s)' % err) from None
    mode = im.mode
    if mode.startswith('I;16') or mode == 'I':
        a = (np.asarray(im).astype(np.uint32) >> 8).astype(np.uint8)  # libpng strip_16
        return np.repeat(a[:, :, None], 3, axis=2) if color else a
    if mode in ('L', 'LA', '1'):
        a = np.asarray(im.convert('L') if mode == '1' else im.getchannel(0))
        return np.repeat(a[:, :, None], 3, axis=2) if color else a
    if mode in ('RGBA', 'RGBX', 'RGBa'):
        rgb = np.asarray(im)[:, :, :3]
    elif mode == 'RGB':
        rgb = np.asarray(im)
    else:  # palette, CMYK, YCbCr, F, ...
        rgb = np.asarray(im.convert('RGB'))
    if color:
        return rgb
    return _png_gray(rgb) if im.format == 'PNG' else _cv_gray(rgb)


# Baseline, extended and progressive Huffman frames: what the direct decoder below takes on
_SOF_HUFFMAN = (0xC0, 0xC1, 0xC2)
_U16 = _struct.Struct('>H')
_SOF = _struct.Struct('>BHHB')


def _pil_core():
    """Pillow's C core when its libjpeg is libjpeg-turbo (RGBX output needs JCS_EXTENSIONS:
    a plain libjpeg would hand back unconverted YCbCr)."""
    try:
        from PIL import Image, features
        core = Image.core
        if (hasattr(core, 'map_buffer') and hasattr(core, 'jpeg_decoder')
                and features.check_feature('libjpeg_turbo')):
            return core
    except (ImportError, ValueError):
        pass
    return None


_CORE = _pil_core() if cv2 is None else None


def jpeg_header(buf):
    """(height, width, components) of a JFIF JPEG that :func:`decode_jpeg_into` can decode
    (Huffman-coded, 1 or 3 components), else None; MXNetError when it claims more than
    MAX_PIXELS pixels."""
    if _CORE is None or not _is_jfif(buf):
        return None
    pos, end = 2, len(buf) - 10
    while pos < end:
        if buf[pos] != 0xFF:
            return None
        marker = buf[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker in _SOF_HUFFMAN:
            precision, h, w, comps = _SOF.unpack_from(buf, pos + 4)
            if precision != 8 or comps not in (1, 3) or not h or not w:
                return None
            _check_pixels(w, h)
            return h, w, comps
        if 0xC3 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC) or marker in (0xD9, 0xDA):
            return None  # lossless, arithmetic-coded or hierarchical frame; or no frame at all
        pos += 2 + _U16.unpack_from(buf, pos + 2)[0]
    return None


def decode_jpeg_into(buf, out):
    """Decode a JPEG that :func:`jpeg_header` accepted straight into ``out``: a C-contiguous
    uint8 array of shape (H, W, 4) for RGBX pixels or (H, W) for gray (libjpeg computes the
    luma itself, as OpenCV asks it to). One libjpeg call that releases the GIL, without
    Pillow's Python-level parsing. False when the data does not decode cleanly (truncated or
    corrupt): the caller then uses :func:`decode`, which reports the error as before."""
    h, w = out.shape[0], out.shape[1]
    mode = 'RGBX' if out.ndim == 3 else 'L'
    try:
        im = _CORE.map_buffer(out, (w, h), 'raw', 0, (mode, 0, 1))
        dec = _CORE.jpeg_decoder(mode, mode, '')
        dec.setimage(im, (0, 0, w, h))
    except (TypeError, ValueError, OSError):  # a Pillow whose core API differs
        return False
    try:
        status, err = dec.decode(buf)
    except Exception:  # pylint: disable=broad-except
        status, err = 0, -2
    if status < 0 and err >= 0:
        return True
    dec.cleanup()
    return False


def decode(buf, flag=1, to_rgb=True):
    """Decode encoded image bytes as MXNet's ``_cvimdecode``: (H, W, 1 or 3) uint8 numpy array."""
    if len(buf) == 0:
        raise MXNetError('imdecode: Input cannot be an empty buffer')
    color = flag != 0
    # MXNet pre-allocates (and makes OpenCV ignore EXIF orientation) for JFIF and PNG data
    ignore_orientation = _is_jfif(buf) or _is_png(buf)
    if cv2 is not None:
        cv_flag = cv2.IMREAD_COLOR if color else cv2.IMREAD_GRAYSCALE
        if ignore_orientation:
            cv_flag |= cv2.IMREAD_IGNORE_ORIENTATION
        img = _cv_imdecode(buf, cv_flag)
        if color and to_rgb:
            img = img[:, :, ::-1]
    else:
        img = _pil_decode(bytes(buf), color, not ignore_orientation)
        if color and not to_rgb:
            img = img[:, :, ::-1]
    if not color:
        img = img.reshape(img.shape[0], img.shape[1], 1)
    img = np.ascontiguousarray(img)
    return img if img.flags.writeable else img.copy()


def cv_imdecode(buf, iscolor=-1):
    """``cv2.imdecode(buf, iscolor)``: BGR(A) or 2-D gray uint8 array, as OpenCV returns it."""
    if cv2 is not None:
        return _cv_imdecode(buf, iscolor)
    if len(buf) == 0:
        raise MXNetError('Decoding failed: empty buffer')
    if iscolor >= 0:
        img = _pil_decode(bytes(buf), iscolor != 0, True)
        return np.ascontiguousarray(img[:, :, ::-1]) if iscolor else img
    im = _pil_open(bytes(buf))
    try:
        im.load()
    except Exception as err:
        raise MXNetError('Decoding failed. Invalid image file. (%s)' % err) from None
    if im.mode in ('L', '1', 'I;16', 'I;16B', 'I'):
        a = np.asarray(im.convert('L') if im.mode == '1' else im)
        return a.astype(np.uint16) if a.dtype != np.uint8 else a
    if im.mode in ('RGBA', 'LA', 'PA') or (im.mode == 'P' and 'transparency' in im.info):
        return np.ascontiguousarray(np.asarray(im.convert('RGBA'))[:, :, [2, 1, 0, 3]])
    return np.ascontiguousarray(np.asarray(im.convert('RGB'))[:, :, ::-1])


def cv_imencode(img, quality=95, img_fmt='.jpg'):
    """``cv2.imencode(img_fmt, img)`` of a BGR(A) or gray uint8 array, as bytes."""
    img = np.asarray(img)
    fmt = img_fmt.upper()
    if cv2 is not None:
        params = None
        if fmt in ('.JPG', '.JPEG'):
            params = [cv2.IMWRITE_JPEG_QUALITY, quality]
        elif fmt == '.PNG':
            params = [cv2.IMWRITE_PNG_COMPRESSION, quality]
        ret, buf = cv2.imencode(img_fmt, img, params)
        assert ret, 'failed to encode image'
        return buf.tobytes()
    Image, _ = _pil()
    if img.ndim == 3 and img.shape[2] == 1:
        img = img[:, :, 0]
    if img.ndim == 3:
        img = img[:, :, [2, 1, 0, 3][:img.shape[2]]]  # BGR(A) -> RGB(A)
    out = _io.BytesIO()
    im = Image.fromarray(np.ascontiguousarray(img))
    if fmt in ('.JPG', '.JPEG'):
        im.save(out, 'JPEG', quality=int(min(max(quality, 0), 100)), subsampling=2)
    elif fmt == '.PNG':
        im.save(out, 'PNG', compress_level=int(min(max(quality, 0), 9)))
    else:
        try:
            im.save(out, img_fmt.lstrip('.').upper())
        except (KeyError, ValueError, OSError) as err:
            raise MXNetError('pack_img: cannot encode format %r with Pillow: %s'
                             % (img_fmt, err)) from None
    return out.getvalue()
