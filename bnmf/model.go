package bnmf

// Model is a prior (or, for NMF, an objective) that Run can fit. The
// implementations are GEE, GTT, GTTN, GRRN and NMF; each is a plain struct of
// hyperparameters whose zero values mean the paper's defaults.
type Model interface {
	// Name returns the model's short name as the paper writes it, such as
	// "GRRN".
	Name() string

	// newChain validates the hyperparameters against the training data and
	// rank and returns a chain ready to be initialised.
	newChain(train *Matrix, rank int) (chain, error)
}

// Compile-time checks that every model implements Model.
var (
	_ Model = GEE{}
	_ Model = GTT{}
	_ Model = GTTN{}
	_ Model = GRRN{}
	_ Model = NMF{}
)

// Names lists the names of the models this package implements, in the
// order the paper presents them.
func Names() []string { return []string{"GEE", "GTT", "GTTN", "GRRN", "NMF"} }

// ByName returns the model with the given name (as returned by Names) and
// default hyperparameters, or false when there is none.
func ByName(name string) (Model, bool) {
	switch name {
	case "GEE":
		return GEE{}, true
	case "GTT":
		return GTT{}, true
	case "GTTN":
		return GTTN{}, true
	case "GRRN":
		return GRRN{}, true
	case "NMF":
		return NMF{}, true
	}
	return nil, false
}
