"""The counts summed part by part, as 定理 5.1's proof and 命題 6.1 list them."""


def model_parameters(config):
    d, f = config.d, config.d_ff
    attention = 4 * d * d + (4 * d if config.bias else 0)
    mlp = 2 * d * f + ((f + d) if config.bias else 0)
    norms = 2 * 2 * d
    parts = [config.vocab * d, config.n_layer * (attention + mlp + norms), 2 * d]
    if config.positions:
        parts.append(config.n_ctx * d)
    if not config.tied:
        parts.append(config.vocab * d)
    return sum(parts)


def block_multiplications(config, n):
    d = config.d
    projections = 4 * n * d * d
    scores_and_sum = n * n * d + n * n * d
    return projections + scores_and_sum + 2 * n * d * config.d_ff
