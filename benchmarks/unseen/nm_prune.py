# Python 3.11.7, NumPy 2.4.6
import itertools
import numpy as np

W0 = np.array([[1.5, -0.1, -1.6, 1.4, -0.3, 0.5, 0.2, -0.4],
               [-0.6, 1.3, -1.2, 0.7, 1.0, -1.1, 0.8, 0.9]])   # 章の例（2 x 8）

def nm_mask(W, N=2, M=4):
    """各行の連続する M 個ごとに、絶対値の大きい N 個を残すマスク。"""
    G = np.abs(W).reshape(-1, M)
    keep = np.argsort(-G, axis=1, kind="stable")[:, :N]
    mask = np.zeros(G.shape, dtype=bool)
    np.put_along_axis(mask, keep, True, axis=1)
    return mask.reshape(W.shape)

def topk_mask(W, k):
    """行列全体で絶対値の大きい k 個を残すマスク（非構造）。"""
    flat = np.zeros(W.size, dtype=bool)
    flat[np.argsort(-np.abs(W), axis=None, kind="stable")[:k]] = True
    return flat.reshape(W.shape)

def compress(W, mask, M=4):
    """2:4 の圧縮形式：残した値と、グループ内の位置 0..3（各 2 ビット）。"""
    idx = np.nonzero(mask.reshape(-1, M))[1]
    return W[mask].reshape(W.shape[0], -1), idx.reshape(W.shape[0], -1)

err = lambda W, m: float((W[~m] ** 2).sum())                    # ||W - W*B||_F^2
m24 = nm_mask(W0)
vals, idx = compress(W0, m24)
cols = (np.arange(idx.shape[1]) // 2) * 4 + idx                # 元の列番号に戻す
back = np.zeros_like(W0)
np.put_along_axis(back, cols, vals, axis=1)
print("values", vals.tolist(), " index", idx.tolist(), " restored", np.array_equal(back, W0 * m24))
print("|W|^2 %.2f  err 1:2 %.2f  2:4 %.2f  4:8 %.2f  top-8 %.2f" % ((W0 ** 2).sum(), err(W0, nm_mask(W0, 1, 2)),
      err(W0, m24), err(W0, nm_mask(W0, 4, 8)), err(W0, topk_mask(W0, 8))))

rng = np.random.default_rng(0)
A = rng.standard_normal((256, 256))
pats = [np.isin(np.arange(4), p) for p in itertools.combinations(range(4), 2)]   # 6 通り
brute = np.min([((A.reshape(-1, 4) ** 2) * ~p).sum(axis=1) for p in pats], axis=0).sum()
print("6 masks per group, brute force %.6f  magnitude %.6f" % (brute, err(A, nm_mask(A))))
m, n = 4 * 4096, 4096                                           # W1^T（d_ff x d）
dense, values, meta = 2 * m * n, 2 * (m * n // 2), 2 * (m * n // 2) // 8
print("fp16 bytes: dense %d  2:4 %d + %d = %d  ratio %.4f"
      % (dense, values, meta, values + meta, (values + meta) / dense))
Z = rng.standard_normal((2048, 2048))
E = (Z ** 2).sum()
kept = lambda mask: (Z[mask] ** 2).sum() / E
print("kept energy: 2:4 %.4f  top-50%% %.4f  random 2:4 %.4f"
      % (kept(nm_mask(Z)), kept(topk_mask(Z, Z.size // 2)), kept(nm_mask(rng.random(Z.shape)))))
H = np.array([[3.0, 2.0, -1.0], [2.0, 2.0, -1.0], [-1.0, -1.0, 1.0]])
w = np.array([0.7, -0.8, 1.0])
Hinv = np.linalg.inv(H)
for q in range(3):
    dw = -w[q] / Hinv[q, q] * Hinv[:, q]                        # OBS の補正
    print("q=%d  OBD %.3f  OBS %.3f  dw %s  loss %.3f" % (q + 1, H[q, q] * w[q] ** 2 / 2,
          w[q] ** 2 / (2 * Hinv[q, q]), np.round(dw, 3) + 0.0, dw @ H @ dw / 2))
