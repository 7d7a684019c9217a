"""The Transformer-block chapter: how its file is recognised and cited."""

from proofs.book.registry import Chapter

CHAPTER = Chapter(
    key="transformer-block",
    file="002_1f7cf506cffefce0.txt",
    title="Transformer ブロック：残差接続・層正規化・MLP とパラメータ数",
    short="Transformer ブロック",
)
