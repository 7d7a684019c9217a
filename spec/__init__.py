"""Declarations shared by symbolic/ and numeric/: plain Python, no NumPy, no SymPy.

The model's parameters are declared once as shapes over named hyper-parameters
(`spec.parameters`), and the forward pass's contractions once as einsum
subscripts over named dimensions (`spec.contractions`). symbolic/ turns both
into polynomials; numeric/ allocates and runs them. A count in a table and the
arrays of a real model therefore cannot drift apart. `spec.checks` holds the
argument checks of sizes, switches and eps that both sides share.
"""

from spec.config import ModelConfig
from spec.contractions import Contraction
from spec.parameters import Parameter, model_parameters

__all__ = ["Contraction", "ModelConfig", "Parameter", "model_parameters"]
