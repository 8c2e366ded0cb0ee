package claim

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

const (
	// Lease is how long a claim stays live without being touched.
	Lease = 5 * time.Minute
	// Refresh is how often a holder touches its claims.
	Refresh = time.Minute
)

// File is the content of a claim: the process holding it.
type File struct {
	Host  string    `json:"host"`
	PID   int       `json:"pid"`
	Start time.Time `json:"start"`
}

// Claimer holds the claims of one process in one claims directory and
// keeps them live. Its methods are safe for concurrent use.
type Claimer struct {
	dir  string // the claims directory
	self File

	mu   sync.Mutex
	held map[string]bool

	// judged, if not nil, is called by takeOver between judging the claim
	// at path stale and renaming it aside: a test runs another takeover
	// there, which is the race the re-check after the rename settles.
	judged func(path string)

	stop chan struct{}
	done chan struct{}
}

// New starts holding claims in the claims directory dir, creating it if
// need be. Close stops it.
func New(dir string) (*Claimer, error) {
	host, err := os.Hostname()
	if err != nil {
		return nil, fmt.Errorf("claiming cells: %w", err)
	}
	c := &Claimer{
		dir:  dir,
		self: File{Host: host, PID: os.Getpid(), Start: time.Now().UTC()},
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

// refresh touches the held claims every Refresh until close.
func (c *Claimer) refresh() {
	defer close(c.done)
	tick := time.NewTicker(Refresh)
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

// Close stops refreshing and releases every claim still held.
func (c *Claimer) Close() {
	close(c.stop)
	<-c.done
	c.mu.Lock()
	keys := make([]string, 0, len(c.held))
	for k := range c.held {
		keys = append(keys, k)
	}
	c.mu.Unlock()
	for _, k := range keys {
		_ = c.Release(k) // a claim left behind is taken over later
	}
}

func (c *Claimer) path(key string) string { return filepath.Join(c.dir, key+".claim") }

// Acquire claims the work item with the given key. It returns false when
// a live process holds it.
func (c *Claimer) Acquire(key string) (bool, error) {
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
func (c *Claimer) takeOver(path string) bool {
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
// name that records this process (see AsidePath).
func (c *Claimer) asidePath(path string) string {
	return AsidePath(path, c.self)
}

// AsidePath returns the name under which holder, taking over the claim at
// path, renames it aside: named after holder's process, as atomicfile's
// temporary files are, so that atomicfile.Abandoned tells one left by a
// process killed during a takeover.
func AsidePath(path string, holder File) string {
	return filepath.Join(filepath.Dir(path), atomicfile.TempPrefix(filepath.Base(path)+".stale", holder.PID, holder.Host)+"aside")
}

// Holder describes the work item with the given key and the process that
// holds its claim, as "KEY (host HOST, pid PID)", or "KEY" when the claim
// cannot be read (released meanwhile).
func (c *Claimer) Holder(key string) string {
	cl, _, err := readClaim(c.path(key))
	if err != nil {
		return key
	}
	return describeClaim(key, cl)
}

// describeClaim describes the claim cl of the cell with the given key.
func describeClaim(key string, cl File) string {
	return fmt.Sprintf("%s (host %s, pid %d)", key, cl.Host, cl.PID)
}

// Release removes a claim this process holds.
func (c *Claimer) Release(key string) error {
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
// atomicfile.Abandoned tells one left by a killed process.
func createExclusive(path string, content []byte, writer File) (bool, error) {
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
func readClaim(path string) (File, os.FileInfo, error) {
	var cl File
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
func claimLive(cl File, mtime time.Time, host string, now time.Time) bool {
	if now.Sub(mtime) >= Lease {
		return false
	}
	if cl.Host == host {
		return process.Alive(cl.PID)
	}
	return true
}

// Live lists the work items whose claims in the claims directory dir a
// live process holds, as "KEY (host HOST, pid PID)", sorted. A directory
// that does not exist holds none.
func Live(dir string) ([]string, error) {
	host, err := os.Hostname()
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
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
		cl, info, err := readClaim(filepath.Join(dir, e.Name()))
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
