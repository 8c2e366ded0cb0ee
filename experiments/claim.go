package experiments

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/bnmf-lab/bnmf/internal/atomicfile"
	"github.com/bnmf-lab/bnmf/internal/process"
)

// Cell claims. Several processes may run one study into one directory: a
// user starting a second run, or the shards of a job array on a shared
// file system, or machines pulling cells from one directory without a
// shard plan. Before a process runs a cell it claims it by creating
// claims/<key>.claim exclusively (O_EXCL), holding its host, pid and start
// time; it removes the claim once the cell's record is stored. A process
// skips a cell whose claim is live, and takes over one whose holder is
// gone:
//
//   - A holder keeps its claims live by touching them every ClaimRefresh.
//     A claim untouched for ClaimLease is stale, wherever its holder runs
//     (a crashed machine, a killed or hung process, a reused pid).
//   - On the same host, a claim whose pid is no longer alive is stale at
//     once.
//
// Taking over renames the stale claim aside, checks that it is still the
// claim that was judged stale (else puts it back), and creates a new one
// exclusively, so two processes never both take one cell. Clocks of
// different hosts sharing a directory should agree to well within
// ClaimLease; a file system that does not keep modification times, or
// implements O_EXCL loosely (some NFS versions), defeats the scheme.
const (
	// ClaimsDir is the subdirectory of a study's directory holding claims.
	ClaimsDir = "claims"
	// ClaimLease is how long a claim stays live without being touched.
	ClaimLease = 5 * time.Minute
	// ClaimRefresh is how often a holder touches its claims.
	ClaimRefresh = time.Minute
)

// claimFile is the content of a claim.
type claimFile struct {
	Host  string    `json:"host"`
	PID   int       `json:"pid"`
	Start time.Time `json:"start"`
}

// claimer holds the claims of one process in one study directory and
// keeps them live.
type claimer struct {
	dir  string // the claims directory
	self claimFile

	mu   sync.Mutex
	held map[string]bool

	// judged, if not nil, is called by takeOver between judging the claim
	// at path stale and renaming it aside: a test runs another takeover
	// there, which is the race the re-check after the rename settles.
	judged func(path string)

	stop chan struct{}
	done chan struct{}
}

// newClaimer starts holding claims in study directory dir.
func newClaimer(dir string) (*claimer, error) {
	host, err := os.Hostname()
	if err != nil {
		return nil, fmt.Errorf("claiming cells: %w", err)
	}
	c := &claimer{
		dir:  filepath.Join(dir, ClaimsDir),
		self: claimFile{Host: host, PID: os.Getpid(), Start: time.Now().UTC()},
		held: make(map[string]bool),
		stop: make(chan struct{}),
		done: make(chan struct{}),
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return nil, fmt.Errorf("claiming cells: %w", err)
	}
	go c.refresh()
	return c, nil
}

// refresh touches the held claims every ClaimRefresh until close.
func (c *claimer) refresh() {
	defer close(c.done)
	tick := time.NewTicker(ClaimRefresh)
	defer tick.Stop()
	for {
		select {
		case <-c.stop:
			return
		case now := <-tick.C:
			c.mu.Lock()
			for key := range c.held {
				// A failed touch shortens the lease; the cell's record
				// still settles who ran it.
				_ = os.Chtimes(c.path(key), now, now)
			}
			c.mu.Unlock()
		}
	}
}

// close stops refreshing and releases every claim still held.
func (c *claimer) close() {
	close(c.stop)
	<-c.done
	c.mu.Lock()
	keys := make([]string, 0, len(c.held))
	for k := range c.held {
		keys = append(keys, k)
	}
	c.mu.Unlock()
	for _, k := range keys {
		_ = c.release(k) // a claim left behind is taken over later
	}
}

func (c *claimer) path(key string) string { return filepath.Join(c.dir, key+".claim") }

// acquire claims the cell with the given key. It returns false when a live
// process holds the cell.
func (c *claimer) acquire(key string) (bool, error) {
	content, err := json.Marshal(c.self)
	if err != nil {
		return false, err
	}
	path := c.path(key)
	for attempt := 0; attempt < 2; attempt++ {
		ok, err := createExclusive(path, content, c.self)
		if err != nil {
			return false, fmt.Errorf("claiming cell %s: %w", key, err)
		}
		if ok {
			c.mu.Lock()
			c.held[key] = true
			c.mu.Unlock()
			return true, nil
		}
		if attempt > 0 || !c.takeOver(path) {
			return false, nil
		}
	}
	return false, nil
}

// takeOver removes the claim at path if it is stale, and reports whether
// the path is then free to claim.
func (c *claimer) takeOver(path string) bool {
	old, info, err := readClaim(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true // released meanwhile
	}
	if err == nil && claimLive(old, info.ModTime(), c.self.Host, time.Now()) {
		return false
	}
	// Stale, or unreadable (a claim is written in one call, so an
	// unreadable one was cut short by a crash). Rename it aside, so that
	// of several processes taking it over at once one wins.
	judged, _ := os.ReadFile(path)
	if c.judged != nil {
		c.judged(path)
	}
	aside := c.asidePath(path)
	if err := os.Rename(path, aside); err != nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	now, _ := os.ReadFile(aside)
	if !bytes.Equal(now, judged) {
		// Another process took the cell over between the two reads:
		// this is its fresh claim. Put it back.
		_ = os.Link(aside, path)
		_ = os.Remove(aside)
		return false
	}
	_ = os.Remove(aside)
	return true
}

// asidePath returns where takeOver renames the claim at path aside: a
// name that records this process, as atomicfile's temporary files do, so
// that one left by a process killed during a takeover is removed when
// the study is opened next (see removeTemps).
func (c *claimer) asidePath(path string) string {
	return filepath.Join(c.dir, atomicfile.TempPrefix(filepath.Base(path)+".stale", c.self.PID, c.self.Host)+"aside")
}

// holder describes the cell with the given key and the process that holds
// its claim, as "KEY (host HOST, pid PID)", or "KEY" when the claim cannot
// be read (released meanwhile).
func (c *claimer) holder(key string) string {
	cl, _, err := readClaim(c.path(key))
	if err != nil {
		return key
	}
	return describeClaim(key, cl)
}

// describeClaim describes the claim cl of the cell with the given key.
func describeClaim(key string, cl claimFile) string {
	return fmt.Sprintf("%s (host %s, pid %d)", key, cl.Host, cl.PID)
}

// release removes a claim this process holds.
func (c *claimer) release(key string) error {
	c.mu.Lock()
	delete(c.held, key)
	c.mu.Unlock()
	if err := os.Remove(c.path(key)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("releasing cell %s: %w", key, err)
	}
	return nil
}

// createExclusive creates path with content unless it exists, and reports
// whether it did. The content is written to a temporary file first and
// linked into place, which fails if path exists, so that no process ever
// reads a claim half written (a reader would take it for one cut short by
// a crash, and take it over). The temporary file is named as atomicfile
// names its own, after the writer (the holder's host and pid), so that
// one left by a killed process is removed when the study is opened next.
func createExclusive(path string, content []byte, writer claimFile) (bool, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), atomicfile.TempPrefix(filepath.Base(path), writer.PID, writer.Host)+"*")
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp.Name()) // the link, if made, keeps the content
	_, werr := tmp.Write(content)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return false, werr
	}
	err = os.Link(tmp.Name(), path)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	return err == nil, err
}

// readClaim reads the claim at path and its file information.
func readClaim(path string) (claimFile, os.FileInfo, error) {
	var cl claimFile
	info, err := os.Stat(path)
	if err != nil {
		return cl, nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return cl, nil, err
	}
	if err := json.Unmarshal(b, &cl); err != nil {
		return cl, nil, fmt.Errorf("%s: %w", path, err)
	}
	return cl, info, nil
}

// claimLive reports whether a claim touched at mtime is live, seen from
// host at time now.
func claimLive(cl claimFile, mtime time.Time, host string, now time.Time) bool {
	if now.Sub(mtime) >= ClaimLease {
		return false
	}
	if cl.Host == host {
		return process.Alive(cl.PID)
	}
	return true
}

// LiveClaims lists the cells of the study in dir that a live process
// holds, as "KEY (host HOST, pid PID)", sorted.
func LiveClaims(dir string) ([]string, error) {
	host, err := os.Hostname()
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(filepath.Join(dir, ClaimsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var live []string
	now := time.Now()
	for _, e := range entries {
		key, ok := strings.CutSuffix(e.Name(), ".claim")
		if !ok {
			continue
		}
		cl, info, err := readClaim(filepath.Join(dir, ClaimsDir, e.Name()))
		if err != nil {
			continue // gone, or cut short by a crash
		}
		if claimLive(cl, info.ModTime(), host, now) {
			live = append(live, describeClaim(key, cl))
		}
	}
	sort.Strings(live)
	return live, nil
}
