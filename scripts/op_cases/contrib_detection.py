"""Cases for mxcompat/ops/contrib_detection.py."""
import numpy as np

from . import case, rng


def u(cid, *shape, lo=-1, hi=1, dtype=np.float32):
    return rng(cid).uniform(lo, hi, size=shape).astype(dtype)


def boxes(cid, *shape, dtype=np.float32):
    """Corner boxes (..., 4) inside [0, 1]."""
    r = rng(cid)
    xy = r.uniform(0, 0.6, size=shape + (2,))
    wh = r.uniform(0.1, 0.4, size=shape + (2,))
    return np.concatenate([xy, xy + wh], -1).astype(dtype)


def dets(cid, batch, n, classes=3, dtype=np.float32):
    """[id, score, x1, y1, x2, y2] rows with distinct scores."""
    r = rng(cid)
    ids = r.randint(0, classes, size=(batch, n, 1))
    scores = r.permutation(batch * n).reshape(batch, n, 1) / float(batch * n) + 0.01
    return np.concatenate([ids, scores, boxes(cid + 'b', batch, n)], -1).astype(dtype)


def softmax(x, axis):
    e = np.exp(x - x.max(axis, keepdims=True))
    return (e / e.sum(axis, keepdims=True)).astype(np.float32)


# overlapping clusters so that suppression happens
_clustered = np.array([[[0, 0.9, 0.10, 0.10, 0.50, 0.50],
                        [0, 0.8, 0.12, 0.12, 0.52, 0.52],
                        [1, 0.7, 0.11, 0.09, 0.49, 0.51],
                        [1, 0.6, 0.60, 0.60, 0.90, 0.90],
                        [2, 0.5, 0.62, 0.61, 0.91, 0.88],
                        [0, 0.4, 0.05, 0.05, 0.45, 0.47],
                        [2, 0.3, 0.00, 0.50, 0.30, 0.90],
                        [1, 0.2, 0.02, 0.52, 0.31, 0.93]]], np.float32)
_center = _clustered.copy()
_center[..., 2:4] = (_clustered[..., 2:4] + _clustered[..., 4:6]) / 2
_center[..., 4:6] = _clustered[..., 4:6] - _clustered[..., 2:4]
_ties = np.array([[[0, 0.5, 0.1, 0.1, 0.3, 0.3], [0, 0.5, 0.12, 0.1, 0.32, 0.3],
                   [0, 0.5, 0.5, 0.5, 0.7, 0.7], [0, 0.5, 0.52, 0.5, 0.71, 0.7]]], np.float32)

_score_mat = u('bpm', 2, 3, 4, lo=0, hi=1)

# MultiBox*: 2x2 feature map, sizes (0.5, 0.3), ratios (1, 2) -> 12 anchors
_prior_kw = {'sizes': (0.5, 0.3), 'ratios': (1, 2)}
_labels = np.array([[[1, 0.1, 0.1, 0.45, 0.5], [0, 0.5, 0.55, 0.95, 0.9], [-1, -1, -1, -1, -1]],
                    [[2, 0.2, 0.5, 0.7, 0.95], [-1, -1, -1, -1, -1], [-1, -1, -1, -1, -1]]],
                   np.float32)


def _anchors():
    # MultiBoxPrior of a (1, 1, 2, 2) map with _prior_kw, precomputed in float32
    a = []
    for cy in (0.25, 0.75):
        for cx in (0.25, 0.75):
            for hw, hh in ((0.25, 0.25), (0.15, 0.15), (0.25 * 2 ** 0.5, 0.25 / 2 ** 0.5)):
                a.append([cx - hw, cy - hh, cx + hw, cy + hh])
    return np.array([a], np.float32)


_anc = _anchors()
_cls_pred = u('mbt-cls', 2, 3, 12, lo=-2, hi=2)
_cls_prob = softmax(u('mbd-cls', 2, 4, 12, lo=-3, hi=3), 1)
_loc_pred = u('mbd-loc', 2, 48, lo=-0.5, hi=0.5)

# Proposal: 3x4 map, scales (2, 4) x ratios (0.5, 1, 2) = 6 anchors, stride 4
_prop_kw = {'scales': (2, 4), 'ratios': (0.5, 1, 2), 'feature_stride': 4,
            'rpn_pre_nms_top_n': 40, 'rpn_post_nms_top_n': 12, 'rpn_min_size': 3,
            'threshold': 0.5}
_prop_cls = softmax(u('prop-cls', 2, 2, 6, 3, 4, lo=-2, hi=2), 1).reshape(2, 12, 3, 4)
_prop_box = u('prop-box', 2, 24, 3, 4, lo=-0.3, hi=0.3)
_prop_info = np.array([[12, 16, 1.0], [10, 12, 1.5]], np.float32)

_rois = np.array([[0, 1.2, 0.5, 9.3, 7.1],
                  [1, 3.4, 2.5, 12, 9],       # partly outside the map
                  [0, 6, 6, 5.5, 5.5],        # malformed
                  [1, -4, -3, 2.5, 1.5],      # negative corner
                  [0, 0, 0, 22, 18]],         # larger than the map
                 np.float32)
_rois_aligned = _rois[[0, 1, 3, 4]]
_rrois = np.array([[0, 4, 3, 6, 4, 30], [1, 6.5, 5, 8, 3, -45], [0, 2, 2, 3, 5, 90],
                   [1, 10, 8, 12, 6, 0]], np.float32)

_conv_kw = {'kernel': (3, 3), 'num_filter': 4, 'pad': (1, 1)}


def _dconv(cid, n=2, c=4, h=5, w=5, ho=5, wo=5, dg=1, k=9, nf=4, group=1, modulated=False,
           dtype=np.float32, bias=True):
    kw = {'data': u(cid + 'd', n, c, h, w, dtype=dtype),
          'offset': u(cid + 'o', n, dg * 2 * k, ho, wo, lo=-2, hi=2, dtype=dtype),
          'weight': u(cid + 'w', nf, c // group, 3, 3, dtype=dtype)}
    if modulated:
        kw['mask'] = u(cid + 'm', n, dg * k, ho, wo, lo=0, hi=1, dtype=dtype)
    if bias:
        kw['bias'] = u(cid + 'b', nf, dtype=dtype)
    return kw


CASES = [
    # ---- box_nms
    case('box_nms', 'contrib.box_nms', [dets('nms', 2, 6)], {'overlap_thresh': 0.3},
         grad=[0]),
    case('box_nms-clustered', 'contrib.box_nms', [_clustered], {'overlap_thresh': 0.5},
         grad=[0]),
    case('box_nms-classes', 'contrib.box_nms', [_clustered],
         {'overlap_thresh': 0.5, 'id_index': 0, 'force_suppress': False}, grad=[0]),
    case('box_nms-force-background', 'contrib.box_nms', [_clustered],
         {'overlap_thresh': 0.5, 'id_index': 0, 'force_suppress': True, 'background_id': 1}),
    case('box_nms-topk-valid', 'contrib.box_nms', [_clustered],
         {'overlap_thresh': 0.5, 'topk': 3, 'valid_thresh': 0.25}, grad=[0]),
    case('box_nms-topk0', 'contrib.box_nms', [_clustered], {'topk': 0}, grad=[0]),
    case('box_nms-none-valid', 'contrib.box_nms', [_clustered], {'valid_thresh': 0.95}),
    case('box_nms-center', 'contrib.box_nms', [_center],
         {'overlap_thresh': 0.5, 'in_format': 'center', 'out_format': 'center'}),
    case('box_nms-center-to-corner', 'contrib.box_nms', [_center],
         {'overlap_thresh': 0.5, 'in_format': 'center'}, grad=[0]),
    case('box_nms-corner-to-center', 'contrib.box_nms', [_clustered],
         {'overlap_thresh': 0.5, 'out_format': 'center'}, grad=[0]),
    case('box_nms-layout', 'contrib.box_nms', [_clustered[..., [2, 3, 4, 5, 1, 0]]],
         {'coord_start': 0, 'score_index': 4, 'id_index': 5, 'overlap_thresh': 0.4}),
    case('box_nms-batch-dims', 'contrib.box_nms', [dets('nms4', 6, 5).reshape(2, 3, 5, 6)],
         {'overlap_thresh': 0.2, 'topk': 4}, grad=[0]),
    case('box_nms-ties', 'contrib.box_nms', [_ties], {'overlap_thresh': 0.3}),
    case('box_nms-float64', 'contrib.box_nms', [dets('nms', 2, 6, dtype=np.float64)],
         {'overlap_thresh': 0.3}, grad=[0], rtol=1e-12),
    case('box_nms-float16', 'contrib.box_nms', [_clustered.astype(np.float16)],
         {'overlap_thresh': 0.5, 'id_index': 0}, rtol=1e-3, atol=1e-3),
    case('box_non_maximum_suppression', 'contrib.box_non_maximum_suppression',
         [_clustered], {'overlap_thresh': 0.6}),
    case('box_nms-narrow', 'contrib.box_nms', [u('nmsn', 2, 4, 4)], check='error'),
    case('box_nms-score-conflict', 'contrib.box_nms', [_clustered], {'score_index': 3},
         check='error'),
    case('box_nms-id-conflict', 'contrib.box_nms', [_clustered],
         {'id_index': 1}, check='error'),

    # ---- box_iou
    case('box_iou', 'contrib.box_iou', [boxes('iou-a', 3), boxes('iou-b', 2, 2)], grad=[0, 1]),
    case('box_iou-center', 'contrib.box_iou',
         [_center[0, :4, 2:], _center[0, 3:, 2:]], {'format': 'center'}),
    case('box_iou-float64', 'contrib.box_iou',
         [boxes('iou-a', 2, 3, dtype=np.float64), boxes('iou-b', 4, dtype=np.float64)],
         rtol=1e-12),
    case('box_iou-bad', 'contrib.box_iou', [u('ioux', 3, 3), boxes('iou-b', 2)], check='error'),

    # ---- box_encode / box_decode
    case('box_encode', 'contrib.box_encode',
         [np.array([[1, -1, 0, 1], [0, 1, 1, -1]], np.float32),
          np.array([[0, 2, 1, 1], [2, 0, 1, 2]], np.float32), boxes('enc-a', 2, 4),
          boxes('enc-r', 2, 3), np.array([0, 0.1, 0, -0.1], np.float32),
          np.array([0.1, 0.1, 0.2, 0.2], np.float32)], grad=[2, 3]),
    case('box_encode-bad-means', 'contrib.box_encode',
         [np.ones((2, 4), np.float32), np.zeros((2, 4), np.float32), boxes('enc-a', 2, 4),
          boxes('enc-r', 2, 3), np.zeros(3, np.float32), np.ones(4, np.float32)],
         check='error'),
    case('box_decode', 'contrib.box_decode', [u('dec', 2, 4, 4, lo=-0.5, hi=0.5),
                                              _center[:, :4, 2:]], grad=[0]),
    case('box_decode-corner-clip', 'contrib.box_decode',
         [u('dec', 2, 4, 4, lo=-2, hi=2), boxes('dec-a', 1, 4)],
         {'format': 'corner', 'clip': 0.5, 'std0': 0.1, 'std1': 0.1, 'std2': 0.2,
          'std3': 0.2}),
    case('box_decode-float64-f32-params', 'contrib.box_decode',  # float32 std* and clip
         [u('dec64', 2, 4, 4, lo=-2, hi=2, dtype=np.float64),
          boxes('dec-a', 1, 4, dtype=np.float64)],
         {'format': 'corner', 'clip': 0.3, 'std0': 0.1, 'std1': 0.2, 'std2': 0.3,
          'std3': 0.7}, rtol=1e-13, atol=1e-15),
    case('box_decode-bad', 'contrib.box_decode', [u('dec', 2, 4, 3), boxes('dec-a', 1, 4)],
         check='error'),

    # ---- bipartite_matching
    case('bipartite_matching', 'contrib.bipartite_matching', [_score_mat],
         {'threshold': 0.1}, grad=[0]),
    case('bipartite_matching-ascend', 'contrib.bipartite_matching', [_score_mat],
         {'threshold': 0.6, 'is_ascend': True}),
    case('bipartite_matching-topk', 'contrib.bipartite_matching', [_score_mat],
         {'threshold': 0.05, 'topk': 1}),
    case('bipartite_matching-2d', 'contrib.bipartite_matching',
         [np.array([[0.5, 0.6], [0.1, 0.2], [0.3, 0.4]], np.float32)], {'threshold': 1e-12}),
    case('bipartite_matching-high', 'contrib.bipartite_matching', [_score_mat],
         {'threshold': 0.7}),

    # ---- MultiBoxPrior
    case('MultiBoxPrior', 'contrib.MultiBoxPrior', [u('mbp', 1, 2, 2, 3)],
         {'sizes': (0.5, 0.25), 'ratios': (1, 2, 0.5)}, grad=[0]),
    case('MultiBoxPrior-default', 'contrib.MultiBoxPrior', [u('mbp', 2, 1, 3, 3)]),
    case('MultiBoxPrior-clip-steps', 'contrib.MultiBoxPrior', [u('mbp', 1, 1, 3, 4)],
         {'sizes': (0.7,), 'ratios': (1, 3), 'clip': True, 'steps': (0.3, 0.2),
          'offsets': (0.2, 0.7)}),
    case('MultiBoxPrior-float64', 'contrib.MultiBoxPrior',
         [u('mbp', 1, 1, 2, 2, dtype=np.float64)], _prior_kw, check='error'),
    case('MultiBoxPrior-3d', 'contrib.MultiBoxPrior', [u('mbp', 1, 2, 2)], check='error'),

    # ---- MultiBoxTarget
    case('MultiBoxTarget', 'contrib.MultiBoxTarget', [_anc, _labels, _cls_pred], grad=[2]),
    case('MultiBoxTarget-mining', 'contrib.MultiBoxTarget', [_anc, _labels, _cls_pred],
         {'negative_mining_ratio': 2, 'negative_mining_thresh': 0.4, 'overlap_threshold': 0.3,
          'ignore_label': -2, 'variances': (0.1, 0.2, 0.3, 0.4)}),
    case('MultiBoxTarget-no-threshold', 'contrib.MultiBoxTarget', [_anc, _labels, _cls_pred],
         {'overlap_threshold': 0}),
    case('MultiBoxTarget-bad-anchor', 'contrib.MultiBoxTarget',
         [np.concatenate([_anc, _anc]), _labels, _cls_pred], check='error'),

    # ---- MultiBoxDetection
    case('MultiBoxDetection', 'contrib.MultiBoxDetection', [_cls_prob, _loc_pred, _anc],
         grad=[0, 1]),
    case('MultiBoxDetection-force', 'contrib.MultiBoxDetection', [_cls_prob, _loc_pred, _anc],
         {'force_suppress': True, 'nms_threshold': 0.3, 'threshold': 0.2}),
    case('MultiBoxDetection-topk-noclip', 'contrib.MultiBoxDetection',
         [_cls_prob, _loc_pred, _anc],
         {'nms_topk': 4, 'clip': False, 'variances': (0.2, 0.2, 0.1, 0.1)}),
    case('MultiBoxDetection-no-nms', 'contrib.MultiBoxDetection',
         [_cls_prob, _loc_pred, _anc], {'nms_threshold': 0}),
    case('MultiBoxDetection-bad', 'contrib.MultiBoxDetection',
         [_cls_prob, _loc_pred[:, :40], _anc], check='error'),

    # ---- Proposal / MultiProposal (float32 only, as in MXNet)
    case('Proposal', 'contrib.Proposal', [_prop_cls[:1], _prop_box[:1], _prop_info[:1]],
         _prop_kw),
    case('Proposal-score', 'contrib.Proposal', [_prop_cls[:1], _prop_box[:1], _prop_info[:1]],
         dict(_prop_kw, output_score=True, rpn_post_nms_top_n=30), grad=[0, 1]),
    case('Proposal-iou-loss', 'contrib.Proposal',
         [_prop_cls[1:], _prop_box[1:] * 10, _prop_info[1:]],
         dict(_prop_kw, iou_loss=True, output_score=True)),
    case('Proposal-batch2', 'contrib.Proposal', [_prop_cls, _prop_box, _prop_info], _prop_kw,
         check='error'),
    case('MultiProposal', 'contrib.MultiProposal', [_prop_cls, _prop_box, _prop_info],
         dict(_prop_kw, output_score=True)),
    case('MultiProposal-default-topn', 'contrib.MultiProposal',
         [_prop_cls, _prop_box, _prop_info],
         {'scales': (2, 4), 'ratios': (0.5, 1, 2), 'feature_stride': 4, 'rpn_min_size': 2,
          'rpn_post_nms_top_n': 20}),

    # ---- ROIAlign
    case('ROIAlign', 'contrib.ROIAlign', [u('ra', 2, 3, 6, 7), _rois],
         {'pooled_size': (2, 3), 'spatial_scale': 0.5}, grad=[0, 1]),
    case('ROIAlign-sample2', 'contrib.ROIAlign', [u('ra', 2, 3, 6, 7), _rois],
         {'pooled_size': (3, 3), 'spatial_scale': 0.7, 'sample_ratio': 2}, grad=[0]),
    case('ROIAlign-aligned', 'contrib.ROIAlign', [u('ra', 2, 3, 6, 7), _rois_aligned],
         {'pooled_size': (2, 2), 'spatial_scale': 0.5, 'aligned': True}, grad=[0]),
    case('ROIAlign-position-sensitive', 'contrib.ROIAlign', [u('raps', 2, 8, 5, 6), _rois],
         {'pooled_size': (2, 2), 'spatial_scale': 0.6, 'position_sensitive': True,
          'sample_ratio': 2}, grad=[0]),
    case('ROIAlign-float64', 'contrib.ROIAlign',
         [u('ra', 2, 3, 6, 7, dtype=np.float64), _rois.astype(np.float64)],
         {'pooled_size': (2, 3), 'spatial_scale': 0.5}, grad=[0], rtol=1e-10, atol=1e-12),
    case('ROIAlign-float16', 'contrib.ROIAlign',
         [u('ra', 2, 3, 6, 7, dtype=np.float16), _rois.astype(np.float16)],
         {'pooled_size': (2, 3), 'spatial_scale': 0.5, 'sample_ratio': 2}, rtol=1e-2,
         atol=1e-2),
    case('ROIAlign-bad-rois', 'contrib.ROIAlign', [u('ra', 2, 3, 6, 7), _rois[:, :4]],
         {'pooled_size': (2, 2), 'spatial_scale': 0.5}, check='error'),
    case('ROIAlign-ps-channels', 'contrib.ROIAlign', [u('ra', 2, 3, 6, 7), _rois],
         {'pooled_size': (2, 2), 'spatial_scale': 0.5, 'position_sensitive': True},
         check='error'),

    # ---- RROIAlign (forward only)
    case('RROIAlign', 'contrib.RROIAlign', [u('rra', 2, 3, 8, 9), _rrois],
         {'pooled_size': (2, 3), 'spatial_scale': 0.8}),
    case('RROIAlign-sampling', 'contrib.RROIAlign', [u('rra', 2, 3, 8, 9), _rrois],
         {'pooled_size': (3, 2), 'spatial_scale': 1.0, 'sampling_ratio': 2}),
    case('RROIAlign-bad-rois', 'contrib.RROIAlign', [u('rra', 2, 3, 8, 9), _rois],
         {'pooled_size': (2, 2), 'spatial_scale': 1.0}, check='error'),

    # ---- PSROIPooling
    case('PSROIPooling', 'contrib.PSROIPooling', [u('psr', 2, 18, 6, 7), _rois],
         {'spatial_scale': 0.5, 'output_dim': 2, 'pooled_size': 3}, grad=[0, 1]),
    case('PSROIPooling-group', 'contrib.PSROIPooling', [u('psr2', 2, 8, 6, 7), _rois],
         {'spatial_scale': 0.8, 'output_dim': 2, 'pooled_size': 3, 'group_size': 2},
         grad=[0]),
    case('PSROIPooling-float64', 'contrib.PSROIPooling',
         [u('psr', 2, 18, 6, 7, dtype=np.float64), _rois.astype(np.float64)],
         {'spatial_scale': 0.5, 'output_dim': 2, 'pooled_size': 3}, grad=[0], rtol=1e-10),

    # ---- DeformablePSROIPooling
    case('DeformablePSROIPooling', 'contrib.DeformablePSROIPooling',
         [u('dps', 2, 8, 6, 7), _rois, u('dps-t', 5, 2, 2, 2)],
         {'spatial_scale': 0.5, 'output_dim': 2, 'group_size': 2, 'pooled_size': 2,
          'sample_per_part': 2, 'trans_std': 0.1}, grad=[0, 1, 2], rtol=1e-4, atol=1e-5),
    case('DeformablePSROIPooling-classes', 'contrib.DeformablePSROIPooling',
         [u('dps2', 2, 18, 6, 7), _rois, u('dps2-t', 5, 4, 3, 3, lo=-2, hi=2)],
         {'spatial_scale': 0.7, 'output_dim': 2, 'group_size': 3, 'pooled_size': 3,
          'sample_per_part': 3, 'trans_std': 0.2}, grad=[0, 2], rtol=1e-4, atol=1e-5),
    case('DeformablePSROIPooling-part', 'contrib.DeformablePSROIPooling',
         [u('dps3', 2, 8, 6, 7), _rois, u('dps3-t', 5, 2, 2, 2)],
         {'spatial_scale': 0.5, 'output_dim': 2, 'group_size': 2, 'pooled_size': 4,
          'part_size': 2, 'trans_std': 0.3}, grad=[0, 2], rtol=1e-4, atol=1e-5),
    case('DeformablePSROIPooling-no-trans', 'contrib.DeformablePSROIPooling',
         [u('dps', 2, 8, 6, 7), _rois],
         {'spatial_scale': 0.5, 'output_dim': 2, 'group_size': 2, 'pooled_size': 2,
          'sample_per_part': 2, 'no_trans': True}, grad=[0], rtol=1e-4, atol=1e-5),

    case('DeformablePSROIPooling-float64-trans-std', 'contrib.DeformablePSROIPooling',
         [u('dps64', 2, 8, 6, 7, dtype=np.float64), _rois[:3].astype(np.float64),
          u('dps64t', 3, 2, 2, 2, dtype=np.float64)],
         {'spatial_scale': 0.5, 'output_dim': 2, 'group_size': 2, 'pooled_size': 2,
          'sample_per_part': 2, 'trans_std': 0.1}, grad=[0, 2], grad_outputs=[0],
         rtol=1e-12, atol=1e-14),

    # ---- AdaptiveAvgPooling2D
    case('AdaptiveAvgPooling2D', 'contrib.AdaptiveAvgPooling2D', [u('aap', 2, 3, 7, 5)],
         {'output_size': 3}, grad=[0]),
    case('AdaptiveAvgPooling2D-hw', 'contrib.AdaptiveAvgPooling2D', [u('aap', 2, 3, 7, 5)],
         {'output_size': (2, 4)}, grad=[0]),
    case('AdaptiveAvgPooling2D-default', 'contrib.AdaptiveAvgPooling2D',
         [u('aap', 2, 3, 4, 5, dtype=np.float64)], grad=[0], rtol=1e-12),
    case('AdaptiveAvgPooling2D-float16', 'contrib.AdaptiveAvgPooling2D',
         [u('aap', 2, 3, 7, 5, dtype=np.float16)], {'output_size': 3}, rtol=1e-2, atol=1e-2),
    case('AdaptiveAvgPooling2D-up', 'contrib.AdaptiveAvgPooling2D', [u('aap2', 1, 2, 3, 2)],
         {'output_size': (5, 4)}, grad=[0]),

    # ---- BilinearResize2D
    case('BilinearResize2D', 'contrib.BilinearResize2D', [u('br', 2, 3, 4, 5)],
         {'height': 7, 'width': 3}, grad=[0]),
    case('BilinearResize2D-no-align', 'contrib.BilinearResize2D', [u('br', 2, 3, 4, 5)],
         {'height': 6, 'width': 9, 'align_corners': False}, grad=[0]),
    case('BilinearResize2D-down-no-align', 'contrib.BilinearResize2D', [u('br2', 1, 2, 8, 9)],
         {'height': 3, 'width': 4, 'align_corners': False}, grad=[0]),
    case('BilinearResize2D-scale', 'contrib.BilinearResize2D', [u('br', 2, 3, 4, 5)],
         {'scale_height': 1.5, 'scale_width': 0.6}, grad=[0]),
    case('BilinearResize2D-like', 'contrib.BilinearResize2D',
         [u('br', 2, 3, 4, 5), u('br-like', 2, 3, 6, 2)], {'mode': 'like'}, grad=[0, 1]),
    case('BilinearResize2D-odd-scale', 'contrib.BilinearResize2D', [u('br3', 1, 2, 5, 4)],
         {'mode': 'odd_scale', 'scale_height': 2.0, 'scale_width': 0.5}, grad=[0]),
    case('BilinearResize2D-to-even-up', 'contrib.BilinearResize2D', [u('br3', 1, 2, 5, 4)],
         {'mode': 'to_even_up'}, grad=[0]),
    case('BilinearResize2D-to-odd-down', 'contrib.BilinearResize2D', [u('br3', 1, 2, 5, 4)],
         {'mode': 'to_odd_down'}, grad=[0]),
    case('BilinearResize2D-same', 'contrib.BilinearResize2D', [u('br3', 1, 2, 5, 4)],
         {'height': 5, 'width': 4}, grad=[0]),
    case('BilinearResize2D-float64', 'contrib.BilinearResize2D',
         [u('br', 2, 3, 4, 5, dtype=np.float64)], {'height': 3, 'width': 8}, grad=[0],
         rtol=1e-6),
    case('BilinearResize2D-float16', 'contrib.BilinearResize2D',
         [u('br', 2, 3, 4, 5, dtype=np.float16)], {'height': 3, 'width': 8}, rtol=1e-2,
         atol=1e-2),
    # align_corners=False: MXNet reads the first row (column) for a single output row (column)
    case('BilinearResize2D-one-row-no-align', 'contrib.BilinearResize2D', [u('br4', 2, 2, 4, 5)],
         {'height': 1, 'width': 7, 'align_corners': False}, grad=[0]),
    case('BilinearResize2D-one-col-no-align', 'contrib.BilinearResize2D', [u('br5', 1, 2, 3, 2)],
         {'mode': 'to_odd_down', 'align_corners': False}, grad=[0]),
    case('BilinearResize2D-one-pixel-no-align', 'contrib.BilinearResize2D',
         [u('br6', 1, 3, 4, 3, dtype=np.float64)], {'height': 1, 'width': 1,
                                                     'align_corners': False}, grad=[0]),
    # a scale that rounds a side to 0: an empty array in MXNet
    case('BilinearResize2D-empty', 'contrib.BilinearResize2D', [u('br', 2, 3, 4, 5)],
         {'scale_height': 1.5, 'scale_width': 0.1}, grad=[0]),
    case('BilinearResize2D-3d', 'contrib.BilinearResize2D', [u('br', 3, 4, 5)],
         {'height': 3, 'width': 8}, check='error'),

    # ---- DeformableConvolution
    case('ROIAlign-no-rois-grad', 'contrib.ROIAlign', [u('ra', 2, 3, 6, 7), _rois],
         {'pooled_size': (2, 3), 'spatial_scale': 0.5}, grad=[0]),
    case('DeformableConvolution', 'contrib.DeformableConvolution', kwargs=dict(
        _dconv('dc'), **_conv_kw), grad=['data', 'offset', 'weight', 'bias'],
         rtol=1e-4, atol=1e-5),
    case('DeformableConvolution-groups', 'contrib.DeformableConvolution', kwargs=dict(
        _dconv('dcg', c=4, dg=2, nf=6, group=2, ho=3, wo=3, h=6, w=6), kernel=(3, 3),
        num_filter=6, num_group=2, num_deformable_group=2, stride=(2, 2), pad=(1, 1)),
         grad=['data', 'offset', 'weight', 'bias'], rtol=1e-4, atol=1e-5),
    case('DeformableConvolution-dilate-nobias', 'contrib.DeformableConvolution', kwargs=dict(
        _dconv('dcd', h=6, w=7, ho=2, wo=3, bias=False), kernel=(3, 3), num_filter=4,
        dilate=(2, 2), no_bias=True), grad=['data', 'offset', 'weight'], rtol=1e-4,
         atol=1e-5),
    case('DeformableConvolution-float64', 'contrib.DeformableConvolution', kwargs=dict(
        _dconv('dc', dtype=np.float64), **_conv_kw), grad=['data', 'offset', 'weight'],
         rtol=1e-9, atol=1e-11),
    case('DeformableConvolution-bad-offset', 'contrib.DeformableConvolution', kwargs=dict(
        _dconv('dc', ho=4, wo=4), **_conv_kw), check='error'),

    # ---- ModulatedDeformableConvolution (MXNet's backward runs on GPU only: forward here)
    case('ModulatedDeformableConvolution', 'contrib.ModulatedDeformableConvolution',
         kwargs=dict(_dconv('mdc', modulated=True), **_conv_kw), rtol=1e-4, atol=1e-5),
    case('ModulatedDeformableConvolution-groups', 'contrib.ModulatedDeformableConvolution',
         kwargs=dict(_dconv('mdcg', c=4, dg=2, nf=6, group=2, ho=3, wo=3, h=6, w=6,
                            modulated=True),
                     kernel=(3, 3), num_filter=6, num_group=2, num_deformable_group=2,
                     stride=(2, 2), pad=(1, 1)), rtol=1e-4, atol=1e-5),
    case('ModulatedDeformableConvolution-filter-dgroup', 'contrib.ModulatedDeformableConvolution',
         kwargs=dict(_dconv('mdcf', c=4, dg=2, nf=3, modulated=True), **dict(_conv_kw,
                                                                            num_filter=3),
                     num_deformable_group=2), check='error'),
    case('ModulatedDeformableConvolution-im2col-step', 'contrib.ModulatedDeformableConvolution',
         kwargs=dict(_dconv('mdcs', n=3, modulated=True), im2col_step=2, **_conv_kw),
         check='error'),
    case('ModulatedDeformableConvolution-im2col-step-divides',
         'contrib.ModulatedDeformableConvolution',
         kwargs=dict(_dconv('mdcs', n=4, modulated=True), im2col_step=2, **_conv_kw),
         rtol=1e-4, atol=1e-5),
    case('ModulatedDeformableConvolution-float64', 'contrib.ModulatedDeformableConvolution',
         kwargs=dict(_dconv('mdc', modulated=True, dtype=np.float64), **_conv_kw),
         rtol=1e-9, atol=1e-11),
]
