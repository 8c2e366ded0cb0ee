#!/usr/bin/env python3
"""Collect the published numbers of Brouwer & Lio (2017) into one tidy CSV.

Usage: scripts/brouwer-lio-published.py REFERENCE_DIR OUT_CSV

For example, from the top of a checkout:

    scripts/brouwer-lio-published.py ../shared/reference/bmf-priors \
        results/brouwer-lio/published.csv.gz

An OUT_CSV ending in .gz is written gzip-compressed, byte for byte the
same on every run.

REFERENCE_DIR holds upstream's experiments/ directory as published at
github.com/ThomasBrouwer/BMF_Priors, commit COMMIT below (a copy of it is
../shared/reference/bmf-priors beside a checkout). Every file under
experiments/<study>/<experiment>/results/ becomes rows of OUT_CSV, one per
number; results/brouwer-lio/README.md describes the columns and the model
names. Settings that the result files leave implicit (the fractions, noise
ratios and values of K that index their lists, and each model's fixed K)
are read from the experiment scripts beside them. Only the standard
library is used; result files are Python literals, read with
ast.literal_eval, and the scripts' settings are taken from their
`name = [...]` and `'K': n` lines, as the scripts themselves are Python 2.

The script fails loudly on any file it cannot place, so that a number is
either in the table or the run stops.
"""

import ast
import csv
import gzip
import io
import os
import re
import sys

COMMIT = "15b20537eefd36347ed84617882eeea1c453e162"

# Upstream's model file names (results and scripts) to our short names, the
# paper's where it has one. GHN (half-normal priors) and PGD (Poisson with
# Gamma and Dirichlet priors) are upstream models outside the paper's
# sixteen; the three baselines map to our baselines of the same kind.
MODELS = {
    "gaussian_gaussian": "GGG",
    "gaussian_gaussian_univariate": "GGGU",
    "gaussian_gaussian_ard": "GGGA",
    "gaussian_gaussian_wishart": "GGGW",
    "gaussian_laplace": "GLL",
    "gaussian_laplace_ig": "GLLI",
    "gaussian_laplace_inversegaussian": "GLLI",
    "gaussian_gaussian_volumeprior": "GVG",
    "gaussian_exponential": "GEE",
    "gaussian_exponential_ard": "GEEA",
    "gaussian_truncatednormal": "GTT",
    "gaussian_truncatednormal_hierarchical": "GTTN",
    "gaussian_l21": "GL21",
    "gaussian_gaussian_l21": "GL21",
    "gaussian_gaussian_volumeprior_nonnegative": "GVnG",
    "gaussian_gaussian_exponential": "GEG",
    "poisson_gamma": "PGG",
    "poisson_gamma_gamma": "PGGG",
    "gaussian_halfnormal": "GHN",
    "poisson_gamma_dirichlet": "PGD",
    "baseline_average_row": "RowMean",
    "baseline_average_column": "ColumnMean",
    "baseline_mf_nonprobabilistic": "NMF",
}

# Upstream's dataset directories (experiment names without a "sameK_" or
# "sameK_20repeats_" prefix) to our dataset names; the ones we do not have
# keep a name of the same shape.
DATASETS = {
    "drug_sensitivity_gdsc": "gdsc-ic50",
    "drug_sensitivity_ccle_ic": "ccle-ic50",
    "drug_sensitivity_ccle_ec": "ccle-ec50",
    "drug_sensitivity_ctrp": "ctrp-ec50",
    "movielens_100K": "movielens-100k",
    "movielens_1M": "movielens-1m",
    "methylation_gm": "methylation-gm",
    "methylation_pm": "methylation-pm",
    "jester": "jester",
}

COLUMNS = ["study", "experiment", "dataset", "model", "upstream_model", "K",
           "setting", "setting_value", "outer_fold", "replicate", "metric",
           "value", "source", "commit"]


def fail(msg):
    sys.exit("brouwer-lio-published: " + msg)


def num(v):
    """Formats a number as the shortest text that reads back as it."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        fail("not a number: %r" % (v,))
    return repr(v) if isinstance(v, float) else str(v)  # nan stays nan


def literal(text):
    """Reads a Python literal in which nan and inf may stand for numbers
    (Python 2 printed them bare); they come back as floats."""
    text = re.sub(r"\b(nan|inf)\b", r"'\1'", text)

    def restore(v):
        if isinstance(v, str) and v in ("nan", "inf"):
            return float(v)
        if isinstance(v, list):
            return [restore(x) for x in v]
        if isinstance(v, dict):
            return {k: restore(x) for k, x in v.items()}
        return v
    return restore(ast.literal_eval(text))


def dataset_of(experiment):
    name = re.sub(r"^sameK_(20repeats_)?", "", experiment)
    if name not in DATASETS:
        fail("unknown dataset directory %s" % experiment)
    return DATASETS[name]


def model_of(upstream):
    if upstream not in MODELS:
        fail("unknown model %s" % upstream)
    return MODELS[upstream]


class Scripts:
    """The experiment scripts of one directory, by the results file each writes."""

    def __init__(self, directory):
        self.by_output = {}
        for name in sorted(os.listdir(directory)):
            if not name.endswith(".py") or name == "__init__.py":
                continue
            text = open(os.path.join(directory, name)).read()
            for out in re.findall(r"fout\w*\s*=\s*'\./results/([^']+)'", text):
                self.by_output[out] = text

    def script(self, output):
        if output not in self.by_output:
            fail("no script writes results/%s" % output)
        return self.by_output[output]


def list_setting(text, name, where):
    """Returns the list literal assigned to name at the start of a line."""
    m = re.search(r"^%s\s*=\s*(\[[^\]]*\])" % name, text, re.M)
    if not m:
        fail("%s: no %s = [...]" % (where, name))
    return ast.literal_eval(m.group(1))


def fixed_K(text, where):
    """Returns the 'K': n of a script's settings, or "" when it has none.

    A setting 'K': K names the script's own line K = n (GGGW's convergence
    scripts, whose v0 is K too), which gives the value."""
    ks = set(re.findall(r"'K'\s*:\s*(\d+)", text))
    if re.search(r"'K'\s*:\s*K\b", text):
        named = re.findall(r"^K\s*=\s*(\d+)\s*$", text, re.M)
        if len(named) != 1:
            fail("%s: 'K': K with %d lines K = n" % (where, len(named)))
        ks.add(named[0])
    if len(ks) > 1:
        fail("%s: several values of K %s" % (where, sorted(ks)))
    return ks.pop() if ks else ""


def fractions_unknown(text, where):
    if re.search(r"^fractions_unknown\s*=\s*\[1\. - v for v in fractions_known\]", text, re.M):
        # 1 - v, rounded to undo the binary error of the subtraction.
        return [round(1.0 - v, 10) for v in list_setting(text, "fractions_known", where)]
    return list_setting(text, "fractions_unknown", where)


def grid_rows(base, settings, setting, data, where):
    """Rows of a {metric: [[value per replicate] per setting]} file."""
    rows = []
    for metric in sorted(data):
        per_setting = data[metric]
        if len(per_setting) != len(settings):
            fail("%s: %s has %d settings, the script %d" % (where, metric, len(per_setting), len(settings)))
        for s, values in zip(settings, per_setting):
            for i, v in enumerate(values):
                rows.append(dict(base, setting=setting, setting_value=num(s), replicate=str(i + 1), metric=metric, value=num(v)))
    return rows


def parse_grid_study(study, path, rel, experiment, scripts):
    name = os.path.basename(path)
    upstream = re.sub(r"^(performances|times)_", "", name[:-4])
    text = scripts.script(name)
    data = literal(open(path).read())
    base = dict(study=study, experiment=experiment, dataset=dataset_of(experiment),
                model=model_of(upstream), upstream_model=upstream, K="", outer_fold="", source=rel, commit=COMMIT)
    if study == "sparsity":
        base["K"] = fixed_K(text, rel)
        return grid_rows(base, fractions_unknown(text, rel), "fraction_unknown", data, rel)
    if study == "noise":
        base["K"] = fixed_K(text, rel)
        noise = open(os.path.join(os.path.dirname(os.path.dirname(path)), "data", "create_load_noise_datasets.py")).read()
        return grid_rows(base, list_setting(noise, "NOISE_TO_SIGNAL_RATIOS", rel), "noise_to_signal", data, rel)
    if study == "model_selection":
        return grid_rows(base, list_setting(text, "values_K", rel), "K", data, rel)
    if study == "runtime":
        ks = list_setting(text, "values_K", rel)
        if len(data) != len(ks):
            fail("%s: %d times for %d values of K" % (rel, len(data), len(ks)))
        return [dict(base, setting="K", setting_value=num(k), replicate="mean", metric="time_per_iteration", value=num(v))
                for k, v in zip(ks, data)]
    if study == "convergence":
        base["K"] = fixed_K(text, rel)
        metric = "train_MSE" if name.startswith("performances_") else "time"
        return [dict(base, setting="iteration", setting_value=str(i + 1), replicate="mean", metric=metric, value=num(v))
                for i, v in enumerate(data)]
    fail("unknown study %s" % study)


DICT = r"(\{[^{}]*\})"


def parse_cv(path, rel, experiment, upstream):
    """Rows of a nested cross-validation's results.txt or fold_N.txt."""
    text = open(path).read()
    base = dict(study="cross_validation", experiment=experiment, dataset=dataset_of(experiment),
                model=model_of(upstream), upstream_model=upstream, K="", setting="", setting_value="",
                outer_fold="", source=rel, commit=COMMIT)
    rows = []

    outer = re.match(r"fold_(\d+)\.txt$", os.path.basename(path))

    def metrics(d, fold=None, **kw):
        """Adds d's numbers: a list holds one per fold (inner folds in a
        fold_N.txt, outer folds in results.txt), a number is the mean
        over folds or, given fold, that outer fold's."""
        for metric in sorted(d):
            v = d[metric]
            if isinstance(v, list):
                for i, x in enumerate(v):
                    if outer:
                        rows.append(dict(base, replicate=str(i + 1), metric=metric, value=num(x), **kw))
                    else:
                        rows.append(dict(base, outer_fold=str(i + 1), replicate="", metric=metric, value=num(x), **kw))
            elif fold:
                rows.append(dict(base, outer_fold=fold, replicate="", metric=metric, value=num(v), **kw))
            else:
                rows.append(dict(base, replicate="mean", metric=metric, value=num(v), **kw))

    used = 0
    if outer:
        base["outer_fold"] = outer.group(1)
        for m in re.finditer(r"Tried parameters (\{.*?\}\}?)\. Average performances: " + DICT + r"\. \nAll performances: " + DICT, text):
            k = ast.literal_eval(m.group(1))["K"]
            metrics(literal(m.group(2)), setting="K", setting_value=num(k))
            metrics(literal(m.group(3)), setting="K", setting_value=num(k))
            used += 1
        # A K whose folds could not be drawn is reported as an exception
        # and has no numbers; every other "Tried" line must have been read.
        failed = len(re.findall(r"Tried parameters .* but got exception", text))
        if used + failed != text.count("Tried parameters"):
            fail("%s: read %d of %d tried parameters" % (rel, used + failed, text.count("Tried parameters")))
        best = re.search(r"Best parameters: (\{.*\})\.", text)
        if best:
            rows.append(dict(base, replicate="", metric="chosen_K", value=num(ast.literal_eval(best.group(1))["K"])))
        elif used > 0:
            fail("%s: no best parameters" % rel)
        else:
            used = failed  # nothing to read, but the file was understood
    else:
        for m in re.finditer(r"Performances fold (\d+): " + DICT, text):
            metrics(literal(m.group(2)), fold=m.group(1))
            used += 1
        for m in re.finditer(r"Average performances?: " + DICT, text):
            metrics(literal(m.group(1)))
            used += 1
        for m in re.finditer(r"All performances: " + DICT, text):
            metrics(literal(m.group(1)))
            used += 1
    if used == 0:
        fail("%s: no performances found" % rel)
    return rows


def main(argv):
    if len(argv) != 3:
        fail("usage: brouwer-lio-published.py REFERENCE_DIR OUT_CSV")
    ref, out = argv[1], argv[2]
    rows = []
    exp = os.path.join(ref, "experiments")
    for study in sorted(os.listdir(exp)):
        for experiment in sorted(os.listdir(os.path.join(exp, study)) if os.path.isdir(os.path.join(exp, study)) else []):
            results = os.path.join(exp, study, experiment, "results")
            if not os.path.isdir(results):
                continue
            if study == "cross_validation":
                for upstream in sorted(os.listdir(results)):
                    for name in sorted(os.listdir(os.path.join(results, upstream))):
                        path = os.path.join(results, upstream, name)
                        rows += parse_cv(path, os.path.relpath(path, ref), experiment, upstream)
                continue
            scripts = Scripts(os.path.join(exp, study, experiment))
            for name in sorted(os.listdir(results)):
                path = os.path.join(results, name)
                rows += parse_grid_study(study, path, os.path.relpath(path, ref), experiment, scripts)
    # The baselines' results.txt prints each fold's numbers twice (per
    # fold, then as lists): keep one row per key, and stop if a key
    # carries two different numbers.
    seen, unique = {}, []
    for r in rows:
        key = tuple(r[c] for c in COLUMNS if c != "value")
        if key in seen:
            if seen[key] != r["value"]:
                fail("%s: %s is both %s and %s" % (r["source"], key, seen[key], r["value"]))
            continue
        seen[key] = r["value"]
        unique.append(r)
    rows = unique
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    data = buf.getvalue().encode()
    if out.endswith(".gz"):
        # No name and no time in the header: the same input gives the
        # same bytes.
        data = gzip.compress(data, compresslevel=9, mtime=0)
    with open(out, "wb") as f:
        f.write(data)
    print("wrote %d numbers to %s" % (len(rows), out))


if __name__ == "__main__":
    main(sys.argv)
