#!/usr/bin/env python3
"""Measure the noise that Brouwer & Lio's noise study adds to GDSC IC50.

Usage: scripts/brouwer-lio-noise.py IC50_TXT [SEED]

IC50_TXT is GDSC's ic50.txt (`bnmf data fetch gdsc-ic50`, or
../shared/data/bmf-priors/GDSC/ic50.txt beside a checkout). Upstream's
noise study (experiments/noise/drug_sensitivity_gdsc/data/
create_load_noise_datasets.py in their repository) builds each noisy
matrix from the integer-cast matrix R, missing entries 0, as

    R_noise[i][j] = max(0, int(R[i][j] + e)),  e ~ N(0, ratio * var(R)),

var(R) taken over the whole grid (missing zeros included), for every
entry. Ours (configs/blio-gdsc-noise.yaml) adds e ~ N(0, ratio * v) to the
observed real values, v their variance, and neither truncates nor clips
the values it scores against. The script reads the matrix as upstream
does (tab-separated, `nan` missing, cell lines with fewer than 3 values
dropped) and prints, per noise-to-signal ratio: upstream's nominal noise
variance, the mean squared change that the noise, truncation and clipping
make to the observed entries (the noise variance their held-out values
carry), that as a share of the nominal one, the mean change, and our
noise variance.

Only the standard library is used; a run takes under a minute.
"""

import importlib.util
import math
import os
import random
import sys

RATIOS = [0.1, 0.2, 0.5, 1, 2, 5, 10]


def load_cast_script():
    """The reader and moments of brouwer-lio-integer-cast.py beside this file."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "brouwer-lio-integer-cast.py")
    spec = importlib.util.spec_from_file_location("integer_cast", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[1] in ("-h", "--help"):
        sys.exit(__doc__)
    seed = int(sys.argv[2]) if len(sys.argv) == 3 else 1
    cast = load_cast_script()
    I, J, entries = cast.read(sys.argv[1])
    observed = [int(v) for _, _, v in entries]
    # var(R) over the grid, missing entries 0.
    grid = observed + [0] * (I * J - len(observed))
    _, grid_var = cast.mean_var(grid)
    _, real_var = cast.mean_var([v for _, _, v in entries])
    print("GDSC IC50: %d x %d, %d observed; var over the grid (integers, missing 0) %.1f; "
          "var of the observed real values %.1f" % (I, J, len(observed), grid_var, real_var))
    print("ratio | their nominal noise var | realised on observed | share | mean change | our noise var")
    rng = random.Random(seed)
    for ratio in RATIOS:
        sd = math.sqrt(ratio * grid_var)
        changes = [max(0, int(v + rng.gauss(0, sd))) - v for v in observed]
        msq = sum(d * d for d in changes) / len(changes)
        print("%5g | %23.0f | %20.0f | %5.2f | %11.1f | %13.0f" % (
            ratio, ratio * grid_var, msq, msq / (ratio * grid_var), sum(changes) / len(changes), ratio * real_var))


if __name__ == "__main__":
    main()
