# Python 3.11.7, NumPy 2.4.6。attention.py は「自己注意」の章 8 節のコード
import numpy as np
from attention import softmax, init_params, self_attention

def proj(X, p, w):
    """X (n, d) に p["W"+w] (ヘッド数, d, dk) を掛けてバイアスを足す。(ヘッド数, n, dk)。"""
    return np.einsum("nd,hdk->hnk", X, p["W" + w]) + p["b" + w][:, None, :]

def gqa(X, p, causal=False):
    """グループ化クエリ注意。WQ は (h, d, dk)、WK と WV は (g, d, dk)。"""
    n = X.shape[0]
    h, _, dk = p["WQ"].shape
    kappa = np.arange(h) // (h // p["WK"].shape[0])   # ヘッド a が使う KV ヘッド（0 始まり）
    S = np.einsum("hik,hjk->hij", proj(X, p, "Q"), proj(X, p, "K")[kappa]) / np.sqrt(dk)
    if causal:
        S = np.where(np.tril(np.ones((n, n), dtype=bool)), S, -np.inf)
    H = np.einsum("hij,hjk->hik", softmax(S), proj(X, p, "V")[kappa])
    return H.transpose(1, 0, 2).reshape(n, h * dk) @ p["WO"] + p["bO"]

def mean_pool(p, g):
    """WK, WV, bK, bV をグループごとに平均して、KV ヘッドを g 個にする。"""
    h = p["WK"].shape[0]
    return dict(p, **{w: p[w].reshape(g, h // g, *p[w].shape[1:]).mean(axis=1)
                      for w in ("WK", "WV", "bK", "bV")})

def decode(X, p):
    """因果マスクつきで 1 行ずつ計算する。キャッシュは KV ヘッドごとのキーとバリュー。"""
    h, _, dk = p["WQ"].shape
    kappa = np.arange(h) // (h // p["WK"].shape[0])
    Kc, Vc, rows = [], [], []
    for x in X[:, None, :]:                             # x は (1, d)
        Kc.append(proj(x, p, "K")); Vc.append(proj(x, p, "V"))
        K, V = np.concatenate(Kc, axis=1), np.concatenate(Vc, axis=1)   # (g, i, dk)
        a = softmax(np.einsum("hk,hjk->hj", proj(x, p, "Q")[:, 0], K[kappa]) / np.sqrt(dk))
        rows.append(np.einsum("hj,hjk->hk", a, V[kappa]).reshape(-1) @ p["WO"] + p["bO"])
    return np.array(rows), K.size + V.size

if __name__ == "__main__":
    rng = np.random.default_rng(0)
    n, d, h = 6, 8, 4
    p = init_params(d, h, rng)                          # 4 ヘッドの MHA のパラメータ
    X = rng.standard_normal((n, d))
    for causal in (False, True):
        diff = np.abs(gqa(X, p, causal) - self_attention(X, p, causal)[0]).max()
        print(f"g = h vs MHA (causal={causal}): max diff {diff:.1e}")
    for g in (4, 2, 1):
        q = mean_pool(p, g)
        rows, cached = decode(X, q)
        print(f"g = {g}: params {sum(a.size for a in q.values())} = {2 * (h + g) * (d * d + d) // h},"
              f" cache {cached} = {2 * n * g * (d // h)},"
              f" decode vs full {np.abs(rows - gqa(X, q, True)).max():.1e}")
    q2 = mean_pool(p, 2)
    q4 = dict(q2, **{w: np.repeat(q2[w], 2, axis=0) for w in ("WK", "WV", "bK", "bV")})
    print(f"g = 2 copied to g = 4: max diff {np.abs(gqa(X, q4) - gqa(X, q2)).max():.1e},"
          f" pooled back to g = 2: {np.abs(gqa(X, mean_pool(q4, 2)) - gqa(X, q4)).max():.1e}")
    K, Y = proj(X, p, "K"), gqa(X, p)                   # 4 つのヘッドのキー (h, n, dk) と出力
    for g in (2, 1):
        Kg = K.reshape(g, h // g, n, -1)
        pooled = ((Kg - Kg.mean(axis=1, keepdims=True)) ** 2).sum()
        first = ((Kg - Kg[:, :1]) ** 2).sum()
        change = np.linalg.norm(gqa(X, mean_pool(p, g)) - Y) / np.linalg.norm(Y)
        print(f"g = {g}: key error mean-pool {pooled:.4f}  first head {first:.4f}"
              f"  ratio {first / pooled:.4f}  output change {change:.4f}")
