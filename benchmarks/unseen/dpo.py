# Python 3.11.7, NumPy 2.4.6
import numpy as np

p_ref = np.array([0.4, 0.3, 0.2, 0.1])                        # 参照方策（aa, ab, ba, bb）
r = np.array([0.0, 1.0, 2.0, -1.0])                           # 真の報酬 r*
PAIRS = [(i, j) for i in range(4) for j in range(i + 1, 4)]   # 6 通りの組を等確率で
sigmoid = lambda t: 1.0 / (1.0 + np.exp(-t))

def optimal_policy(beta):
    w = p_ref * np.exp(r / beta)                              # pi_ref exp(r / beta)
    return w / w.sum(), w.sum()

def dpo_loss_grad(z, beta):
    """Bradley-Terry のラベルでの母集団の DPO 損失と、ロジット z での勾配。"""
    h = z - np.logaddexp.reduce(z) - np.log(p_ref)            # log(pi / pi_ref)
    loss, grad = 0.0, np.zeros(4)
    for i, j in PAIRS:
        q, m = sigmoid(r[i] - r[j]), beta * (h[i] - h[j])     # y_i が勝つ確率とマージン
        loss -= (q * np.log(sigmoid(m)) + (1 - q) * np.log(sigmoid(-m))) / len(PAIRS)
        grad[[i, j]] += np.array([1.0, -1.0]) * beta * (sigmoid(m) - q) / len(PAIRS)
    return loss, grad

if __name__ == "__main__":
    np.set_printoptions(precision=4, suppress=True)
    for beta in (0.25, 0.5, 1.0, 2.0, 4.0):
        p, Z = optimal_policy(beta)
        print("beta %.2f  Z %8.4f  beta*logZ %.4f  pi* %s  E[r] %.4f  KL %.4f"
              % (beta, Z, beta * np.log(Z), p, p @ r, (p * np.log(p / p_ref)).sum()))
    print("beta = 1: log(pi*/pi_ref) - r =", np.log(optimal_policy(1.0)[0] / p_ref) - r)
    z, E = np.random.default_rng(0).standard_normal(4), 1e-6 * np.eye(4)
    num = [(dpo_loss_grad(z + e, 1.0)[0] - dpo_loss_grad(z - e, 1.0)[0]) / 2e-6 for e in E]
    g = dpo_loss_grad(z, 1.0)[1]
    print("gradient vs finite difference %.1e,  sum of gradient %.1e" % (np.abs(g - num).max(), abs(g.sum())))
    q = np.array([sigmoid(r[i] - r[j]) for i, j in PAIRS])
    print("lower bound (mean binary entropy) %.6f" % -(q * np.log(q) + (1 - q) * np.log(1 - q)).mean())
    for beta in (1.0, 0.5):
        z = np.log(p_ref)                                     # pi_theta = pi_ref から始める
        start = dpo_loss_grad(z, beta)[0]
        for _ in range(3000):
            z -= 10.0 * dpo_loss_grad(z, beta)[1]
        p = np.exp(z - np.logaddexp.reduce(z))
        print("beta %.1f  loss %.4f -> %.6f  max|pi - pi*| %.1e"
              % (beta, start, dpo_loss_grad(z, beta)[0], np.abs(p - optimal_policy(beta)[0]).max()))
