"""Cases for mxcompat/ops/elemwise_arith.py."""
import numpy as np

from . import case, rng

CASES = [
    case('elemwise_add', 'elemwise_add', [rng('ea').randn(2, 3).astype(np.float32),
                                          rng('eb').randn(2, 3).astype(np.float32)], grad=[0, 1]),
]
