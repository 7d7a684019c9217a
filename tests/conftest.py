from proofs.profiles import load_profile

load_profile()
