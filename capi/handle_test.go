//go:build cgo

package main

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/internal/frontend"
)

const hammerSettings = `{"group":"hyperoctahedral","d":3,"box":[[-2],[2]],"kernel":"plus","seed":2,"init":4,"minimize":true}`

// TestHandleConcurrency is the Go side of check.c's handle_threads, run
// under the race detector by make test-race: goroutines share one handle
// (ask, tell, fail, add pending, suggest, history) while others create and
// free handles; the counts are exact afterwards and no two pending points
// share an orbit.
func TestHandleConcurrency(t *testing.T) {
	id, err := newHandle(hammerSettings)
	if err != nil {
		t.Fatal(err)
	}
	const workers, rounds = 4, 5
	var told, failed, pending [workers]int
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range workers {
		wg.Go(func() {
			for r := range rounds {
				var x []float64
				err := withOptimizer(id, func(o *bo.Optimizer) error {
					pts, err := askPoints(o, 1, true)
					if err == nil {
						x = pts[0]
					}
					return err
				})
				if err != nil {
					errs <- err
					return
				}
				err = withOptimizer(id, func(o *bo.Optimizer) error {
					switch (w + r) % 3 {
					case 0:
						told[w]++
						return o.Tell(x, x[0]*x[0]+x[1])
					case 1:
						failed[w]++
						return o.Fail(x)
					}
					pending[w]++
					return nil
				})
				if err == nil {
					pending[w]++
					err = withOptimizer(id, func(o *bo.Optimizer) error {
						return o.AddPending([]float64{-1.9 + 0.1*float64(w), 0.013 * float64(r), -0.5})
					})
				}
				if err == nil {
					err = withOptimizer(id, func(o *bo.Optimizer) error {
						_ = o.History()
						_, err := askPoints(o, 1, false)
						return err
					})
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	// Meanwhile: handles created and freed, and calls on freed ids.
	wg.Go(func() {
		for range 20 {
			h, err := newHandle(`{"group":"signflip","d":2,"box":[[-1],[1]],"kernel":"max"}`)
			if err == nil {
				err = freeHandle(h)
			}
			if err == nil {
				err = withOptimizer(h, func(*bo.Optimizer) error { return nil })
				if !errors.Is(err, errInput) {
					errs <- err
					return
				}
				err = nil
			}
			if err != nil {
				errs <- err
				return
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var nt, nf, np int
	for w := range workers {
		nt, nf, np = nt+told[w], nf+failed[w], np+pending[w]
	}
	err = withOptimizer(id, func(o *bo.Optimizer) error {
		if o.N() != nt || len(o.Failed()) != nf || len(o.Pending()) != np {
			t.Errorf("%d observed, %d failed, %d pending; want %d, %d, %d", o.N(), len(o.Failed()), len(o.Pending()), nt, nf, np)
		}
		ps := o.Pending()
		for i := range ps {
			for k := range i {
				if canonDist(ps[i], ps[k]) < 1e-9 {
					t.Errorf("pending points %d and %d share an orbit: %v, %v", i, k, ps[i], ps[k])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := freeHandle(id); err != nil {
		t.Fatal(err)
	}
	if err := freeHandle(id); !errors.Is(err, errInput) || codeOf(err) != codeInval {
		t.Errorf("double free: %v", err)
	}
}

// canonDist is the hyperoctahedral orbit distance ‖sort|x| − sort|y|‖.
func canonDist(x, y []float64) float64 {
	c := func(v []float64) []float64 {
		out := make([]float64, len(v))
		for i, a := range v {
			out[i] = math.Abs(a)
		}
		slices.Sort(out)
		return out
	}
	a, b := c(x), c(y)
	var s float64
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return math.Sqrt(s)
}

// TestHandleFreeWhileWaiting: a call waiting for the lock while the
// handle is freed either runs first or finds the handle gone; never a
// crash, and the handle is gone afterwards.
func TestHandleFreeWhileWaiting(t *testing.T) {
	id, err := newHandle(hammerSettings)
	if err != nil {
		t.Fatal(err)
	}
	hold, held := make(chan struct{}), make(chan struct{})
	go func() {
		_ = withOptimizer(id, func(*bo.Optimizer) error {
			close(held)
			<-hold
			return nil
		})
	}()
	<-held
	waiter := make(chan error)
	go func() { waiter <- withOptimizer(id, func(o *bo.Optimizer) error { _, err := o.Ask(); return err }) }()
	time.Sleep(10 * time.Millisecond) // the waiter has looked the handle up
	freed := make(chan error)
	go func() { freed <- freeHandle(id) }()
	time.Sleep(10 * time.Millisecond)
	close(hold)
	if err := <-freed; err != nil {
		t.Fatal(err)
	}
	if err := <-waiter; err != nil && !errors.Is(err, errInput) {
		t.Errorf("waiting call: %v", err)
	}
	if err := withOptimizer(id, func(*bo.Optimizer) error { return nil }); !errors.Is(err, errInput) {
		t.Errorf("call after free: %v", err)
	}
}

// TestAskPointsAllOrNothing: a batch that fails part-way records none of
// its points (bo's AskBatch leaves the earlier ones pending), and suggest
// (keep false) records nothing.
func TestAskPointsAllOrNothing(t *testing.T) {
	id, err := newHandle(`{"group":"signflip","d":2,"box":[[-1],[1]],"kernel":"plus","init":3}`)
	if err != nil {
		t.Fatal(err)
	}
	defer freeHandle(id)
	_ = withOptimizer(id, func(o *bo.Optimizer) error {
		pts, err := askPoints(o, 3, false)
		if err != nil || len(pts) != 3 || len(o.Pending()) != 0 {
			t.Fatalf("suggest: %v, %d pending", err, len(o.Pending()))
		}
		again, err := askPoints(o, 3, true)
		if err != nil || !slices.EqualFunc(pts, again, slices.Equal) || len(o.Pending()) != 3 {
			t.Fatalf("ask after suggest: %v, %v vs %v", err, again, pts)
		}
		for _, q := range []int64{0, -1, 1 << 40} {
			if _, err := askPoints(o, q, true); codeOf(err) != codeInval {
				t.Errorf("q = %d: %v", q, err)
			}
		}
		// Fill MaxEvaluations but for two points: a batch of 3 fails at
		// its third ask and must leave the optimizer as it was.
		before := bo.MaxEvaluations - 2
		for range before - 3 {
			if err := o.AddPending([]float64{0.5, 0.5}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := askPoints(o, 3, true); err == nil || codeOf(err) != codeInval {
			t.Errorf("a batch past MaxEvaluations: %v", err)
		}
		if len(o.Pending()) != before {
			t.Errorf("a failed batch left %d pending points, want %d", len(o.Pending()), before)
		}
		return nil
	})
}

// TestOptimizerInfo: symbo_optimizer_info's JSON names the kernel, the
// candidates it kept and the reasons of those it left out — avg of a list
// over hyperoctahedral(3) with Matérn-5/2 (48 elements, over
// bo.AffordEnumerateLimit), nothing for the default kernel there — and a
// single kernel is its own one candidate. check.c's handle_info calls it
// through the C ABI (buffers, codes, messages).
func TestOptimizerInfo(t *testing.T) {
	const box = `"group":"hyperoctahedral","d":3,"box":[[-1],[1]],"base":"matern52"`
	for _, c := range []struct {
		kernel     string
		name       string
		candidates []string
		leftOut    string // the one reason's prefix, or "" for none
	}{
		{`,"kernel":"portfolio:nystrom+avg:soft+plus"`, "portfolio:nystrom+avg:soft+plus", []string{"nystrom", "soft", "plus"}, "avg: k_avg over hyperoctahedral(3) with matern52 would be enumerated"},
		{`,"kernel":"auto"`, "auto", []string{"nystrom", "plus"}, "avg: "},
		{``, "portfolio:nystrom:soft+plus", []string{"nystrom", "soft", "plus"}, ""},
		{`,"kernel":"plus"`, "plus", []string{"plus"}, ""},
	} {
		id, err := newHandle(`{` + box + c.kernel + `}`)
		if err != nil {
			t.Fatal(err)
		}
		var js []byte
		if err := withOptimizer(id, func(o *bo.Optimizer) (err error) {
			js, err = json.Marshal(infoOf(o))
			return err
		}); err != nil {
			t.Fatal(err)
		}
		var got struct {
			Kernel     string    `json:"kernel"`
			Candidates []string  `json:"candidates"`
			LeftOut    *[]string `json:"left_out"`
		}
		if err := frontend.Decode(js, &got); err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		ok := got.Kernel == c.name && slices.Equal(got.Candidates, c.candidates) && got.LeftOut != nil
		if ok && c.leftOut == "" {
			ok = len(*got.LeftOut) == 0 && strings.Contains(string(js), `"left_out":[]`)
		} else if ok {
			ok = len(*got.LeftOut) == 1 && strings.HasPrefix((*got.LeftOut)[0], c.leftOut)
		}
		if !ok {
			t.Errorf("kernel %s: info %s", c.name, js)
		}
		if err := freeHandle(id); err != nil {
			t.Fatal(err)
		}
	}
	// An unknown handle is bad input (check.c: a freed one, a NULL needed,
	// a short buffer).
	if code := symbogo_optimizer_info(0, nil, 0, nil); code != codeInval {
		t.Errorf("info on handle 0: code %d", code)
	}
}
