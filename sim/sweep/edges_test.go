package sweep

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/flitsim/flitsim/sim"
)

// TestWriteFilesDiskFull simulates a full disk on each of the two files in
// turn and checks that results.csv and results.json keep the same rows
// (the old pair), with no temporary file left behind.
func TestWriteFilesDiskFull(t *testing.T) {
	rate := func(r float64) Row {
		return Row{Config: "a", Source: SourceSim, Rate: r, RateUnit: "flits/node/cycle", Status: sim.StatusOK, Replications: 1}
	}
	for _, failing := range []string{JSONFile, CSVFile} {
		t.Run(failing, func(t *testing.T) {
			dir := t.TempDir()
			if err := WriteFiles(dir, []Row{rate(0.1)}); err != nil {
				t.Fatal(err)
			}
			syncFile = func(f *os.File) error {
				if strings.Contains(filepath.Base(f.Name()), failing) {
					return syscall.ENOSPC
				}
				return f.Sync()
			}
			defer func() { syncFile = (*os.File).Sync }()
			err := WriteFiles(dir, []Row{rate(0.1), rate(0.2)})
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("WriteFiles on a full disk: %v, want ENOSPC", err)
			}
			rows, err := ReadJSON(dir)
			if err != nil || len(rows) != 1 {
				t.Errorf("results.json holds %d rows (%v), want the old 1", len(rows), err)
			}
			csv, _ := os.ReadFile(filepath.Join(dir, CSVFile))
			if n := strings.Count(string(csv), "\n") - 1; n != 1 {
				t.Errorf("results.csv holds %d rows, want the old 1", n)
			}
			left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
			if len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// TestLockDir checks the output lock: a second taker is refused with
// ErrLocked and the holder's process id; another product of the same
// directory is not; after Unlock the lock is free again.
func TestLockDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	l, err := LockDir(dir, "results")
	if err != nil {
		t.Fatal(err)
	}
	_, err = LockDir(dir, "results")
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "locked by process "+itoa(os.Getpid())) {
		t.Errorf("second LockDir: %v, want ErrLocked naming process %d", err, os.Getpid())
	}
	other, err := LockDir(dir, "shard-0-of-2.json")
	if err != nil {
		t.Errorf("another product: %v", err)
	}
	other.Unlock()
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	again, err := LockDir(dir, "results")
	if err != nil {
		t.Errorf("LockDir after Unlock: %v", err)
	}
	again.Unlock()
	// A directory that cannot be created fails at once.
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	if _, err := LockDir(filepath.Join(file, "out"), "results"); err == nil || errors.Is(err, ErrLocked) {
		t.Errorf("LockDir under a file: %v, want an I/O error", err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
