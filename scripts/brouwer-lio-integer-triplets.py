#!/usr/bin/env python3
"""Write CCLE IC50 and EC50 as Brouwer & Lio's experiments read them.

Usage: scripts/brouwer-lio-integer-triplets.py BMF_PRIORS_DIR OUT_DIR

BMF_PRIORS_DIR holds the drug-sensitivity matrices (`bnmf data fetch
ccle-ic50 ccle-ec50` puts them in $BNMF_DATA_DIR/bmf-priors). The script
writes OUT_DIR/ccle-ic50.tsv and OUT_DIR/ccle-ec50.tsv, tab-separated
"cell line, drug, value" triplets (the `triplets` format of a study's
dataset section) holding the values upstream's experiments train and test
on:

- every value truncated to an integer, as upstream's `_integer` loaders
  do (the values are nonnegative, so truncation is a floor);
- in ccle-ec50, the 426 subnormal values (about 2.2e-314) that our
  dataset treats as missing kept as entries, as upstream's loader keeps
  them, with the value 0 that the cast gives them.

Rows and columns are named by the first field of cell_lines.txt and
drugs.txt, as our named datasets name them, so both sort the same way.
Upstream's removal of cell lines with fewer than 3 values (CCLE EC50) is
left to the study's `min_ratings: 3`. The results/blio-ccle-*-integer
studies read these files from data/blio-integer/ (under the repository's
root, which git ignores): the files are derived from the data and are
never committed.
"""

import math
import os
import sys

SMALLEST_NORMAL = 2.2250738585072014e-308


def names(path):
    with open(path) as f:
        return [line.split("\t")[0].strip() for line in f if line.strip()]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, out = sys.argv[1], sys.argv[2]
    rows = names(os.path.join(src, "CCLE", "cell_lines.txt"))
    cols = names(os.path.join(src, "CCLE", "drugs.txt"))
    os.makedirs(out, exist_ok=True)
    for name in ("ic50", "ec50"):
        path = os.path.join(src, "CCLE", name + ".txt")
        n = zeros = subnormal = 0
        dest = os.path.join(out, "ccle-%s.tsv" % name)
        # Written beside its name and renamed when complete, so that a run
        # stopped partway leaves no truncated file that looks done.
        with open(path) as f, open(dest + ".tmp", "w") as w:
            for i, line in enumerate(f):
                fields = line.rstrip("\n").split("\t")
                if i >= len(rows) or len(fields) != len(cols):
                    sys.exit("%s:%d: %d fields, want %d (or more lines than cell lines)" % (path, i + 1, len(fields), len(cols)))
                for j, s in enumerate(fields):
                    v = float(s)
                    if math.isnan(v):
                        continue
                    if v < SMALLEST_NORMAL:
                        subnormal += 1
                    v = int(v)
                    zeros += v == 0
                    n += 1
                    w.write("%s\t%s\t%d\n" % (rows[i], cols[j], v))
        os.replace(dest + ".tmp", dest)
        print("ccle-%s: %d values written (%d subnormal, %d zero after the cast)" % (name, n, subnormal, zeros))


if __name__ == "__main__":
    main()
