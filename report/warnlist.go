package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// warningKind is one kind of a study's setting warnings: those that differ
// only in their numbers and in the repeat they came from (see
// warningClass), numbered study-wide so that a table's marks and the
// study's Warnings section agree.
type warningKind struct {
	key   string
	texts map[string]bool // every wording seen, of every repeat
	// settings names each setting with the warning, in the order of the
	// study's groups, and repeats its repeats (nil for a warning of the
	// setting as a whole).
	settings []string
	repeats  [][]int
}

// warningKinds returns the kinds of warning the study's settings carry,
// in order of first appearance over its groups.
func (s *StudySummary) warningKinds() []*warningKind {
	var kinds []*warningKind
	for _, g := range s.Groups {
		for _, w := range g.Warnings {
			text, key := warningClass(w)
			i := slices.IndexFunc(kinds, func(k *warningKind) bool { return k.key == key })
			if i < 0 {
				kinds = append(kinds, &warningKind{key: key, texts: make(map[string]bool)})
				i = len(kinds) - 1
			}
			k := kinds[i]
			k.texts[text] = true
			setting := s.keyLabel(g.Key)
			j := slices.Index(k.settings, setting)
			if j < 0 {
				k.settings = append(k.settings, setting)
				k.repeats = append(k.repeats, nil)
				j = len(k.settings) - 1
			}
			if r, ok := repeatOf(w); ok && !slices.Contains(k.repeats[j], r) {
				k.repeats[j] = append(k.repeats[j], r)
			}
		}
	}
	return kinds
}

// warningNotes returns footnotes numbered as the study's warning kinds, for
// a table of the study: its marks refer to the study's Warnings section
// instead of repeating the texts.
func (s *StudySummary) warningNotes() footnotes {
	kinds := s.warningKinds()
	f := footnotes{shared: len(kinds)}
	for _, k := range kinds {
		f.notes = append(f.notes, footnote{key: k.key, texts: make(map[string]bool)})
	}
	return f
}

// repeatOf returns the repeat a setting's warning came from ("repeat 3:
// ..." or "repeat 3 failed: ..."), if it names one.
func repeatOf(w string) (int, bool) {
	rest, ok := strings.CutPrefix(w, "repeat ")
	if !ok {
		return 0, false
	}
	digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
	if digits == 0 {
		return 0, false
	}
	r, err := strconv.Atoi(rest[:digits])
	return r, err == nil
}

// settingsList names the settings of a warning kind with their repeats:
// "GEE, K = 20, fraction unobserved 0.98 (repeats 3, 6); ...".
func (k *warningKind) settingsList() string {
	parts := make([]string, len(k.settings))
	for i, s := range k.settings {
		parts[i] = s
		if rs := slices.Sorted(slices.Values(k.repeats[i])); len(rs) > 0 {
			parts[i] += " (" + repeatList(rs) + ")"
		}
	}
	return strings.Join(parts, "; ")
}

// writeWarningKinds writes each kind of setting warning once: its number,
// the settings it affects and its text, then the settings by name.
func writeWarningKinds(b *strings.Builder, kinds []*warningKind) {
	for i, k := range kinds {
		n := len(k.settings)
		fmt.Fprintf(b, "- †%d In %d %s: %s", i+1, n, plural(n, "setting", "settings"), oneLine(mergeWordings(k.texts)))
		if len(k.texts) > 1 {
			b.WriteString(" " + variesNote)
		}
		fmt.Fprintf(b, "\n  - %s: %s\n", plural(n, "Setting", "Settings"), k.settingsList())
	}
}
