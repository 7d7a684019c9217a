"""SymPy derivations of the two chapters' formulas (never imports numpy).

Deriving is kept apart from judging: every function below returns SymPy
objects (expressions, matrices, or small frozen dataclasses holding them);
`symbolic.identities` decides whether a difference is zero. A chapter's stated
formula is an argument with the chapter's own as default, so a proof can pass
a wrong variant and see it rejected.

Public API, module by module (in dependency order)
--------------------------------------------------
symbolic.symbols
    d, n, m, h, d_k, d_ff, V, L, L_ctx      positive integer Symbols (V is |V|)
    SIZES : dict[str, Expr]                 spec dimension name -> symbol (vocab, d,
                                            n_layer, h, d_head = d/h, d_ff, n_ctx, n,
                                            m = n for self-attention)
    sizes(**overrides) -> dict              SIZES with some names replaced

symbolic.radicals                             square roots of polynomials as symbols
    radical_numerator(expr) -> Expr         numerator, sqrt(b) as r with r^2 = b, powers of
                                            r reduced: 0 only when expr is 0
    RadicalField(exprs, variables)          polynomials in x, sqrt(b) and 1/sqrt(b):
        .element(expr), .jacobian(fs, xs), .diff(f, x), .evaluate(expr, values, inverses),
        .reduce(f), .is_zero(f), .value(f), .to_expr(f)

symbolic.polynomials                          exact polynomials at explicit sizes
    SparsePolynomial                        polynomials over Q in numbered variables, a
                                            monomial stored as its (variable, power) pairs
    EntryPattern(expr, x_i, x_j, delta, further)   an (i, j) entry formula, written out
                                            at explicit (a, b) as a SparsePolynomial

symbolic.quotients
    SimplexQuotient(n), SphereQuotient(d)   .reduce(f), .is_zero(f) on the simplex
                                            (sum p = 1), resp. on LN's outputs (sum y = 0,
                                            sum y^2 = d, s u = 1; a Groebner normal form)

symbolic.identities                           the judge
    is_zero(expr | Matrix) -> bool          True only when proved zero; square roots of
                                            polynomials become symbols r with r^2 = b
    equal(a, b) -> bool                     is_zero(a - b); matrices of other shapes differ
    is_nonzero(expr) -> bool                 a constant proved non-zero (minimal polynomial)
    Derivation(name, derived, stated, difference, holds)   .derived/.stated/.difference
                                            may be built lazily (16 x 16 matrices)
    compare(name, derived, stated) -> Derivation

symbolic.certificates                         non-negativity
    Certificate(claim, expression, certificate, difference, atoms)   frozen;
        .identity_holds, .nonnegative, .holds
    manifestly_nonnegative(expr, atoms) -> bool
    simplex_certificate(claim, slack, variables) -> Certificate   slack >= 0 where the
                                            variables are >= 0 and sum to 1: homogenised,
                                            times (sum)^N (Polya), non-negative coefficients

symbolic.sums                                 sums over a symbolic range 1..n
    indices_in_range(expr, indices, upper)  Piecewise conditions 1 <= i <= upper -> True
    normalise_sums(expr, n, facts, indices) limits c or n + c (c an integer) become sums
                                            over 1..n plus end terms, subscripts shifted
                                            back, sums split, delta-sums evaluated, the
                                            rest named; other limits stay unnamed sums;
                                            facts: sum over 1..n -> value
    collapse_deltas(expr)                   delta_ij f(i, j) -> delta_ij f(i, i)

symbolic.softmax                              命題 3.2, 演習 10.2
    softmax(z: Matrix) -> Matrix
    chapter_entry(sigma, i, j)              sigma_i (delta_ij - sigma_j)  (EntryFormula)
    chapter_matrix(sigma: Matrix)           diag(sigma) - sigma sigma^T   (MatrixFormula)
    simplex(n), simplex_substitution(n)     sigma_1..sigma_n; sigma_n -> 1 - the others
    derive_softmax_jacobian(n, stated=chapter_entry) -> Derivation        explicit n
                                            (proved_entry at each (i, j), n <= SIZE_LIMIT)
    derive_softmax_jacobian_by_differentiation(n, stated) -> Derivation   SymPy's
                                            Jacobian of softmax (n <= DIFFERENTIATION_LIMIT)
    derive_softmax_jacobian_general(stated=chapter_entry) -> Derivation   symbolic n
    proved_entry() -> Expr                  the symbolic-n entry in sigma_i, sigma_j, delta
    general_properties(stated=chapter_entry) -> dict[str, Expr]   symbolic n: J symmetric,
                                            J 1 = 0, v^T J v = sum_i sigma_i (v_i - m)^2
                                            (each value 0 when it holds)
    jacobian_asymmetry(n, jacobian=chapter_matrix) -> Matrix   J - J^T
    jacobian_times_ones(n, jacobian=chapter_matrix) -> Matrix  J 1 on the simplex
    psd_certificate(n, jacobian=chapter_matrix) -> Certificate   sum sigma_i (v_i - m)^2
    entry_bound_certificates(n, jacobian=chapter_matrix) -> tuple[Certificate, ...]
    entry_bound_general(stated=chapter_entry, bound=chapter_bound) -> EntryBoundProof(
        claim, cases)                       symbolic n: the five INDEX_PATTERNS of i, j, k,
                                            each a BoundCase(pattern, relations, quantities,
                                            hypotheses, entry, certificates); .holds
    two_by_two(jacobian=chapter_matrix) -> TwoByTwo(s, jacobian, closed_form,
                                            eigenvalues, maximiser, maximum)
    is_maximum(TwoByTwo) -> bool

symbolic.layer_norm_definition                定義 2.1
    variables(d), mean(x), variance(x)      biased variance, as in 定義 2.1
    layer_norm(x, eps=0, gamma=None, beta=None) -> Matrix
    unbiased_layer_norm(x, eps=0)           the wrong variant (divides by d - 1)
    layer_norm_jacobian(d, eps=0, normalise=layer_norm) -> (x, J)   SymPy's Jacobian
    chapter_jacobian(y, sigma) -> Matrix    (1/sigma)(I - 11^T/d - yy^T/d)
    output_symbols(d) -> (y, sigma)         the chapter's own symbols

symbolic.layer_norm_general                   命題 3.3 for symbolic d
    chapter_entry(y_i, y_j, delta, sigma, d); derive_layer_norm_jacobian_general(
        stated_entry=chapter_entry) -> Derivation
    indexed_layer_norm(x, k, S, Q); indexed_sums() -> IndexedSums(x, S, Q, k_range)
    proved_entry() -> Expr                  the symbolic-d entry in y_i, y_j, delta, sigma
    output_sums() -> (sum y_k, sum y_k^2)     symbolic d, from the definition: (0, d)
    general_jacobian_properties(stated_entry=chapter_entry) -> dict[str, Expr]   symbolic
        d: "J 1 = 0", "J y = 0", "s J symmetric", "s J idempotent", "tr(s J) = d - 2"

symbolic.layer_norm_differentiation           命題 3.3 by differentiation
    derive_layer_norm_jacobian_by_differentiation(d, stated, normalise, eps)   on the
                                            RadicalField (d <= DIFFERENTIATION_LIMIT)
    JacobianProperties(d, eps, defects, holds), keys in PROPERTY_NAMES ("J 1 = 0",
        "J c = 0", "J c = eps c / s^3", "s J symmetric", "s J idempotent",
        "tr(s J) = d - 2", "J(a x) = J(x) / a", "J = 0")
    jacobian_properties_by_differentiation(d, eps=0, normalise=layer_norm)
        (d <= DIFFERENTIATED_PROPERTIES_LIMIT)
    scaling_witness(d, eps, normalise) -> Matrix   J(2x) - J(x)/2 at x = e_1 - e_2

symbolic.layer_norm_explicit                  命題 3.3 at explicit widths
    derive_layer_norm_jacobian(d, stated=chapter_jacobian, normalise=layer_norm, eps=0)
        -> Derivation                       proved_entry at each (i, j) on LN's outputs
                                            (d <= SIZE_LIMIT; d = 64 in a second)
    jacobian_properties(d, eps=0, normalise=layer_norm, stated=None) -> JacobianProperties
        of stated(y, sigma) when given (d <= PROPERTIES_LIMIT); eps != 0 or another
        normalisation: by differentiation

symbolic.layer_norm_moments                   命題 3.1, 演習 11.2
    invariance_difference(d, normalise=layer_norm) -> Matrix    LN(ax + b1) - LN(x)
    moments(d, g=None, b=None) -> Moments(mean, variance, norm); moments_general()

symbolic.layer_norm                           the names above that the chapters' checks read

symbolic.counts                               命題 7.1, 7.2, 定理 5.1, 命題 6.1, 演習 11.4
    parameter_polynomial(params, sizes=SIZES) -> Expr
    attention_parameters(bias=True); block_parameters(bias=True, width=d_ff)
    model_parameters(bias=True, tied=True, positions=True, width=d_ff)
    model_parameter_parts(bias, tied, positions) -> dict   定理 5.1's groups, in order
    contraction_multiplications(contractions, sizes) -> dict[name, Expr]
    multiplications(contractions, sizes=SIZES) -> Expr
    attention_multiplications(contractions=ATTENTION); block_multiplications(
        contractions=BLOCK, width=d_ff); lm_head_multiplications();
        model_multiplications(width=d_ff); attention_weights_memory()
    linear_quadratic(poly, var=n); crossover(poly, var=n); quadratic_share(poly, var=n)
    doubling_ratio(poly, var=n); doubling_limit(poly, var=n)

symbolic.flops                                the published FLOP conventions (docs/flops.md)
    forward_terms(switches, sizes=SIZES) -> dict[name, Expr]   the declared contractions
                                            under spec.flop_conventions.Switches, term by term
    forward_flops(switches, sizes); training_flops(switches, sizes)   (3 forward passes)
    explain(a, b, sizes) -> list[Step(switch, before, after, flops)]   forward(a) -
                                            forward(b), one switch at a time (exact)
    layer_norms(sizes) -> 2L + 1; values(config sizes, tokens) -> {symbol: int}

symbolic.gelu                                 命題 8.1 (2)
    t, Phi(x), phi(x), gelu(x); derivatives() -> (GELU', GELU'')
    chapter_first(x), chapter_second(x); second_derivative_zeros(second=chapter_second)

symbolic.probability                          命題 4.4, 補題 A.1
    standard_normal, rademacher, centred_uniform; DISTRIBUTIONS
    dot_product_moments(d_k: int | Symbol, distribution=standard_normal)
        -> DotMoments(mean, variance, scaled_variance)
    product_expectation(variables) -> (E[prod X_i] on the joint law, prod E[X_i])
    dot_product_variance(d_k, mean=0, second_moment=1) -> VarianceDerivation(steps,
        hypotheses, mean, variance, scaled_variance)   from generic moments mu, nu;
        each Step(claim, lhs, rhs, reason, difference, factors, conditions) .holds
    independent_expectation(monomial, conditions) -> Step   補題 A.1 on one monomial
    linear_expectation(expr, bases) -> Expr  E pushed through sums, + and constants

symbolic.mask                                 the mask as a limit and its bound
    logits(n); masked_softmax(z, allowed); shifted_softmax(z, allowed, c)
    mask_limit(n, allowed, target=masked_softmax) -> MaskLimit(limit, masked, holds)
    mask_bound(n, allowed, i) -> Certificate   e^(-c) e^(z_i) / sum_U e^z - sigma_i >= 0

symbolic.residual                             命題 4.1, 演習 11.3
    jacobians(name, M, start); pre_ln_product(M, start); post_ln_product(M, start)
    expand_product(expr) -> ResidualExpansion(terms, bare_identity_count, distinct)
    d_free_term(expr)

symbolic.arrangements                         命題 8.1 (1), exact rational arithmetic
    activation regions of a ReLU layer: Fourier-Motzkin feasibility of each pattern,
    region counts, general position, the bound sum_{i <= d} C(m, i)

symbolic.printing
    ChapterLatexPrinter(term_order=(), factor_order=FACTOR_ORDER)
    chapter_latex(expr, term_order=(), factor_order=FACTOR_ORDER) -> str
    softmax_jacobian_expression(size=n); layer_norm_jacobian_expression(size=d)
    model_parameters_latex(parts) -> str     定理 5.1 with its groups kept apart
    normalise_tex(s) -> str                  drops spacing, sizing and redundant braces

symbolic.kept                                 what the persistent cache (`cache`) keeps
    EXPRESSION, expressions(count), matrix(rows, columns)   codecs: SymPy values as JSON
        over an allow-list of nodes, rebuilt unevaluated; anything else NotKept
    encode_expressions(exprs), decode_expressions(data); polynomials_key(rows) -> str
"""
