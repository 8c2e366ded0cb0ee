//go:build unix

package dataset

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
)

// TestOpenFileDigestReadsOnce checks that OpenFileDigest returns the
// SHA-256 of the whole file (also of lines the parser does not need, such
// as a trailing blank line), and that a named pipe, which can be read
// once, gives the same ratings and digest as a regular file.
func TestOpenFileDigestReadsOnce(t *testing.T) {
	content := "user,item,rating\n1,1,1\n2,2,2.5\n3,1,4\n\n"
	sum := sha256.Sum256([]byte(content))
	want := hex.EncodeToString(sum[:])
	regular := writeFile(t, "r.csv", content)
	fromFile, digest, err := OpenFileDigest(context.Background(), regular, "triplets", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if digest != want {
		t.Errorf("digest of the file %s, want %s", digest, want)
	}

	fromPipe, digest := openThroughPipe(t, "p.csv", []byte(content), "triplets")
	if digest != want {
		t.Errorf("digest of the pipe %s, want %s", digest, want)
	}
	fromPipe.Name = fromFile.Name
	if !reflect.DeepEqual(fromPipe, fromFile) {
		t.Errorf("the pipe gave %+v, the file %+v", fromPipe, fromFile)
	}
}

// openThroughPipe writes content into a named pipe called name, in a
// temporary directory, and reads it with OpenFileDigest in format (empty:
// detected), returning the ratings and the digest. It skips the test where
// a named pipe cannot be made.
func openThroughPipe(t *testing.T, name string, content []byte, format string) (*Ratings, string) {
	t.Helper()
	pipe := filepath.Join(t.TempDir(), name)
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skip("cannot make a named pipe:", err)
	}
	wrote := make(chan error, 1)
	go func() {
		w, err := os.OpenFile(pipe, os.O_WRONLY, 0)
		if err == nil {
			_, err = w.Write(content)
			if cerr := w.Close(); err == nil {
				err = cerr
			}
		}
		wrote <- err
	}()
	r, digest, err := OpenFileDigest(context.Background(), pipe, format, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	return r, digest
}
