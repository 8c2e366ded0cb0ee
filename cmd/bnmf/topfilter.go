package main

import (
	"strconv"

	"github.com/bnmf-lab/bnmf/posterior"
)

// minObservedUsage is predict --min-observed's help.
var minObservedUsage = "with --top, rank only columns with at least `N` observed entries in the data file (default " +
	strconv.Itoa(posterior.DefaultMinObserved) + "; 0 or 1 ranks every column)"
