package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/dataset"
	"github.com/bnmf-lab/bnmf/internal/numpytest"
)

// readmeBlock is one fenced code block of the README.
type readmeBlock struct {
	lang  string
	line  int // of the opening fence
	lines []string
}

// readmeBlocks returns the fenced code blocks of the README at path.
func readmeBlocks(t *testing.T, path string) []readmeBlock {
	t.Helper()
	var out []readmeBlock
	var cur *readmeBlock
	for i, l := range strings.Split(string(mustRead(t, path)), "\n") {
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			cur = &readmeBlock{lang: strings.TrimPrefix(l, "```"), line: i + 1}
		case cur != nil && l == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, l)
		}
	}
	if cur != nil {
		t.Fatalf("README.md:%d: unclosed code block", cur.line)
	}
	return out
}

// readmeNotRun are the README's blocks that TestREADMESnippets does not
// run, keyed by their first line, with the reason.
var readmeNotRun = map[string]string{
	"./run.sh          # quick demo: all five models on the embedded synthetic dataset, then the report": "runs the demo study and the whole test suite; TestScriptArguments checks the scripts",
	"./run.sh configs/ml100k-sparsity.yaml        # run, then render results/ml100k-sparsity/README.md":  "runs studies of hours",
	"train, _ := bnmf.NewMatrix(rows, cols, entries) // observed entries only":                           "a fragment of Go; the package's Example functions compile and run the API",
}

// durations matches the times a command prints, which vary from run to
// run.
var durations = regexp.MustCompile(`\b\d+(\.\d+)?(ms|s|m\d+s|h\d+m\d+s)\b`)

// consoleLines normalises a console transcript for comparison: progress
// lines (which a slow machine prints more of) are dropped and times
// replaced by "T".
func consoleLines(text string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if strings.Contains(l, " elapsed") {
			continue
		}
		out = append(out, durations.ReplaceAllString(l, "T"))
	}
	return out
}

// TestREADMESnippets runs the README's examples as a reader would, in a
// fresh directory with the binary that ./build.sh makes: every console
// session, comparing what each command prints with what the README shows
// (times aside); the shell block that fetches and describes MovieLens
// 100K when the data directory holds it; and the Python and R examples
// on the fit they follow, with a few checks appended, when python3 with
// numpy and pandas, or Rscript with jsonlite and reticulate, are
// installed (CI has neither and skips those). Every other block is listed
// in readmeNotRun with the reason.
func TestREADMESnippets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds bnmf and fits the README's examples")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	shell := func(t *testing.T, script string) string {
		t.Helper()
		// ./build.sh builds into the reader's checkout; here, into work.
		script = strings.ReplaceAll(script, "./build.sh", bash+" "+filepath.Join(repo, "build.sh")+" "+filepath.Join(work, "bin", "bnmf"))
		cmd := exec.Command(bash, "-eu", "-c", script) // no pipefail: "| head" ends a writer early, as in a reader's shell
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "BNMF_DATA_DIR="+dataset.DataDir())
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out.String())
		}
		return out.String()
	}
	for _, b := range readmeBlocks(t, filepath.Join(repo, "README.md")) {
		name := b.lang + "@README.md:" + strconv.Itoa(b.line)
		if reason, ok := readmeNotRun[b.lines[0]]; ok {
			t.Logf("%s not run: %s", name, reason)
			continue
		}
		ok := t.Run(name, func(t *testing.T) {
			switch b.lang {
			case "console":
				runConsole(t, b, shell)
			case "sh":
				if _, err := os.Stat(filepath.Join(dataset.DataDir(), "movielens", "ml-100k", "u.data")); err != nil {
					t.Skipf("MovieLens 100K not in %s", dataset.DataDir())
				}
				shell(t, strings.Join(b.lines, "\n"))
			case "python":
				py := numpytest.Python(t)
				if exec.Command(py, "-c", "import pandas").Run() != nil {
					t.Skip("no pandas")
				}
				shell(t, py+" - <<'EOF'\n"+strings.Join(b.lines, "\n")+`
assert A.shape == (len(rows), len(cols)) and pred.shape == A.shape, (A.shape, pred.shape)
assert Ws.shape == (len(s2), len(rows), W.shape[1]) and info["format"] == "bnmf-model"
assert abs(mse - json.load(open("fit-synthetic/summary.json"))["holdout"]["mse"]) < 1e-9
EOF`)
			case "r":
				rscript, err := exec.LookPath("Rscript")
				if err != nil {
					t.Skip("Rscript not found")
				}
				if exec.Command(rscript, "-e", `library(jsonlite); library(reticulate)`).Run() != nil {
					t.Skip("R lacks jsonlite or reticulate")
				}
				py := numpytest.Python(t)
				shell(t, "RETICULATE_PYTHON="+py+" "+rscript+" - <<'EOF'\n"+strings.Join(b.lines, "\n")+`
stopifnot(all(dim(A) == c(300, 500)), length(dim(Ws)) == 3, dim(Ws)[2] == 300, all(dim(Wnpy) == dim(W)))
EOF`)
			default:
				t.Fatalf("README.md:%d: a %q block that the test neither runs nor lists in readmeNotRun", b.line, b.lang)
			}
		})
		if !ok && b.lang == "console" {
			return // later blocks read its outputs
		}
	}
}

// runConsole runs each "$ " command of a console block and compares its
// output with the lines the README shows after it.
func runConsole(t *testing.T, b readmeBlock, shell func(*testing.T, string) string) {
	t.Helper()
	type step struct {
		cmd  string
		want []string
	}
	var steps []step
	for _, l := range b.lines {
		if c, ok := strings.CutPrefix(l, "$ "); ok {
			steps = append(steps, step{cmd: c})
			continue
		}
		if len(steps) == 0 {
			t.Fatalf("README.md:%d: console block does not start with a command", b.line)
		}
		steps[len(steps)-1].want = append(steps[len(steps)-1].want, l)
	}
	for _, s := range steps {
		got := consoleLines(shell(t, s.cmd))
		want := consoleLines(strings.Join(s.want, "\n"))
		if len(s.want) == 0 {
			want = nil
			if len(got) == 1 && got[0] == "" {
				got = nil
			}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("$ %s\nprints\n%s\nthe README shows\n%s", s.cmd, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
