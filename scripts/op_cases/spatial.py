"""Cases for mxcompat/ops/spatial.py."""
import numpy as np

from . import case, rng


def u(cid, *shape, lo=-1, hi=1, dtype=np.float32):
    return rng(cid).uniform(lo, hi, size=shape).astype(dtype)


_affine = np.array([[0.9, 0.1, 0.05, -0.2, 1.1, 0.1],
                    [0.5, -0.3, -0.2, 0.4, 0.7, 0.3]], dtype=np.float32)
_zoom = np.array([[1.6, 0.2, 0.1, -0.1, 1.4, -0.2]], dtype=np.float32)
_rois = np.array([[0, 0, 0, 7, 7],
                  [1, 2, 1, 5, 6],
                  [0, 3.4, 2.5, 12, 9],     # partly outside the map
                  [1, 6, 6, 5, 5],          # malformed: forced to 1x1
                  [1, -4, -3, 2.5, 1.5],    # negative corner
                  [0, 20, 20, 30, 30],      # fully outside: zeros
                  [3, 0, 0, 4, 4]],         # invalid batch index: zeros
                 dtype=np.float32)

CASES = [
    # ---- BilinearSampler
    case('BilinearSampler', 'BilinearSampler',
         kwargs={'data': u('bs-d', 2, 3, 4, 5), 'grid': u('bs-g', 2, 2, 3, 4, lo=-1.2, hi=1.2)},
         grad=['data', 'grid']),
    case('BilinearSampler-upsample', 'BilinearSampler',
         [u('bs-d2', 1, 2, 3, 3), u('bs-g2', 1, 2, 5, 6, lo=-0.99, hi=0.99)], grad=[0, 1]),
    case('BilinearSampler-float64', 'BilinearSampler',
         kwargs={'data': u('bs-d', 2, 3, 4, 5, dtype=np.float64),
                 'grid': u('bs-g', 2, 2, 3, 4, lo=-1.2, hi=1.2, dtype=np.float64),
                 'cudnn_off': True}, grad=['data', 'grid'], rtol=1e-7, atol=1e-9),
    case('BilinearSampler-float16', 'BilinearSampler',
         kwargs={'data': u('bs-d', 2, 3, 4, 5, dtype=np.float16),
                 'grid': u('bs-g', 2, 2, 3, 4, dtype=np.float16)}, rtol=5e-3, atol=5e-3),
    case('BilinearSampler-bad-grid', 'BilinearSampler',
         kwargs={'data': u('bs-d', 2, 3, 4, 5), 'grid': u('bs-g', 2, 3, 3, 4)}, check='error'),

    # ---- GridGenerator
    case('GridGenerator-affine', 'GridGenerator',
         kwargs={'data': _affine, 'transform_type': 'affine', 'target_shape': (3, 4)},
         grad=['data']),
    # a target side of 1: MXNet's step 2/(size-1) is infinite, the coordinates NaN
    case('GridGenerator-affine-one-column', 'GridGenerator',
         kwargs={'data': _affine, 'transform_type': 'affine', 'target_shape': (3, 1)},
         grad=['data']),
    case('GridGenerator-affine-one-row', 'GridGenerator',
         kwargs={'data': _affine, 'transform_type': 'affine', 'target_shape': (1, 2)},
         grad=['data']),
    # MXNet's CPU GridGenerator is float32 only (its GPU one is not): no float64 fixture
    case('GridGenerator-warp', 'GridGenerator',
         kwargs={'data': u('gw-d', 2, 2, 3, 4, lo=-2, hi=2), 'transform_type': 'warp'},
         grad=['data']),
    case('GridGenerator-warp-ignores-target', 'GridGenerator',
         [u('gw-d', 1, 2, 4, 3, lo=-2, hi=2)], {'transform_type': 'warp', 'target_shape': (7, 7)},
         grad=[0]),
    case('GridGenerator-no-type', 'GridGenerator', kwargs={'data': _affine,
                                                           'target_shape': (3, 4)},
         check='error'),

    # ---- SpatialTransformer
    case('SpatialTransformer', 'SpatialTransformer',
         kwargs={'data': u('st-d', 2, 3, 5, 6), 'loc': _affine, 'target_shape': (4, 5),
                 'transform_type': 'affine', 'sampler_type': 'bilinear'},
         grad=['data', 'loc'], rtol=1e-4, atol=1e-5),
    case('SpatialTransformer-zoom-out', 'SpatialTransformer',
         [u('st-d2', 1, 2, 4, 4), _zoom],
         {'target_shape': (6, 5), 'transform_type': 'affine', 'sampler_type': 'bilinear'},
         grad=[0, 1], rtol=1e-4, atol=1e-5),
    case('SpatialTransformer-float64', 'SpatialTransformer',
         kwargs={'data': u('st-d', 2, 3, 5, 6, dtype=np.float64),
                 'loc': _affine.astype(np.float64), 'target_shape': (4, 5),
                 'transform_type': 'affine', 'sampler_type': 'bilinear', 'cudnn_off': True},
         grad=['data', 'loc'], rtol=1e-7, atol=1e-9),
    case('SpatialTransformer-no-types', 'SpatialTransformer',
         kwargs={'data': u('st-d', 2, 3, 5, 6), 'loc': _affine, 'target_shape': (4, 5)},
         check='error'),
    case('SpatialTransformer-bad-loc', 'SpatialTransformer',
         kwargs={'data': u('st-d', 2, 3, 5, 6), 'loc': u('st-l', 2, 4), 'target_shape': (4, 5),
                 'transform_type': 'affine', 'sampler_type': 'bilinear'}, check='error'),

    # ---- ROIPooling
    case('ROIPooling', 'ROIPooling',
         kwargs={'data': u('rp-d', 2, 3, 8, 8, lo=-3, hi=3), 'rois': _rois,
                 'pooled_size': (2, 2), 'spatial_scale': 1.0}, grad=['data', 'rois']),
    case('ROIPooling-scale', 'ROIPooling',
         kwargs={'data': u('rp-d2', 2, 2, 6, 7, lo=-3, hi=3), 'rois': _rois * 2,
                 'pooled_size': (3, 2), 'spatial_scale': 0.5}, grad=['data']),
    case('ROIPooling-odd-bins', 'ROIPooling',
         [u('rp-d3', 1, 2, 9, 9), np.array([[0, 1, 0, 7, 5], [0, 0, 2, 8, 8]], np.float32)],
         {'pooled_size': (3, 3), 'spatial_scale': 1.0}, grad=[0]),
    case('ROIPooling-ties', 'ROIPooling',
         [np.ones((1, 1, 4, 4), np.float32), np.array([[0, 0, 0, 3, 3]], np.float32)],
         {'pooled_size': (2, 2), 'spatial_scale': 1.0}, grad=[0]),
    case('ROIPooling-float64', 'ROIPooling',
         kwargs={'data': u('rp-d', 2, 3, 8, 8, lo=-3, hi=3, dtype=np.float64),
                 'rois': _rois.astype(np.float64), 'pooled_size': (3, 3),
                 'spatial_scale': 0.7}, grad=['data']),
    case('ROIPooling-mixed-dtype', 'ROIPooling',
         kwargs={'data': u('rp-d', 2, 3, 8, 8), 'rois': _rois.astype(np.float64),
                 'pooled_size': (2, 2), 'spatial_scale': 1.0}, check='error'),
    case('ROIPooling-bad-rois', 'ROIPooling',
         kwargs={'data': u('rp-d', 2, 3, 8, 8), 'rois': _rois[:, :4], 'pooled_size': (2, 2),
                 'spatial_scale': 1.0}, check='error'),

    # ---- Crop
    case('Crop-h_w', 'Crop', [u('cr-d', 2, 3, 6, 7)],
         {'num_args': 1, 'h_w': (3, 4), 'offset': (2, 1)}, grad=[0]),
    case('Crop-h_w-center', 'Crop', [u('cr-d', 2, 3, 6, 7)],
         {'num_args': 1, 'h_w': (3, 4), 'center_crop': True}, grad=[0]),
    case('Crop-like', 'Crop', [u('cr-d', 2, 3, 6, 7), u('cr-l', 2, 1, 4, 4)],
         {'num_args': 2, 'offset': (1, 3)}, grad=[0, 1]),
    case('Crop-like-center', 'Crop', [u('cr-d', 2, 3, 6, 7), u('cr-l', 1, 5, 3, 2)],
         {'num_args': 2, 'center_crop': True}, grad=[0]),
    case('Crop-float64', 'Crop', [u('cr-d', 2, 3, 6, 7, dtype=np.float64)],
         {'num_args': 1, 'h_w': (3, 4)}, check='error'),
    case('Crop-bad-offset', 'Crop', [u('cr-d', 2, 3, 6, 7)],
         {'num_args': 1, 'h_w': (3, 4), 'offset': (4, 0)}, check='error'),
    case('Crop-too-big', 'Crop', [u('cr-d', 2, 3, 6, 7)], {'num_args': 1, 'h_w': (7, 4)},
         check='error'),

    # ---- Correlation
    case('Correlation', 'Correlation',
         kwargs={'data1': u('co-a', 2, 3, 5, 6), 'data2': u('co-b', 2, 3, 5, 6)},
         grad=['data1', 'data2']),
    case('Correlation-pad-disp', 'Correlation',
         kwargs={'data1': u('co-a', 2, 3, 5, 6), 'data2': u('co-b', 2, 3, 5, 6),
                 'max_displacement': 2, 'pad_size': 2}, grad=['data1', 'data2']),
    case('Correlation-kernel-strides', 'Correlation',
         kwargs={'data1': u('co-c', 1, 2, 9, 10), 'data2': u('co-d', 1, 2, 9, 10),
                 'kernel_size': 3, 'max_displacement': 2, 'stride1': 2, 'stride2': 2,
                 'pad_size': 2}, grad=['data1', 'data2']),
    case('Correlation-subtract', 'Correlation',
         kwargs={'data1': u('co-a', 2, 3, 5, 6), 'data2': u('co-b', 2, 3, 5, 6),
                 'kernel_size': 3, 'max_displacement': 1, 'pad_size': 2, 'is_multiply': False},
         grad=['data1', 'data2']),
    case('Correlation-stride1-only', 'Correlation',
         [u('co-c', 1, 2, 9, 10), u('co-d', 1, 2, 9, 10)],
         {'kernel_size': 1, 'max_displacement': 3, 'stride1': 3, 'stride2': 1, 'pad_size': 1},
         grad=[0, 1]),
    case('Correlation-float64', 'Correlation',
         kwargs={'data1': u('co-a', 2, 3, 5, 6, dtype=np.float64),
                 'data2': u('co-b', 2, 3, 5, 6, dtype=np.float64), 'kernel_size': 3,
                 'pad_size': 1}, grad=['data1', 'data2'], rtol=1e-7, atol=1e-9),
    case('Correlation-even-kernel', 'Correlation',
         kwargs={'data1': u('co-a', 2, 3, 5, 6), 'data2': u('co-b', 2, 3, 5, 6),
                 'kernel_size': 2}, check='error'),
]
