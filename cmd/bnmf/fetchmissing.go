package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"

	"github.com/bnmf-lab/bnmf/dataset"
	"github.com/bnmf-lab/bnmf/experiments"
)

// mirrorEnv names the environment variable that replaces the official
// directory of the MovieLens archives (https://files.grouplens.org/
// datasets/movielens/) with a mirror holding them under their official
// names, for "bnmf data fetch" and "bnmf run --fetch"; it is what
// dataset.MirrorEnv returns for a MovieLens dataset.
const mirrorEnv = "BNMF_MOVIELENS_MIRROR"

// fetchMissing downloads the dataset that cfg names into dataDir
// ("" for dataset.DataDir()) when its ratings file is not there, checked as
// "bnmf data fetch" checks it, and says so on stderr. A failed download is
// reported on stderr and otherwise ignored: preparing the study then
// fails with the message that says where the file was expected and how to
// get it.
func fetchMissing(ctx context.Context, cfg *experiments.Config, dataDir string, stderr io.Writer) {
	name := cfg.Dataset.Name
	if name == "" || name == dataset.SyntheticName || !slices.Contains(dataset.Names(), name) {
		return // a file of the user's own, generated data, or an error for Prepare
	}
	if dataDir == "" {
		dataDir = dataset.DataDir()
	}
	path, err := dataset.Path(name, dataDir)
	if err != nil {
		return
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return // present (Prepare checks it), or unreadable (Prepare says why)
	}
	fmt.Fprintf(stderr, "%s needs %s, which is not at %s: downloading it (checked against its official digest or counts, as bnmf data fetch does)\n",
		cfg.File(), name, path)
	if _, err := dataset.Fetch(ctx, name, dataDir, dataset.FetchOptions{BaseURL: os.Getenv(dataset.MirrorEnv(name)), Progress: stderr}); err != nil {
		fmt.Fprintf(stderr, "could not download %s: %v\n", name, err)
	}
}
