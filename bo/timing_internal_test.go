//go:build unix

package bo

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/symbo/symbo/bo/problem"
)

// TestTimingTable times whole protocol runs (Init + Iters evaluations) per
// problem and kernel, in process CPU seconds (user + system, all threads:
// the figure that adds up when runs share the cores) and wall seconds,
// with the fit/acquisition wall split. Opt-in:
//
//	SYMBO_TIMING=Ackley2d,Rastrigin5d:base,max,plus,avg[:seeds] go test ./bo/ -run TestTimingTable -v
//
// Kernels a problem refuses (max without a canonical map) are skipped.
func TestTimingTable(t *testing.T) {
	spec := os.Getenv("SYMBO_TIMING")
	if spec == "" {
		t.Skip("set SYMBO_TIMING=problems:kernels[:seeds]")
	}
	parts := strings.Split(spec, ":")
	if len(parts) < 2 {
		t.Fatalf("SYMBO_TIMING=%q: want problems:kernels[:seeds]", spec)
	}
	seeds := 1
	if len(parts) > 2 {
		if _, err := fmt.Sscan(parts[2], &seeds); err != nil || seeds < 1 {
			t.Fatalf("seeds %q", parts[2])
		}
	}
	var sum time.Duration
	for _, pn := range strings.Split(parts[0], ",") {
		p := must(problem.New(pn, 0))
		for _, k := range strings.Split(parts[1], ",") {
			var fit, acq, wall, cpu time.Duration
			cum := 0.0
			ran := 0
			for s := range seeds {
				t0, c0 := time.Now(), cpuTime()
				tr, err := runP(p, k, Config{}, 0, uint64(s))
				if errors.Is(err, ErrMaxNotPSD) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				wall += time.Since(t0)
				cpu += cpuTime() - c0
				fit += tr.Timings.Fit
				acq += tr.Timings.Acq
				if tr.CumulativeRegret != nil {
					cum += tr.CumulativeRegret[len(tr.CumulativeRegret)-1]
				} else {
					cum -= tr.BestF
				}
				ran++
			}
			if ran == 0 {
				continue
			}
			sum += cpu
			n := float64(ran)
			t.Logf("%-12s %-5s cpu %6.2fs wall %6.2fs (fit %6.2fs acq %6.2fs) cumregret (−best f without f*) %.4g",
				pn, k, cpu.Seconds()/n, wall.Seconds()/n, fit.Seconds()/n, acq.Seconds()/n, cum/n)
		}
	}
	t.Logf("total cpu %.1fs", sum.Seconds())
}

func cpuTime() time.Duration {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		return 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
