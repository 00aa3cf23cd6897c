package sweep

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrLocked is returned (wrapped) when another process is writing the
// same results in the same directory.
var ErrLocked = errors.New("output is being written by another process")

// Lock is an exclusive, advisory lock on one product of an output
// directory (the results files, one shard file, the validation report),
// held by this process until Unlock or its exit (the kernel drops the lock
// of a killed process, so a lock file left by a SIGKILL never blocks a
// later run).
type Lock struct {
	f    *os.File
	path string
}

// LockName returns the name of the lock file of the product name in an
// output directory: ".name.lock".
func LockName(name string) string { return "." + name + ".lock" }

// LockDir creates dir if needed and takes the lock of product name in it
// without waiting. If another process holds it, the error (wrapping
// ErrLocked) names that process's id, read from the lock file. A directory
// that cannot be created or written fails here, before any work starts.
func LockDir(dir, name string) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, LockName(name))
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		held, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		if held {
			f.Close()
			return nil, fmt.Errorf("%w: %s in %s is locked by process %s; wait for it to finish, stop it, or use another --out",
				ErrLocked, name, dir, holder(path))
		}
		// The holder removes the file when it unlocks: a lock taken on a
		// file that has since been removed (or replaced) locks nothing.
		fst, ferr := f.Stat()
		pst, perr := os.Stat(path)
		if ferr != nil || perr != nil || !os.SameFile(fst, pst) {
			f.Close()
			continue
		}
		// The holder's id, for the message of a refused second writer.
		if err := f.Truncate(0); err == nil {
			_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
		}
		return &Lock{f: f, path: path}, nil
	}
}

// holder reads the process id a lock file holds; the holder writes it
// right after taking the lock, so an empty file is read again briefly.
func holder(path string) string {
	for i := 0; i < 20; i++ {
		b, _ := os.ReadFile(path)
		if s := strings.TrimSpace(string(b)); s != "" {
			return s
		}
		time.Sleep(5 * time.Millisecond)
	}
	return "(unknown id)"
}

// Unlock removes the lock file and releases the lock (a process that
// opened the file meanwhile finds it removed and opens it again).
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	os.Remove(l.path)
	err := l.f.Close() // closing the descriptor releases the lock
	l.f = nil
	return err
}
