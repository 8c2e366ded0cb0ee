#!/usr/bin/env python3
"""Score the column means on Brouwer & Lio's sparsity splits of MovieLens 100K.

Usage: scripts/brouwer-lio-ml100k-split.py U_DATA [SEED]

U_DATA is MovieLens 100K's u.data (`bnmf data fetch movielens-100k`, or
../shared/data/movielens/ml-100k/u.data beside a checkout). The script
cleans it as our dataset and upstream both do (users, then movies, then
users with fewer than 3 ratings removed: 943 x 1473, 99,723 ratings),
then, for each fraction unobserved of upstream's MovieLens 100K sparsity
study, draws ten splits as upstream's sparsity study draws them (the split
of scripts/brouwer-lio-integer-cast.py: one training entry per column,
then int(I*J*(1-fraction)) more drawn uniformly, redrawn until every row
has a training entry) and prints the held-out MSE of the column-mean
baseline, mean ± standard error over the ten, with the number of training
entries. The column means depend on the split alone, so comparing them
with upstream's published column-mean numbers and with ours (which train
on int(I*J*(1-fraction)) entries in all) tells whether the split explains
a gap. Only the standard library is used.
"""

import collections
import importlib.util
import math
import os
import random
import sys

FRACTIONS = [0.93, 0.94, 0.95, 0.96, 0.97, 0.98]
REPEATS = 10


def load_cast_script():
    """The split and baseline of brouwer-lio-integer-cast.py beside this file."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "brouwer-lio-integer-cast.py")
    spec = importlib.util.spec_from_file_location("integer_cast", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def read_cleaned(path):
    """The ratings of u.data with users, movies, then users of fewer than 3 removed."""
    ratings = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            fields = line.split("\t")
            try:
                ratings.append((int(fields[0]), int(fields[1]), float(fields[2])))
            except (IndexError, ValueError) as e:
                sys.exit("%s:%d: %s" % (path, n, e))
    for axis in (0, 1, 0):
        count = collections.Counter(r[axis] for r in ratings)
        ratings = [r for r in ratings if count[r[axis]] >= 3]
    users = {u: i for i, u in enumerate(sorted({r[0] for r in ratings}))}
    movies = {m: j for j, m in enumerate(sorted({r[1] for r in ratings}))}
    values = {(users[u], movies[m]): v for u, m, v in ratings}
    return len(users), len(movies), values


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[1] in ("-h", "--help"):
        sys.exit(__doc__)
    seed = int(sys.argv[2]) if len(sys.argv) == 3 else 1
    cast = load_cast_script()
    I, J, values = read_cleaned(sys.argv[1])
    entries = sorted(values)
    print("MovieLens 100K: %d x %d, %d ratings" % (I, J, len(entries)))
    print("fraction | training entries, theirs | ours | column means' held-out MSE on their splits")
    rng = random.Random(seed)
    for f in FRACTIONS:
        mses, sizes = [], set()
        for _ in range(REPEATS):
            train, test = cast.split(rng, I, J, entries, f)
            sizes.add(len(train))
            mses.append(cast.baseline_mse(train, test, values, 1, J))
        mean = sum(mses) / len(mses)
        se = math.sqrt(sum((x - mean) ** 2 for x in mses) / (len(mses) - 1) / len(mses))
        print("%8g | %25s | %4d | %.4f ± %.4f" % (f, "/".join(str(s) for s in sorted(sizes)), int(I * J * (1 - f)), mean, se))


if __name__ == "__main__":
    main()
