package fileerr

import (
	"errors"
	"io/fs"
	"testing"
)

func TestErrorText(t *testing.T) {
	tests := []struct {
		name string
		err  *Error
		want string
	}{
		{"file, line and field", New("a.csv", 3, "rating", "not a number"), "a.csv:3: rating: not a number"},
		{"no field", New("a.csv", 3, "", "3 fields, want 3 or 4"), "a.csv:3: 3 fields, want 3 or 4"},
		{"no line", New("c.yaml", 0, "seed", "must be set"), "c.yaml: seed: must be set"},
		{"the whole file", New("c.yaml", 0, "", "the config is empty"), "c.yaml: the config is empty"},
		{"a key path", New("c.yaml", 5, "ranks[1]", "rank -5 must be positive"), "c.yaml:5: ranks[1]: rank -5 must be positive"},
		{"formatted", Errorf("b.tsv", 12, "", "%d rows, want %d", 4, 5), "b.tsv:12: 4 rows, want 5"},
		{"no problem given", &Error{File: "x"}, "x: <nil>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestErrorUnwraps(t *testing.T) {
	var err error = Errorf("a.csv", 2, "", "reading: %w", fs.ErrNotExist)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("errors.Is(%v, fs.ErrNotExist) = false", err)
	}
	var fe *Error
	if !errors.As(err, &fe) || fe.Line != 2 {
		t.Errorf("errors.As found %+v", fe)
	}
}
