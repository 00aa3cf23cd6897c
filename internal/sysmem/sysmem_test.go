package sysmem

import (
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, root, path, text string) {
	t.Helper()
	p := filepath.Join(root, path)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRead checks the limit on laid-out machines: MemTotal alone, a lower
// cgroup v2 limit of the process's group, "max" (no limit), a v1 limit
// above the machine's memory (ignored), and no /proc at all.
func TestRead(t *testing.T) {
	const meminfo = "MemTotal:        8000000 kB\nMemFree:  100 kB\nMemAvailable:  2000000 kB\n"
	cases := []struct {
		name   string
		files  map[string]string
		bytes  int64
		source string
	}{
		{"meminfo", map[string]string{"proc/meminfo": meminfo}, 8000000 * 1024, "MemTotal in /proc/meminfo"},
		{"cgroup v2", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/job/42\n", "sys/fs/cgroup/job/42/memory.max": "1073741824\n", "sys/fs/cgroup/job/42/memory.current": "73741824\n"}, 1 << 30, "cgroup memory.max"},
		{"cgroup v2 max", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/\n", "sys/fs/cgroup/memory.max": "max\n"}, 8000000 * 1024, "MemTotal in /proc/meminfo"},
		{"cgroup v1 above", map[string]string{"proc/meminfo": meminfo, "sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n"}, 8000000 * 1024, "MemTotal in /proc/meminfo"},
	}
	for _, c := range cases {
		root := t.TempDir()
		for p, text := range c.files {
			write(t, root, p, text)
		}
		l, err := Read(root)
		if err != nil || l.Bytes != c.bytes || l.Source != c.source || l.Available <= 0 || l.Available > l.Bytes {
			t.Errorf("%s: %+v %v, want %d from %s", c.name, l, err, c.bytes, c.source)
		}
	}
	if _, err := Read(t.TempDir()); err == nil {
		t.Errorf("no /proc: no error")
	}
	if l, err := Read("/"); err == nil && l.Bytes <= 0 {
		t.Errorf("this machine: %+v", l)
	}
}
