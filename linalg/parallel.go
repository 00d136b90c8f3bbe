package linalg

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// noState is the newState of parallelFor loops without per-worker state.
func noState() struct{} { return struct{}{} }

// parallelFor runs body(lo, hi) over [0, n) in chunks handed out to
// GOMAXPROCS workers, checking ctx before each chunk. newState is called once
// per worker and its result passed to every body call of that worker. The
// calling goroutine is one of the workers: at the sizes where a loop takes
// a fraction of a millisecond, waiting for a second goroutine to be
// scheduled before any work starts would be a visible share of the time.
func parallelFor[S any](ctx context.Context, n, chunk int, newState func() S, body func(s S, lo, hi int)) error {
	workers := min(runtime.GOMAXPROCS(0), (n+chunk-1)/chunk)
	var next atomic.Int64
	var stop atomic.Bool
	work := func() {
		s := newState()
		for !stop.Load() {
			lo := int(next.Add(int64(chunk))) - chunk
			if lo >= n {
				return
			}
			if ctx.Err() != nil {
				stop.Store(true)
				return
			}
			body(s, lo, min(lo+chunk, n))
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
	return ctx.Err()
}
