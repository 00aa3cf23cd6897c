package sim

import "testing"

func TestCeilPow2(t *testing.T) {
	for _, c := range []struct{ n, want int }{{-3, 1}, {0, 1}, {1, 1}, {2, 2}, {3, 4}, {4, 4}, {5, 8}, {2047, 2048}, {2048, 2048}, {2049, 4096}} {
		if got := CeilPow2(c.n); got != c.want {
			t.Errorf("CeilPow2(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}
