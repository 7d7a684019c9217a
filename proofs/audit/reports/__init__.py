"""What is made of an audit's findings once the rules have run: the Report and its formats
(`report`, `github`), the accepted mismatches of a baseline (`baseline`), what the audit
examined (`coverage`) and each element's tally (`tally`). Nothing here judges."""
