"""The FLOP counters of PyTorch and fvcore on Hugging Face's GPT-2 small (random weights,
nothing downloaded), against the derived conventions: torch.utils.flop_counter counts the
`torch` convention with eager attention and `torch-cpu-sdpa` with the fused CPU kernel;
fvcore counts `fvcore` and `fvcore-sdpa`. Skipped, saying why, where torch and transformers
(pip install '.[bench]') or fvcore are not installed; CI installs neither."""

import warnings

import pytest

from spec.flop_conventions import CONVENTIONS
from spec.published_models import MODELS
from symbolic.flops import forward_flops, values

torch = pytest.importorskip("torch", reason="torch is not installed (pip install '.[bench]')")
transformers = pytest.importorskip(
    "transformers", reason="transformers is not installed (pip install '.[bench]')"
)

TOKENS = 32
COUNTED_AS = {"eager": ("torch", "fvcore"), "sdpa": ("torch-cpu-sdpa", "fvcore-sdpa")}
pytestmark = pytest.mark.slow


def derived(name: str) -> int:
    config = MODELS["gpt2"][1]
    return int(forward_flops(CONVENTIONS[name].switches).subs(values(config.sizes(), TOKENS)))


@pytest.fixture(scope="module", params=["eager", "sdpa"])
def gpt2(request):
    """GPT2LMHeadModel of GPT-2 small's shape with the attention `request.param`."""
    config = MODELS["gpt2"][1]
    hf = transformers.GPT2Config(
        n_embd=config.d,
        n_layer=config.n_layer,
        n_head=config.n_head,
        n_positions=config.n_ctx,
        vocab_size=config.vocab,
        attn_implementation=request.param,
    )
    torch.manual_seed(0)
    return request.param, transformers.GPT2LMHeadModel(hf).eval()


def test_prop_block_complexity_torch_flop_counter_on_gpt2(gpt2):
    from torch.utils.flop_counter import FlopCounterMode

    attention, model = gpt2
    counter = FlopCounterMode(display=False)
    with torch.no_grad(), counter:
        model(torch.zeros((1, TOKENS), dtype=torch.long))
    assert counter.get_total_flops() == derived(COUNTED_AS[attention][0])


def test_prop_block_complexity_fvcore_on_gpt2(gpt2):
    fvcore = pytest.importorskip("fvcore.nn", reason="fvcore is not installed")

    class Logits(torch.nn.Module):  # the traced module returns a tensor
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, ids):
            return self.model(ids, use_cache=False, return_dict=False)[0]

    attention, model = gpt2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ids = torch.zeros((1, TOKENS), dtype=torch.long)
        analysis = fvcore.FlopCountAnalysis(Logits(model), (ids,))
        analysis.unsupported_ops_warnings(False)
        analysis.uncalled_modules_warnings(False)
        total = analysis.total()
    torch_convention, fvcore_convention = COUNTED_AS[attention]
    assert total == derived(fvcore_convention)
    # half of torch's count, and 5 FLOPs an element for each of the 2L + 1 LayerNorms
    config = MODELS["gpt2"][1]
    layer_norms = 5 * TOKENS * config.d * (2 * config.n_layer + 1)
    assert 2 * (total - layer_norms) == derived(torch_convention)
