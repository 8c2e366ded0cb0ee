package bnmf

// Model is a prior (or, for NMF, an objective, and for a baseline, a rule)
// that Run can fit. Specs lists the implementations; each is a plain struct
// of hyperparameters whose zero values mean the paper's defaults.
type Model interface {
	// Name returns the model's short name as the paper writes it, such as
	// "GRRN".
	Name() string

	// newChain validates the hyperparameters against the training data and
	// rank and returns a chain ready to be initialised.
	newChain(train *Matrix, rank int) (chain, error)
}
