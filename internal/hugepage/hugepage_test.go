package hugepage

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// thpMode returns the system's transparent huge page setting ("always",
// "madvise", "never") or "" when it cannot be read.
func thpMode() string {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		return ""
	}
	s := string(b)
	if i, j := strings.IndexByte(s, '['), strings.IndexByte(s, ']'); i >= 0 && j > i {
		return s[i+1 : j]
	}
	return ""
}

// advisedRange reports whether the kernel's map of this process has the
// region holding address a flagged "hg" (MADV_HUGEPAGE) in its VmFlags.
func advisedRange(t *testing.T, a uintptr) bool {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps")
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	in := false
	for sc.Scan() {
		line := sc.Text()
		if fields := strings.Fields(line); len(fields) > 0 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			lo, hi, ok := strings.Cut(fields[0], "-")
			if ok {
				l, err1 := strconv.ParseUint(lo, 16, 64)
				h, err2 := strconv.ParseUint(hi, 16, 64)
				in = err1 == nil && err2 == nil && uint64(a) >= l && uint64(a) < h
			}
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.Contains(line, " hg")
		}
	}
	return false
}

// TestAdvise checks that a large fresh array is advised, its interior
// region flagged for huge pages in the kernel's map (on Linux with
// transparent huge pages available), and that small arrays are left alone.
func TestAdvise(t *testing.T) {
	if Advise(make([]byte, Min-1)) {
		t.Errorf("an array below Min was advised")
	}
	if Advise([]int64(nil)) {
		t.Errorf("an empty array was advised")
	}
	s := make([]uint64, (16<<20)/8)
	got := Advise(s)
	mode := thpMode()
	if runtime.GOOS != "linux" {
		if got {
			t.Errorf("advised on %s", runtime.GOOS)
		}
		t.Skipf("no transparent huge pages on %s", runtime.GOOS)
	}
	if mode == "" || mode == "never" {
		t.Skipf("transparent huge pages %q here", mode)
	}
	if !got {
		t.Fatalf("Advise of a 16 MiB array returned false (transparent huge pages %q)", mode)
	}
	mid := uintptr(unsafe.Pointer(&s[len(s)/2]))
	if !advisedRange(t, mid) {
		t.Errorf("the middle of the advised array (%#x) is not flagged hg in /proc/self/smaps", mid)
	}
	for i := range s { // the memory stays usable
		s[i] = uint64(i)
	}
	if s[len(s)-1] != uint64(len(s)-1) {
		t.Errorf("write lost")
	}
	runtime.KeepAlive(s)
}

// TestMake checks that Make returns a zeroed array of the length asked.
func TestMake(t *testing.T) {
	for _, n := range []int{0, 1, 1000, (Min / 8) + 1} {
		s := Make[int64](n)
		if len(s) != n {
			t.Fatalf("Make(%d): length %d", n, len(s))
		}
		for i, v := range s {
			if v != 0 {
				t.Fatalf("Make(%d)[%d] = %d", n, i, v)
			}
		}
	}
}
