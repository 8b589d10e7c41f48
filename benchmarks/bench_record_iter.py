"""mx.io.ImageRecordIter throughput over a generated .rec file: mxcompat vs real MXNet vs a
plain torch DataLoader reading the same records.

    python benchmarks/bench_record_iter.py [--mxnet-python ~/mxnet-oracle/bin/python]

One call is one epoch over 1000 JPEG-encoded 32x32 RGB images, batch 50, decoded by 2 threads
(MXNet's ``preprocess_threads=2``; torch: ``num_workers=2``) into float CHW batches. Each
framework's worker writes its .rec from the same seeded pixels with Pillow's JPEG encoder and
``recordio.pack`` (MXNet's CPU wheel has no OpenCV encoder); the torch side parses the RecordIO
framing itself, with nothing from MXNet or mxcompat.
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

    loader = torch.utils.data.DataLoader(Records(), batch_size=BATCH, num_workers=THREADS,
                                         persistent_workers=True)

    def epoch():
        for x, y in loader:
            pass
    return epoch


WORKLOADS = [
    Workload('ImageRecordIter epoch', _inputs, _mx_iter, _torch_loader,
             needs=('io.ImageRecordIter', 'recordio.pack'), items=IMAGES),
]

if __name__ == '__main__':
    sys.exit(main(suite='bench_record_iter'))
