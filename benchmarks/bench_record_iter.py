"""mx.io.ImageRecordIter throughput over a generated .rec file: mxcompat vs real MXNet vs a
plain torch DataLoader reading the same records.

    python benchmarks/bench_record_iter.py [--mxnet-python ~/mxnet-oracle/bin/python]

Two workloads, one call = one epoch, decoded by 2 threads (MXNet's ``preprocess_threads=2``;
torch: a DataLoader with ``num_workers=2``) into float CHW batches of 50:

* "ImageRecordIter epoch": 1000 JPEG-encoded 32x32 RGB images, no augmentation (decoding
  and batching overhead);
* "ImageRecordIter imagenet-style epoch": 500 JPEGs of varied sizes around 256x256 (smooth
  content plus noise, about ImageNet's bytes per pixel), as ImageNet training scripts read
  them: shorter side resized to 240, random 224x224 crop, random mirror, mean/std
  normalization. The torch side does the same with Pillow (bilinear resize) and torch ops.

Each framework's worker writes its .rec from the same seeded pixels with Pillow's JPEG encoder
and ``recordio.pack`` (MXNet's CPU wheel has no OpenCV encoder); the torch side parses the
RecordIO framing itself, with nothing from MXNet or mxcompat.
"""
import io
import os
import struct
import sys
import tempfile

from harness import Workload, main

IMAGES, SIDE, BATCH, THREADS = 1000, 32, 50, 2
INPUTS = '%d JPEG %dx%d RGB records per epoch, batch %d, %d decode threads' % (
    IMAGES, SIDE, SIDE, BATCH, THREADS)


def _inputs(size, rs):
    return {'pixels': rs.randint(0, 256, (IMAGES, SIDE, SIDE, 3)).astype('uint8')}


def _jpegs(pixels):
    from PIL import Image
    out = []
    for img in pixels:
        buf = io.BytesIO()
        Image.fromarray(img).save(buf, format='JPEG', quality=90)
        out.append(buf.getvalue())
    return out


def _mx_iter(mx, pixels):
    pixels = pixels.asnumpy()
    path = os.path.join(tempfile.mkdtemp(), 'bench.rec')
    writer = mx.recordio.MXRecordIO(path, 'w')
    for i, jpeg in enumerate(_jpegs(pixels)):
        writer.write(mx.recordio.pack(mx.recordio.IRHeader(0, float(i % 10), i, 0), jpeg))
    writer.close()
    it = mx.io.ImageRecordIter(path_imgrec=path, data_shape=(3, SIDE, SIDE), batch_size=BATCH,
                               preprocess_threads=THREADS, shuffle=False)

    def epoch():
        it.reset()
        for batch in it:
            batch.data[0].wait_to_read()
    return epoch


def _read_records(path):
    """(label, jpeg bytes) of every record of a RecordIO file (single-part records)."""
    out = []
    with open(path, 'rb') as f:
        data = f.read()
    pos = 0
    while pos < len(data):
        magic, lrec = struct.unpack_from('<II', data, pos)
        length = lrec & ((1 << 29) - 1)
        record = data[pos + 8:pos + 8 + length]
        pos += 8 + length + (-length % 4)
        flag, label = struct.unpack_from('<If', record, 0)
        out.append((label, record[24:]))
    return out


def _epoch_of(torch, dataset):
    """One epoch over ``dataset`` through torch's DataLoader, as the torch side runs it."""
    loader = torch.utils.data.DataLoader(dataset, batch_size=BATCH, num_workers=THREADS,
                                         persistent_workers=True)

    def epoch():
        for x, y in loader:
            pass
    return epoch


def _torch_loader(torch, pixels):
    import numpy as np
    from PIL import Image
    path = os.path.join(tempfile.mkdtemp(), 'bench.rec')
    with open(path, 'wb') as f:  # RecordIO framing: magic, length, IRHeader, payload, padding
        for i, jpeg in enumerate(_jpegs(pixels.numpy())):
            payload = struct.pack('<IfQQ', 0, float(i % 10), i, 0) + jpeg
            f.write(struct.pack('<II', 0xced7230a, len(payload)) + payload +
                    b'\0' * (-len(payload) % 4))
    records = _read_records(path)

    class Records(torch.utils.data.Dataset):
        def __len__(self):
            return len(records)

        def __getitem__(self, i):
            label, jpeg = records[i]
            img = np.asarray(Image.open(io.BytesIO(jpeg)).convert('RGB'))
            return torch.from_numpy(img).permute(2, 0, 1).float(), label

    return _epoch_of(torch, Records())


# -- the ImageNet-style workload -------------------------------------------------------------
BIG_IMAGES, RESIZE, CROP = 500, 240, 224
MEAN, STD = (123.68, 116.28, 103.53), (58.395, 57.12, 57.375)


def _big_inputs(size, rs):
    # a small seed: exact whatever dtype the harness gives the array
    return {'seed': rs.randint(0, 1000, (1,)).astype('int64')}


def _big_jpegs(seed):
    """500 JPEGs, 232..288 pixels a side: a smooth random field plus fine noise."""
    import numpy as np
    from PIL import Image
    rs = np.random.RandomState(int(seed))
    out = []
    for _ in range(BIG_IMAGES):
        h, w = rs.randint(232, 289, 2)
        coarse = Image.fromarray(rs.randint(0, 256, (6, 6, 3)).astype('uint8'))
        img = np.asarray(coarse.resize((int(w), int(h)), Image.BICUBIC), np.float32)
        img = np.clip(img + rs.normal(0, 12, img.shape), 0, 255).astype('uint8')
        buf = io.BytesIO()
        Image.fromarray(img).save(buf, format='JPEG', quality=90)
        out.append(buf.getvalue())
    return out


def _mx_big(mx, seed):
    path = os.path.join(tempfile.mkdtemp(), 'big.rec')
    writer = mx.recordio.MXRecordIO(path, 'w')
    for i, jpeg in enumerate(_big_jpegs(seed.asnumpy()[0])):
        writer.write(mx.recordio.pack(mx.recordio.IRHeader(0, float(i % 10), i, 0), jpeg))
    writer.close()
    it = mx.io.ImageRecordIter(path_imgrec=path, data_shape=(3, CROP, CROP), batch_size=BATCH,
                               preprocess_threads=THREADS, shuffle=False, resize=RESIZE,
                               rand_crop=True, rand_mirror=True,
                               mean_r=MEAN[0], mean_g=MEAN[1], mean_b=MEAN[2],
                               std_r=STD[0], std_g=STD[1], std_b=STD[2])

    def epoch():
        it.reset()
        for batch in it:
            batch.data[0].wait_to_read()
    return epoch


def _torch_big(torch, seed):
    import random
    import numpy as np
    from PIL import Image
    path = os.path.join(tempfile.mkdtemp(), 'big.rec')
    with open(path, 'wb') as f:
        for i, jpeg in enumerate(_big_jpegs(seed.numpy()[0])):
            payload = struct.pack('<IfQQ', 0, float(i % 10), i, 0) + jpeg
            f.write(struct.pack('<II', 0xced7230a, len(payload)) + payload +
                    b'\0' * (-len(payload) % 4))
    records = _read_records(path)
    mean = torch.tensor(MEAN).view(3, 1, 1)
    std = torch.tensor(STD).view(3, 1, 1)

    class Records(torch.utils.data.Dataset):
        def __len__(self):
            return len(records)

        def __getitem__(self, i):
            label, jpeg = records[i]
            img = Image.open(io.BytesIO(jpeg)).convert('RGB')
            w, h = img.size
            nw, nh = (RESIZE, RESIZE * h // w) if w < h else (RESIZE * w // h, RESIZE)
            img = img.resize((nw, nh), Image.BILINEAR)
            x, y = random.randint(0, nw - CROP), random.randint(0, nh - CROP)
            img = img.crop((x, y, x + CROP, y + CROP))
            if random.random() < 0.5:
                img = img.transpose(Image.FLIP_LEFT_RIGHT)
            t = torch.from_numpy(np.asarray(img)).permute(2, 0, 1).float()
            return (t - mean) / std, label

    return _epoch_of(torch, Records())


WORKLOADS = [
    Workload('ImageRecordIter epoch', _inputs, _mx_iter, _torch_loader,
             needs=('io.ImageRecordIter', 'recordio.pack'), items=IMAGES),
    Workload('ImageRecordIter imagenet-style epoch', _big_inputs, _mx_big, _torch_big,
             needs=('io.ImageRecordIter', 'recordio.pack'), items=BIG_IMAGES),
]

if __name__ == '__main__':
    sys.exit(main(suite='bench_record_iter'))
