# Python 3.11.7, NumPy 2.4.6
import numpy as np

def softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)

def loss_and_grads(E_in, E_out, s, y, W=None, c_in=1.0, c_out=1.0):
    """入力のトークン列 s から次のトークン y を予測し、交差エントロピーの和と勾配を返す。
    本体は行ごとの f(x) = tanh(W^T x)（W が None なら恒等写像）。共有するときは E_in = E_out = E。"""
    X = c_in * E_in[s]                                 # 入力側：E_in の行を取り出す (n, d)
    H = X if W is None else np.tanh(X @ W)             # 本体 (n, d)
    P = softmax(c_out * H @ E_out.T)                   # 出力側：ロジット c_out H E_out^T (n, V)
    rows = np.arange(len(y))
    loss = -np.log(P[rows, y]).sum()
    D = P.copy(); D[rows, y] -= 1                      # P - Y
    G_out = c_out * D.T @ H                            # E_out についての勾配 (V, d)
    GH = c_out * D @ E_out                             # H についての勾配
    GX = GH if W is None else (GH * (1 - H**2)) @ W.T  # X についての勾配（E_out は固定）
    G_in = np.zeros_like(E_in)
    np.add.at(G_in, s, c_in * GX)                      # E_in についての勾配：入力に現れた行だけ
    return loss, P, G_out, G_in

def numeric_grad(fun, E, eps=1e-6):
    G = np.zeros_like(E)
    for idx in np.ndindex(*E.shape):
        D = np.zeros_like(E); D[idx] = eps
        G[idx] = (fun(E + D) - fun(E - D)) / (2 * eps)
    return G

def show(name, A):
    print(name, "[" + "; ".join(" ".join("%.4f" % v for v in row) for row in np.atleast_2d(A)) + "]")

if __name__ == "__main__":
    # 4 節の手計算：V = 4、d = 2、入力トークン 3、正解 2（0 始まりで 2 と 1）
    E = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 0.0]])
    loss, P, G_out, G_in = loss_and_grads(E, E, np.array([2]), np.array([1]))
    show("p =", P); print("loss = %.4f" % loss)
    show("output part =", G_out); show("input part =", G_in); show("gradient =", G_out + G_in)

    # 乱数の E と本体 tanh(W^T x)、c_in = sqrt(d)、c_out = 1
    rng = np.random.default_rng(0)
    V, d = 6, 3
    E, W = rng.standard_normal((V, d)), rng.standard_normal((d, d))
    s, y = np.array([0, 2, 2, 4]), np.array([2, 2, 4, 1])
    kw = dict(W=W, c_in=np.sqrt(d), c_out=1.0)
    loss, P, G_out, G_in = loss_and_grads(E, E, s, y, **kw)
    tied = numeric_grad(lambda A: loss_and_grads(A, A, s, y, **kw)[0], E)
    only_in = numeric_grad(lambda A: loss_and_grads(A, E, s, y, **kw)[0], E)
    only_out = numeric_grad(lambda A: loss_and_grads(E, A, s, y, **kw)[0], E)
    print("loss = %.4f" % loss)
    print("tied:   |G_in + G_out - numeric| = %.1e" % np.abs(G_in + G_out - tied).max())
    print("input:  |G_in - numeric|         = %.1e" % np.abs(G_in - only_in).max())
    print("output: |G_out - numeric|        = %.1e" % np.abs(G_out - only_out).max())
    print("rows with input part:", np.flatnonzero(np.abs(G_in).sum(axis=1) > 0).tolist(),
          " rows with output part:", np.flatnonzero(np.abs(G_out).sum(axis=1) > 0).tolist())
    print("sum of the rows of the output part: %.1e" % np.abs(G_out.sum(axis=0)).max())
    l1 = np.abs(P - np.eye(V)[y]).sum(axis=1)
    print("|p - y|_1 - 2(1 - p_y): %.1e" % np.abs(l1 - 2 * (1 - P[np.arange(4), y])).max())
