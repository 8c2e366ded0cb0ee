package experiments

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/bnmf-lab/bnmf/internal/fileerr"
)

// ConfigError is a problem with a config file, located by file, line and
// key (its Field, a key path such as "models[2].name"). Its message reads
// "file:line: key: message"; the line is left out when the key is not
// written in the file (it holds its default) and the key when the problem
// is not about one key. It is the module's one file:line error type,
// which data files report too (dataset.ParseError).
type ConfigError = fileerr.Error

// yamlLine matches the "line N: " prefix of go-yaml's messages.
var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// syntaxError turns a YAML parse error into a *ConfigError.
func syntaxError(file string, err error) error {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1]) // the pattern admits only digits
		return fileerr.New(file, line, "", "invalid YAML: "+m[2])
	}
	return fileerr.New(file, 0, "", "invalid YAML: "+strings.TrimPrefix(msg, "yaml: "))
}

var (
	yamlUnknown  = regexp.MustCompile(`^field (\S+) not found in type \S+$`)
	yamlWrong    = regexp.MustCompile("^cannot unmarshal !!(\\w+)(?: `(.*)`)? into (\\S+)$")
	yamlRepeated = regexp.MustCompile(`^field (\S+) already set in type \S+$`)
	yamlTwice    = regexp.MustCompile(`^mapping key "(.*)" already defined at line (\d+)$`)
)

// decodeError turns an error of strict decoding into a *ConfigError for
// its first problem, with the key path found in doc.
func decodeError(file string, doc *yaml.Node, err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) || len(te.Errors) == 0 {
		return syntaxError(file, err)
	}
	m := yamlLine.FindStringSubmatch(te.Errors[0])
	if m == nil {
		return fileerr.New(file, 0, "", te.Errors[0])
	}
	line, _ := strconv.Atoi(m[1]) // the pattern admits only digits
	msg := m[2]
	if u := yamlUnknown.FindStringSubmatch(msg); u != nil {
		key, _ := keyAt(doc, line, u[1], true)
		return fileerr.New(file, line, key, "unknown key")
	}
	if u := yamlRepeated.FindStringSubmatch(msg); u != nil {
		key, _ := keyAt(doc, line, u[1], true)
		return fileerr.New(file, line, key, "key given twice")
	}
	if u := yamlTwice.FindStringSubmatch(msg); u != nil {
		key, _ := keyAt(doc, line, u[1], true)
		return fileerr.New(file, line, key, "key given twice (first at line "+u[2]+")")
	}
	if w := yamlWrong.FindStringSubmatch(msg); w != nil {
		key, node := keyAt(doc, line, w[2], false)
		if t, ok := integerType(strings.TrimPrefix(w[3], "*")); ok && w[2] != "" && node.Kind == yaml.ScalarNode {
			return integerError(file, node, t, key)
		}
		got := describeTag(w[1])
		if w[2] != "" {
			got = fmt.Sprintf("%s %q", got, node.Value)
		}
		return fileerr.New(file, line, key, fmt.Sprintf("got %s, want %s", got, describeType(w[3])))
	}
	key, _ := keyAt(doc, line, "", false)
	return fileerr.New(file, line, key, msg)
}

// describeTag names a YAML tag for a reader.
func describeTag(tag string) string {
	switch tag {
	case "str":
		return "a string"
	case "int":
		return "an integer"
	case "float":
		return "a number"
	case "bool":
		return "a boolean"
	case "seq":
		return "a list"
	case "map":
		return "a mapping"
	case "null":
		return "null"
	}
	return "!!" + tag
}

// describeType names the Go type a value was decoded into for a reader.
func describeType(t string) string {
	t = strings.TrimPrefix(t, "*")
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list of " + plural(describeType(t[2:]))
	case t == "string":
		return "a string"
	case t == "bool":
		return "a boolean"
	case strings.HasPrefix(t, "uint"):
		return "a nonnegative integer"
	case strings.HasPrefix(t, "int"):
		return "an integer"
	case strings.HasPrefix(t, "float"):
		return "a number"
	}
	return "a mapping"
}

// plural turns "an integer" into "integers".
func plural(s string) string {
	return strings.TrimPrefix(strings.TrimPrefix(s, "a "), "an ") + "s"
}

// keyAt returns the path and node of the node at line in doc: a mapping
// key named text when isKey, else a value, preferring a scalar that text
// (which go-yaml may have cut short with "...") describes. It returns ""
// and an empty node when there is none.
func keyAt(doc *yaml.Node, line int, text string, isKey bool) (string, *yaml.Node) {
	best, node := "", &yaml.Node{}
	prefix, cut := strings.CutSuffix(text, "...")
	matches := func(v string) bool {
		if cut {
			return strings.HasPrefix(v, prefix)
		}
		return v == text
	}
	walk(doc, "", func(path string, k, v *yaml.Node) {
		switch {
		case isKey:
			if k != nil && k.Line == line && k.Value == text {
				best, node = path, k
			}
		case v.Line == line && (text == "" || matches(value(v))):
			if best == "" || len(path) > len(best) {
				best, node = path, v
			}
		}
	})
	return best, node
}

func value(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	return ""
}

// keyLines maps the path of every key and list item written in doc to its
// line.
func keyLines(doc *yaml.Node) map[string]int {
	lines := make(map[string]int)
	walk(doc, "", func(path string, k, v *yaml.Node) {
		if k != nil {
			lines[path] = k.Line
		} else {
			lines[path] = v.Line
		}
	})
	return lines
}

// walk calls f for every mapping value and list item below n with its
// path ("models[1].name"), its key node (nil for list items) and its value.
func walk(n *yaml.Node, path string, f func(path string, k, v *yaml.Node)) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			walk(c, path, f)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := k.Value
			if path != "" {
				p = path + "." + k.Value
			}
			f(p, k, v)
			walk(v, p, f)
		}
	case yaml.SequenceNode:
		for i, v := range n.Content {
			p := fmt.Sprintf("%s[%d]", path, i)
			f(p, nil, v)
			walk(v, p, f)
		}
	}
}

// integerType returns the Go integer type that go-yaml names in its errors
// as name ("int", "uint8", ...), and false for any other name.
func integerType(name string) (reflect.Type, bool) {
	for _, t := range []reflect.Type{
		reflect.TypeFor[int](), reflect.TypeFor[int8](), reflect.TypeFor[int16](), reflect.TypeFor[int32](), reflect.TypeFor[int64](),
		reflect.TypeFor[uint](), reflect.TypeFor[uint8](), reflect.TypeFor[uint16](), reflect.TypeFor[uint32](), reflect.TypeFor[uint64](),
	} {
		if t.Name() == name {
			return t, true
		}
	}
	return nil, false
}

// integerText matches a plain scalar written as a decimal integer, which
// go-yaml tags !!float when it does not fit in 64 bits.
var integerText = regexp.MustCompile(`^[-+]?[0-9][0-9_]*$`)

// checkIntegers returns a *ConfigError for the first scalar of doc that
// decodes into an integer field of t (a struct type whose fields carry yaml
// tags) but is not written as a YAML integer. go-yaml accepts such values
// silently: it truncates 2.5 to 2, converts a number beyond the range of a
// uint64 into a wrapped value, and reads null as 0.
func checkIntegers(file string, doc *yaml.Node, t reflect.Type) error {
	var first error
	var visit func(n *yaml.Node, t reflect.Type, path string)
	visit = func(n *yaml.Node, t reflect.Type, path string) {
		for n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch {
		case first != nil:
		case n.Kind == yaml.DocumentNode:
			for _, c := range n.Content {
				visit(c, t, path)
			}
		case n.Kind == yaml.MappingNode && t.Kind() == reflect.Struct:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if k.ShortTag() == "!!merge" {
					if v.Kind == yaml.SequenceNode {
						for _, m := range v.Content {
							visit(m, t, path)
						}
					} else {
						visit(v, t, path)
					}
					continue
				}
				f, ok := yamlField(t, k.Value)
				if !ok {
					continue // strict decoding has rejected unknown keys
				}
				p := k.Value
				if path != "" {
					p = path + "." + k.Value
				}
				visit(v, f.Type, p)
			}
		case n.Kind == yaml.SequenceNode && t.Kind() == reflect.Slice:
			for i, c := range n.Content {
				visit(c, t.Elem(), fmt.Sprintf("%s[%d]", path, i))
			}
		case n.Kind == yaml.ScalarNode && isIntegerKind(t.Kind()) && n.ShortTag() != "!!int":
			first = integerError(file, n, t, path)
		}
	}
	visit(doc, t, "")
	return first
}

// yamlField returns the field of struct type t that the YAML key name
// decodes into.
func yamlField(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		key, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if key == "" {
			key = strings.ToLower(f.Name)
		}
		if key == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func isIntegerKind(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// integerError describes scalar n, which is not a YAML integer, at the key
// path of an integer field of type t.
func integerError(file string, n *yaml.Node, t reflect.Type, path string) *ConfigError {
	want := describeType(t.String())
	tag := strings.TrimPrefix(n.ShortTag(), "!!")
	var msg string
	switch {
	case tag == "float" && integerText.MatchString(n.Value) && t.Kind() >= reflect.Uint:
		msg = fmt.Sprintf("%s is out of range: want %s of at most %d", n.Value, want, uint64(math.MaxUint64)>>(64-t.Bits()))
	case tag == "float" && integerText.MatchString(n.Value):
		msg = fmt.Sprintf("%s is out of range: want %s from %d to %d", n.Value, want, int64(-1)<<(t.Bits()-1), int64(math.MaxInt64)>>(64-t.Bits()))
	case tag == "null":
		msg = "got null, want " + want
	default:
		msg = fmt.Sprintf("got %s %q, want %s", describeTag(tag), n.Value, want)
	}
	return fileerr.New(file, n.Line, path, msg)
}
