"""SymPy derivations of the two chapters' formulas (never imports numpy).

Deriving is kept apart from judging: every function below returns SymPy
objects (expressions, matrices, or small frozen dataclasses holding them);
`symbolic.identities` decides whether a difference is zero. A chapter's stated
formula is an argument with the chapter's own as default, so a proof can pass
a wrong variant and see it rejected.

Public API, module by module (read top to bottom in dependency order)
---------------------------------------------------------------------
symbolic.symbols
    d, n, m, h, d_k, d_ff, V, L, L_ctx      positive integer Symbols (V is |V|)
    SIZES : dict[str, Expr]                 spec dimension name -> symbol
                                            (vocab, d, n_layer, h, d_head = d/h,
                                            d_ff, n_ctx, n, m = n for self-attention)
    sizes(**overrides) -> dict[str, Expr]   SIZES with some names replaced
                                            (e.g. sizes(d_ff=4*d), sizes(m=m))

symbolic.identities
    is_zero(expr) -> bool                   True only when proved zero (scalars or
                                            matrices; square roots of polynomials are
                                            reduced by their defining relation)
    equal(a, b) -> bool                     is_zero(a - b)
    Derivation(name, derived, stated, difference)   frozen; .holds -> bool
    compare(name, derived, stated) -> Derivation
    Certificate(claim, expression, certificate, difference, atoms)   frozen;
        .holds: expression - certificate reduces to 0 AND certificate is manifestly
        non-negative (a sum of positive multiples of products of squares and atoms)
    manifestly_nonnegative(expr, atoms) -> bool

symbolic.softmax                              (命題 3.2, 演習 10.2)
    softmax(z: Matrix) -> Matrix
    chapter_entry(sigma, i, j) -> Expr       sigma_i (delta_ij - sigma_j); the stated
                                            formula type EntryFormula(sigma, i, j)
    chapter_matrix(sigma: Matrix) -> Matrix  diag(sigma) - sigma sigma^T (MatrixFormula)
    simplex(n) -> tuple[Symbol, ...]         sigma_1..sigma_n (sigma_n = 1 - others
                                            via simplex_substitution(n))
    derive_softmax_jacobian(n: int, stated=chapter_entry) -> Derivation
    derive_softmax_jacobian_general(stated=chapter_entry) -> Derivation   (symbolic n)
    jacobian_asymmetry(n, jacobian=chapter_matrix) -> Matrix     J - J^T
    jacobian_times_ones(n, jacobian=chapter_matrix) -> Matrix   J 1 on the simplex
    psd_certificate(n, jacobian=chapter_matrix) -> Certificate  v^T J v as a
                                            sigma-weighted sum of squares
    entry_bound_certificates(n, jacobian=chapter_matrix) -> tuple[Certificate, ...]
                                            1 - max sigma - |J_ij| >= 0, every case
    two_by_two(jacobian=chapter_matrix) -> TwoByTwo(s, jacobian, closed_form,
                                            eigenvalues, maximiser, maximum)

symbolic.layer_norm                           (命題 3.1, 3.3, 例 3.2, 演習 11.2)
    layer_norm(x: Matrix, eps=0, gamma=None, beta=None) -> Matrix   biased variance
    unbiased_layer_norm(x, eps=0) -> Matrix  the wrong variant (divides by d - 1)
    chapter_jacobian(y: Matrix, sigma: Expr) -> Matrix   (1/sigma)(I - 11^T/d - yy^T/d)
    derive_layer_norm_jacobian(d: int, stated=chapter_jacobian, normalise=layer_norm,
                               eps=0) -> Derivation      fast: square roots -> symbols
    derive_layer_norm_jacobian_general(stated_entry=...) -> Derivation    symbolic d
    layer_norm_jacobian(d: int, eps=0, normalise=layer_norm) -> (x, Matrix J)
    JacobianProperties(d, eps, times_ones, times_centred, asymmetry, idempotence,
                       trace, scaling, on_centred)          frozen, SymPy objects
    jacobian_properties(d: int, eps=0, normalise=layer_norm) -> JacobianProperties
    invariance_difference(d: int, normalise=layer_norm) -> Matrix    LN(ax+b1) - LN(x)
    Moments(mean, variance, norm) ; moments(d, g, b) -> Moments  (演習 11.2, explicit d)
    moments_general() -> Moments             symbolic d (Sum over IndexedBase)

symbolic.counts                               (命題 7.1, 7.2, 定理 5.1, 命題 6.1, 演習 11.4)
    parameter_polynomial(params: Iterable[spec.Parameter], sizes=SIZES) -> Expr
    attention_parameters(bias=True) -> Expr               4d^2 + 4d
    block_parameters(bias=True, d_ff=d_ff) -> Expr
    model_parameters(bias=True, tied=True, positions=True) -> Expr
    model_parameter_parts(...) -> dict[str, Expr]   the 定理 5.1 groups, in order
    multiplications(contractions, sizes=SIZES) -> Expr
    contraction_multiplications(contractions, sizes) -> dict[str, Expr]
    attention_multiplications(contractions=ATTENTION) -> Expr   4nd^2 + 2n^2 d
    block_multiplications(contractions=BLOCK, d_ff=d_ff) -> Expr
    lm_head_multiplications() -> Expr                   n d |V|
    attention_weights_memory() -> Expr                  h n^2
    linear_quadratic(poly, var=n) -> (linear term, quadratic term)
    crossover(poly, var=n) -> Expr           n where the two terms are equal (solved)
    doubling_ratio(poly, var=n) -> Expr      poly(2n)/poly(n), cancelled
    Convention(name, source, expression, flops_per_multiplication, scope, notes)
    kaplan_forward(), chinchilla_forward(), palm_training() -> Convention
    ConventionComparison(convention, ours, difference, explanation)
    compare_convention(convention) -> ConventionComparison

symbolic.gelu                                 (命題 8.1 (2))
    t ; gelu(t) -> Expr ; Phi(t), phi(t)
    derivatives() -> (first, second)         derived from t Phi(t)
    chapter_first(t), chapter_second(t)      Phi + t phi, (2 - t^2) phi
    second_derivative_zeros(second=None) -> set  {-sqrt 2, sqrt 2}

symbolic.probability                          (命題 4.4, 補題 A.1)
    dot_product_moments(d_k: int | Symbol, distribution=...) -> DotMoments(mean,
                                            variance, scaled_variance)
    product_expectation(variables) -> (E[prod], prod E)

symbolic.mask                                 (命題 3.3 [self-attention], 演習 10.3)
    masked_softmax(z: Matrix, allowed: set[int]) -> Matrix
    mask_limit(n, allowed) -> (limit of sigma(z - c m), sigma^U(z))
    mask_bound(n, allowed, i) -> Certificate  bound - sigma_i >= 0, e^(-c) form

symbolic.residual                             (命題 4.1, 演習 11.3)
    pre_ln_product(M, l) -> Expr             (I + J_M)...(I + J_{l+1}), expanded
    ResidualExpansion(terms, bare_identity_count, distinct)
    expand_product(expr) -> ResidualExpansion
    post_ln_product(M, l) -> Expr            K_M (I + D_M) ... K_{l+1}(I + D_{l+1})
    d_free_term(expr) -> Expr

symbolic.printing
    ChapterLatexPrinter(LatexPrinter)        the chapters' notation
    chapter_latex(expr, order=None) -> str
    normalise_tex(s) -> str                  whitespace, \\, and redundant braces removed
"""
