"""A reader's slip: ln divide by variance; rejected, naming def-layer-norm."""


def layer_norm(x, gamma, beta, eps):
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return gamma * (x - mu) / (var + eps) + beta
