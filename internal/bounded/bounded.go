// Package bounded reads input files through a size limit, so that an
// endless or huge input (/dev/zero, /dev/urandom, a FIFO, a multi-gigabyte
// file given by mistake) is refused after reading limit+1 bytes instead of
// being read whole.
package bounded

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrTooLarge is returned (wrapped) for an input longer than its limit.
var ErrTooLarge = errors.New("file too large")

// ReadFile reads at most limit bytes of the file at path; a longer file is
// an error wrapping ErrTooLarge, read no further than limit+1 bytes.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
	}
	return data, nil
}
