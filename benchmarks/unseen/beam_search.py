# Python 3.11.7, NumPy 2.4.6
import itertools
import numpy as np

TOK = ["<eos>", "a", "b", "c"]
EOS = 0
# P[h, v] = p(v | 直前のトークン h)。行 0 は列の先頭（直前のトークンがない状態）を表す
P = np.array([[0.05, 0.40, 0.30, 0.25],
              [0.10, 0.10, 0.60, 0.20],
              [0.40, 0.15, 0.10, 0.35],
              [0.60, 0.05, 0.05, 0.30]])
LOGP = np.log(P)
T = 4

def show(y):
    return " ".join(TOK[v] for v in y)

def score(y):
    """得点 s(y)：各ステップの対数確率の和（定義 2.1）。"""
    return float(sum(LOGP[h, v] for h, v in zip((0,) + y[:-1], y)))

def greedy(T):
    """貪欲デコード（定義 2.2）。同点なら番号の小さいトークン。"""
    y = ()
    while len(y) < T and (not y or y[-1] != EOS):
        y += (int(np.argmax(LOGP[y[-1] if y else 0])),)
    return y

def beam_search(k, T):
    """ビームサーチ（定義 3.1）。F と B_T の（列, 得点）と、各ステップの候補の数を返す。"""
    beams, scores, finished, counts = [()], np.zeros(1), [], []
    for t in range(1, T + 1):
        last = [h[-1] if h else 0 for h in beams]
        cand_s = (scores[:, None] + LOGP[last]).ravel()      # 仮説の数 × |V| 個の得点
        cand = [h + (v,) for h in beams for v in range(len(TOK))]
        counts.append(cand_s.size)
        top = np.argsort(-cand_s, kind="stable")[:k]          # 同点は親の順、トークンの番号の順
        finished += [(cand[i], float(cand_s[i])) for i in top if cand[i][-1] == EOS]
        keep = [i for i in top if cand[i][-1] != EOS]
        beams, scores = [cand[i] for i in keep], cand_s[keep]
        if not beams:
            break
    return finished + [(h, float(s)) for h, s in zip(beams, scores)], counts

def penalty(n, alpha, kind):
    return n ** alpha if kind == "pow" else ((5 + n) / 6) ** alpha   # 定義 4.1

def pick(hyps, alpha, kind="pow"):
    return max(hyps, key=lambda h: h[1] / penalty(len(h[0]), alpha, kind))[0]

if __name__ == "__main__":
    g = greedy(T)
    print(f"greedy: {show(g)}  s = {score(g):.4f}")
    results = {}
    for k in (1, 2, 3):
        hyps, counts = beam_search(k, T)
        results[k] = hyps
        print(f"k={k}: candidates per step {counts}, total {sum(counts)}")
    print("k=1 equals greedy:", [y for y, _ in results[1]] == [g])
    for y, s in results[2]:
        print(f"  {show(y):12s} s = {s:.4f}  s/|y| = {s / len(y):.4f}")
    full = [body + (EOS,) for n in range(T) for body in itertools.product((1, 2, 3), repeat=n)]
    full += list(itertools.product((1, 2, 3), repeat=T))
    results["all"] = [(y, score(y)) for y in full]
    print("exhaustive outputs:", len(full))
    print("rule       k=1          k=2          k=3          all")
    for alpha, kind in ((0.0, "pow"), (0.6, "pow"), (1.0, "pow"), (0.6, "gnmt"), (1.0, "gnmt")):
        row = " ".join(f"{show(pick(results[k], alpha, kind)):12s}" for k in (1, 2, 3, "all"))
        print(f"{kind:4s} {alpha:.1f}  {row}".rstrip())
    print(" |y|  |y|^0.6  GNMT 0.6  GNMT 1.0")
    for n in (1, 2, 5, 10, 20, 50):
        print(f"{n:4d} {penalty(n, 0.6, 'pow'):8.4f} {penalty(n, 0.6, 'gnmt'):9.4f} {penalty(n, 1.0, 'gnmt'):9.4f}")
    per_token = 2 * 32 * 32 * 128 * 2          # K と V・層・KV ヘッド・ヘッドの次元・fp16 のバイト数
    for k in (1, 2, 4, 8):
        naive, shared = per_token * k * 2048, per_token * (1536 + k * 512)
        print(f"KV k={k}: {naive:>13,d} {shared:>13,d} bytes  ratio {naive / per_token / 2048:.2f} {shared / per_token / 2048:.2f}")
