"""The self-attention chapter: how its file is recognised and cited."""

from proofs.book.registry import Chapter

CHAPTER = Chapter(
    key="self-attention",
    file="000_ce182fefa314a82b.txt",
    title="自己注意：スケール付き内積注意・マルチヘッド・因果マスク",
    short="自己注意",
)
