"""Detection and vision operators of ``mx.nd.contrib``: bounding boxes (box_nms, box_iou,
box_encode, box_decode, bipartite_matching), SSD's MultiBox* layers, Faster R-CNN's
(Multi)Proposal, RoI feature extractors (ROIAlign, RROIAlign, PSROIPooling,
DeformablePSROIPooling), AdaptiveAvgPooling2D, BilinearResize2D and the deformable
convolutions.

The sequential parts of MXNet's kernels (greedy non-maximum suppression, greedy matching) run
as one vectorized step per kept box; everything else is batched torch. Where MXNet computes in
float32 on purpose (anchor generation, proposals), so do we. Operators whose gradient MXNet
defines as zero (box_iou, bipartite_matching, MultiBox*, Proposal) give zero gradients.
"""
import functools
import math

import numpy as np
import torch
import torch.nn.functional as F

from ..base import MXNetError
from .indexing import zero_grad_link
from .registry import register, REQUIRED, Int, Float, Bool, Shape, FloatTuple, Opt, Enum

_F32 = torch.float32


def _check_4d(opname, argname, t):
    if t is None or t.dim() != 4:
        raise MXNetError('%s: %s must be a 4D array (batch, channel, height, width), got %s'
                         % (opname, argname, None if t is None else tuple(t.shape)))


def _check_rois(opname, rois, cols):
    if rois is None or rois.dim() != 2 or rois.shape[1] != cols:
        raise MXNetError('%s: rois must be a 2D array of shape (num_rois, %d), got %s'
                         % (opname, cols, None if rois is None else tuple(rois.shape)))


def _require_f32(opname, *ts):
    """MXNet's legacy operators (OperatorProperty) accept float32 only."""
    for t in ts:
        if t is not None and t.dtype != _F32:
            raise MXNetError('%s: Check failed: Unsupported data type %s: this operator accepts '
                             'float32 only' % (opname, str(t.dtype)[6:]))


class _ZeroGradInputs(torch.autograd.Function):
    """Identity on ``out`` (whose own graph keeps its gradient) that gives zero gradients to
    ``inputs``: MXNet's zero gradient for rois and shape-only inputs."""

    @staticmethod
    def forward(ctx, out, *inputs):
        ctx.like = [(i.shape, i.dtype, i.device) for i in inputs]
        return out.view_as(out)

    @staticmethod
    def backward(ctx, grad):
        return (grad,) + tuple(torch.zeros(s, dtype=d, device=v) for s, d, v in ctx.like)


def _zero_grad_inputs(out, *inputs):
    if torch.is_grad_enabled() and any(i.requires_grad for i in inputs):
        return _ZeroGradInputs.apply(out, *inputs)
    return out


def _same_dtype(opname, data, rois):
    if rois.dtype != data.dtype:
        raise MXNetError('%s: rois dtype %s differs from data dtype %s'
                         % (opname, str(rois.dtype)[6:], str(data.dtype)[6:]))


def _np(t):
    return t.detach().cpu().numpy()


def _greedy_keep(alive, suppressed_by, max_keep=None):
    """Greedy non-maximum suppression over candidates in rank order, on the host.

    ``alive`` (B, K) bool numpy: candidates in the race; ``suppressed_by(b, i)``: bool numpy
    over candidates i+1.. of batch b that kept candidate i removes. With ``max_keep`` the
    search stops once that many are kept. One vectorized step per kept candidate, so the cost
    is O(kept * K) instead of a K x K matrix. Returns the kept mask (B, K)."""
    keep = alive.copy()
    for b in range(keep.shape[0]):
        row = keep[b]
        count = 0
        for i in np.flatnonzero(row):
            if not row[i]:
                continue
            count += 1
            if max_keep is not None and count >= max_keep:
                row[i + 1:] = False
                break
            if i + 1 < row.size:
                row[i + 1:] &= ~suppressed_by(b, i)
    return keep


def _np_iou_row(boxes, i, fmt):
    """MXNet's IoU of box i with boxes i+1.. (numpy, in the boxes' dtype)."""
    a, rest = boxes[i], boxes[i + 1:]
    if fmt == 'corner':
        ax1, ay1, ax2, ay2 = a
        bx1, by1, bx2, by2 = rest.T
        aw, ah, bw, bh = ax2 - ax1, ay2 - ay1, bx2 - bx1, by2 - by1
    else:
        aw, ah, bw, bh = a[2], a[3], rest[:, 2], rest[:, 3]
        ax1, ay1, ax2, ay2 = a[0] - aw / 2, a[1] - ah / 2, a[0] + aw / 2, a[1] + ah / 2
        bx1, by1 = rest[:, 0] - bw / 2, rest[:, 1] - bh / 2
        bx2, by2 = rest[:, 0] + bw / 2, rest[:, 1] + bh / 2
    zero = np.zeros((), boxes.dtype)
    iw = np.maximum(np.minimum(ax2, bx2) - np.maximum(ax1, bx1), zero)
    ih = np.maximum(np.minimum(ay2, by2) - np.maximum(ay1, by1), zero)
    inter = iw * ih
    area_a = zero if (aw < 0 or ah < 0) else aw * ah
    area_b = np.where((bw < 0) | (bh < 0), zero, bw * bh)
    with np.errstate(divide='ignore', invalid='ignore'):
        return inter / (area_a + area_b - inter)


# ---------------------------------------------------------------------------------------------
# Box helpers: MXNet's Intersect / BoxArea with 'corner' or 'center' encoding
# ---------------------------------------------------------------------------------------------

def _edges(b, fmt):
    """(x1, y1, x2, y2) of boxes whose last axis holds 4 coordinates."""
    if fmt == 'corner':
        return b[..., 0], b[..., 1], b[..., 2], b[..., 3]
    hw, hh = b[..., 2] / 2, b[..., 3] / 2
    return b[..., 0] - hw, b[..., 1] - hh, b[..., 0] + hw, b[..., 1] + hh


def _area(b, fmt):
    if fmt == 'corner':
        w, h = b[..., 2] - b[..., 0], b[..., 3] - b[..., 1]
    else:
        w, h = b[..., 2], b[..., 3]
    return torch.where((w < 0) | (h < 0), torch.zeros_like(w), w * h)


def _pairwise_iou(a, b, fmt):
    """IoU of every box of ``a`` (..., P, 4) with every box of ``b`` (..., Q, 4)."""
    ax1, ay1, ax2, ay2 = (t.unsqueeze(-1) for t in _edges(a, fmt))
    bx1, by1, bx2, by2 = (t.unsqueeze(-2) for t in _edges(b, fmt))
    iw = (torch.minimum(ax2, bx2) - torch.maximum(ax1, bx1)).clamp(min=0)
    ih = (torch.minimum(ay2, by2) - torch.maximum(ay1, by1)).clamp(min=0)
    inter = iw * ih
    union = _area(a, fmt).unsqueeze(-1) + _area(b, fmt).unsqueeze(-2) - inter
    return inter, union


_FORMAT = Enum('corner', 'center')


@register('_contrib_box_iou', inputs=('lhs', 'rhs'), params={'format': (_FORMAT, 'corner')})
def box_iou(lhs, rhs, *, format):  # pylint: disable=redefined-builtin
    """Bounding box overlap of two arrays.

    The overlap is defined as Intersection-over-Union, aka, IOU.
    - lhs: (a_1, a_2, ..., a_n, 4) array
    - rhs: (b_1, b_2, ..., b_n, 4) array
    - output: (a_1, a_2, ..., a_n, b_1, b_2, ..., b_n) array

    Zero gradients are back-propagated, as in MXNet."""
    for name, t in (('lhs', lhs), ('rhs', rhs)):
        if t.dim() < 2 or t.shape[-1] != 4:
            raise MXNetError('_contrib_box_iou: %s must have at least 2 dimensions and a last '
                             'dimension of 4, got shape %s' % (name, tuple(t.shape)))
    a = lhs.detach().reshape(-1, 4)
    b = rhs.detach().reshape(-1, 4)
    inter, union = _pairwise_iou(a, b, format)
    out = torch.where(inter <= 0, torch.zeros_like(inter), inter / union)
    out = out.reshape(tuple(lhs.shape[:-1]) + tuple(rhs.shape[:-1]))
    return zero_grad_link(out, lhs, rhs)


# ---------------------------------------------------------------------------------------------
# box_nms
# ---------------------------------------------------------------------------------------------

def _nms_checks(shape, coord_start, score_index, id_index):
    op = '_contrib_box_nms'
    if len(shape) < 2:
        raise MXNetError('%s: input must have dim >= 2, the last two dimensions are num_box '
                         'and box_width, %s provided' % (op, tuple(shape)))
    width = shape[-1]
    expected = 6 if id_index >= 0 else 5
    if width < expected:
        raise MXNetError('%s: the last dimension must have at least 5 elements namely (score, '
                         'coordinates x 4), %d provided, %d expected' % (op, width, expected))
    coord_end = coord_start + 3
    if not 0 <= score_index < width:
        raise MXNetError('%s: score_index: %d out of range: (0, %d)' % (op, score_index, width))
    if coord_start <= score_index <= coord_end:
        raise MXNetError('%s: score_index: %d conflict with coordinates: (%d, %d)'
                         % (op, score_index, coord_start, coord_end))
    if coord_start < 0 or coord_end >= width:
        raise MXNetError('%s: coordinates: (%d, %d) out of range:: (0, %d)'
                         % (op, coord_start, coord_end, width))
    if id_index >= 0:
        if id_index >= width:
            raise MXNetError('%s: id_index: %d out of range: (0, %d)' % (op, id_index, width))
        if coord_start <= id_index <= coord_end:
            raise MXNetError('%s: id_index: %d conflict with coordinates: (%d, %d)'
                             % (op, id_index, coord_start, coord_end))
        if id_index == score_index:
            raise MXNetError('%s: id_index: %d conflict with score_index: %d'
                             % (op, id_index, score_index))


def _convert_format(out, coord_start, to_center):
    """MXNet's in-place corner<->center conversion: rows whose first coordinate is negative
    (the -1 padding, and boxes left of the origin) are left as they are."""
    c = out[..., coord_start:coord_start + 4]
    a, b, p, q = c.unbind(-1)
    if to_center:
        conv = torch.stack([(a + p) / 2, (b + q) / 2, p - a, q - b], -1)
    else:
        conv = torch.stack([a - p / 2, b - q / 2, a + p / 2, b + q / 2], -1)
    conv = torch.where((a < 0).unsqueeze(-1), c, conv)
    return torch.cat([out[..., :coord_start], conv, out[..., coord_start + 4:]], -1)


_NMS_PARAMS = {'overlap_thresh': (Float, 0.5), 'valid_thresh': (Float, 0.0), 'topk': (Int, -1),
               'coord_start': (Int, 2), 'score_index': (Int, 1), 'id_index': (Int, -1),
               'background_id': (Int, -1), 'force_suppress': (Bool, False),
               'in_format': (_FORMAT, 'corner'), 'out_format': (_FORMAT, 'corner')}


@register('_contrib_box_nms', monitor_prefix='input',
          aliases=('_contrib_box_non_maximum_suppression',),
          params=_NMS_PARAMS, num_outputs=2, num_visible_outputs=1)
def box_nms(data, *, overlap_thresh, valid_thresh, topk, coord_start, score_index, id_index,
            background_id, force_suppress, in_format, out_format):
    """Apply non-maximum suppression to input.

    The output will be sorted in descending order according to `score`. Boxes with overlaps
    larger than `overlap_thresh`, smaller scores and background boxes will be removed and
    filled with -1, the corresponding position will be recorded for backward propogation.

    During back-propagation, the gradient will be copied to the original position according to
    the input index. For positions that have been suppressed, the in_grad will be assigned 0.

    Input requirements: the input has at least 2 dimensions (n, k), any higher dims are
    regarded as batch; n is the number of boxes in each batch, k the width of each box item
    ([id, score, xmin, ymin, xmax, ymax, ...] by default)."""
    shape = tuple(data.shape)
    _nms_checks(shape, coord_start, score_index, id_index)
    num_elem, width = shape[-2], shape[-1]
    batch = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
    x = data.reshape(batch, num_elem, width)
    dev, dt = data.device, data.dtype
    k = num_elem if topk < 0 else min(num_elem, topk)
    if k < 1:
        record = torch.arange(batch * num_elem, dtype=dt, device=dev)
        return data.clone(), record.reshape(shape[:-1] + (1,))
    xd = x.detach()
    scores = xd[..., score_index]
    valid = scores > valid_thresh
    if id_index >= 0:
        valid = valid & (xd[..., id_index] != background_id)
    # rank the valid boxes of each batch by descending score (stable), keep the first k
    key = torch.where(valid, scores, torch.full_like(scores, -math.inf))
    order = torch.sort(key, dim=1, descending=True, stable=True)[1][:, :k]
    ranked_valid = torch.gather(valid, 1, order)
    boxes = torch.gather(xd, 1, order.unsqueeze(-1).expand(-1, -1, width))
    coords = _np(boxes[..., coord_start:coord_start + 4])
    by_class = id_index >= 0 and not force_suppress
    cls = np.trunc(_np(boxes[..., id_index])) if by_class else None
    thresh = np.float64(np.float32(overlap_thresh))

    def suppressed_by(b, i):
        sup = _np_iou_row(coords[b], i, in_format).astype(np.float64) > thresh
        return sup & (cls[b, i + 1:] == cls[b, i]) if by_class else sup
    keep = torch.from_numpy(_greedy_keep(_np(ranked_valid), suppressed_by)).to(dev)
    # kept boxes move to the front of their batch, in rank order
    pos = torch.sort((~keep).to(torch.int8), dim=1, stable=True)[1]
    src = torch.gather(order, 1, pos)
    kept = torch.gather(keep, 1, pos)
    pad = num_elem - k
    if pad:
        src = F.pad(src, (0, pad))
        kept = F.pad(kept, (0, pad))
    flat_src = (src + torch.arange(batch, device=dev).unsqueeze(1) * num_elem).reshape(-1)
    rows = x.reshape(-1, width).index_select(0, flat_src).reshape(batch, num_elem, width)
    out = torch.where(kept.unsqueeze(-1), rows, torch.full_like(rows, -1))
    if in_format != out_format:
        conv = _convert_format(out.detach(), coord_start, out_format == 'center')
        out = out + (conv - out.detach())
    record = torch.where(kept, flat_src.reshape(batch, num_elem).to(dt),
                         torch.full((batch, num_elem), -1, dtype=dt, device=dev))
    return out.reshape(shape), record.reshape(shape[:-1] + (1,))


# ---------------------------------------------------------------------------------------------
# box_encode / box_decode / bipartite_matching
# ---------------------------------------------------------------------------------------------

def _corner_center(b):
    w = b[..., 2] - b[..., 0]
    h = b[..., 3] - b[..., 1]
    return b[..., 0] + w * 0.5, b[..., 1] + h * 0.5, w, h


@register('_contrib_box_encode',
          inputs=('samples', 'matches', 'anchors', 'refs', 'means', 'stds'), num_outputs=2)
def box_encode(samples, matches, anchors, refs, means, stds):
    """Encode bounding boxes training target with normalized center offsets.

    Input bounding boxes are using corner type: `x_{min}, y_{min}, x_{max}, y_{max}`.
    Returns the encoded targets (B, N, 4) and their masks: entries of anchors whose sample is
    not positive (> 0.5) are 0. Zero gradients are back-propagated."""
    op = '_contrib_box_encode'
    if samples.dim() != 2:
        raise MXNetError('%s: samples shape must have dim == 2, %d provided' % (op, samples.dim()))
    if anchors.dim() < 3 or anchors.shape[-1] != 4:
        raise MXNetError('%s: anchors must have shape (B, N, 4), got %s'
                         % (op, tuple(anchors.shape)))
    if refs.dim() < 3 or refs.shape[-1] != 4:
        raise MXNetError('%s: refs must have shape (B, M, 4), got %s' % (op, tuple(refs.shape)))
    for name, t in (('means', means), ('stds', stds)):
        if tuple(t.shape) != (4,):
            raise MXNetError('%s: %s must have shape (4,), got %s' % (op, name, tuple(t.shape)))
    s, m, a, r = samples.detach(), matches.detach(), anchors.detach(), refs.detach()
    idx = m.long().unsqueeze(-1).expand(-1, -1, 4)
    ref = torch.gather(r, 1, idx)
    rx, ry, rw, rh = _corner_center(ref)
    ax, ay, aw, ah = _corner_center(a)
    mu, sd = means.detach().to(a.dtype), stds.detach().to(a.dtype)
    t = torch.stack([((rx - ax) / aw - mu[0]) / sd[0], ((ry - ay) / ah - mu[1]) / sd[1],
                     (torch.log(rw / aw) - mu[2]) / sd[2], (torch.log(rh / ah) - mu[3]) / sd[3]],
                    -1)
    valid = (s > 0.5).unsqueeze(-1).expand_as(t)
    mask = valid.to(a.dtype)
    targets = torch.where(valid, t, torch.zeros_like(t))
    ins = (samples, matches, anchors, refs, means, stds)
    return zero_grad_link(targets, *ins), zero_grad_link(mask, *ins)


@register('_contrib_box_decode', inputs=('data', 'anchors'),
          params={'std0': (Float, 1.0), 'std1': (Float, 1.0), 'std2': (Float, 1.0),
                  'std3': (Float, 1.0), 'clip': (Float, -1.0), 'format': (_FORMAT, 'center')})
def box_decode(data, anchors, *, std0, std1, std2, std3, clip,
               format):  # pylint: disable=redefined-builtin
    """Decode bounding boxes training target with normalized center offsets.

    Input bounding boxes are using corner type: `x_{min}, y_{min}, x_{max}, y_{max}` or center
    type: `x, y, width, height`; the output is in corner type. Zero gradients are
    back-propagated."""
    op = '_contrib_box_decode'
    if data.dim() != 3 or data.shape[-1] != 4:
        raise MXNetError('%s: data must have shape (B, N, 4), got %s' % (op, tuple(data.shape)))
    if anchors.dim() < 3 or anchors.shape[-1] != 4:
        raise MXNetError('%s: anchors must have shape (1, N, 4), got %s'
                         % (op, tuple(anchors.shape)))
    dt = data.dtype
    x = data.detach()
    a = anchors.detach().reshape(1, -1, 4)[:, :x.shape[1]]
    if format == 'corner':
        ax, ay, aw, ah = _corner_center(a)
    else:
        ax, ay, aw, ah = a.unbind(-1)

    def c(v):  # MXNet's std* and clip are float32 parameters, also for float64 data
        return torch.tensor(v, dtype=_F32).to(device=x.device, dtype=dt)
    ox = x[..., 0] * c(std0) * aw + ax
    oy = x[..., 1] * c(std1) * ah + ay
    dw = x[..., 2] * c(std2)
    dh = x[..., 3] * c(std3)
    if clip > 0:
        dw = torch.minimum(dw, c(clip))
        dh = torch.minimum(dh, c(clip))
    ow = torch.exp(dw) * aw * 0.5
    oh = torch.exp(dh) * ah * 0.5
    out = torch.stack([ox - ow, oy - oh, ox + ow, oy + oh], -1)
    return zero_grad_link(out, data, anchors)


@register('_contrib_bipartite_matching', monitor_prefix='input',
          params={'is_ascend': (Bool, False), 'threshold': (Float, REQUIRED),
                  'topk': (Int, -1)}, num_outputs=2)
def bipartite_matching(data, *, is_ascend, threshold, topk):
    """Compute bipartite matching.

    The matching is performed on score matrix with shape [B, N, M]: entries are visited in
    order of score (descending, or ascending with `is_ascend`) and matched greedily while the
    score passes `threshold`. Returns the matched column of every row (-1 for none) and the
    matched row of every column. Zero gradients are back-propagated."""
    if data.dim() < 2:
        raise MXNetError('_contrib_bipartite_matching: score matrix must have dim >= 2, %d '
                         'provided' % data.dim())
    shape = tuple(data.shape)
    rows, cols = shape[-2], shape[-1]
    s = data.detach().reshape(-1, rows, cols)
    b = s.shape[0]
    dev, dt = s.device, s.dtype
    row_marker = torch.full((b, rows), -1, dtype=torch.int64, device=dev)
    col_marker = torch.full((b, cols), -1, dtype=torch.int64, device=dev)
    fill = math.inf if is_ascend else -math.inf
    live = torch.ones(b, dtype=torch.bool, device=dev)
    count = torch.zeros(b, dtype=torch.int64, device=dev)
    bidx = torch.arange(b, device=dev)
    for _ in range(min(rows, cols)):
        free = (row_marker < 0).unsqueeze(2) & (col_marker < 0).unsqueeze(1)
        masked = torch.where(free, s, torch.full_like(s, fill)).reshape(b, -1)
        best = masked.argmin(1) if is_ascend else masked.argmax(1)
        val = masked.gather(1, best.unsqueeze(1)).squeeze(1)
        good = (val < threshold) if is_ascend else (val > threshold)
        live = live & good & free.reshape(b, -1).any(1)
        r, c = best // cols, best % cols
        row_marker[bidx[live], r[live]] = c[live]
        col_marker[bidx[live], c[live]] = r[live]
        count = count + live.long()
        # MXNet stops once it has made more than topk matches
        if topk > 0:
            live = live & (count <= topk)
        if not bool(live.any()):
            break
    out_r = row_marker.to(dt).reshape(shape[:-1])
    out_c = col_marker.to(dt).reshape(shape[:-2] + (cols,))
    return zero_grad_link(out_r, data), zero_grad_link(out_c, data)


# ---------------------------------------------------------------------------------------------
# MultiBoxPrior / MultiBoxTarget / MultiBoxDetection (SSD)
# ---------------------------------------------------------------------------------------------

@register('_contrib_MultiBoxPrior', named_outputs=True, merges=False,
          aliases=('_npx_multibox_prior',),
          params={'sizes': (FloatTuple, (1.0,)), 'ratios': (FloatTuple, (1.0,)),
                  'clip': (Bool, False), 'steps': (FloatTuple, (-1.0, -1.0)),
                  'offsets': (FloatTuple, (0.5, 0.5))})
def multibox_prior(data, *, sizes, ratios, clip, steps, offsets):
    """Generate prior(anchor) boxes from data, sizes and ratios.

    For every position of the (height, width) grid of `data`, one box per size (at the first
    ratio) and one per further ratio (at the first size), as [xmin, ymin, xmax, ymax]
    normalized to [0, 1]; the result has shape (1, height*width*num_anchors, 4)."""
    op = '_contrib_MultiBoxPrior'
    if data.dim() < 4:
        raise MXNetError('%s: Input data should be 4D: batch-channel-y-x, got shape %s'
                         % (op, tuple(data.shape)))
    _require_f32(op, data)
    if not sizes or not ratios:
        raise MXNetError('%s: sizes and ratios must not be empty' % op)
    if len(steps) != 2 or len(offsets) != 2:
        raise MXNetError('%s: steps and offsets must have 2 elements (y, x), got %s and %s'
                         % (op, steps, offsets))
    if not (0 <= offsets[0] <= 1 and 0 <= offsets[1] <= 1):
        raise MXNetError('%s: offsets must lie in [0, 1], got %s' % (op, offsets))
    if steps[0] * steps[1] < 0:
        raise MXNetError('%s: Must specify both step_y and step_x' % op)
    h, w = data.shape[2], data.shape[3]
    f32 = np.float32
    step_y, step_x = (f32(steps[0]), f32(steps[1])) if steps[0] > 0 and steps[1] > 0 else \
        (f32(1) / f32(h), f32(1) / f32(w))
    cy = (np.arange(h, dtype=f32) + f32(offsets[0])) * step_y
    cx = (np.arange(w, dtype=f32) + f32(offsets[1])) * step_x
    half = []
    r0 = np.sqrt(f32(ratios[0]))
    for s in sizes:
        half.append((f32(s) * f32(h) / f32(w) * r0 / f32(2), f32(s) / r0 / f32(2)))
    for r in ratios[1:]:
        rr = np.sqrt(f32(r))
        half.append((f32(sizes[0]) * f32(h) / f32(w) * rr / f32(2), f32(sizes[0]) / rr / f32(2)))
    hw = np.array(half, dtype=f32)                                  # (A, 2): half w, half h
    cxg = np.broadcast_to(cx[None, :, None], (h, w, len(half)))
    cyg = np.broadcast_to(cy[:, None, None], (h, w, len(half)))
    out = np.stack([cxg - hw[:, 0], cyg - hw[:, 1], cxg + hw[:, 0], cyg + hw[:, 1]], -1)
    if clip:
        out = np.clip(out, 0, 1)
    res = torch.from_numpy(out.reshape(1, -1, 4).astype(f32)).to(device=data.device,
                                                                 dtype=data.dtype)
    return zero_grad_link(res, data)


@register('_contrib_MultiBoxTarget', named_outputs=True, merges=False,
          aliases=('_npx_multibox_target',),
          inputs=('anchor', 'label', 'cls_pred'),
          params={'overlap_threshold': (Float, 0.5), 'ignore_label': (Float, -1.0),
                  'negative_mining_ratio': (Float, -1.0), 'negative_mining_thresh': (Float, 0.5),
                  'minimum_negative_samples': (Int, 0),
                  'variances': (FloatTuple, (0.1, 0.1, 0.2, 0.2))},
          num_outputs=3, output_names=('loc_target', 'loc_mask', 'cls_target'))
def multibox_target(anchor, label, cls_pred, *, overlap_threshold, ignore_label,
                    negative_mining_ratio, negative_mining_thresh, minimum_negative_samples,
                    variances):
    """Compute Multibox training targets.

    `anchor` (1, N, 4), `label` (batch, num_labels, >=5) holding [class, xmin, ymin, xmax,
    ymax] rows padded with -1, `cls_pred` (batch, num_classes, N). Returns the location
    targets and masks (batch, N*4) and the class targets (batch, N): ground truths are matched
    greedily to their best anchors, then anchors overlapping a ground truth by more than
    `overlap_threshold`; with `negative_mining_ratio` > 0 only the hardest negatives count."""
    op = '_contrib_MultiBoxTarget'
    if anchor.dim() != 3 or anchor.shape[0] != 1 or anchor.shape[2] != 4 or anchor.shape[1] < 1:
        raise MXNetError('%s: Anchor should be batch shared N*4 tensor of shape (1, N, 4), got '
                         '%s' % (op, tuple(anchor.shape)))
    if label.dim() != 3 or label.shape[1] < 1 or label.shape[2] < 5:
        raise MXNetError('%s: Label should be [batch, num_labels, label_width >= 5] tensor, got '
                         '%s' % (op, tuple(label.shape)))
    if cls_pred.dim() != 3 or cls_pred.shape[2] != anchor.shape[1]:
        raise MXNetError('%s: Prediction should be [batch, num_classes, num_anchors=%d], got %s'
                         % (op, anchor.shape[1], tuple(cls_pred.shape)))
    _require_f32(op, anchor, label, cls_pred)
    if len(variances) != 4:
        raise MXNetError('%s: variances must have 4 elements, got %s' % (op, variances))
    dtype = np.dtype(str(anchor.dtype)[6:])
    anchors = _np(anchor)[0]
    labels, preds = _np(label), _np(cls_pred)
    nb, nl = labels.shape[0], labels.shape[1]
    na = anchors.shape[0]
    loc_t = np.zeros((nb, na, 4), dtype)
    loc_m = np.zeros((nb, na, 4), dtype)
    cls_t = np.full((nb, na), ignore_label, dtype)
    # IoU (anchors x labels) in the data type, 0 where the union is 0
    al, at, ar, ab = (anchors[:, i:i + 1] for i in range(4))
    f32 = np.float32
    for b in range(nb):
        lab = labels[b]
        num_gt = 0
        while num_gt < nl and float(lab[num_gt, 0]) != -1.0:
            num_gt += 1
        if num_gt < nl and not (lab[num_gt, 1:5].astype(np.float64) == -1).all():
            raise MXNetError('%s: Check failed: padded label rows must be all -1' % op)
        if not num_gt:
            continue
        gl, gt, gr, gb = (lab[None, :num_gt, i + 1] for i in range(4))
        inter = np.maximum(0, np.minimum(ar, gr) - np.maximum(al, gl)) * \
            np.maximum(0, np.minimum(ab, gb) - np.maximum(at, gt))
        union = (ar - al) * (ab - at) + (gr - gl) * (gb - gt) - inter
        with np.errstate(divide='ignore', invalid='ignore'):
            iou = np.where(union == 0, 0, inter / union).astype(dtype).astype(f32)
        flags = np.full(na, -1, np.int8)
        match_iou = np.full(na, -1.0, f32)
        match_gt = np.full(na, -1, np.int64)
        gt_done = np.zeros(num_gt, bool)
        num_pos = 0
        # greedy bipartite step: best remaining (anchor, gt) pair above 1e-6, first in order
        while not gt_done.all():
            cand = np.where((flags != 1)[:, None] & ~gt_done[None, :], iou, -np.inf)
            j, k = np.unravel_index(np.argmax(cand), cand.shape)
            if not cand[j, k] > f32(1e-6):
                break
            match_iou[j], match_gt[j] = cand[j, k], k
            flags[j], gt_done[k] = 1, True
            num_pos += 1
        best_gt = iou.argmax(1)
        best_iou = iou[np.arange(na), best_gt]
        if overlap_threshold > 0:
            free = flags != 1
            match_iou[free], match_gt[free] = best_iou[free], best_gt[free]
            pos = free & (best_iou > f32(overlap_threshold))
            flags[pos] = 1
            num_pos += int(pos.sum())
        if negative_mining_ratio > 0:
            if not negative_mining_thresh > 0:
                raise MXNetError('%s: negative_mining_thresh must be > 0' % op)
            num_neg = min(int(num_pos * f32(negative_mining_ratio)), na - num_pos)
            if num_neg > 0:
                unset = (flags != 1) & (match_iou < 0)
                match_iou[unset], match_gt[unset] = best_iou[unset], best_gt[unset]
                cand = np.nonzero((flags == -1) & (match_iou < f32(negative_mining_thresh)))[0]
                p = preds[b][:, cand].astype(dtype)
                e = np.exp(p - p.max(0))
                prob = (e[0] / e.sum(0)).astype(dtype)
                # hardest negatives first: lowest background probability
                chosen = cand[np.argsort(prob, kind='stable')[:num_neg]]
                if chosen.size < num_neg:
                    raise MXNetError('%s: not enough negative samples for mining' % op)
                flags[chosen] = 0
        else:
            flags[flags != 1] = 0
        pos = np.nonzero(flags == 1)[0]
        g = lab[match_gt[pos]]
        cls_t[b, pos] = g[:, 0] + 1
        loc_m[b, pos] = 1
        a = anchors[pos].astype(f32)
        aw, ah = a[:, 2] - a[:, 0], a[:, 3] - a[:, 1]
        ax, ay = (a[:, 0] + a[:, 2]) * f32(0.5), (a[:, 1] + a[:, 3]) * f32(0.5)
        gg = g[:, 1:5].astype(f32)
        gw, gh = gg[:, 2] - gg[:, 0], gg[:, 3] - gg[:, 1]
        gx, gy = (gg[:, 0] + gg[:, 2]) * f32(0.5), (gg[:, 1] + gg[:, 3]) * f32(0.5)
        v = [f32(x) for x in variances]
        loc_t[b, pos] = np.stack([(gx - ax) / aw / v[0], (gy - ay) / ah / v[1],
                                  np.log(gw / aw) / v[2], np.log(gh / ah) / v[3]], -1)
        cls_t[b, flags == 0] = 0
    dev = anchor.device

    def out(a):
        return zero_grad_link(torch.from_numpy(a).to(dev), cls_pred)
    return out(loc_t.reshape(nb, -1)), out(loc_m.reshape(nb, -1)), out(cls_t)


@register('_contrib_MultiBoxDetection', named_outputs=True, merges=False,
          aliases=('_npx_multibox_detection',),
          inputs=('cls_prob', 'loc_pred', 'anchor'),
          params={'clip': (Bool, True), 'threshold': (Float, 0.01), 'background_id': (Int, 0),
                  'nms_threshold': (Float, 0.5), 'force_suppress': (Bool, False),
                  'variances': (FloatTuple, (0.1, 0.1, 0.2, 0.2)), 'nms_topk': (Int, -1)})
def multibox_detection(cls_prob, loc_pred, anchor, *, clip, threshold, background_id,
                       nms_threshold, force_suppress, variances, nms_topk):
    """Convert multibox detection predictions.

    Returns (batch, num_anchors, 6) rows [class_id, score, xmin, ymin, xmax, ymax]: the best
    non-background class of every anchor above `threshold`, decoded boxes, sorted by score and
    suppressed by non-maximum suppression (suppressed rows get class -1); unused rows are -1."""
    op = '_contrib_MultiBoxDetection'
    if cls_prob.dim() != 3 or loc_pred.dim() != 2 or anchor.dim() != 3:
        raise MXNetError('%s: expected cls_prob (batch, classes, anchors), loc_pred (batch, '
                         'anchors*4) and anchor (1, anchors, 4), got %s, %s, %s'
                         % (op, tuple(cls_prob.shape), tuple(loc_pred.shape),
                            tuple(anchor.shape)))
    nb, nc, na = cls_prob.shape
    if anchor.shape[1] != na or loc_pred.shape[1] != na * 4 or anchor.shape[2] != 4 or na < 1:
        raise MXNetError('%s: Number of anchors mismatch: cls_prob %s, loc_pred %s, anchor %s'
                         % (op, tuple(cls_prob.shape), tuple(loc_pred.shape),
                            tuple(anchor.shape)))
    _require_f32(op, cls_prob, loc_pred, anchor)
    if len(variances) != 4:
        raise MXNetError('%s: Variance size must be 4' % op)
    dt, dev = cls_prob.dtype, cls_prob.device
    p = cls_prob.detach()
    if nc > 1:
        score, cid = p[:, 1:].max(1)
        cid = cid + 1
        # an anchor whose best class score does not exceed -1 stays background
        cid = torch.where(score > -1, cid, torch.zeros_like(cid))
        score = torch.where(score > -1, score, torch.full_like(score, -1))
    else:
        score = torch.full((nb, na), -1, dtype=dt, device=dev)
        cid = torch.zeros((nb, na), dtype=torch.int64, device=dev)
    cid = torch.where((cid > 0) & (score < threshold), torch.zeros_like(cid), cid)
    a = anchor.detach().reshape(na, 4)
    lp = loc_pred.detach().reshape(nb, na, 4)
    aw, ah = a[:, 2] - a[:, 0], a[:, 3] - a[:, 1]
    ax, ay = (a[:, 0] + a[:, 2]) / 2, (a[:, 1] + a[:, 3]) / 2
    v = [torch.tensor(x, dtype=dt) for x in variances]
    ox = lp[..., 0] * v[0] * aw + ax
    oy = lp[..., 1] * v[1] * ah + ay
    ow = torch.exp(lp[..., 2] * v[2]) * aw / 2
    oh = torch.exp(lp[..., 3] * v[3]) * ah / 2
    boxes = torch.stack([ox - ow, oy - oh, ox + ow, oy + oh], -1)
    if clip:
        boxes = boxes.clamp(0, 1)
    rows = torch.cat([(cid - 1).to(dt).unsqueeze(-1), score.unsqueeze(-1), boxes], -1)
    valid = cid > 0
    # valid detections move to the front in anchor order
    front = torch.sort((~valid).to(torch.int8), dim=1, stable=True)[1]
    rows = torch.gather(rows, 1, front.unsqueeze(-1).expand(-1, -1, 6))
    nvalid = valid.sum(1)
    slot = torch.arange(na, device=dev).unsqueeze(0)
    rows = torch.where((slot < nvalid.unsqueeze(1)).unsqueeze(-1), rows,
                       torch.full_like(rows, -1))
    if not 0 < nms_threshold <= 1:
        return zero_grad_link(rows, cls_prob, loc_pred, anchor)
    in_valid = slot < nvalid.unsqueeze(1)
    key = torch.where(in_valid, rows[..., 1], torch.full_like(rows[..., 1], -math.inf))
    order = torch.sort(key, dim=1, descending=True, stable=True)[1]
    ranked = torch.gather(rows, 1, order.unsqueeze(-1).expand(-1, -1, 6))
    if nms_topk > 0:
        keep_n = torch.clamp(nvalid, max=nms_topk)
        # past the top k, rows keep their unsorted content with class -1
        tail = (slot >= keep_n.unsqueeze(1)) & in_valid
        unsorted = rows.clone()
        unsorted[..., 0] = -1
        ranked = torch.where((slot < keep_n.unsqueeze(1)).unsqueeze(-1), ranked,
                             torch.where(tail.unsqueeze(-1), unsorted, rows))
    else:
        keep_n = nvalid
    cand = slot < keep_n.unsqueeze(1)
    bx, ids_np = _np(ranked[..., 2:]), _np(ranked[..., 0])
    thresh = np.float32(nms_threshold)

    def suppressed_by(b, i):
        a, rest = bx[b, i], bx[b, i + 1:]
        zero = np.float32(0)
        iw = np.maximum(zero, np.minimum(a[2], rest[:, 2]) - np.maximum(a[0], rest[:, 0]))
        ih = np.maximum(zero, np.minimum(a[3], rest[:, 3]) - np.maximum(a[1], rest[:, 1]))
        inter = iw * ih
        union = (a[2] - a[0]) * (a[3] - a[1]) + \
            (rest[:, 2] - rest[:, 0]) * (rest[:, 3] - rest[:, 1]) - inter
        with np.errstate(divide='ignore', invalid='ignore'):
            iou = np.where(union <= 0, zero, inter / union)
        sup = iou >= thresh
        return sup if force_suppress else sup & (ids_np[b, i + 1:] == ids_np[b, i])
    keep = torch.from_numpy(_greedy_keep(_np(cand), suppressed_by)).to(dev)
    ids = torch.where(cand & ~keep, torch.full_like(ranked[..., 0], -1), ranked[..., 0])
    out = torch.cat([ids.unsqueeze(-1), ranked[..., 1:]], -1)
    return zero_grad_link(out, cls_prob, loc_pred, anchor)


# ---------------------------------------------------------------------------------------------
# Proposal / MultiProposal (Faster R-CNN), computed in float32 as MXNet does
# ---------------------------------------------------------------------------------------------

def _anchors(stride, scales, ratios):
    f32 = np.float32
    base = [f32(0), f32(0), f32(stride - 1.0), f32(stride - 1.0)]
    w = f32(base[2] - base[0] + f32(1))
    h = f32(base[3] - base[1] + f32(1))
    xc = f32(base[0] + 0.5 * (w - 1.0))
    yc = f32(base[1] + 0.5 * (h - 1.0))
    size = f32(w * h)
    out = []
    for r in ratios:
        for s in scales:
            size_ratios = f32(np.floor(f32(size / f32(r))))
            nw = f32(f32(np.floor(f32(np.sqrt(size_ratios) + f32(0.5)))) * f32(s))
            nh = f32(f32(np.floor(f32(nw / f32(s) * f32(r) + f32(0.5)))) * f32(s))
            out.append([xc - f32(0.5) * (nw - f32(1)), yc - f32(0.5) * (nh - f32(1)),
                        xc + f32(0.5) * (nw - f32(1)), yc + f32(0.5) * (nh - f32(1))])
    return np.array(out, dtype=f32)


def _proposals(scores, deltas, im_info, p):
    """Proposals of one image: scores (A, H, W), deltas (4A, H, W), im_info (3,)."""
    f32 = np.float32
    a_num, h, w = scores.shape
    stride = p['feature_stride']
    anchors = _anchors(stride, p['scales'], p['ratios'])
    if anchors.shape[0] != a_num:
        raise MXNetError('Proposal: the score map has %d anchors per position but scales x '
                         'ratios give %d' % (a_num, anchors.shape[0]))
    sx = (np.arange(w) * stride).astype(f32)
    sy = (np.arange(h) * stride).astype(f32)
    shift = np.stack([sx[None, :, None] + 0 * sy[:, None, None],
                      sy[:, None, None] + 0 * sx[None, :, None]], -1)       # (H, W, 1, 2)
    boxes = np.empty((h, w, a_num, 4), f32)
    boxes[..., 0] = anchors[:, 0] + shift[..., 0]
    boxes[..., 1] = anchors[:, 1] + shift[..., 1]
    boxes[..., 2] = anchors[:, 2] + shift[..., 0]
    boxes[..., 3] = anchors[:, 3] + shift[..., 1]
    score = scores.transpose(1, 2, 0).astype(f32).copy()                      # (H, W, A)
    d = deltas.reshape(a_num, 4, h, w).transpose(2, 3, 0, 1).astype(f32)     # (H, W, A, 4)
    im_h, im_w, im_scale = (f32(v) for v in im_info)
    real_h, real_w = int(im_h / f32(stride)), int(im_w / f32(stride))
    if real_h > h or real_w > w:
        raise MXNetError('Proposal: im_info describes an image larger than the score map '
                         '(%d x %d > %d x %d)' % (real_h, real_w, h, w))
    x1, y1, x2, y2 = (boxes[..., i] for i in range(4))
    if p['iou_loss']:
        px1, py1, px2, py2 = x1 + d[..., 0], y1 + d[..., 1], x2 + d[..., 2], y2 + d[..., 3]
    else:
        bw = f32(1) + (x2 - x1)
        bh = f32(1) + (y2 - y1)
        cx = (x1.astype(np.float64) + 0.5 * (bw.astype(np.float64) - 1.0)).astype(f32)
        cy = (y1.astype(np.float64) + 0.5 * (bh.astype(np.float64) - 1.0)).astype(f32)
        pcx = d[..., 0] * bw + cx
        pcy = d[..., 1] * bh + cy
        pw = np.exp(d[..., 2]) * bw
        ph = np.exp(d[..., 3]) * bh
        hw = 0.5 * (pw.astype(np.float64) - 1.0)
        hh = 0.5 * (ph.astype(np.float64) - 1.0)
        px1, px2 = (pcx - hw).astype(f32), (pcx + hw).astype(f32)
        py1, py2 = (pcy - hh).astype(f32), (pcy + hh).astype(f32)
    px1 = np.clip(px1, 0, im_w - f32(1)).astype(f32)
    px2 = np.clip(px2, 0, im_w - f32(1)).astype(f32)
    py1 = np.clip(py1, 0, im_h - f32(1)).astype(f32)
    py2 = np.clip(py2, 0, im_h - f32(1)).astype(f32)
    pad = (np.arange(h)[:, None, None] >= real_h) | (np.arange(w)[None, :, None] >= real_w)
    score[np.broadcast_to(pad, score.shape)] = -1
    min_size = f32(p['rpn_min_size']) * im_scale
    small = ((px2 - px1 + f32(1)) < min_size) | ((py2 - py1 + f32(1)) < min_size)
    half = min_size / f32(2)
    px1 = np.where(small, px1 - half, px1)
    py1 = np.where(small, py1 - half, py1)
    px2 = np.where(small, px2 + half, px2)
    py2 = np.where(small, py2 + half, py2)
    score[small] = -1
    dets = np.stack([px1, py1, px2, py2, score], -1).reshape(-1, 5).astype(f32)
    count = dets.shape[0]
    pre = p['rpn_pre_nms_top_n']
    pre = count if pre <= 0 else min(pre, count)
    post = min(p['rpn_post_nms_top_n'], pre)
    order = np.argsort(-dets[:, 4], kind='stable')[:pre]
    dets = dets[order]
    area = (dets[:, 2] - dets[:, 0] + f32(1)) * (dets[:, 3] - dets[:, 1] + f32(1))
    thresh = f32(p['threshold'])

    def suppressed_by(_, i):
        a, rest = dets[i], dets[i + 1:]
        iw = np.maximum(f32(0), np.minimum(a[2], rest[:, 2]) - np.maximum(a[0], rest[:, 0])
                        + f32(1))
        ih = np.maximum(f32(0), np.minimum(a[3], rest[:, 3]) - np.maximum(a[1], rest[:, 1])
                        + f32(1))
        inter = iw * ih
        with np.errstate(divide='ignore', invalid='ignore'):
            return inter / (area[i] + area[i + 1:] - inter) > thresh
    keep = np.flatnonzero(_greedy_keep(np.ones((1, pre), bool), suppressed_by, post)[0])
    n_out = p['rpn_post_nms_top_n']
    pick = keep[np.arange(n_out) % len(keep)]
    return dets[pick, :4], dets[pick, 4:5]


_PROPOSAL_PARAMS = {'rpn_pre_nms_top_n': (Int, 6000), 'rpn_post_nms_top_n': (Int, 300),
                    'threshold': (Float, 0.7), 'rpn_min_size': (Int, 16),
                    'scales': (FloatTuple, (4.0, 8.0, 16.0, 32.0)),
                    'ratios': (FloatTuple, (0.5, 1.0, 2.0)), 'feature_stride': (Int, 16),
                    'output_score': (Bool, False), 'iou_loss': (Bool, False)}


def _proposal_outputs(p):
    return 2 if p['output_score'] else 1


def _run_proposals(op, cls_prob, bbox_pred, im_info, params, single):
    _check_4d(op, 'cls_prob', cls_prob)
    _check_4d(op, 'bbox_pred', bbox_pred)
    n, c2, h, w = cls_prob.shape
    if tuple(bbox_pred.shape) != (n, c2 * 2, h, w) or tuple(im_info.shape) != (n, 3):
        raise MXNetError('%s: expected bbox_pred of shape %s and im_info of shape %s, got %s '
                         'and %s' % (op, (n, c2 * 2, h, w), (n, 3), tuple(bbox_pred.shape),
                                     tuple(im_info.shape)))
    _require_f32(op, cls_prob, bbox_pred, im_info)
    if single and n != 1:
        raise MXNetError('%s: Sorry, multiple images each device is not implemented.' % op)
    a = c2 // 2
    scores, deltas, info = _np(cls_prob), _np(bbox_pred), _np(im_info)
    rois, roi_scores = [], []
    for b in range(n):
        boxes, sc = _proposals(scores[b, a:], deltas[b], info[b], params)
        rois.append(np.concatenate([np.full((boxes.shape[0], 1), b, np.float32), boxes], 1))
        roi_scores.append(sc)
    dev = cls_prob.device
    out = torch.from_numpy(np.concatenate(rois)).to(dev)
    score = torch.from_numpy(np.concatenate(roi_scores)).to(dev)
    return (zero_grad_link(out, cls_prob, bbox_pred, im_info),
            zero_grad_link(score, cls_prob, bbox_pred, im_info))


@register('_contrib_Proposal', named_outputs=True, merges=False,
          inputs=('cls_prob', 'bbox_pred', 'im_info'),
          params=_PROPOSAL_PARAMS, num_outputs=2, num_visible_outputs=_proposal_outputs,
          output_names=('output', 'score'))
def proposal(cls_prob, bbox_pred, im_info, **params):
    """Generate region proposals via RPN.

    Anchors of every score-map position are shifted by `bbox_pred`, clipped to the image
    (`im_info` = [height, width, scale]), ranked by foreground score and suppressed by
    non-maximum suppression; returns `rpn_post_nms_top_n` rois [0, x1, y1, x2, y2] (and their
    scores with `output_score`). One image only."""
    return _run_proposals('_contrib_Proposal', cls_prob, bbox_pred, im_info, params, True)


@register('_contrib_MultiProposal', named_outputs=True, merges=False,
          inputs=('cls_prob', 'bbox_pred', 'im_info'),
          params=_PROPOSAL_PARAMS, num_outputs=2, num_visible_outputs=_proposal_outputs,
          output_names=('output', 'score'))
def multi_proposal(cls_prob, bbox_pred, im_info, **params):
    """Generate region proposals via RPN for a batch of images: `rpn_post_nms_top_n` rois
    [batch_index, x1, y1, x2, y2] per image."""
    return _run_proposals('_contrib_MultiProposal', cls_prob, bbox_pred, im_info, params, False)


# ---------------------------------------------------------------------------------------------
# RoI feature extractors
# ---------------------------------------------------------------------------------------------

def _bilinear_roi(y, x, h, w):
    """MXNet's ROIAlign bilinear interpolation: samples outside [-1, size] read 0, others are
    clamped into the map. Returns (indices (4, ...), weights (4, ...)) into an H*W plane."""
    valid = (y >= -1) & (y <= h) & (x >= -1) & (x <= w)
    y = y.clamp(min=0)
    x = x.clamp(min=0)
    y_low = y.floor()
    x_low = x.floor()
    y_edge = y_low >= h - 1
    x_edge = x_low >= w - 1
    y_low = torch.where(y_edge, torch.full_like(y_low, h - 1), y_low)
    x_low = torch.where(x_edge, torch.full_like(x_low, w - 1), x_low)
    y = torch.where(y_edge, y_low, y)
    x = torch.where(x_edge, x_low, x)
    y_high = torch.where(y_edge, y_low, y_low + 1)
    x_high = torch.where(x_edge, x_low, x_low + 1)
    ly, lx = y - y_low, x - x_low
    hy, hx = 1 - ly, 1 - lx
    vm = valid.to(y.dtype)
    weights = torch.stack([hy * hx * vm, hy * lx * vm, ly * hx * vm, ly * lx * vm])
    yl, yh, xl, xh = y_low.long(), y_high.long(), x_low.long(), x_high.long()
    idx = torch.stack([yl * w + xl, yl * w + xh, yh * w + xl, yh * w + xh])
    return idx, weights


def _grid_size(length, pooled, sample_ratio):
    if sample_ratio > 0:
        return torch.full_like(length, sample_ratio, dtype=torch.int64)
    return torch.ceil(length / pooled).long()


def _bin_points(start, length, pooled, grid, gmax):
    """Sample coordinates (rois, pooled, gmax) along one axis, and their validity."""
    dt = start.dtype
    bin_size = length / pooled
    p = torch.arange(pooled, dtype=dt, device=start.device).view(1, -1, 1)
    i = torch.arange(gmax, dtype=dt, device=start.device).view(1, 1, -1)
    g = grid.to(dt).view(-1, 1, 1)
    pts = start.view(-1, 1, 1) + p * bin_size.view(-1, 1, 1) + \
        (i + 0.5) * bin_size.view(-1, 1, 1) / g
    return pts, (i < g)


@register('_contrib_ROIAlign', named_outputs=True, inputs=('data', 'rois'),
          params={'pooled_size': (Shape, REQUIRED), 'spatial_scale': (Float, REQUIRED),
                  'sample_ratio': (Int, -1), 'position_sensitive': (Bool, False),
                  'aligned': (Bool, False)})
def roi_align(data, rois, *, pooled_size, spatial_scale, sample_ratio, position_sensitive,
              aligned):
    """This operator takes a 4D feature map as an input array and region proposals as `rois`,
    then align the feature map over sub-regions of input and produces a fixed-sized output
    array. This operator is typically used in Faster R-CNN & Mask R-CNN networks.

    Each bin averages bilinear samples on a regular grid (`sample_ratio` per side, or
    ceil(roi size / pooled size)); `aligned` shifts the rois by -0.5 pixel (Detectron2);
    `position_sensitive` reads a separate channel group per bin (R-FCN)."""
    op = '_contrib_ROIAlign'
    _check_4d(op, 'data', data)
    _check_rois(op, rois, 5)
    _same_dtype(op, data, rois)
    if len(pooled_size) != 2 or min(pooled_size) <= 0:
        raise MXNetError('%s: pooled_size must be a positive (h, w), got %s' % (op, pooled_size))
    n, c, h, w = data.shape
    ph, pw = pooled_size
    if position_sensitive and c % (ph * pw):
        raise MXNetError('%s: Input channels should be divided by pooled_size[0]*pooled_size[1] '
                         'when position_sensitive is true.' % op)
    dt, dev = data.dtype, data.device
    r = rois.detach()
    num = r.shape[0]
    scale = torch.tensor(spatial_scale, dtype=_F32).to(dt)
    offset = 0.5 if aligned else 0.0
    batch = r[:, 0].long()
    x1, y1, x2, y2 = (r[:, i] * scale - offset for i in range(1, 5))
    rw, rh = x2 - x1, y2 - y1
    if aligned:
        if bool(((rw <= 0) | (rh <= 0)).any()):
            raise MXNetError('%s: Check failed: roi width and height must be > 0 with aligned=True'
                             % op)
    else:
        rw, rh = rw.clamp(min=1), rh.clamp(min=1)
    gh, gw = _grid_size(rh, ph, sample_ratio), _grid_size(rw, pw, sample_ratio)
    gh_max = max(int(gh.max()), 1) if num else 1
    gw_max = max(int(gw.max()), 1) if num else 1
    ys, yok = _bin_points(y1, rh, ph, gh, gh_max)              # (R, ph, GH)
    xs, xok = _bin_points(x1, rw, pw, gw, gw_max)              # (R, pw, GW)
    ys = ys.view(num, ph, 1, gh_max, 1).expand(num, ph, pw, gh_max, gw_max)
    xs = xs.view(num, 1, pw, 1, gw_max).expand(num, ph, pw, gh_max, gw_max)
    ok = (yok.view(num, 1, 1, gh_max, 1) & xok.view(num, 1, 1, 1, gw_max)).expand_as(ys)
    idx, wts = _bilinear_roi(ys, xs, h, w)              # (4, R, ph, pw, GH, GW)
    wts = wts * ok.to(dt)
    count = (gh * gw).to(dt).view(num, 1, 1)
    bsafe = batch.clamp(0, n - 1)
    if position_sensitive:
        co = c // (ph * pw)
        chan = (torch.arange(co, device=dev).view(co, 1, 1) * (ph * pw) +
                torch.arange(ph, device=dev).view(1, ph, 1) * pw +
                torch.arange(pw, device=dev).view(1, 1, pw))          # (co, ph, pw)
        plane = (bsafe.view(num, 1, 1, 1) * c + chan.unsqueeze(0)) * (h * w)   # (R, co, ph, pw)
        full = plane.view(1, num, co, ph, pw, 1, 1) + idx.unsqueeze(2)
        vals = data.reshape(-1)[full.reshape(-1)].view(4, num, co, ph, pw, gh_max, gw_max)
        out = (vals * wts.unsqueeze(2)).sum(0).sum((-1, -2)) / count.unsqueeze(1)
    else:
        rows = data.permute(0, 2, 3, 1).reshape(n * h * w, c)
        full = bsafe.view(1, num, 1, 1, 1, 1) * (h * w) + idx
        vals = rows[full.reshape(-1)].view(4, num, ph, pw, gh_max, gw_max, c)
        out = (vals * wts.unsqueeze(-1)).sum(0).sum((3, 4)) / count.unsqueeze(-1)
        out = out.permute(0, 3, 1, 2)
    out = torch.where((batch < 0).view(num, 1, 1, 1), torch.zeros_like(out), out)
    return _zero_grad_inputs(out.contiguous(), rois)


class _NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, out, name, *inputs):
        ctx.name = name
        return out.view_as(out)

    @staticmethod
    def backward(ctx, *grads):
        raise MXNetError('%s: Backward is not supported.' % ctx.name)


@register('_contrib_RROIAlign', named_outputs=True, inputs=('data', 'rois'),
          params={'pooled_size': (Shape, REQUIRED), 'spatial_scale': (Float, REQUIRED),
                  'sampling_ratio': (Int, -1)})
def rroi_align(data, rois, *, pooled_size, spatial_scale, sampling_ratio):
    """Performs Rotated ROI Align on the input array.

    `rois` (num_rois, 6) hold [batch_index, center_x, center_y, width, height, theta] with
    theta in degrees; each rotated region is sampled bilinearly and averaged into
    `pooled_size` bins. There is no backward, as in MXNet."""
    op = '_contrib_RROIAlign'
    _check_4d(op, 'data', data)
    _check_rois(op, rois, 6)
    _same_dtype(op, data, rois)
    if len(pooled_size) != 2 or min(pooled_size) <= 0:
        raise MXNetError('%s: pooled_size must be a positive (h, w), got %s' % (op, pooled_size))
    n, c, h, w = data.shape
    ph, pw = pooled_size
    dt = data.dtype
    r = rois.detach()
    num = r.shape[0]
    scale = torch.tensor(spatial_scale, dtype=_F32).to(dt)
    batch = r[:, 0].long()
    cw, ch = r[:, 1] * scale, r[:, 2] * scale
    rw, rh = (r[:, 3] * scale).clamp(min=1), (r[:, 4] * scale).clamp(min=1)
    theta = (r[:, 5].double() * math.pi / 180.0).to(dt)
    gh, gw = _grid_size(rh, ph, sampling_ratio), _grid_size(rw, pw, sampling_ratio)
    gh_max = max(int(gh.max()), 1) if num else 1
    gw_max = max(int(gw.max()), 1) if num else 1
    yy, yok = _bin_points((-rh.double() / 2.0).to(dt), rh, ph, gh, gh_max)
    xx, xok = _bin_points((-rw.double() / 2.0).to(dt), rw, pw, gw, gw_max)
    yy = yy.view(num, ph, 1, gh_max, 1)
    xx = xx.view(num, 1, pw, 1, gw_max)
    cos, sin = torch.cos(theta).view(num, 1, 1, 1, 1), torch.sin(theta).view(num, 1, 1, 1, 1)
    xs = xx * cos + yy * sin + cw.view(num, 1, 1, 1, 1)
    ys = yy * cos - xx * sin + ch.view(num, 1, 1, 1, 1)
    ok = (yok.view(num, 1, 1, gh_max, 1) & xok.view(num, 1, 1, 1, gw_max)).expand_as(ys)
    idx, wts = _bilinear_roi(ys, xs, h, w)
    wts = wts * ok.to(dt)
    rows = data.detach().permute(0, 2, 3, 1).reshape(n * h * w, c)
    full = batch.clamp(0, n - 1).view(1, num, 1, 1, 1, 1) * (h * w) + idx
    vals = rows[full.reshape(-1)].view(4, num, ph, pw, gh_max, gw_max, c)
    count = (gh * gw).to(dt).view(num, 1, 1, 1)
    out = ((vals * wts.unsqueeze(-1)).sum(0).sum((3, 4)) / count).permute(0, 3, 1, 2)
    out = out.contiguous()
    if torch.is_grad_enabled() and (data.requires_grad or rois.requires_grad):
        return _NoBackward.apply(out, 'RROIAlign', data, rois)
    return out


def _round_half_away(t):
    return torch.sign(t) * torch.floor(t.abs() + 0.5)


@functools.lru_cache(maxsize=64)
def _axis_values(values, trailing, dt, device):
    """``values`` (one per stacked axis: x/y or y/x) shaped (len(values),) + (1,) * trailing,
    to compare stacked coordinates with (on ``device``, made once per arguments)."""
    return torch.tensor(values, dtype=dt).view((-1,) + (1,) * trailing).to(device)


@functools.lru_cache(maxsize=64)
def _group_channels(ctop, pooled, group_size, dt, device):
    """MXNet's (ctop * group + gh) * group + gw input channel of every (ctop, ph, pw) bin, with
    gh = floor(ph * group_size / pooled) in the data's type, clamped into the groups (int64 on
    ``device``, made once per arguments)."""
    g = torch.floor(torch.arange(pooled, dtype=dt) * group_size / pooled).long() \
        .clamp(0, group_size - 1)
    c = torch.arange(ctop).view(-1, 1, 1)
    return ((c * group_size + g.view(1, -1, 1)) * group_size + g.view(1, 1, -1)).to(device)


@functools.lru_cache(maxsize=64)
def _trans_index(output_dim, num_classes, pooled, part, dt, device):
    """Index (output_dim, 2, pooled, pooled) into a roi's ``trans`` (num_classes * 2 * part *
    part values) of the (x, y) offset of every bin: its class's offsets at part
    floor(ph / pooled * part) (in the data's type, as MXNet computes it)."""
    part_at = torch.floor(torch.arange(pooled, dtype=dt) / pooled * part).long()
    cls = torch.arange(output_dim) // (output_dim // num_classes)
    xy = torch.arange(2)
    return (((cls.view(-1, 1, 1, 1) * 2 + xy.view(1, 2, 1, 1)) * part +
             part_at.view(1, 1, -1, 1)) * part + part_at.view(1, 1, 1, -1)).to(device)


@functools.lru_cache(maxsize=64)
def _xy_grid(size, dt, device):
    """(2, size, size): the column index (x) and the row index (y) of every cell."""
    i = torch.arange(size, dtype=dt)
    return torch.stack((i.view(1, -1).expand(size, size), i.view(-1, 1).expand(size, size))) \
        .to(device)


@register('_contrib_PSROIPooling', named_outputs=True, merges=False, inputs=('data', 'rois'),
          params={'spatial_scale': (Float, REQUIRED), 'output_dim': (Int, REQUIRED),
                  'pooled_size': (Int, REQUIRED), 'group_size': (Int, 0)})
def psroi_pooling(data, rois, *, spatial_scale, output_dim, pooled_size, group_size):
    """Performs region-of-interest pooling on inputs. Resize bounding box coordinates by
    spatial_scale and crop input feature maps accordingly. The cropped feature maps are pooled
    by average pooling to a fixed size output indicated by pooled_size; every output channel
    of every bin reads its own input channel (position-sensitive, R-FCN)."""
    op = '_contrib_PSROIPooling'
    _check_4d(op, 'data', data)
    _check_rois(op, rois, 5)
    _same_dtype(op, data, rois)
    group = group_size if group_size > 0 else pooled_size
    n, c, h, w = data.shape
    p = pooled_size
    if output_dim * group * group > c:
        raise MXNetError('%s: data has %d channels but output_dim * group_size^2 = %d are read'
                         % (op, c, output_dim * group * group))
    dt, dev = data.dtype, data.device
    r = rois.detach()
    num = r.shape[0]
    scale = torch.tensor(spatial_scale, dtype=_F32).to(dt)
    batch = r[:, 0].long().clamp(0, n - 1)
    corners = _round_half_away(r[:, 1:5])                     # x1, y1, x2, y2
    corners[:, 2:] += 1.
    corners = corners * scale
    start = corners[:, :2]                                    # (R, 2): w, h
    bins = (corners[:, 2:] - start).clamp(min=0.1) / p
    edges = torch.arange(p + 1, dtype=dt, device=dev) * bins.unsqueeze(-1) + \
        start.unsqueeze(-1)                                   # (R, 2, p + 1)
    # bin bounds (R, start/end, w/h, p): floor of the start, ceil of the end, in the map
    bounds = torch.stack((edges[..., :p].floor(), edges[..., 1:].ceil()), 1)
    bounds = torch.minimum(bounds.clamp(min=0), _axis_values((w, h), 1, dt, dev)).long()
    xs, ys = bounds[:, :, 0], bounds[:, :, 1]                 # (R, 2, p)
    # box sums from a summed-area table (computed in float64 for accuracy): its four corners
    # (R, y start/end, x start/end, out, p, p) read in one gather
    sat = F.pad(data.double().cumsum(2).cumsum(3), (1, 0, 1, 0))
    chan = _group_channels(output_dim, p, group, dt, dev)      # (out, p, p)
    plane = (batch.view(-1, 1, 1, 1) * c + chan) * ((h + 1) * (w + 1))
    at = ys.view(num, 2, 1, 1, p, 1) * (w + 1) + xs.view(num, 1, 2, 1, 1, p) + \
        plane.view(num, 1, 1, output_dim, p, p)
    v = sat.reshape(-1)[at.reshape(-1)].view(num, 2, 2, output_dim, p, p)
    total = v[:, 1, 1] - v[:, 0, 1] - v[:, 1, 0] + v[:, 0, 0]
    size = bounds[:, 1] - bounds[:, 0]                        # (R, w/h, p)
    area = size[:, 1].view(num, 1, p, 1) * size[:, 0].view(num, 1, 1, p)
    out = torch.where(area > 0, total / area.clamp(min=1), 0.)
    return out.to(dt)


@register('_contrib_DeformablePSROIPooling', named_outputs=True, merges=False,
          inputs=('data', 'rois', 'trans'),
          params={'spatial_scale': (Float, REQUIRED), 'output_dim': (Int, REQUIRED),
                  'group_size': (Int, REQUIRED), 'pooled_size': (Int, REQUIRED),
                  'part_size': (Int, 0), 'sample_per_part': (Int, 1),
                  'trans_std': (Float, 0.0), 'no_trans': (Bool, False)},
          input_rule=lambda p: ['data', 'rois'] + ([] if p['no_trans'] else ['trans']),
          num_outputs=2, num_visible_outputs=1, output_names=('output', 'top_count'))
def deformable_psroi_pooling(data, rois, trans=None, *, spatial_scale, output_dim, group_size,
                             pooled_size, part_size, sample_per_part, trans_std, no_trans):
    """Performs deformable position-sensitive region-of-interest pooling on inputs: every bin
    of every roi is shifted by the learned offsets `trans` (times `trans_std` and the roi
    size) and averages `sample_per_part` x `sample_per_part` bilinear samples of its own
    channel. Gradients reach `data` and `trans`."""
    op = '_contrib_DeformablePSROIPooling'
    _check_4d(op, 'data', data)
    _check_rois(op, rois, 5)
    _same_dtype(op, data, rois)
    if not no_trans:
        if trans is None or trans.dim() != 4:
            raise MXNetError('%s: trans should be a 4D tensor of shape (num_rois, 2 * '
                             'num_classes, part_size, part_size), got %s'
                             % (op, None if trans is None else tuple(trans.shape)))
    n, c, h, w = data.shape
    p = pooled_size
    part = part_size if part_size > 0 else p
    s = sample_per_part
    dt, dev = data.dtype, data.device
    r = rois.detach()
    num = r.shape[0]
    scale = torch.tensor(spatial_scale, dtype=_F32).to(dt)
    batch = r[:, 0].long().clamp(0, n - 1)
    corners = _round_half_away(r[:, 1:5])                     # x1, y1, x2, y2
    corners[:, 2:] += 1.
    corners = corners * scale - 0.5
    start = corners[:, :2].reshape(num, 1, 2, 1, 1)           # x, y
    size = (corners[:, 2:] - corners[:, :2]).clamp(min=0.1)   # roi width, height
    bins = size / p
    # each bin's first sample (R, out, x/y, p, p): its place in the roi plus the roi-sized
    # offset of its class and part
    first = _xy_grid(p, dt, dev) * bins.view(num, 1, 2, 1, 1) + start
    if not no_trans:
        std = torch.tensor(trans_std, dtype=_F32).to(dt)    # a float32 parameter in MXNet
        moved = trans.reshape(num, -1)[:, _trans_index(output_dim, trans.shape[1] // 2, p, part,
                                                        dt, dev)] * std
        first = first + moved * size.view(num, 1, 2, 1, 1)
    else:
        first = first.expand(num, output_dim, 2, p, p)
    # the samples (R, out, x/y, p, p, S, S)
    pos = first.unsqueeze(-1).unsqueeze(-1) + \
        (_xy_grid(s, dt, dev) * (bins / s).view(num, 2, 1, 1)).view(num, 1, 2, 1, 1, s, s)
    xs, ys = pos[:, :, 0], pos[:, :, 1]
    ok = (pos >= -0.5).all(2) & (xs <= w - 0.5) & (ys <= h - 0.5)
    # MXNet's trans gradient ignores the clamp into the map
    held = pos.detach()
    pos = pos + (torch.minimum(held.clamp(min=0), _axis_values((w - 1, h - 1), 4, dt, dev)) -
                 held)
    low = pos.detach().floor()
    frac = pos - low
    ends = torch.stack((low, pos.detach().ceil())).long()     # (low/high, R, out, x/y, ...)
    chan = _group_channels(output_dim, p, group_size, dt, dev)
    plane = ((batch.view(-1, 1, 1, 1) * c + chan) * (h * w)).view(num, output_dim, p, p, 1, 1)
    at = ends[:, :, :, 1].unsqueeze(1) * w + ends[:, :, :, 0].unsqueeze(0) + plane
    v = data.reshape(-1)[at.reshape(-1)].view(at.shape)       # (y low/high, x low/high, ...)
    fx, fy = frac[:, :, 0], frac[:, :, 1]
    val = (v * torch.stack((1 - fy, fy)).unsqueeze(1) * torch.stack((1 - fx, fx))).sum((0, 1))
    okf = ok.to(dt)
    count = okf.sum((-1, -2))
    total = (val * okf).sum((-1, -2))
    out = torch.where(count > 0, total / count.clamp(min=1), torch.zeros_like(total))
    return out, count


# ---------------------------------------------------------------------------------------------
# AdaptiveAvgPooling2D / BilinearResize2D
# ---------------------------------------------------------------------------------------------

@register('_contrib_AdaptiveAvgPooling2D', monitor_prefix='input',
          params={'output_size': (Shape, ())})
def adaptive_avg_pooling2d(data, *, output_size):
    """Applies a 2D adaptive average pooling over a 4D input with the shape of (NCHW). The
    pooling kernel and stride sizes are automatically chosen for desired output sizes.

    - If a single integer is provided for output_size, the output size is (N x C x
      output_size x output_size) for any input (NCHW).
    - If a tuple of integers (height, width) are provided for output_size, the output size is
      (N x C x height x width) for any input (NCHW)."""
    _check_4d('_contrib_AdaptiveAvgPooling2D', 'data', data)
    if len(output_size) == 1:
        size = (output_size[0], output_size[0])
    elif len(output_size) == 2:
        size = tuple(output_size)
    else:
        size = (1, 1)
    if data.dtype == torch.float16 and data.device.type == 'cpu':
        return F.adaptive_avg_pool2d(data.float(), size).half()
    return F.adaptive_avg_pool2d(data, size)


_RESIZE_MODES = ('size', 'odd_scale', 'like', 'to_even_down', 'to_even_up', 'to_odd_down',
                 'to_odd_up')


def _resize_shape(mode, h, w, height, width, scale_height, scale_width, like):
    if mode == 'size':
        if scale_height is not None:
            return int(scale_height * h), int(scale_width * w)
        return height, width
    if mode == 'odd_scale':
        oh = int(h * scale_height) if h % 2 == 0 else int((h - 1) * scale_height) + 1
        ow = int(w * scale_width) if w % 2 == 0 else int((w - 1) * scale_width) + 1
        return oh, ow
    if mode == 'like':
        return like.shape[2], like.shape[3]
    down, even = mode.endswith('down'), mode.startswith('to_even')

    def fix(n):
        if (n % 2 == 0) == even:
            return n
        return n - 1 if down else n + 1
    return fix(h), fix(w)


@register('_contrib_BilinearResize2D', inputs=('data', 'like'),
          params={'height': (Int, 1), 'width': (Int, 1), 'scale_height': (Opt(Float), None),
                  'scale_width': (Opt(Float), None), 'mode': (Enum(*_RESIZE_MODES), 'size'),
                  'align_corners': (Bool, True)},
          input_rule=lambda p: ['data', 'like'] if p['mode'] == 'like' else ['data'])
def bilinear_resize2d(data, like=None, *, height, width, scale_height, scale_width, mode,
                      align_corners):
    """Perform 2D resizing (upsampling or downsampling) for 4D input using bilinear
    interpolation.

    Expected input is a 4 dimensional NDArray (NCHW) and the output with the shape of
    (N x C x height x width); `mode` chooses how the output size is found ('size', 'odd_scale',
    'like', 'to_even_down', 'to_even_up', 'to_odd_down', 'to_odd_up')."""
    op = '_contrib_BilinearResize2D'
    _check_4d(op, 'data', data)
    if height < 1 or width < 1:
        raise MXNetError('%s: height and width must be >= 1, got %d and %d' % (op, height, width))
    if mode == 'like':
        _check_4d(op, 'like', like)
    if (mode == 'odd_scale' or (mode == 'size' and scale_height is not None)) and \
            (scale_height is None or scale_width is None):
        raise MXNetError('%s: mode %r needs both scale_height and scale_width' % (op, mode))
    n, c, h, w = data.shape
    oh, ow = _resize_shape(mode, h, w, height, width, scale_height, scale_width, like)
    if oh < 1 or ow < 1:
        # a scale that rounds a side down to 0 gives MXNet an empty array (zero gradients)
        out = zero_grad_link(data.new_zeros((n, c, max(oh, 0), max(ow, 0))), data)
    elif (oh, ow) == (h, w):
        out = data.clone()
    else:
        x = data.float() if data.dtype == torch.float16 else data
        if not align_corners:
            # MXNet's source scale of a single output row (column) is 0: it reads the first
            # input row (column), where torch reads the middle
            x = x[:, :, :1 if oh == 1 else h, :1 if ow == 1 else w]
        out = F.interpolate(x, size=(oh, ow), mode='bilinear',
                            align_corners=align_corners).to(data.dtype)
    return _zero_grad_inputs(out, like) if mode == 'like' else out


# ---------------------------------------------------------------------------------------------
# Deformable convolutions
# ---------------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=64)
def _deform_grid(kernel, stride, pad, dilate, ho, wo, dt, device):
    """The regular positions (kh*kw, y/x, Ho, Wo) of a convolution's kernel taps (on
    ``device``, made once per arguments)."""
    kh, kw = kernel
    ty = (torch.arange(kh) * dilate[0]).repeat_interleave(kw).view(-1, 1, 1)
    tx = (torch.arange(kw) * dilate[1]).repeat(kh).view(-1, 1, 1)
    ys = ty + (torch.arange(ho) * stride[0] - pad[0]).view(1, -1, 1)
    xs = tx + (torch.arange(wo) * stride[1] - pad[1]).view(1, 1, -1)
    return torch.stack(torch.broadcast_tensors(ys, xs), 1).to(device, dt)


def _sample_deformable(data, offset, mask, kernel, stride, pad, dilate, groups, modulated):
    """Deformable im2col: columns (N, C, kh*kw, Ho, Wo) of bilinear samples at the kernel taps
    shifted by ``offset`` (N, groups*2*kh*kw, Ho, Wo), times ``mask`` if given. y and x run
    stacked, and the four corners of every sample are read in one gather."""
    n, c, h, w = data.shape
    k = kernel[0] * kernel[1]
    ho, wo = offset.shape[2], offset.shape[3]
    dt = data.dtype
    dev = data.device
    base = _deform_grid(tuple(kernel), tuple(stride), tuple(pad), tuple(dilate), ho, wo, dt, dev)
    size, last = _axis_values((h, w), 2, dt, dev), _axis_values((h - 1, w - 1), 2, dt, dev)
    pos = base + offset.reshape(n, groups, k, 2, ho, wo)           # (N, G, k, y/x, Ho, Wo)
    if modulated:
        # MXNet's modulated sampling: corners outside the map read 0
        ok = ((pos > -1) & (pos < size)).all(3)
        low = pos.detach().floor()
        frac = pos - low
        ends = torch.stack((low, low + 1))                          # (low/high, N, G, k, y/x, ..)
        inside = (ends >= 0) & (ends <= last)
        valid = inside[:, :, :, :, 0].unsqueeze(1) & inside[:, :, :, :, 1].unsqueeze(0) & ok
        ends = torch.minimum(ends.clamp(min=0), last)
    else:
        # MXNet's deformable sampling: a sample in the map whose low corner is on the last row
        # (column) reads that row (column) alone
        valid = ((pos >= 0) & (pos < size)).all(3)
        held = pos.clamp(min=0)
        low = torch.minimum(held.detach().floor(), last)
        edge = low >= last
        frac = torch.where(edge, 0., held - low)
        ends = torch.stack((low, torch.where(edge, low, low + 1)))
    axis = torch.stack((1 - frac, frac))                            # (low/high, N, G, k, y/x, ..)
    wts = axis[:, :, :, :, 0].unsqueeze(1) * axis[:, :, :, :, 1].unsqueeze(0) * valid.to(dt)
    ends = ends.long()
    at = ends[:, :, :, :, 0].unsqueeze(1) * w + ends[:, :, :, :, 1].unsqueeze(0)
    cg = c // groups
    m = 4 * k * ho * wo
    at = at.permute(2, 3, 0, 1, 4, 5, 6).reshape(n, groups, 1, m).expand(n, groups, cg, m)
    vals = torch.gather(data.reshape(n, groups, cg, h * w), 3, at)
    cols = (vals.view(n, groups, cg, 2, 2, k, ho, wo) *
            wts.permute(2, 3, 0, 1, 4, 5, 6).unsqueeze(2)).sum((3, 4))
    if mask is not None:
        cols = cols * mask.reshape(n, groups, 1, k, ho, wo)
    return cols.reshape(n, c, k, ho, wo)


def _deform_conv(op, data, offset, mask, weight, bias, p, modulated):
    kernel = p['kernel']
    if len(kernel) != 2:
        raise MXNetError('%s: only 2D kernels are supported (NCHW), got kernel=%s'
                         % (op, kernel))
    if p['layout'] not in (None, 'NCHW'):
        raise MXNetError('%s: only the NCHW layout is supported, got %s' % (op, p['layout']))
    _check_4d(op, 'data', data)
    _check_4d(op, 'offset', offset)
    stride = p['stride'] or (1, 1)
    dilate = p['dilate'] or (1, 1)
    pad = p['pad'] or (0, 0)
    n, c, h, w = data.shape
    groups, dgroups, nf = p['num_group'], p['num_deformable_group'], p['num_filter']
    kh, kw = kernel
    if c % groups or c % dgroups or nf % groups:
        raise MXNetError('%s: input channels (%d) must divide num_group (%d) and '
                         'num_deformable_group (%d); num_filter (%d) must divide num_group'
                         % (op, c, groups, dgroups, nf))
    ho = (h + 2 * pad[0] - (dilate[0] * (kh - 1) + 1)) // stride[0] + 1
    wo = (w + 2 * pad[1] - (dilate[1] * (kw - 1) + 1)) // stride[1] + 1
    if tuple(offset.shape) != (n, dgroups * 2 * kh * kw, ho, wo):
        raise MXNetError('%s: offset must have shape %s, got %s'
                         % (op, (n, dgroups * 2 * kh * kw, ho, wo), tuple(offset.shape)))
    if mask is not None and tuple(mask.shape) != (n, dgroups * kh * kw, ho, wo):
        raise MXNetError('%s: mask must have shape %s, got %s'
                         % (op, (n, dgroups * kh * kw, ho, wo), tuple(mask.shape)))
    if tuple(weight.shape) != (nf, c // groups, kh, kw):
        raise MXNetError('%s: weight must have shape %s, got %s'
                         % (op, (nf, c // groups, kh, kw), tuple(weight.shape)))
    cols = _sample_deformable(data, offset, mask, kernel, stride, pad, dilate, dgroups,
                              modulated)
    cols = cols.reshape(n, groups, (c // groups) * kh * kw, ho * wo)
    wmat = weight.reshape(groups, nf // groups, (c // groups) * kh * kw)
    out = torch.matmul(wmat.unsqueeze(0), cols).reshape(n, nf, ho, wo)
    if bias is not None:
        out = out + bias.view(1, nf, 1, 1)
    return out


def _dconv_param_shapes(weight_index):
    """Symbol shape rule: weight (num_filter, C/num_group, kh, kw) and bias (num_filter,)."""
    def rule(shapes, p):
        data = shapes[0]
        if data is None or len(data) != 4:
            return shapes
        cin = data[1] // p['num_group'] if data[1] else 0
        fill = {weight_index: (p['num_filter'], cin) + tuple(p['kernel'])}
        if not p['no_bias']:
            fill[weight_index + 1] = (p['num_filter'],)
        for i, shape in fill.items():
            if i < len(shapes) and (shapes[i] is None or 0 in shapes[i]):
                shapes[i] = shape
        return shapes
    return rule


_DCONV_PARAMS = {'kernel': (Shape, REQUIRED), 'stride': (Shape, ()), 'dilate': (Shape, ()),
                 'pad': (Shape, ()), 'num_filter': (Int, REQUIRED), 'num_group': (Int, 1),
                 'num_deformable_group': (Int, 1), 'workspace': (Int, 1024),
                 'no_bias': (Bool, False), 'layout': (Opt(Enum('NCW', 'NCHW', 'NCDHW')), None)}


# MXNet lists im2col_step before layout
_MDCONV_PARAMS = {k: v for k, v in _DCONV_PARAMS.items() if k != 'layout'}
_MDCONV_PARAMS['im2col_step'] = (Int, 64)
_MDCONV_PARAMS['layout'] = _DCONV_PARAMS['layout']


@register('_contrib_DeformableConvolution', named_outputs=True, merges=False,
          inputs=('data', 'offset', 'weight', 'bias'),
          params=_DCONV_PARAMS, infer_shape=_dconv_param_shapes(2),
          input_rule=lambda p: ['data', 'offset', 'weight'] + ([] if p['no_bias'] else ['bias']))
def deformable_convolution(data, offset, weight, bias=None, **p):
    """Compute 2-D deformable convolution on 4-D input.

    The deformable convolution operation is described in https://arxiv.org/abs/1703.06211:
    every kernel tap reads the input at its regular position shifted by `offset`
    (batch, num_deformable_group*2*kh*kw, out_h, out_w), interpolated bilinearly."""
    return _deform_conv('_contrib_DeformableConvolution', data, offset, None, weight,
                        None if p['no_bias'] else bias, p, False)


@register('_contrib_ModulatedDeformableConvolution',
          inputs=('data', 'offset', 'mask', 'weight', 'bias'),
          params=_MDCONV_PARAMS, infer_shape=_dconv_param_shapes(3),
          input_rule=lambda p: ['data', 'offset', 'mask', 'weight'] +
          ([] if p['no_bias'] else ['bias']))
def modulated_deformable_convolution(data, offset, mask, weight, bias=None, **p):
    """Compute 2-D modulated deformable convolution on 4-D input.

    The modulated deformable convolution operation is described in
    https://arxiv.org/abs/1811.11168: deformable convolution whose samples are also scaled by
    `mask` (batch, num_deformable_group*kh*kw, out_h, out_w). MXNet computes its gradient on
    GPU only; mxcompat on every device."""
    if mask is None:
        raise MXNetError('_contrib_ModulatedDeformableConvolution: input mask is missing')
    if p['num_filter'] % p['num_deformable_group']:
        raise MXNetError('_contrib_ModulatedDeformableConvolution: output num_filter must divide '
                         'deformable group size: num_filter=%d is not a multiple of '
                         'num_deformable_group=%d' % (p['num_filter'], p['num_deformable_group']))
    step = p.pop('im2col_step')
    if data.shape[0] > step and data.shape[0] % step:
        raise MXNetError('_contrib_ModulatedDeformableConvolution: input batchsize must be '
                         'smaller than or divide im2col_step: batch %d, im2col_step=%d'
                         % (data.shape[0], step))
    return _deform_conv('_contrib_ModulatedDeformableConvolution', data, offset, mask, weight,
                        None if p['no_bias'] else bias, p, True)
