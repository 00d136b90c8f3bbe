package eig

import (
	"runtime"
	"sync/atomic"
	"time"
)

// The parallel kernels of this package (dense products, Gram-Schmidt
// passes, rotations) are fork-join jobs of a few independent parts, often
// only a hundred microseconds long. Starting a goroutine per part is too
// slow for them: the new goroutine waits for an idle processor to wake up,
// which on a virtual machine can take as long as the part itself, so the
// parts of a Gram-Schmidt pass would run one after the other.
// The crew keeps helper goroutines awake between jobs instead: a helper
// that finishes a part polls for the next job for up to crewSpin and then
// exits, so a solve's jobs start in well under a microsecond while no
// goroutine outlives a quiet spell.

// crewSpin is how long an idle helper waits for the next job before it
// exits. The gaps between the parallel jobs of a solve step (norms,
// in-block orthonormalization, small projected problems) are shorter.
const crewSpin = 200 * time.Microsecond

// crew is the package's pool of helpers.
var crew struct {
	slot atomic.Pointer[forkJob] // the job on offer
	live atomic.Int32            // running helpers
}

// forkJob is a fork-join job of parts independent pieces, fn(0) ... fn(parts-1).
// The caller and the helpers claim parts one at a time, so a part no helper
// has taken yet is run by the caller: a job is never slower than running
// it alone. A forkJob is reused from one run to the next without
// allocating; the generation in claim keeps a late helper from taking a
// part of the next run.
type forkJob struct {
	fn func(part int)
	// claim packs the generation (bits 32-63), the number of parts (bits
	// 16-31) and the next unclaimed part (bits 0-15).
	claim atomic.Uint64
	done  atomic.Int64 // parts finished in this generation
	gen   uint32
}

// run runs fn(0), ..., fn(parts-1) (parts < 2^16) on the calling goroutine
// and on up to parts-1 helpers, and returns when all are done.
func (j *forkJob) run(parts int, fn func(part int)) {
	helpers := parts - 1
	if helpers <= 0 {
		for p := range parts {
			fn(p)
		}
		return
	}
	j.gen++
	j.fn = fn
	j.done.Store(0)
	j.claim.Store(uint64(j.gen)<<32 | uint64(parts)<<16)
	crew.slot.Store(j)
	for {
		// Top the crew up; a helper that has just given up rechecks the
		// slot after leaving the count, so the job is never left alone.
		l := crew.live.Load()
		if int(l) >= helpers {
			break
		}
		if crew.live.CompareAndSwap(l, l+1) {
			go crewHelper()
		}
	}
	for j.step(j.gen) {
	}
	crew.slot.CompareAndSwap(j, nil)
	// Wait for the parts the helpers took: spin while they are short,
	// then let other goroutines (a preempted helper among them) run.
	for spins := 0; j.done.Load() < int64(parts); spins++ {
		if spins > 1<<12 {
			runtime.Gosched()
		}
	}
	j.fn = nil
}

// step claims one part of generation gen and runs it. It returns false if
// there is none left (or the job has moved on to another generation).
func (j *forkJob) step(gen uint32) bool {
	for {
		c := j.claim.Load()
		g, next, parts := unpack(c)
		if g != gen || next >= parts {
			return false
		}
		if j.claim.CompareAndSwap(c, c+1) {
			j.fn(next)
			j.done.Add(1)
			return true
		}
	}
}

// crewHelper takes parts of the jobs on offer until none has come for
// crewSpin.
func crewHelper() {
	idle := time.Now()
	for spins := 0; ; spins++ {
		if j := crew.slot.Load(); j != nil {
			gen, _, _ := unpack(j.claim.Load())
			if j.step(gen) {
				idle, spins = time.Now(), 0
				continue
			}
		}
		if spins&63 != 63 {
			continue
		}
		if time.Since(idle) < crewSpin {
			// Let any other goroutine waiting for this processor run
			// (the caller's own parallel work among them).
			runtime.Gosched()
			continue
		}
		crew.live.Add(-1)
		// A job may have been offered after the check above by a caller
		// that saw this helper still counted: look once more.
		j := crew.slot.Load()
		if j == nil || !j.open() {
			return
		}
		if l := crew.live.Load(); !crew.live.CompareAndSwap(l, l+1) {
			return
		}
		idle, spins = time.Now(), 0
	}
}

// open reports whether the job has an unclaimed part.
func (j *forkJob) open() bool {
	_, next, parts := unpack(j.claim.Load())
	return next < parts
}

// unpack splits a claim word into its generation, next part and parts.
func unpack(c uint64) (gen uint32, next, parts int) {
	return uint32(c >> 32), int(c & 0xffff), int(c >> 16 & 0xffff)
}
