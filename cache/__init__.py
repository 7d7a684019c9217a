"""A persistent cache of costly results (symbolic derivations, 例 4.5's drawn table), kept
in a folder between runs; the standard library only, so that symbolic/ (SymPy only),
numeric/ and proofs/ may all use it.

An entry is data that a later run believes: a verdict it reports, a table it rewrites a
chapter with. The folder is in the user's cache directory, the place other programs and
other machines are likeliest to write into (a CI cache restored from another branch, a
folder copied or shared). So:

- nothing in an entry can run: entries are JSON, and each kind of value has a codec
  (`cache.codec`) that rebuilds it from an allow-list of types (SymPy's codecs beside the
  derivations, `symbolic.kept`; the table's beside it): no pickle, no eval, no parsing of
  expressions from text;
- a changed entry is not believed: each is sealed with an HMAC under a key kept outside
  the cache folder (`cache.secret`, `cache.seal`), so that a digest recomputed by whoever
  changed the value does not verify; a value of the wrong type or shape, whatever its
  seal, is a miss;
- the tree is walked without following links, and cleaned of the cache's own files only
  (`cache.folders`).

A miss of any kind (no folder chosen, no usable key, an entry missing, unreadable, changed,
of another version or inputs, or not decoding) computes the value again: the cache can
make a run faster, never different.

cache.remembered   remember_in, kept_in, remembering, remembered(name, inputs, compute, codec)
cache.codec        Codec(encode, decode), NotKept, BOOL
cache.fingerprint  fingerprint(): the versions and the package's text a value belongs to
cache.seal         sealed, unsealed: an entry's bytes behind a keyed digest
cache.secret       key_file(), secret(path): the key, made once, in the configuration dir
cache.folders      read_entry, write_entry: the folder tree, never through a link
"""
