package eig

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestForkJobParts runs fork-join jobs of 1 to 9 parts, from several
// goroutines at once and one after another on the same job, and checks
// that every part of every run runs exactly once and before run returns.
func TestForkJobParts(t *testing.T) {
	const callers, runs = 3, 400
	var wg sync.WaitGroup
	errs := make(chan string, callers)
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var j forkJob
			var hits [9]atomic.Int32
			for r := range runs {
				parts := 1 + (r*7+c)%9
				for p := range hits {
					hits[p].Store(0)
				}
				j.run(parts, func(p int) {
					if r%5 == 0 {
						time.Sleep(time.Microsecond) // let a helper take some parts
					}
					hits[p].Add(1)
				})
				for p := range hits {
					want := int32(0)
					if p < parts {
						want = 1
					}
					if got := hits[p].Load(); got != want {
						errs <- "a part ran the wrong number of times"
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// TestCrewExits checks that the helpers leave once no job has come for
// crewSpin: a quiet program keeps no goroutine of this package.
func TestCrewExits(t *testing.T) {
	var j forkJob
	var n atomic.Int32
	j.run(4, func(int) { n.Add(1) })
	if n.Load() != 4 {
		t.Fatalf("ran %d parts, want 4", n.Load())
	}
	deadline := time.Now().Add(5 * time.Second)
	for crew.live.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d helpers still running 5 s after the last job (crewSpin %v)", crew.live.Load(), crewSpin)
		}
		time.Sleep(crewSpin)
	}
}
