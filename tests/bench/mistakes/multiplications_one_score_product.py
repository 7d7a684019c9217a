"""A reader's slip: multiplications one score product; rejected, naming prop-block-complexity."""


def block_multiplications(config, n):
    d, f = config.d, config.d_ff
    return 4 * n * d * d + n * n * d + 2 * n * d * f
