"""A reader's slip: count untied always; rejected, naming thm-transformer-parameters."""


def model_parameters(config):
    d, f, L = config.d, config.d_ff, config.n_layer
    per = 4 * d * d + 2 * d * f + 4 * d
    if config.bias:
        per += 4 * d + f + d
    total = config.vocab * d + L * per + 2 * d
    if config.positions:
        total += config.n_ctx * d
    total += config.vocab * d
    return total
