package network

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flitsim/flitsim/router"
)

// MaxThreads bounds Config.Threads.
const MaxThreads = 256

// threads is the state of a network stepped on several threads
// (Config.Threads > 1; issue 20, point 2). The routers' plane is split into
// partitions of contiguous 64-router blocks (router.Plane.Split); thread p
// steps partition p and injects for its terminals, the calling goroutine
// being thread 0. A cycle (stepParts) is:
//
//	serial      traffic generation, deliveries from the ejection lines
//	phase 1     NIC injection, re-evaluations, VC and switch allocation
//	phase 2     traversals (flits for another partition to its outbox)
//	phase 3     outboxes written into their routers, partition by partition
//	phase 4     deferred re-evaluations; thread 0 also ejects, in router order
//
// with a barrier before each phase. Every link has a latency of at least a
// cycle, so nothing one partition does in a cycle can be seen by another
// before the next, and the results are the single thread's byte for byte
// (router/plane_part.go says why; TestThreadsDeterministic shows it).
type threads struct {
	parts  []*router.Plane // nil: one thread (Step's own path)
	starts []int           // partition p holds the 64-router words [starts[p], starts[p+1])
	sent   []partCount     // per partition: flits injected, flits moved, this cycle
	pool   *pool           // the helper goroutines, started by the first stepParts
}

// partCount is one partition's counts of a cycle, on its own cache line.
type partCount struct {
	injected, moved int
	_               [6]int64
}

// partitionRoutes returns the routing function of each router: route when
// the network runs on one thread, or one function per partition from
// newRoute (routing functions keep scratch buffers, which two threads must
// not share).
func (n *Network) partitionRoutes(route router.RouteFunc, newRoute func() router.RouteFunc) func(i int) router.RouteFunc {
	k := n.cfg.Threads
	if k <= 1 {
		return func(int) router.RouteFunc { return route }
	}
	starts := router.SplitWords((n.nodes+63)/64, k)
	routes := make([]router.RouteFunc, len(starts)-1)
	for p := range routes {
		routes[p] = newRoute()
	}
	p := 0
	return func(i int) router.RouteFunc {
		for i>>6 >= starts[p+1] {
			p++
		}
		return routes[p]
	}
}

// split divides the plane into Config.Threads partitions, if the network
// has a plane and more than one 64-router block to give.
func (n *Network) split() error {
	if n.cfg.Threads <= 1 || n.plane == nil {
		return nil
	}
	parts, err := n.plane.Split(n.cfg.Threads)
	if err != nil || len(parts) < 2 {
		return err
	}
	n.parts = parts
	n.starts = router.SplitWords(len(n.sources), n.cfg.Threads)
	n.sent = make([]partCount, len(parts))
	return nil
}

// Threads returns the threads that step the network: Config.Threads, or 1
// when the network runs on one thread whatever was asked (see
// Config.Threads).
func (n *Network) Threads() int { return max(len(n.parts), 1) }

// stepParts simulates one cycle on the partitions' threads (see threads).
func (n *Network) stepParts() {
	now := n.now
	n.generate()
	for _, f := range n.sinks.take(now) {
		n.deliver(f)
	}
	if n.pool == nil {
		n.pool = startPool(n, len(n.parts))
	}
	n.pool.cycle(n)
	for p, pl := range n.parts {
		c := &n.sent[p]
		n.queuedFlits -= int64(c.injected)
		if c.injected+c.moved > 0 {
			n.lastProgress = now
		}
		for _, f := range pl.Ejected {
			n.eject(f)
		}
	}
	n.stats.cycle(n.inSystem)
	if n.cfg.Debug {
		n.checkConservation() // (phase 4 changes no count it reads)
	}
	n.now++
}

// phase runs phase k of the current cycle for partition p.
func (n *Network) phase(k, p int) {
	pl := n.parts[p]
	switch k {
	case 1:
		n.sent[p].injected = n.injectPart(n.starts[p], n.starts[p+1])
		pl.AllocatePart(n.now)
	case 2:
		n.sent[p].moved = pl.TraversePart(n.now)
	case 3:
		pl.ApplyPart(n.now)
	case 4:
		pl.EvalDeferred()
	}
}

// injectPart is inject for the terminals of words [w0, w1) of a direct
// network in a plane (no wake-ups), returning the flits injected.
func (n *Network) injectPart(w0, w1 int) (sent int) {
	for w := w0; w < w1; w++ {
		for m := n.sources[w]; m != 0; m &= m - 1 {
			t := w<<6 | bits.TrailingZeros64(m)
			if n.injectFlit(t, t, n.local) {
				sent++
			}
			if n.srcQ[t].Len() == 0 && n.nics[t].active == 0 {
				n.sources[w] &^= 1 << (uint(t) & 63)
			}
		}
	}
	return sent
}

// Close stops the threads a network stepped on several threads started
// (Run does it before it returns); a later Step starts them again. It is a
// no-op on one thread.
func (n *Network) Close() {
	if n.pool != nil {
		n.pool.stop()
		n.pool = nil
	}
}

// pool is the helper goroutines of a network on several threads, one per
// partition after the first, each locked to its OS thread for the run.
type pool struct {
	bar     barrier
	done    atomic.Bool
	busy    bool // thread 0 is inside a cycle (a panic left it there: stop must not wait)
	wg      sync.WaitGroup
	threads int
}

func startPool(n *Network, k int) *pool {
	pp := &pool{threads: k}
	pp.bar.init(k)
	for p := 1; p < k; p++ {
		pp.wg.Add(1)
		go func() {
			defer pp.wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for {
				pp.bar.wait() // the cycle starts (or the pool stops)
				if pp.done.Load() {
					return
				}
				for k := 1; k <= 4; k++ {
					if k > 1 {
						pp.bar.wait()
					}
					n.phase(k, p)
				}
			}
		}()
	}
	return pp
}

// cycle runs the four phases of a cycle, thread 0's share on the calling
// goroutine. It returns once every partition finished phase 3; the others
// may still be in phase 4, which changes no state the serial parts of a
// cycle (or a caller between cycles) read, and the next cycle's barrier
// waits for them.
func (pp *pool) cycle(n *Network) {
	pp.busy = true
	for k := 1; k <= 4; k++ {
		pp.bar.wait()
		n.phase(k, 0)
	}
	pp.busy = false
}

// stop ends the helpers, unless a panic interrupted a cycle: they are
// then left parked at a barrier of that cycle (the network is broken).
func (pp *pool) stop() {
	if pp.busy {
		return
	}
	pp.done.Store(true)
	pp.bar.wait()
	pp.wg.Wait()
}

// barrier is a reusable barrier for a fixed number of goroutines. A waiter
// spins on the barrier's generation for up to spinFor (the gap between two
// partitions' phases is a few microseconds on a quiet machine; waking a
// parked thread costs tens, more on a virtual machine whose idle core
// halted), then parks. The spin never yields: a goroutine locked to its OS
// thread (the helpers are) that calls runtime.Gosched hands its processor
// to another thread and sleeps until it is handed back, two futex
// wake-ups; the first version did every 64 checks, and that, not the
// serial parts of a cycle, held a 64x64 torus at 0.02 to 1.25x on two
// cores. With more threads than processors (GOMAXPROCS) some partner is
// always off its processor, and a waiter parks at once.
type barrier struct {
	n        int32
	spin     bool // spin before parking: no more threads than processors
	arrived  atomic.Int32
	gen      atomic.Uint32
	sleepers atomic.Int32
	mu       sync.Mutex
	cond     sync.Cond
}

// spinFor is how long a waiter spins before it parks.
const spinFor = 50 * time.Microsecond

func (b *barrier) init(n int) {
	b.n = int32(n)
	b.spin = n <= runtime.GOMAXPROCS(0)
	b.cond.L = &b.mu
}

func (b *barrier) wait() {
	g := b.gen.Load()
	if b.arrived.Add(1) == b.n {
		b.arrived.Store(0)
		b.gen.Add(1)
		if b.sleepers.Load() > 0 {
			b.mu.Lock()
			b.cond.Broadcast()
			b.mu.Unlock()
		}
		return
	}
	var start time.Time
	for i := 1; ; i++ {
		if b.gen.Load() != g {
			return
		}
		if i&255 == 0 { // the clock every 256 checks (a fraction of a microsecond)
			if !b.spin {
				break
			}
			if i == 256 {
				start = time.Now()
			} else if time.Since(start) > spinFor {
				break
			}
		}
	}
	b.mu.Lock()
	b.sleepers.Add(1)
	for b.gen.Load() == g {
		b.cond.Wait()
	}
	b.sleepers.Add(-1)
	b.mu.Unlock()
}
