"""What a check measures beside its verdict: high-precision references (mpmath), the
anchors that tie a check to independent values, and measures that never judge."""
