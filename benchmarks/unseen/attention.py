# Python 3.12.14, NumPy 2.5.2
import numpy as np

def softmax(z):
    """最後の軸に沿った softmax。最大値を引いてから指数を取る（平行移動不変性）。"""
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)

def init_params(d, h, rng):
    dk = d // h
    p = {name: rng.standard_normal((h, d, dk)) / np.sqrt(d) for name in ("WQ", "WK", "WV")}
    p.update({name: 0.1 * rng.standard_normal((h, dk)) for name in ("bQ", "bK", "bV")})
    p["WO"] = rng.standard_normal((d, d)) / np.sqrt(d)
    p["bO"] = 0.1 * rng.standard_normal(d)
    return p

def self_attention(X, p, causal=False):
    """マルチヘッド自己注意。X は (n, d)。出力 (n, d) と重み (h, n, n) を返す。"""
    n, d = X.shape
    h, _, dk = p["WQ"].shape
    Q = np.einsum("nd,hdk->hnk", X, p["WQ"]) + p["bQ"][:, None, :]
    K = np.einsum("nd,hdk->hnk", X, p["WK"]) + p["bK"][:, None, :]
    V = np.einsum("nd,hdk->hnk", X, p["WV"]) + p["bV"][:, None, :]
    S = np.einsum("hik,hjk->hij", Q, K) / np.sqrt(dk)
    if causal:
        S = np.where(np.tril(np.ones((n, n), dtype=bool)), S, -np.inf)
    A = softmax(S)
    H = np.einsum("hij,hjk->hik", A, V)            # (h, n, dk)
    Hcat = H.transpose(1, 0, 2).reshape(n, h * dk)  # ヘッドの出力を連結
    return Hcat @ p["WO"] + p["bO"], A

if __name__ == "__main__":
    rng = np.random.default_rng(0)
    n, d, h = 6, 8, 2
    p = init_params(d, h, rng)
    X = rng.standard_normal((n, d))
    print("params:", sum(a.size for a in p.values()), "= 4d^2+4d =", 4 * d * d + 4 * d)

    perm = rng.permutation(n)
    Y, A = self_attention(X, p)
    Yp, _ = self_attention(X[perm], p)
    print("equivariance   max|f(PX) - P f(X)| = %.1e" % np.abs(Yp - Y[perm]).max())
    Yc, Ac = self_attention(X, p, causal=True)
    Ycp, _ = self_attention(X[perm], p, causal=True)
    print("causal, permuted max|f(PX) - P f(X)| = %.1e" % np.abs(Ycp - Yc[perm]).max())

    X2 = X.copy(); X2[4:] = rng.standard_normal((2, d))   # 5・6 番目のトークンを変える
    Yc2, _ = self_attention(X2, p, causal=True)
    Y2, _ = self_attention(X2, p)
    print("causal    rows 1-4 change: %.1e" % np.abs(Yc2[:4] - Yc[:4]).max())
    print("no mask   rows 1-4 change: %.1e" % np.abs(Y2[:4] - Y[:4]).max())
    pre = max(np.abs(self_attention(X[:t], p, causal=True)[0][t - 1] - Yc[t - 1]).max() for t in range(1, n + 1))
    print("prefix consistency: %.1e" % pre)

    Vh = np.einsum("nd,hdk->hnk", X, p["WV"]) + p["bV"][:, None, :]
    Hh = np.einsum("hij,hjk->hik", Ac, Vh)
    print("weights >= 0:", bool((Ac >= 0).all()), " row sums - 1: %.1e" % np.abs(Ac.sum(-1) - 1).max(),
          " upper triangle max: %.1e" % np.abs(np.triu(Ac, 1)).max())
    print("max row norm of head output %.4f <= max row norm of V %.4f"
          % (np.linalg.norm(Hh, axis=-1).max(), np.linalg.norm(Vh, axis=-1).max()))
