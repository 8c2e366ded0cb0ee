package report

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// mergeWordings returns one wording for warnings that differ only in
// their numbers (one footnote or summary class, see warningClass): each
// number that differs between them is given as the range of its values,
// "1 to 4", so that what a footnote says agrees with every record it
// stands for. Numbers are runs of digits and dots, as in warningClass.
// With a single wording, or wordings that do not split alike, it returns
// the first in sorted order.
func mergeWordings(texts map[string]bool) string {
	sorted := make([]string, 0, len(texts))
	for t := range texts {
		sorted = append(sorted, t)
	}
	slices.Sort(sorted)
	if len(sorted) == 0 {
		return ""
	}
	split := make([][]string, len(sorted))
	for i, t := range sorted {
		split[i] = splitNumbers(t)
		if len(split[i]) != len(split[0]) {
			return sorted[0]
		}
	}
	var b strings.Builder
	for k, part := range split[0] {
		if k%2 == 0 { // text between numbers, the same in every wording
			b.WriteString(part)
			continue
		}
		lo, hi := part, part
		for _, s := range split[1:] {
			if compareNumbers(s[k], lo) < 0 {
				lo = s[k]
			}
			if compareNumbers(s[k], hi) > 0 {
				hi = s[k]
			}
		}
		b.WriteString(lo)
		if compareNumbers(lo, hi) != 0 {
			b.WriteString(" to " + hi)
		}
	}
	return b.String()
}

// splitNumbers splits s into text and numbers, alternating: the parts at
// even indices are text (possibly empty), at odd indices numbers.
func splitNumbers(s string) []string {
	parts := []string{""}
	inNumber := false
	for _, r := range s {
		isNum := (r >= '0' && r <= '9') || (inNumber && r == '.')
		if isNum != inNumber {
			parts = append(parts, "")
			inNumber = isNum
		}
		parts[len(parts)-1] += string(r)
	}
	if inNumber {
		parts = append(parts, "")
	}
	return parts
}

// compareNumbers orders two numbers as written by their values, and equal
// values by their writing, so that the result does not depend on order.
func compareNumbers(a, b string) int {
	x, errA := strconv.ParseFloat(strings.TrimRight(a, "."), 64)
	y, errB := strconv.ParseFloat(strings.TrimRight(b, "."), 64)
	if errA == nil && errB == nil && x != y {
		return cmp.Compare(x, y)
	}
	return strings.Compare(a, b)
}
