// Package sysmem reads how much memory this process may use: the machine's
// total memory (/proc/meminfo MemTotal) or, when lower, the memory limit of
// its control group (cgroup v2 memory.max, cgroup v1
// memory.limit_in_bytes), as a container or a Slurm job sets it.
package sysmem

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Limit is the memory this process may use at most (Bytes) and where the
// figure comes from ("MemTotal in /proc/meminfo", "cgroup memory.max"), and
// how much of it is free now (Available: MemAvailable, or the cgroup's
// limit less its memory.current when that is lower; 0 when unknown).
type Limit struct {
	Bytes     int64
	Source    string
	Available int64
}

// String gives the limit in MiB with its source.
func (l Limit) String() string {
	return fmt.Sprintf("%.0f MiB (%s)", float64(l.Bytes)/(1<<20), l.Source)
}

// ErrUnknown is returned where no limit can be read (no /proc: not Linux).
var ErrUnknown = errors.New("sysmem: the machine's memory cannot be read")

// Read returns the limit of this process, reading the files under root
// ("/" on a real machine; tests give a directory laid out the same way).
func Read(root string) (Limit, error) {
	meminfo := filepath.Join(root, "proc", "meminfo")
	total, err := memField(meminfo, "MemTotal:")
	if err != nil {
		return Limit{}, fmt.Errorf("%w: %v", ErrUnknown, err)
	}
	l := Limit{Bytes: total, Source: "MemTotal in /proc/meminfo"}
	l.Available, _ = memField(meminfo, "MemAvailable:")
	for _, c := range []struct{ path, source string }{
		{cgroupV2File(root), "cgroup memory.max"},
		{filepath.Join(root, "sys", "fs", "cgroup", "memory", "memory.limit_in_bytes"), "cgroup v1 memory.limit_in_bytes"},
	} {
		if c.path == "" {
			continue
		}
		b, err := os.ReadFile(c.path)
		if err != nil {
			continue
		}
		s := strings.TrimSpace(string(b))
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v <= 0 { // "max": no limit
			continue
		}
		if v < l.Bytes {
			l.Bytes, l.Source = v, c.source
			if cur, err := os.ReadFile(filepath.Join(filepath.Dir(c.path), "memory.current")); err == nil {
				if used, err := strconv.ParseInt(strings.TrimSpace(string(cur)), 10, 64); err == nil && (l.Available == 0 || v-used < l.Available) {
					l.Available = max(v-used, 0)
				}
			}
		}
	}
	return l, nil
}

// memField reads a field in kB ("MemTotal:") from a meminfo file, in bytes.
func memField(path, field string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == field {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil || kb <= 0 {
				return 0, fmt.Errorf("%s: %s %q", path, field, f[1])
			}
			return kb * 1024, nil
		}
	}
	return 0, fmt.Errorf("%s: no %s line", path, field)
}

// cgroupV2File returns the memory.max of this process's cgroup v2 group
// (from /proc/self/cgroup's "0::/path" line), or of the root group.
func cgroupV2File(root string) string {
	base := filepath.Join(root, "sys", "fs", "cgroup")
	if b, err := os.ReadFile(filepath.Join(root, "proc", "self", "cgroup")); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "0::"); ok {
				p := filepath.Join(base, filepath.Clean("/"+rest), "memory.max")
				if _, err := os.Stat(p); err == nil {
					return p
				}
			}
		}
	}
	return filepath.Join(base, "memory.max")
}
