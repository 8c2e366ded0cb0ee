package bnmf

import (
	"fmt"
	"strings"
)

// choiceName returns the name of the choice c among names (indexed by
// its value), as a study config spells it, or type(c) for a value with
// no name. It serves the String methods of the two-valued options
// (LineDraw, EtaDraw, HyperDraw).
func choiceName[T ~int](c T, typ string, names ...string) string {
	if c >= 0 && int(c) < len(names) {
		return names[c]
	}
	return fmt.Sprintf("%s(%d)", typ, int(c))
}

// parseChoice returns the choice whose name among names is text, or an
// error naming what (such as "line draw") and the names. It serves their
// UnmarshalText methods.
func parseChoice[T ~int](text []byte, what string, names ...string) (T, error) {
	for i, n := range names {
		if n == string(text) {
			return T(i), nil
		}
	}
	if len(names) == 2 {
		return 0, fmt.Errorf("unknown %s %q; want %q or %q", what, text, names[0], names[1])
	}
	return 0, fmt.Errorf("unknown %s %q; want one of %q", what, text, names)
}

// checkChoice returns nil if c is one of the choices, or else an error
// that names the model, its field, the value c and the allowed values,
// each by its Go constant (consts, indexed by value) and its name as a
// study config spells it (its String). It serves the constructors of the
// models that take such an option, so that a value outside the names (a
// Go caller's LineDraw(7)) is refused in one wording.
func checkChoice[T interface {
	~int
	String() string
}](c T, model, field string, consts ...string) error {
	if c >= 0 && int(c) < len(consts) {
		return nil
	}
	want := make([]string, len(consts))
	for i, k := range consts {
		want[i] = fmt.Sprintf("%s (%q)", k, T(i).String())
	}
	return fmt.Errorf("bnmf: %s.%s is %v; want %s", model, field, c, strings.Join(want, " or "))
}

// choiceParam is the Param of a two-valued option field (LineDraw,
// EtaDraw, HyperDraw) with the given config key, field name, doc and
// names, the first the default. The default stays out of config hashes
// (OmitDefault): each option came after studies had run, and its first
// value is the sampler they ran.
func choiceParam(key, field, doc string, names ...string) Param {
	return Param{Key: key, Field: field, Support: Choice, Choices: names, Default: names[0], OmitDefault: true, Doc: doc}
}
