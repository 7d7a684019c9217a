"""The evaluator's bounds: what would cost unbounded time or memory (a tower of powers,
deep nesting, a literal past Python's int limit, a member of many tokens) raises
TooLarge, a NotNumeric, before the cost is paid, and the audit reports it as a "not
checkable" equality; values beyond the float range print in scientific notation."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from proofs.audit.rules.equalities import audit_statement
from proofs.tex import arithmetic as tex_arithmetic
from proofs.tex.arithmetic import (
    MAX_CHARS,
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_TOKENS,
    NotNumeric,
    TexArithmetic,
    TooLarge,
    evaluate,
    gap,
    show,
)


def too_large(tex: str) -> str:
    """The TooLarge message of evaluating tex."""
    with pytest.raises(TooLarge) as raised:
        TexArithmetic(tex, {}).evaluate()
    message = str(raised.value)
    assert message.startswith("too large: ")
    return message


TOO_LARGE = [
    (r"10^{10^{10^{10}}}", "exponent 1e+10"),
    (r"10^{-10^{10}}", "exponent -1e+10"),
    (r"2^{10^{7}}", "exponent 1e+07"),
    (r"10^{3999} \times 10^{3999}", "10^{7998}"),
    (r"\frac{1}{10^{3999}}\cdot\frac{1}{10^{3999}}", "10^{-7998}"),
    (r"2^{20000}", "10^{6021}"),
    (r"e^{100000}", "e^{x} with x about 1e+05"),
    (r"\exp{10^{10}}", "e^{x} with x about 1e+10"),
    (r"e^{e^{e^{e^{10}}}}", "e^{x} with x about 2.2e+04"),
    ("(" * 200 + "1" + ")" * 200, f"nested deeper than {MAX_DEPTH} levels"),
    (r"\sqrt{" * 60 + "2" + "}" * 60, f"nested deeper than {MAX_DEPTH} levels"),
    (r"\frac" * 60 + "11" * 60, f"nested deeper than {MAX_DEPTH} levels"),
    ("9" * 4301, f"4301 digits exceeds the limit of {MAX_DIGITS}"),
    ("0." + "0" * MAX_DIGITS + "1", f"{MAX_DIGITS + 2} digits"),
    ("1" + "+1" * MAX_TOKENS, f"more than {MAX_TOKENS} tokens"),
    (r"\," * MAX_CHARS + "1", f"{2 * MAX_CHARS + 1} characters exceed the limit of"),
]
TOO_LARGE_IDS = [
    "tower-of-powers",
    "tower-of-negative-powers",
    "huge-exponent",
    "product-beyond-the-limit",
    "product-below-the-limit",
    "power-beyond-the-limit",
    "exponential",
    "exp-of-a-power",
    "tower-of-exponentials",
    "200-nested-parentheses",
    "60-nested-roots",
    "60-nested-fractions",
    "4301-digit-literal",
    "1002-digit-decimal",
    "1001-tokens",
    "20001-characters",
]


SYMBOLIC_BOUNDED = [
    r"(d + 1)^{1000}/d",
    r"d^{10^{10^{10}}}/d",
    r"\frac{d}{d}\, 10^{3999}\, 10^{3999}",
    r"(d/d)\,((10^{100})^{100})^{100}",
    r"e^{e^{9000}} d/d",
    r"e^{\log 0}\, d/d",
    "d/d" + "+d" * 200,
    r"(d + 1)^{60} (d + 2)^{60} / d",
]


MEASURED = Path(__file__).resolve().parents[1] / "measured_work.py"


def measured_work(cases: list[tuple[str, str]]) -> list[tuple[int, int, bool]]:
    """The profile events, peak traced memory in bytes, and whether NotNumeric was
    raised, of each (reading, tex) evaluated in a process of its own
    (tests/measured_work.py): the work done, counted, where a time would measure the
    host as well."""
    done = subprocess.run(
        [sys.executable, "-P", str(MEASURED)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return [tuple(row) for row in json.loads(done.stdout)]


@pytest.fixture(scope="module")
def work() -> dict[tuple[str, str], tuple[int, int, bool]]:
    """Every bounded case of this module measured once, in one process of its own."""
    cases = [("arithmetic", tex) for tex, _ in TOO_LARGE] + [
        ("symbolic", tex) for tex in SYMBOLIC_BOUNDED
    ]
    return dict(zip(cases, measured_work(cases), strict=True))


def assert_cheap(tex: str, events: int, peak: int, raised: bool) -> None:
    """Evaluating tex raised NotNumeric after work linear in the text and little memory:
    at most 100 events a character (the chapters' members take 1 to 45) and 1 MB, where
    the costly step each bound prevents takes millions of calls (SymPy's expand,
    simplify) or gigabytes (a power of ten to the 10^10)."""
    assert raised, tex
    assert events <= 100 * len(tex) + 10_000, events
    assert peak <= 2**20, peak


@pytest.mark.parametrize("tex, names", TOO_LARGE, ids=TOO_LARGE_IDS)
def test_what_exceeds_a_bound_is_too_large_and_says_which(tex, names, work):
    assert_cheap(tex, *work["arithmetic", tex])  # the costly step is not taken
    assert names in too_large(tex)


def test_too_large_is_not_numeric():
    assert issubclass(TooLarge, NotNumeric)


@pytest.mark.parametrize(
    "tex, expected",
    [
        ("9" * MAX_DIGITS, "1e+1000"),
        (r"2^{10000}", "1.99506e+3010"),
        (r"10^{3999}", "1e+3999"),
        (r"10^{-3999}", "1e-3999"),
        ("(" * (MAX_DEPTH - 1) + "1" + ")" * (MAX_DEPTH - 1), "1"),
        ("1" + "+1" * (MAX_TOKENS // 2 - 1), f"{MAX_TOKENS // 2}"),
        (r"e^{9000}", "4.4703e+3908"),
    ],
    ids=["1000-digits", "large-power", "big", "small", "49-groups", "999-tokens", "e-9000"],
)
def test_what_is_within_the_bounds_is_evaluated(tex, expected):
    assert show(TexArithmetic(tex, {}).evaluate()) == expected


@pytest.mark.parametrize(
    "tex", [r"0^{-1}", r"(1 - 1)^{-2}", r"(0.5 - 0.5)^{-1}", r"(-0.1 + 0.1)^{-3}"]
)
def test_a_negative_power_of_zero_is_not_a_number(tex):
    with pytest.raises(NotNumeric, match="negative power of an interval containing 0"):
        TexArithmetic(tex, {}).evaluate()


def test_a_loose_integer_of_many_digits_is_exact_not_a_float():
    big = TexArithmetic("1" * 400, {}, loose_integers=True).evaluate()
    assert show(big) == "1.11111e+399"
    # 10^17 + 1 ± 0.5 does not contain 10^17: as floats, both ends were 10^17 (a power alone
    # beside ≈ stands for its exponent rounded: 10 × 10^16 is exact)
    statement = r"10 \times 10^{16} \approx 100000000000000001"
    assert [f.status for f in audit_statement(1, statement, {})] == ["mismatched"]


def test_a_loose_result_in_scientific_notation_rounds_its_mantissa_only():
    # beside ≈ a printed integer is a rounded result, but the 10 and the -4 of
    # 3.354 × 10^{-4} are exact: the number stands for 3.3535e-4 to 3.3545e-4
    (value,) = TexArithmetic(r"3.354 \times 10^{-4}", {}, loose_integers=True).evaluate().items
    assert 3.3534e-4 < value.a < 3.3536e-4 < 3.3544e-4 < value.b < 3.3546e-4
    (wide,) = TexArithmetic(r"3 \times 10^{-4}", {}, loose_integers=True).evaluate().items
    assert 2.49e-4 < wide.a < 2.51e-4 < 3.49e-4 < wide.b < 3.51e-4  # the mantissa 3 is loose
    assert [f.status for f in audit_statement(1, r"e^{-8} \approx 3.355 \times 10^{-4}", {})] == [
        "confirmed"
    ]
    assert [f.status for f in audit_statement(1, r"e^{-8} \approx 3.354 \times 10^{-4}", {})] == [
        "mismatched"
    ]
    assert [f.status for f in audit_statement(1, r"e^{-8} \approx 3 \times 10^{-4}", {})] == [
        "confirmed"
    ]


def test_values_beyond_the_float_range_print_in_scientific_notation():
    big, bigger = (TexArithmetic(t, {}).evaluate() for t in (r"10^{400}", r"10^{401}"))
    assert (show(big), show(bigger), gap(big, bigger)) == ("1e+400", "1e+401", "9e+400")
    tiny, tinier = (TexArithmetic(t, {}).evaluate() for t in (r"10^{-400}", r"10^{-401}"))
    assert (show(tiny), show(tinier), gap(tiny, tinier)) == ("1e-400", "1e-401", "9e-401")
    assert show(TexArithmetic(r"-2.5 \times 10^{-500}", {}).evaluate()) == "-2.5e-500"
    assert show(TexArithmetic(r"9.9999999 \times 10^{999}", {}).evaluate()) == "1e+1000"
    vector = TexArithmetic(r"(10^{400}, 0.5)", {}).evaluate()
    assert show(vector) == "(1e+400, 0.5)"


@pytest.mark.parametrize("tex", [r"e^{0.7071}", "0", r"10^{-5}", r"-1/3", r"2^{100}", r"0.5^{900}"])
def test_values_in_the_float_range_print_as_a_float_would(tex):
    (x,) = TexArithmetic(tex, {}).evaluate().items
    assert show(TexArithmetic(tex, {}).evaluate()) == f"{float(((x.a + x.b) / 2).a):.6g}"


def test_evaluation_is_kept_for_identical_members_and_errors_are_raised_afresh():
    tex_arithmetic._kept_outcome.cache_clear()
    first = evaluate("1 + 1", {}, False)
    assert evaluate("1 + 1", {}, False) is first
    errors = []
    for _ in range(3):
        with pytest.raises(TooLarge) as raised:
            evaluate(r"10^{10^{10}}", {}, False)
        errors.append(raised.value)
    assert errors[0] is not errors[1]
    assert tex_arithmetic._kept_outcome.cache_info().hits >= 3


def test_the_cancelling_reading_keeps_the_face_value():
    face = evaluate(r"1.5d/d", {}, False, face=True).items[0]
    assert face.a == face.b == 1.5  # not [1.45, 1.55], the interval of the printed 1.5


@pytest.mark.parametrize("tex", SYMBOLIC_BOUNDED)
def test_the_symbolic_reading_is_bounded_too(tex, work):
    assert_cheap(tex, *work["symbolic", tex])


def test_symbols_that_cancel_only_after_simplification_still_make_a_number():
    value = evaluate(r"(d^2 - 49)/(d - 7) - d", {}, False)
    assert show(value) == "7"


# what is read, and the first obstacle from the left ------------------------------------


@pytest.mark.parametrize(
    "tex, bindings, expected",
    [
        (r"\sqrt[3]{8}", {}, "2"),
        (r"\sqrt[3]{0}", {}, "0"),
        (r"31\%", {}, "0.31"),
        ("2 * 3", {}, "6"),
        (r"d^2(d + 1)", {"d": 2}, "12"),  # a product, not the function d^2
        (r"d(d + 1)", {"d": 2}, "6"),
        (r"\frac d_k 2", {"d_k": 64}, "32"),
        (r"e^{2}^{3}", {}, "403.429"),
    ],
)
def test_printed_arithmetic_is_read_with_the_one_parser(tex, bindings, expected):
    assert show(TexArithmetic(tex, bindings).evaluate()) == expected


@pytest.mark.parametrize(
    "tex, message",
    [
        (r"\sqrt[3]{-8}", "root of a negative number"),
        (r"\sqrt[1.5]{8}", "a root of a degree that is not a positive integer"),
        (r"f : \mathbb{R}^{n}", "symbol f"),  # f is met before the parser stops at :
        (r"x_1 + \hat{x}", "symbol x_1"),
        (r"1 + \{1, \ldots, n\}", repr(r"\{")),  # the set is refused where it opens
        (r"e^{\hat{x}}", repr(r"\hat")),  # e before an exponent is e^{…}, not a symbol
        (r"\frac{\partial f}{\partial x}", repr(r"\partial")),
        (r"2\sigma", "unexpected " + repr(r"\sigma")),  # a product of numbers ends there
        (r"\frac{1}{2\sigma}", "expected '}', got " + repr(r"\sigma")),
        (r"W^{\mathsf{T}}", "symbol W"),
        (r"2^{\mathsf{T}}", repr(r"\mathsf")),
        ("(" * 50 + "1" + ")" * 50, "too large: groups nested deeper than 50 levels"),
        ("1^{" * 200 + "1" + "}" * 200, "too large: groups nested deeper than 50 levels"),
        (r"\frac" * 200 + "1 " * 201, "too large: groups nested deeper than 50 levels"),
    ],
)
def test_the_obstacle_reported_is_the_first_in_the_text(tex, message):
    with pytest.raises(NotNumeric) as raised:
        TexArithmetic(tex, {}).evaluate()
    assert str(raised.value) == message


# how the audit reports it ---------------------------------------------------------------


def findings(statement: str) -> list[tuple[str, str, str]]:
    return [(f.text, f.status, f.detail) for f in audit_statement(1, statement, {})]


def test_the_audit_reports_a_too_large_member_as_not_checkable():
    ((text, status, detail),) = findings(r"10^{10^{10^{10}}} = 1")
    assert (text, status) == (r"10^{10^{10^{10}}} = 1", "not checkable")
    assert detail == "too large: the exponent 1e+10 of a power exceeds 1000000 in magnitude"


def test_the_audit_reports_too_large_members_whatever_the_other_members():
    both = findings(r"10^{10^{10}} = 10^{10^{11}}")
    assert [status for _, status, _ in both] == ["not checkable"] * 2
    named = findings(r"e^{100000} = 1")  # e^{…} alone would pass for a named quantity
    assert [status for _, status, _ in named] == ["not checkable"]
    middle = findings(r"1 = 10^{10^{10}} = 1")
    assert [status for _, status, _ in middle] == ["not checkable", "confirmed"]


def test_a_setting_of_many_digits_is_not_a_binding_and_does_not_crash():
    bindings: dict[str, int] = {}
    found = audit_statement(1, "d = " + "9" * 4301, bindings)
    assert [(f.status, "4301 digits" in f.detail) for f in found] == [("not checkable", True)]
    assert bindings == {}


def test_the_mismatch_of_values_beyond_the_float_range_names_them():
    ((_, status, detail),) = findings(r"10^{400} = 10^{401}")
    assert status == "mismatched"
    assert detail == (
        "left side recomputes to 1e+400, right side to 1e+401; "
        "they differ by 9e+400 beyond the printed precision"
    )


TOKENS = st.sampled_from(
    [
        "1", "0", "2.5", "10", "9" * 50, "d", "n", "e", "+", "-", r"\times", "/", "^", "(",
        ")", "{", "}", ",", r"\frac", r"\sqrt", r"\exp", r"\log", r"\%", "&", r"\\",
        r"\begin{pmatrix}", r"\end{pmatrix}", "_", r"\,", r"\cdot", "[", "]", "x_{1}",
        r"\cos", r"\tan", r"\tanh",
    ]
)  # fmt: skip


@given(st.lists(TOKENS, max_size=60), st.booleans(), st.booleans())
def test_any_token_soup_is_a_value_or_not_numeric(tokens, loose, face):
    try:
        evaluate(" ".join(tokens), {"n": 3}, loose, face)
    except NotNumeric:
        pass


def test_pi_with_digits_is_the_number_and_alone_or_applied_is_a_name():
    assert [str(f.status) for f in audit_statement(1, r"2\pi \approx 6.2832", {})] == ["confirmed"]
    assert [str(f.status) for f in audit_statement(1, r"2\pi \approx 6.2831", {})] == ["mismatched"]
    assert [str(f.status) for f in audit_statement(1, r"\pi/4 \approx 0.7854", {})] == ["confirmed"]
    # a permutation applied (π(1) = 2) or named alone is no number
    assert [str(f.status) for f in audit_statement(1, r"\pi(1) = 2", {})] == ["not checkable"]
    assert audit_statement(1, r"\pi = 3", {}) == []  # a name set to a value


def _statuses(statement: str, bindings: dict[str, int]) -> list[str]:
    return [str(f.status) for f in audit_statement(1, statement, bindings)]


def test_e_beside_a_power_of_e_is_the_number_and_alone_or_set_a_name():
    assert _statuses(r"e^{2} + e + 1 + e^{-1} = 11.4752", {}) == ["confirmed"]
    assert _statuses(r"e^{2} + e + 1 + e^{-1} = 11.4725", {}) == ["mismatched"]
    # without a power of e it may name anything (an exponent's bits); a setting binds it
    assert _statuses(r"e + 1 = 3.7183", {}) == ["not checkable"]
    assert _statuses(r"e^{0} + e = 5", {"e": 4}) == ["confirmed"]


def test_a_result_the_chains_exact_member_gives_is_no_last_digit_slip():
    # 10,000 × 8.2685 is 82,685 at face value, but 10,000 × 8^{64/63} before it in the chain
    # is 82,684.59: the result rounds that, worked from more digits than 8.2685 shows
    chain = r"10{,}000 \times 8^{64/63} \approx 10{,}000 \times 8.2685 = {}"
    assert _statuses(chain.replace("{}", "82{,}684.6"), {}) == ["confirmed", "confirmed"]
    assert _statuses(chain.replace("{}", "82{,}684.9"), {}) == ["confirmed", "mismatched"]
    # without an exact member before it, the face value is all there is
    assert _statuses(r"10{,}000 \times 8.2685 = 82{,}684.6", {}) == ["mismatched"]
    assert _statuses(r"1.1428 + 0.2857 = 1.4286", {}) == ["mismatched"]
    assert _statuses(r"\log 0.0504 \approx -2.9877", {}) == ["mismatched"]


def test_one_rounded_term_of_an_exact_side_is_room_as_far_as_it_is_scaled():
    # 10,000 × 8.2685 rounds 10,000 × 8^{64/63} (82,684.6): its one decimal's rounding, times
    # 10,000, is the room; a slip of the decimal is beyond it
    exact = r"10{,}000 \times 8^{64/63} \approx 10{,}000 \times {}"
    assert _statuses(exact.replace("{}", "8.2685"), {}) == ["confirmed"]
    assert _statuses(exact.replace("{}", "8.2658"), {}) == ["mismatched"]
    # two decimals: a coarse one's rounding is no room for a slip of the fine one
    assert _statuses(r"2/16 + 4/7000 \approx 0.125 + 0.000517", {}) == ["mismatched"]


def test_a_column_written_as_a_transposed_row_is_its_entries():
    statement = r"-0.1 \times (1,\ -2,\ 0)^{\mathsf{T}} = (-0.1,\ {},\ 0)^{\mathsf{T}}"
    found = audit_statement(1, statement.replace("{}", "0.2"), {})
    assert [str(f.status) for f in found] == ["confirmed"]
    found = audit_statement(1, statement.replace("{}", "-0.2"), {})
    assert [str(f.status) for f in found] == ["mismatched"]
    # a transpose inside a member multiplies: not read as the entries
    found = audit_statement(1, r"(1, 2)^{\mathsf{T}}(3, 4) = 11", {})
    assert [str(f.status) for f in found] == ["not checkable"]


def test_ceiling_and_floor_of_printed_numbers():
    def status(statement: str) -> list[str]:
        return [str(f.status) for f in audit_statement(1, statement, {})]

    assert status(r"\lceil 10 \times 1.25 \rceil = 13") == ["confirmed"]
    assert status(r"\lceil 10 \times 1.25 \rceil = 12") == ["mismatched"]
    assert status(r"\lfloor 7/2 \rfloor = 3") == ["confirmed"]
    # 12.0 printed stands for 11.95 to 12.05: its ceiling is 12 or 13, not decided
    assert status(r"\lceil 12.0 \rceil = 13") == ["not checkable"]


def test_sines_cosines_and_tangents_are_arithmetic_in_radians():
    assert show(TexArithmetic(r"\cos 1 + \cos 0", {}).evaluate()) == "1.5403"
    assert show(TexArithmetic(r"2\sin(1)", {}).evaluate()) == "1.68294"
    assert show(TexArithmetic(r"\tanh(1/2)", {}).evaluate()) == "0.462117"
    with pytest.raises(NotNumeric, match="pole"):
        TexArithmetic(r"\tan(1.6)", {}).evaluate()  # 1.55 to 1.65 holds π/2


def test_a_rounded_sum_of_cosines_is_judged_at_its_last_digit():
    statement = r"\cos 1 + \cos 0.1 + \cos 0.01 + \cos 0.001 \approx {}"
    assert [str(f.status) for f in audit_statement(1, statement.format("3.5353"), {})] == [
        "confirmed"
    ]
    assert [str(f.status) for f in audit_statement(1, statement.format("3.5352"), {})] == [
        "mismatched"
    ]


def test_terms_rounded_one_by_one_may_follow_an_irrational_side_after_equals():
    # cos 3 = −0.98999, sin 3 = 0.14112: each printed to four places, after =
    statement = r"\cos 3 + \sin 3 = -0.9900 + {} = -0.8489"
    assert [str(f.status) for f in audit_statement(1, statement.format("0.1411"), {})] == [
        "confirmed",
        "confirmed",
    ]
    assert "mismatched" in [
        str(f.status) for f in audit_statement(1, statement.format("0.1421"), {})
    ]


def test_a_rational_exact_side_holds_decimals_to_their_face_value_after_equals():
    # √4 is 2: 8/7 printed 1.1428 beside 2/7 and 18/7 is a slip, which no room for terms
    # rounded one by one may hide (例 3.2 of the block chapter)
    statement = r"\sqrt{{{} + 0.2857 + 0 + 2.5714}} = \sqrt{{4}}"
    assert [str(f.status) for f in audit_statement(1, statement.format("1.1429"), {})] == [
        "confirmed"
    ]
    assert [str(f.status) for f in audit_statement(1, statement.format("1.1428"), {})] == [
        "mismatched"
    ]


def test_two_matrices_side_by_side_are_a_matrix_product_not_entry_by_entry():
    # muon.txt 96: held flattened, the entries of two matrices were multiplied pairwise
    product = (
        r"\begin{pmatrix} 2 & 1 \\ -1 & 2 \end{pmatrix}\begin{pmatrix} 3 & 0 \\ 4 & 5 \end{pmatrix}"
    )
    statement = (
        r"\frac{1}{\sqrt5}"
        + product
        + r" = \frac{1}{\sqrt5}\begin{pmatrix} 10 & 5 \\ 5 & {} \end{pmatrix}"
    )
    assert [f.status for f in audit_statement(1, statement.replace("{}", "10"), {})] == [
        "confirmed"
    ]
    assert [f.status for f in audit_statement(1, statement.replace("{}", "11"), {})] == [
        "mismatched"
    ]
    # a row times a column is their inner product; shapes that do not fit, and two tuples
    # (no rows and columns written), are no product it computes
    row_column = r"\begin{pmatrix} 1 & 2 \end{pmatrix}\begin{pmatrix} 3 \\ 4 \end{pmatrix}"
    assert evaluate(row_column, {}, False).items == evaluate("11", {}, False).items
    with pytest.raises(NotNumeric, match="shapes do not fit"):
        evaluate(product.replace("3 & 0 \\\\ 4 & 5", "3 & 0 & 1"), {}, False)
    with pytest.raises(NotNumeric, match="shapes do not fit"):
        evaluate("(1, 2)(3, 4)", {}, False)
    # a number times a matrix is still each entry times it
    scaled = (
        r"2\begin{pmatrix} 3 & 0 \\ 4 & 5 \end{pmatrix}"
        r" = \begin{pmatrix} 6 & 0 \\ 8 & {} \end{pmatrix}"
    )
    assert [f.status for f in audit_statement(1, scaled.replace("{}", "10"), {})] == ["confirmed"]
    assert [f.status for f in audit_statement(1, scaled.replace("{}", "11"), {})] == ["mismatched"]
