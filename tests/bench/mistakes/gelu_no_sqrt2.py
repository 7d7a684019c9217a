"""A reader's slip: gelu no sqrt2; rejected, naming def-transformer-block."""


def gelu(t):
    from scipy.special import erf

    return 0.5 * t * (1 + erf(t))
