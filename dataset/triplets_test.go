package dataset

import (
	"slices"
	"testing"

	"github.com/bnmf-lab/bnmf/sparse"
)

// tripletHeaderCase is a triplet file whose first line may or may not be
// a header, and either the entries it must give or the exact error.
type tripletHeaderCase struct {
	name    string
	content string
	entries []sparse.Entry
	line    int    // the line of the error, in the value field
	err     string // the error after the file name, as in ":1: value: ..."
}

func tripletHeaderCases() []tripletHeaderCase {
	one := []sparse.Entry{{Row: 0, Col: 0, Value: 4}}
	return []tripletHeaderCase{
		{name: "header row,col,value", content: "row,col,value\n1,2,4\n", entries: one},
		{name: "header user item rating tabs", content: "user\titem\trating\n1\t2\t4\n", entries: one},
		{name: "header with BOM CRLF", content: "\ufeffuserId,movieId,rating\r\n1,2,4\r\n", entries: one},
		{name: "header with spaces and digits", content: "user id, item id, rating_1\n1,2,4\n", entries: one},
		{name: "header after blank line", content: "\n\"row\",\"col\",\"value\"\n1,2,4\n", entries: one},
		{name: "header of names", content: "a,b,three\n1,2,4\n", entries: one},
		{name: "first line data", content: "1,2,4\n", entries: one},
		{name: "first line data with string ids", content: "u1\ti1\t3.5\nu2\ti1\t4\n",
			entries: []sparse.Entry{{Row: 0, Col: 0, Value: 3.5}, {Row: 1, Col: 0, Value: 4}}},

		{name: "value with suffix", content: "1,2,3.5x\n1,3,4\n", line: 1, err: `:1: value: "3.5x" is not a number`},
		{name: "empty value", content: "1,2,\n1,3,4\n", line: 1, err: `:1: value: "" is not a number`},
		{name: "string ids value with suffix", content: "a,b,3.5x\n", line: 1, err: `:1: value: "3.5x" is not a number`},
		{name: "string ids value with suffix tabs", content: "u1\ti1\t3.5x\n", line: 1, err: `:1: value: "3.5x" is not a number`},
		{name: "numeric ids word value", content: "1,2,three\n", line: 1, err: `:1: value: "three" is not a number`},
		{name: "value with punctuation", content: "user,item,rating!\n1,2,4\n", line: 1, err: `:1: value: "rating!" is not a number`},
		{name: "value starting with underscore", content: "row,col,_v\n", line: 1, err: `:1: value: "_v" is not a number`},
		{name: "bad first line after blank", content: "\r\n1,2,4.x\r\n", line: 2, err: `:2: value: "4.x" is not a number`},
		{name: "NaN is a number not a name", content: "row,col,NaN\n", line: 1, err: `:1: value: non-finite value "NaN"`},
		{name: "only the first line may be a header", content: "row,col,value\nrow,col,value\n", line: 2, err: `:2: value: "value" is not a number`},
	}
}

func TestTripletsHeader(t *testing.T) {
	for _, tt := range tripletHeaderCases() {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "", tt.content)
			r, err := OpenFile(path, "triplets", Options{})
			if tt.err != "" {
				if want := path + tt.err; err == nil || err.Error() != want {
					t.Fatalf("got error %v, want %s", err, want)
				}
				checkParseError(t, err, path, loaderCase{errLine: tt.line, errField: "value"})
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.Entries, tt.entries) {
				t.Errorf("entries %v, want %v", r.Entries, tt.entries)
			}
		})
	}
}

func TestIsName(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"rating", true},
		{"Rating_2", true},
		{"user rating", true},
		{"évaluation", true},
		{"", false},
		{"3.5x", false},
		{"_value", false},
		{" value", false},
		{"value-1", false},
		{"\xff", false},
	}
	for _, tt := range tests {
		if got := isName([]byte(tt.s)); got != tt.want {
			t.Errorf("isName(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}
