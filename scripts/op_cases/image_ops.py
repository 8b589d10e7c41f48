"""Cases for mxcompat/ops/image_ops.py (mx.nd.image)."""
import numpy as np

from . import case, rng


def u(cid, *shape, lo=-1, hi=1, dtype=np.float32):
    return rng(cid).uniform(lo, hi, size=shape).astype(dtype)


def img(cid, *shape, dtype=np.uint8):
    if np.dtype(dtype).kind == 'f':
        return rng(cid).uniform(0, 255, size=shape).astype(dtype)
    return rng(cid).randint(0, 256, size=shape).astype(dtype)


# a smooth image: interpolation differences show in the low bits
_smooth = (np.add.outer(np.arange(13) * 9, np.arange(17) * 7)[..., None] % 256) \
    .repeat(3, 2).astype(np.uint8)
_rand = img('rs', 13, 17, 3)

CASES = [
    # ---- to_tensor / normalize
    case('to_tensor', 'image.to_tensor', [img('tt', 4, 5, 3)]),
    case('to_tensor-batch', 'image.to_tensor', [img('tt4', 2, 4, 5, 1)]),
    case('to_tensor-float', 'image.to_tensor', [img('ttf', 3, 2, 3, dtype=np.float32)]),
    case('to_tensor-float64', 'image.to_tensor', [img('ttd', 3, 2, 4, dtype=np.float64)]),
    case('to_tensor-2d', 'image.to_tensor', [img('tt2', 4, 5)], check='error'),
    case('normalize', 'image.normalize', [u('nm', 3, 4, 5)],
         {'mean': (0.1, 0.2, 0.3), 'std': (0.5, 1.5, 2.0)}, grad=[0]),
    case('normalize-batch', 'image.normalize', [u('nm4', 2, 3, 2, 3)],
         {'mean': (0.4,), 'std': (0.25,)}, grad=[0]),
    case('normalize-gray', 'image.normalize', [u('nm1', 1, 3, 3, dtype=np.float64)],
         {'mean': (0.4,), 'std': (3.0,)}, grad=[0], rtol=1e-12),
    case('normalize-uint8', 'image.normalize', [img('nmu', 3, 2, 2)],
         {'mean': (10, 20, 30), 'std': (3,)}),
    case('normalize-int32', 'image.normalize', [img('nmi', 3, 2, 2, dtype=np.int32)],
         {'mean': (0.5,), 'std': (2,)}),
    case('normalize-default', 'image.normalize', [u('nm', 3, 4, 5)], check='error'),
    case('normalize-bad-channels', 'image.normalize', [u('nm2', 2, 4, 5)],
         {'mean': (0.1,), 'std': (1.0,)}, check='error'),
    case('normalize-bad-mean', 'image.normalize', [u('nm', 3, 4, 5)],
         {'mean': (0.1, 0.2), 'std': (1.0,)}, check='error'),

    # ---- crop
    case('crop', 'image.crop', [u('cr', 5, 6, 3)], {'x': 1, 'y': 2, 'width': 3, 'height': 2},
         grad=[0]),
    case('crop-batch', 'image.crop', [img('crb', 2, 4, 5, 1)],
         {'x': 0, 'y': 1, 'width': 5, 'height': 3}),
    case('crop-too-wide', 'image.crop', [u('cr', 5, 6, 3)],
         {'x': 4, 'y': 0, 'width': 3, 'height': 2}, check='error'),
    case('crop-bad-channels', 'image.crop', [u('cr2', 5, 6, 2)],
         {'x': 0, 'y': 0, 'width': 3, 'height': 2}, check='error'),

    # ---- resize (OpenCV's cv::resize)
    case('resize-linear-up', 'image.resize', [_rand], {'size': (34, 26)}),
    case('resize-linear-down', 'image.resize', [_rand], {'size': (5, 4)}),
    case('resize-linear-mixed', 'image.resize', [_smooth], {'size': (9, 30)}),
    case('resize-nearest', 'image.resize', [_rand], {'size': (40, 20), 'interp': 0}),
    case('resize-nearest-down', 'image.resize', [_rand], {'size': (6, 13), 'interp': 0}),
    case('resize-cubic-up', 'image.resize', [_smooth], {'size': (40, 20), 'interp': 2}),
    case('resize-cubic-down', 'image.resize', [_rand], {'size': (8, 6), 'interp': 2}),
    case('resize-area-down', 'image.resize', [_rand], {'size': (8, 6), 'interp': 3}),
    case('resize-area-up', 'image.resize', [_smooth], {'size': (34, 26), 'interp': 3}),
    case('resize-area-mixed', 'image.resize', [_rand], {'size': (9, 30), 'interp': 3}),
    case('resize-lanczos', 'image.resize', [_rand], {'size': (34, 26), 'interp': 4}),
    case('resize-lanczos-down', 'image.resize', [_smooth], {'size': (6, 13), 'interp': 4}),
    case('resize-square', 'image.resize', [_rand], {'size': 7}),
    case('resize-keep-ratio', 'image.resize', [_rand], {'size': 9, 'keep_ratio': True}),
    case('resize-keep-ratio-tall', 'image.resize', [img('rst', 9, 4, 3)],
         {'size': 6, 'keep_ratio': True}),
    case('resize-batch', 'image.resize', [img('rsb', 2, 5, 7, 3)], {'size': (4, 9)}),
    case('resize-gray', 'image.resize', [img('rsg', 6, 5, 1)], {'size': (8, 3)}),
    case('resize-float32', 'image.resize', [img('rsf', 13, 17, 3, dtype=np.float32)],
         {'size': (34, 26)}, rtol=1e-5, atol=1e-3),
    case('resize-float32-cubic', 'image.resize', [img('rsf', 13, 17, 3, dtype=np.float32)],
         {'size': (9, 30), 'interp': 2}, rtol=1e-5, atol=1e-3),
    case('resize-float32-area', 'image.resize', [img('rsf', 13, 17, 3, dtype=np.float32)],
         {'size': (6, 5), 'interp': 3}, rtol=1e-5, atol=1e-3),
    case('resize-float32-lanczos', 'image.resize', [img('rsf', 13, 17, 3, dtype=np.float32)],
         {'size': (5, 8), 'interp': 4}, rtol=1e-5, atol=1e-3),
    case('resize-float64', 'image.resize', [img('rsd', 6, 7, 3, dtype=np.float64)],
         {'size': (10, 4)}, rtol=1e-6, atol=1e-4),
    case('resize-int32-nearest', 'image.resize', [img('rsi', 6, 7, 3, dtype=np.int32)],
         {'size': (10, 4), 'interp': 0}),
    case('resize-int32-linear', 'image.resize', [img('rsi', 6, 7, 3, dtype=np.int32)],
         {'size': (10, 4)}, check='error'),
    case('resize-float16', 'image.resize', [img('rsh', 6, 7, 3, dtype=np.float16)],
         {'size': (10, 4)}, check='error'),
    case('resize-bad-interp', 'image.resize', [_rand], {'size': 3, 'interp': 9},
         check='error'),
    case('resize-bad-size', 'image.resize', [_rand], {'size': (1, 2, 3)}, check='error'),

    # ---- flips (their gradient is the output gradient, unflipped, as in MXNet)
    # MXNet leaves the middle column (row) of an odd width (height) unwritten: even sizes
    case('flip_left_right', 'image.flip_left_right', [u('fl', 5, 4, 3)], grad=[0]),
    case('flip_left_right-uint8', 'image.flip_left_right', [img('flu', 3, 6, 1)]),
    case('flip_top_bottom', 'image.flip_top_bottom', [u('ft', 4, 5, 3)], grad=[0]),
    case('flip_top_bottom-uint8', 'image.flip_top_bottom', [img('ftu', 6, 3, 3)]),
    case('flip-4d', 'image.flip_left_right', [u('fl4', 1, 4, 5, 3)], check='error'),
    case('flip-2ch', 'image.flip_top_bottom', [u('fl2', 4, 5, 2)], check='error'),
    case('random_flip_left_right', 'image.random_flip_left_right', [img('rfl', 4, 5, 3)],
         check='shape'),
    case('random_flip_top_bottom', 'image.random_flip_top_bottom',
         [img('rft', 4, 5, 3, dtype=np.float32)], check='shape'),

    # ---- color augmentations with a fixed factor
    case('random_brightness', 'image.random_brightness', [img('rb', 4, 5, 3, dtype=np.float32)],
         {'min_factor': 0.7, 'max_factor': 0.7}, grad=[0]),
    case('random_brightness-uint8', 'image.random_brightness', [img('rbu', 4, 5, 3)],
         {'min_factor': 1.6, 'max_factor': 1.6}),
    case('random_brightness-range', 'image.random_brightness', [img('rbr', 4, 5, 3)],
         {'min_factor': 0.5, 'max_factor': 1.5}, check='shape'),
    case('random_contrast', 'image.random_contrast', [img('rc', 4, 5, 3, dtype=np.float32)],
         {'min_factor': 0.5, 'max_factor': 0.5}, grad=[0], rtol=1e-5, atol=1e-4),
    case('random_contrast-uint8', 'image.random_contrast', [img('rcu', 4, 5, 3)],
         {'min_factor': 1.3, 'max_factor': 1.3}),
    case('random_contrast-gray', 'image.random_contrast',
         [img('rcg', 4, 5, 1, dtype=np.float32)], {'min_factor': 0.3, 'max_factor': 0.3},
         rtol=1e-5, atol=1e-4),
    case('random_saturation', 'image.random_saturation',
         [img('rsat', 4, 5, 3, dtype=np.float32)], {'min_factor': 0.4, 'max_factor': 0.4},
         grad=[0], rtol=1e-5, atol=1e-4),
    case('random_saturation-uint8', 'image.random_saturation', [img('rsau', 4, 5, 3)],
         {'min_factor': 1.7, 'max_factor': 1.7}),
    case('random_hue', 'image.random_hue', [img('rh', 4, 5, 3, dtype=np.float32)],
         {'min_factor': 0.1, 'max_factor': 0.1}, grad=[0], rtol=1e-4, atol=1e-3),
    case('random_hue-uint8', 'image.random_hue', [img('rhu', 5, 6, 3)],
         {'min_factor': 0.65, 'max_factor': 0.65}),
    case('random_hue-negative', 'image.random_hue', [img('rhu', 5, 6, 3)],
         {'min_factor': -0.35, 'max_factor': -0.35}, check='error'),
    case('random_hue-uint8-gray-pixels', 'image.random_hue',
         [np.array([[[10, 10, 10], [200, 200, 200], [0, 0, 0]],
                    [[255, 0, 0], [0, 255, 0], [0, 0, 255]]], np.uint8)],
         {'min_factor': 0.25, 'max_factor': 0.25}),
    case('random_hue-bad', 'image.random_hue', [img('rh', 1, 4, 5, 3)],
         {'min_factor': 0.1, 'max_factor': 0.1}, check='error'),
    case('random_color_jitter', 'image.random_color_jitter', [img('rcj', 4, 5, 3)],
         {'brightness': 0.2, 'contrast': 0.2, 'saturation': 0.2, 'hue': 0.1}, check='shape'),
    case('random_color_jitter-float', 'image.random_color_jitter',
         [img('rcjf', 4, 5, 3, dtype=np.float32)],
         {'brightness': 0.3, 'contrast': 0.0, 'saturation': 0.1, 'hue': 0.0}, check='shape'),
    case('adjust_lighting', 'image.adjust_lighting', [img('al', 4, 5, 3, dtype=np.float32)],
         {'alpha': (0.1, 0.2, 0.3)}, grad=[0]),
    case('adjust_lighting-uint8', 'image.adjust_lighting', [img('alu', 4, 5, 3)],
         {'alpha': (-0.1, 0.2, 0.3)}),
    case('random_lighting', 'image.random_lighting', [img('rl', 4, 5, 3)], check='shape'),
    case('random_lighting-zero', 'image.random_lighting',
         [img('rlz', 4, 5, 3, dtype=np.float32)], {'alpha_std': 0.0}),
]
