"""gluon.data.DataLoader throughput: mxcompat vs torch.utils.data.DataLoader (vs real MXNet).

    python benchmarks/bench_data.py [--mxnet-python ~/mxnet-oracle/bin/python] [--rounds 5]

One call is one epoch over 2000 synthetic uint8 HWC 32x32x3 images with labels, batch 64,
``last_batch='keep'``. The MXNet side is written as the Gluon tutorials write it:
``ArrayDataset(images, labels).transform_first(Compose([ToTensor(), Normalize(mean, std)]))``;
the torch side is a map-style Dataset doing the same conversion (HWC uint8 -> CHW float in
[0, 1] -> normalised). ``num_workers=2`` uses MXNet's persistent worker pool; torch gets
``persistent_workers=True`` to match. ``num_workers=0`` shows the per-sample cost in-process.
"""
import sys

from harness import Workload, main

IMAGES, SIDE, BATCH = 2000, 32, 64
MEAN, STD = (0.4914, 0.4822, 0.4465), (0.2470, 0.2435, 0.2616)
INPUTS = '%d uint8 %dx%dx3 images per epoch, batch %d' % (IMAGES, SIDE, SIDE, BATCH)


def _inputs(size, rs):
    return {'images': rs.randint(0, 256, (IMAGES, SIDE, SIDE, 3)).astype('uint8'),
            'labels': rs.randint(0, 10, (IMAGES,)).astype('int32')}


def _mx_loader(workers):
    def build(mx, images, labels):
        data, transforms = mx.gluon.data, mx.gluon.data.vision.transforms
        transform = transforms.Compose([transforms.ToTensor(), transforms.Normalize(MEAN, STD)])
        dataset = data.ArrayDataset(images, labels).transform_first(transform)
        loader = data.DataLoader(dataset, batch_size=BATCH, shuffle=False, last_batch='keep',
                                 num_workers=workers)

        def epoch():
            for x, y in loader:
                pass
        return epoch
    return build


def _torch_loader(workers):
    def build(torch, images, labels):
        mean = torch.tensor(MEAN).reshape(3, 1, 1)
        std = torch.tensor(STD).reshape(3, 1, 1)

        class Images(torch.utils.data.Dataset):
            def __len__(self):
                return IMAGES

            def __getitem__(self, i):
                x = images[i].permute(2, 0, 1).float().div_(255)
                return x.sub_(mean).div_(std), labels[i]

        loader = torch.utils.data.DataLoader(Images(), batch_size=BATCH, shuffle=False,
                                             num_workers=workers,
                                             persistent_workers=workers > 0)

        def epoch():
            for x, y in loader:
                pass
        return epoch
    return build


NEEDS = ('gluon.data.DataLoader', 'gluon.data.ArrayDataset',
         'gluon.data.vision.transforms.Normalize')
WORKLOADS = [
    Workload('dataloader workers=2', _inputs, _mx_loader(2), _torch_loader(2), needs=NEEDS,
             items=IMAGES),
    Workload('dataloader workers=0', _inputs, _mx_loader(0), _torch_loader(0), needs=NEEDS,
             items=IMAGES),
]

if __name__ == '__main__':
    sys.exit(main(suite='bench_data'))
