package atomicfile

import (
	"os"
	"strconv"
	"strings"

	"github.com/bnmf-lab/bnmf/internal/process"
)

// A temporary file of WriteFile is named
// ".<name>.tmp-<pid>@<host>-<random>": the process id and host name of
// its writer, so that a file left by a writer that was killed can be told
// from one still being written (Abandoned). Files named before the
// writer was recorded, ".<name>.tmp-<random>", have no owner.

// TempPrefix returns the start of the name of a temporary file that the
// process pid on host writes for the file name; CreateTemp appends a
// random suffix. Characters of host other than letters, digits, '.' and
// '_' become '_'.
func TempPrefix(name string, pid int, host string) string {
	return "." + name + ".tmp-" + strconv.Itoa(pid) + "@" + cleanHost(host) + "-"
}

// cleanHost keeps host's letters, digits, '.' and '_' and replaces the
// other bytes (such as '-', which ends the host in a name, and '/') by '_'.
func cleanHost(host string) string {
	b := []byte(host)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_') {
			b[i] = '_'
		}
	}
	return string(b)
}

// owner returns the process id and cleaned host name that the temporary
// file name records, or ok false when it records none.
func owner(name string) (pid int, host string, ok bool) {
	if !IsTemp(name) {
		return 0, "", false
	}
	rest := name[strings.LastIndex(name, ".tmp-")+len(".tmp-"):]
	p, rest, found := strings.Cut(rest, "@")
	if !found {
		return 0, "", false
	}
	dash := strings.LastIndexByte(rest, '-')
	if dash < 0 {
		return 0, "", false
	}
	pid, err := strconv.Atoi(p)
	if err != nil || pid <= 0 {
		return 0, "", false
	}
	return pid, rest[:dash], true
}

// Abandoned reports whether the temporary file name (see IsTemp) was
// written by a process of this host that is no longer running, so that
// no writer will ever rename it into place and it can be removed. It is
// false for a file of this process, of another host (whose processes
// cannot be seen from here), of a process that runs, and for a name that
// records no writer; on systems where a process cannot be probed
// (anything but Unix) it is always false. A process id that a new process
// has taken since keeps the file until it is removed by age.
func Abandoned(name string) bool {
	pid, host, ok := owner(name)
	if !ok || pid == os.Getpid() {
		return false
	}
	here, err := os.Hostname()
	if err != nil || cleanHost(here) != host {
		return false
	}
	return !process.Alive(pid)
}
