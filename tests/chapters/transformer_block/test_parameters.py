"""§5 パラメータ数 (proofs/chapters/transformer_block/parameters.py): the count of
the decoder-only model (定理 5.1), 例 5.2, 例 5.3 and 注意 5.4. Each check passes, and
rejects wrong variants."""

import pytest
from chapters.transformer_block.variants import transcribed

import spec
from numeric.model import init_parameters
from proofs.book.judge import CheckFailed
from proofs.book.printed import Printed
from proofs.chapters.transformer_block import tables
from proofs.chapters.transformer_block.parameters import (
    GPT2_FAMILY,
    ex_gpt2_small_count,
    ex_small_model_count,
    model_parts,
    rem_paper_parameter_count,
    thm_transformer_parameters,
)
from symbolic import symbols as sym


@pytest.mark.symbolic
@pytest.mark.numeric
def test_thm_transformer_parameters_holds():
    assert thm_transformer_parameters()


@pytest.mark.symbolic
def test_thm_transformer_parameters_rejects_12d2_plus_12d():
    with pytest.raises(CheckFailed, match="12"):
        thm_transformer_parameters(stated_per_layer=12 * sym.d**2 + 12 * sym.d)


@pytest.mark.symbolic
def test_thm_transformer_parameters_rejects_a_missing_final_layer_norm():
    no_final = transcribed("thm-transformer-parameters")["stated_count"] - 2 * sym.d
    with pytest.raises(CheckFailed, match="stated"):
        thm_transformer_parameters(stated_count=no_final)


@pytest.mark.numeric
def test_thm_transformer_parameters_rejects_an_allocation_without_final_layer_norm():
    def allocate(config, rng):
        params = init_parameters(config, rng)
        return {k: v for k, v in params.items() if not k.startswith("ln_f")}

    with pytest.raises(CheckFailed, match="allocated"):
        thm_transformer_parameters(allocate=allocate)


def test_ex_small_model_count_holds():
    assert ex_small_model_count()


def test_ex_small_model_count_is_568():
    assert model_parts({"vocab": 10, "d": 4, "d_ff": 16, "n_layer": 2, "n_ctx": 8})["total"] == 568


def test_ex_small_model_count_rejects_a_wrong_part():
    stated = transcribed("ex-small-model-count")["stated"]
    wrong = dict(stated, parts=dict(stated["parts"], mlp=144))
    with pytest.raises(CheckFailed, match="mlp"):
        ex_small_model_count(stated=wrong)


def test_ex_small_model_count_rejects_a_wrong_total_of_right_parts():
    wrong = dict(transcribed("ex-small-model-count")["stated"], total=569)
    with pytest.raises(CheckFailed, match="total: computed 568, stated 569"):
        ex_small_model_count(stated=wrong)


def test_ex_small_model_count_rejects_an_allocation_without_the_final_beta():
    def without_final_beta(config, rng):
        params = init_parameters(config, rng)
        del params["ln_f.beta"]
        return params

    with pytest.raises(CheckFailed, match="allocated 564, formula 568, stated 568"):
        ex_small_model_count(allocate=without_final_beta)


def test_ex_gpt2_small_count_holds():
    assert ex_gpt2_small_count()


def test_ex_gpt2_small_count_rejects_declared_shapes_without_a_bias():
    def without_b_o():
        return [p for p in spec.model_parameters() if p.name != "blocks.attn.b_o"]

    with pytest.raises(
        CheckFailed, match="declared shapes give 124,430,592, the table 124,439,808"
    ):
        ex_gpt2_small_count(declared=without_b_o)


def test_ex_gpt2_small_count_table_rows():
    values = list(tables.gpt2_parameter_table().column("個数"))
    assert values == [38_597_376, 786_432, 7_087_872, 85_054_464, 1_536, 124_439_808]


def test_thm_transformer_parameters_rejects_a_released_checkpoint_of_another_size():
    family = dict(GPT2_FAMILY, medium=((1024, 24, 16), 345_000_000))  # the paper's 345M
    with pytest.raises(CheckFailed, match="GPT-2 medium .* released checkpoint holds 345,000,000"):
        thm_transformer_parameters(family=family)


@pytest.mark.numeric
def test_ex_gpt2_small_count_rejects_a_wrong_total():
    wrong = dict(transcribed("ex-gpt2-small-count")["stated"], total=124_439_000)
    with pytest.raises(CheckFailed, match="total"):
        ex_gpt2_small_count(stated=wrong)


@pytest.mark.numeric
def test_ex_gpt2_small_count_rejects_sizes_other_than_the_released_model():
    stated = transcribed("ex-gpt2-small-count")["stated"]
    sizes = dict(stated["sizes"], vocab=50_258)
    total = tables.gpt2_parameter_table(**sizes).column("個数")[-1]  # consistent, not GPT-2's
    with pytest.raises(CheckFailed, match="is not the released GPT-2 small's 124,439,808"):
        ex_gpt2_small_count(stated=dict(stated, sizes=sizes, total=total))


@pytest.mark.numeric
def test_ex_gpt2_small_count_rejects_a_wrong_embedding_share():
    wrong = dict(transcribed("ex-gpt2-small-count")["stated"], embedding_share=Printed(0.32, 2))
    with pytest.raises(CheckFailed, match="the embeddings' share is 0.3102, printed 0.32"):
        ex_gpt2_small_count(stated=wrong)


def test_rem_paper_parameter_count_holds_and_states_the_difference():
    assert "7,439,808" in rem_paper_parameter_count()[0]


def test_rem_paper_parameter_count_rejects_a_wrong_count():
    wrong = dict(transcribed("rem-paper-parameter-count")["stated"], total=124_439_809)
    with pytest.raises(CheckFailed, match="the count is 124,439,808, stated 124,439,809"):
        rem_paper_parameter_count(stated=wrong)


def test_rem_paper_parameter_count_rejects_an_agreeing_paper_value():
    with pytest.raises(CheckFailed, match="agree"):
        rem_paper_parameter_count(
            stated=dict(
                transcribed("rem-paper-parameter-count")["stated"],
                paper_total=(124_000_000, 500_000),
            )
        )
