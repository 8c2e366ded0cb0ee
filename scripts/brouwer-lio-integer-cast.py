#!/usr/bin/env python3
"""Measure what Brouwer & Lio's integer cast does to GDSC IC50.

Usage: scripts/brouwer-lio-integer-cast.py IC50_TXT [SEED]

IC50_TXT is GDSC's ic50.txt (`bnmf data fetch gdsc-ic50`, or
../shared/data/bmf-priors/GDSC/ic50.txt beside a checkout). Upstream's
experiments load it through a loader that casts every value to an integer
(truncation towards zero; the values are nonnegative). The script reads
the matrix as upstream does (tab-separated, `nan` missing, cell lines with
fewer than 3 values dropped), then prints, for the real and the truncated
values:

- their mean and variance (population variance: the MSE of predicting each
  value by their mean);
- the in-sample MSE of each column's mean and each row's mean (the
  baselines' training MSE, which upstream's convergence study publishes);
- the held-out MSE of the column-mean and row-mean baselines over ten
  splits per fraction unobserved, drawn as upstream's sparsity study draws
  them (one training entry per column first, then a uniform share of the
  rest so that the training part holds int(I*J*(1-fraction)) more
  entries, redrawn until every row has a training entry too); both
  versions of the data are scored on the same splits, so their difference
  is the cast's alone.

Only the standard library is used; a run takes under a minute.
"""

import math
import random
import sys

FRACTIONS = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
REPEATS = 10


def read(path):
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            try:
                rows.append([float(v) for v in line.rstrip("\n").split("\t")])
            except ValueError as e:
                sys.exit("%s:%d: %s" % (path, n, e))
    rows = [r for r in rows if sum(1 for v in r if not math.isnan(v)) >= 3]
    return len(rows), len(rows[0]), [(i, j, v) for i, r in enumerate(rows) for j, v in enumerate(r) if not math.isnan(v)]


def mean_var(xs):
    m = sum(xs) / len(xs)
    return m, sum((x - m) ** 2 for x in xs) / len(xs)


def baseline_mse(train, test, values, axis, size):
    s, n = [0.0] * size, [0] * size
    for e in train:
        s[e[axis]] += values[e]
        n[e[axis]] += 1
    return sum((values[e] - s[e[axis]] / n[e[axis]]) ** 2 for e in test) / len(test)


def split(rng, I, J, entries, fraction):
    while True:
        pool = entries[:]
        rng.shuffle(pool)
        first, rest = {}, []
        for e in pool:
            if e[1] not in first:
                first[e[1]] = e
            else:
                rest.append(e)
        rng.shuffle(rest)
        cut = int(I * J * (1 - fraction))
        train = list(first.values()) + rest[:cut]
        if len({e[0] for e in train}) == I:
            return train, rest[cut:]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    I, J, obs = read(sys.argv[1])
    seed = int(sys.argv[2]) if len(sys.argv) == 3 else 1
    entries = [(i, j) for i, j, _ in obs]
    real = {(i, j): v for i, j, v in obs}
    cast = {e: float(int(v)) for e, v in real.items()}
    print("%d x %d, %d values; %d below 1 (cast to 0), %d already integers" %
          (I, J, len(obs), sum(1 for v in real.values() if v < 1), sum(1 for v in real.values() if v == int(v))))
    for name, vals in (("real", real), ("cast", cast)):
        m, v = mean_var(list(vals.values()))
        print("%s: mean %.4f, variance %.4f, in-sample MSE of column means %.4f, of row means %.4f" %
              (name, m, v, baseline_mse(entries, entries, vals, 1, J), baseline_mse(entries, entries, vals, 0, I)))
    rng = random.Random(seed)
    print("fraction | ColumnMean real | ColumnMean cast | RowMean real | RowMean cast (mean ± s.e. over %d splits)"
          " | cast minus real, ColumnMean | RowMean (mean over the same splits)" % REPEATS)
    for f in FRACTIONS:
        res = {k: [] for k in ("cr", "cc", "rr", "rc")}
        for _ in range(REPEATS):
            train, test = split(rng, I, J, entries, f)
            res["cr"].append(baseline_mse(train, test, real, 1, J))
            res["cc"].append(baseline_mse(train, test, cast, 1, J))
            res["rr"].append(baseline_mse(train, test, real, 0, I))
            res["rc"].append(baseline_mse(train, test, cast, 0, I))
        cells = []
        for k in ("cr", "cc", "rr", "rc"):
            m, v = mean_var(res[k])
            cells.append("%.1f ± %.1f" % (m, math.sqrt(v * REPEATS / (REPEATS - 1) / REPEATS)))
        for real_key, cast_key in (("cr", "cc"), ("rr", "rc")):
            cells.append("%.2f" % (sum(res[cast_key]) / REPEATS - sum(res[real_key]) / REPEATS))
        print("%.1f | %s" % (f, " | ".join(cells)))


if __name__ == "__main__":
    main()
