"""softmax as plain Python lists, row by row, the maximum subtracted (math.exp)."""

import math

import numpy as np


def softmax(z):
    arr = np.asarray(z, dtype=np.float64)
    rows = arr.reshape(-1, arr.shape[-1]).tolist()
    out = []
    for row in rows:
        top = max(row)
        e = [math.exp(v - top) for v in row]
        total = math.fsum(e)
        out.append([v / total for v in e])
    return np.array(out).reshape(arr.shape).tolist()
