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
// partitions of contiguous 64-router blocks (router.Plane.Split), as many
// as threads; a partition's NICs inject with it. The calling goroutine is
// thread 0. A cycle (stepParts) is:
//
//	serial      traffic generation, deliveries from the ejection lines
//	phase 1     NIC injection, re-evaluations, VC and switch allocation
//	phase 2     traversals (flits for another partition to its outbox)
//	phase 3     outboxes written into their routers, partition by partition
//	phase 4     deferred re-evaluations; thread 0 also ejects, in router order
//
// each phase opening once every partition finished the one before (pool
// says how the threads share the partitions). Every link has a latency of at least a
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
		n.sent[p].injected = n.injectPart(p, n.starts[p], n.starts[p+1])
		pl.AllocatePart(n.now)
	case 2:
		n.sent[p].moved = pl.TraversePart(n.now)
	case 3:
		pl.ApplyPart(n.now)
	case 4:
		pl.EvalDeferred()
	}
}

// injectPart is inject for the terminals of words [w0, w1) (partition p) of a direct
// network in a plane (no wake-ups), returning the flits injected.
func (n *Network) injectPart(p, w0, w1 int) (sent int) {
	for w := w0; w < w1; w++ {
		for m := n.sources[w]; m != 0; m &= m - 1 {
			t := w<<6 | bits.TrailingZeros64(m)
			if n.injectFlit(n.parts[p], t, t, n.local) {
				sent++
			}
			n.retireSource(t)
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
//
// A phase is not a barrier that every thread must reach: thread 0 opens
// it (phase 1 to 4 of the cycle, in turn), and every thread, thread 0
// included, claims the phase's partitions one at a time (its own first) and runs them
// until none is left; thread 0 then waits until every claimed partition
// is done and opens the next phase. Which thread runs a partition does
// not matter (a partition's state, routing scratch included, is its
// own), so the result is the same; what it buys is that a helper the
// scheduler has taken off its processor (a loaded machine) delays a phase
// only if it holds a partition, and thread 0 runs the others' partitions
// meanwhile, at worst at one thread's speed. A waiting helper spins on
// the phase word for up to spinFor, then parks. It never calls
// runtime.Gosched: a goroutine locked to its OS thread that does hands
// its processor to another thread and sleeps until it is handed back,
// two futex wake-ups; the barrier of the first version did every 64
// checks, and that, not the serial parts of a cycle, held a 64x64 torus
// at 0.02 to 1.25x on two cores. With more threads than GOMAXPROCS a
// helper parks at once.
type pool struct {
	// phase is the phase open, counting from 1 (phase (seq-1)%4+1 of its
	// cycle; 0: none yet; stopped: the end).
	phase    atomic.Uint64
	_        [7]uint64    // (the phase's line, away from the counts)
	done     atomic.Int32 // partitions of the open phase finished
	claims   []claim      // per partition: the last phase that claimed it
	sleepers atomic.Int32
	mu       sync.Mutex
	cond     sync.Cond
	seq      uint64 // thread 0's: the last phase it opened
	parts    int
	spin     bool // helpers spin before parking: no more threads than processors
	busy     bool // thread 0 is inside a cycle (a panic left it there: stop must not wait)
	wg       sync.WaitGroup
}

// spinFor is how long a helper spins on the phase word before it parks:
// longer than any wait within a cycle of the largest networks, so that a
// helper parks only when the network stops stepping. Each cycle has waits
// of milliseconds at 2^20 routers (thread 0's serial part, and the end of
// a phase when its partition took longer than the helper's), and a parked
// helper is late for the next phase by the wake-up (a futex, and in a
// virtual machine the host's rescheduling of an idle vCPU), so that thread
// 0 ran some of its partitions too. With 50 µs, the 16-ary 5-cube at 0.05
// on two threads ran 2-12% slower (docs/speed.md#session18).
const spinFor = 20 * time.Millisecond

// stopped is the phase that ends the helpers.
const stopped = ^uint64(0)

// claim is a partition's claim word, on its own cache line.
type claim struct {
	seq atomic.Uint64
	_   [7]uint64
}

func startPool(n *Network, k int) *pool {
	pp := &pool{parts: k, spin: k <= runtime.GOMAXPROCS(0), claims: make([]claim, k)}
	pp.cond.L = &pp.mu
	for p := 1; p < k; p++ {
		pp.wg.Add(1)
		go func() {
			defer pp.wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var seen uint64 // the last phase this helper worked in
			for {
				ph := pp.next(seen)
				if ph == stopped {
					return
				}
				seen = ph
				pp.work(n, ph, p)
			}
		}()
	}
	return pp
}

// next waits for a phase later than seq to open and returns its word.
func (pp *pool) next(seq uint64) uint64 {
	var start time.Time
	for i := 1; ; i++ {
		if ph := pp.phase.Load(); ph > seq {
			return ph
		}
		if i&255 == 0 { // the clock every 256 checks (a fraction of a microsecond)
			if !pp.spin {
				break
			}
			if i == 256 {
				start = time.Now()
			} else if time.Since(start) > spinFor {
				break
			}
		}
	}
	pp.mu.Lock()
	pp.sleepers.Add(1)
	ph := pp.phase.Load()
	for ph <= seq {
		pp.cond.Wait()
		ph = pp.phase.Load()
	}
	pp.sleepers.Add(-1)
	pp.mu.Unlock()
	return ph
}

// work claims and runs partitions of phase seq, its own partition
// (self) first, so that each thread keeps its partition's state in its
// own core's caches when none is late, until none is left.
func (pp *pool) work(n *Network, seq uint64, self int) {
	k := int((seq-1)%4) + 1
	for i := range pp.parts {
		p := self + i
		if p >= pp.parts {
			p -= pp.parts
		}
		c := &pp.claims[p].seq
		if old := c.Load(); old < seq && c.CompareAndSwap(old, seq) {
			n.phase(k, p)
			pp.done.Add(1)
		}
	}
}

// open opens the next phase for the helpers, waking those parked.
func (pp *pool) open(ph uint64) {
	pp.done.Store(0)
	pp.phase.Store(ph)
	if pp.sleepers.Load() > 0 {
		pp.mu.Lock()
		pp.cond.Broadcast()
		pp.mu.Unlock()
	}
}

// cycle runs the four phases of a cycle, taking its share of each on the
// calling goroutine. Phase 1 opens once the previous cycle's phase 4 is
// done; cycle returns once phase 4 is open and none of its partitions is
// left to claim: the helpers may still run some, which change no state
// the serial parts of a cycle (or a caller between cycles) read.
func (pp *pool) cycle(n *Network) {
	pp.busy = true
	for k := 1; k <= 4; k++ {
		pp.wait()
		pp.seq++
		pp.open(pp.seq)
		pp.work(n, pp.seq, 0)
	}
	pp.busy = false
}

// wait returns once every partition of the open phase is done.
func (pp *pool) wait() {
	if pp.seq == 0 {
		return
	}
	for pp.done.Load() != int32(pp.parts) {
	}
}

// stop ends the helpers, unless a panic interrupted a cycle: they are
// then left waiting for a phase (the network is broken).
func (pp *pool) stop() {
	if pp.busy {
		return
	}
	pp.wait()
	pp.open(stopped)
	pp.wg.Wait()
}
