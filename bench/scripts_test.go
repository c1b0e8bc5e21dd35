package bench

import (
	"cmp"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Tests of the scripts behind the regression gate (scripts/bench-compare.sh,
// scripts/bench-gate.sh) where their decisions need no benchmark run.

// needTools skips the test when bash or git is missing.
func needTools(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"bash", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: %v", tool, err)
		}
	}
}

// runScript runs bash script args… in dir with env added to a minimal
// environment, and returns its combined output and exit status.
// gitIn returns a function running git in repo (an identity and no
// signing configured, so it commits on any machine), failing t on error.
func gitIn(t *testing.T, repo string) func(args ...string) {
	return func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// writeIn returns a function writing an executable file at a path
// relative to repo (its directories made), failing t on error.
func writeIn(t *testing.T, repo string) func(name, text string) {
	return func(name, text string) {
		t.Helper()
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func runScript(t *testing.T, dir string, env []string, script string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{script}, args...)...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TMPDIR=" + t.TempDir()}, env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
		code = ee.ExitCode()
	}
	return string(out), code
}

// TestCompareRefusesWorkingTreeWithoutSuite: a working tree without
// BenchmarkCore is an error (exit 1) before anything is built, as a NEW
// revision without it is — its runs would print no benchmark, and a
// comparison with nothing on one side reads as no change.
func TestCompareRefusesWorkingTreeWithoutSuite(t *testing.T) {
	needTools(t)
	script, err := os.ReadFile("../scripts/bench-compare.sh")
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	git := gitIn(t, repo)
	write := writeIn(t, repo)
	git("init", "-q")
	write("scripts/bench-compare.sh", string(script))
	write("bench/core_test.go", "package bench\n\nimport \"testing\"\n\nfunc BenchmarkCore(b *testing.B) {}\n")
	git("add", ".")
	git("commit", "-q", "-m", "base")
	write("bench/core_test.go", "package bench\n\nimport \"testing\"\n\nfunc BenchmarkOther(b *testing.B) {}\n")

	out, code := runScript(t, repo, []string{"OUT=" + filepath.Join(repo, "out"), "TAGS="}, "scripts/bench-compare.sh", "HEAD")
	if code != 1 || !strings.Contains(out, "the working tree has no BenchmarkCore") {
		t.Errorf("bench-compare.sh HEAD with a working tree without BenchmarkCore: exit %d, want 1 with \"the working tree has no BenchmarkCore\"; output:\n%s", code, out)
	}
}

// benchRow is one sec/op row of benchstat's CSV: a benchmark measured on
// the sides whose value is not empty, with benchstat's verdict vs ("~",
// "+30.00%", "?") and p; allocs, when set, is its allocs/op row's
// "OLD,NEW,VS,P" (else 3 allocs on each side, "~").
type benchRow struct {
	name, old, new, vs, p string
	allocs                string
}

// benchstatCSV renders rows as `benchstat -format csv old.txt new.txt`
// does: the sec/op table, then a B/op table in which every benchmark
// doubles (which the gate must ignore), then the allocs/op table.
func benchstatCSV(rows ...benchRow) string {
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\npkg: github.com/symbo/symbo/bench\ncpu: AMD EPYC\n")
	for _, unit := range []string{"sec/op", "B/op", "allocs/op"} {
		b.WriteString(",old.txt,,new.txt,,,\n," + unit + ",CI," + unit + ",CI,vs base,P\n")
		for _, r := range rows {
			switch {
			case unit == "B/op" && r.old != "" && r.new != "":
				b.WriteString(r.name + ",8,0%,16,0%,+100.00%,p=0.000 n=8\n")
			case unit == "allocs/op" && r.old != "" && r.new != "":
				f := strings.Split(cmp.Or(r.allocs, "3,3,~,p=1.000"), ",")
				b.WriteString(r.name + "," + f[0] + ",0%," + f[1] + ",0%," + f[2] + "," + f[3] + " n=8\n")
			case r.new == "":
				b.WriteString(r.name + "," + r.old + ",5%\n")
			case r.old == "":
				b.WriteString(r.name + ",,," + r.new + ",5%\n")
			default:
				b.WriteString(r.name + "," + r.old + ",5%," + r.new + ",5%," + r.vs + "," + r.p + " n=8\n")
			}
		}
		b.WriteString("geomean,1e-05,,1.1e-05,,+10.00%,\n\n")
	}
	return b.String()
}

// TestGateVerdict runs scripts/bench-gate.sh on canned benchstat results
// (BENCH_GATE_RESULTS: no build, no benchmark run) and checks its exit
// status and its lines.
func TestGateVerdict(t *testing.T) {
	needTools(t)
	if out, err := exec.Command("git", "rev-parse", "--verify", "-q", "HEAD^{commit}").CombinedOutput(); err != nil {
		t.Skipf("not a git checkout with a HEAD: %v %s", err, out)
	}
	a := "Core/kind=gram/kernel=max/n=55"
	b := "Core/kind=eigen/backend=gonum/n=55"
	for _, tc := range []struct {
		name         string
		cpu          string
		pass1, pass2 []benchRow // pass2 nil: the gate must not re-measure
		skipped      bool
		failed       bool // no pass-1 results: the comparison failed
		code         int
		want         []string // substrings of the output
		nowant       []string // substrings it must not have
		env          []string // added to the environment; with BASE, no argument
	}{
		{name: "unchanged", pass1: []benchRow{{a, "1e-05", "1.01e-05", "~", "p=0.721", ""}, {b, "3e-04", "2.9e-04", "-3.00%", "p=0.040", ""}},
			code: 0, want: []string{"bench-gate: PASS", "in 2 benchmarks compared"}},
		{name: "slower-twice", pass1: []benchRow{{a, "1e-05", "1.3e-05", "+30.00%", "p=0.000", ""}, {b, "3e-04", "3e-04", "~", "p=0.5", ""}},
			pass2: []benchRow{{a, "1e-05", "1.31e-05", "+31.00%", "p=0.000", ""}},
			code:  1, want: []string{"bench-gate: FAIL: " + a + " +31.00% p=0.000"}},
		{name: "not-significant", pass1: []benchRow{{a, "1e-05", "1.3e-05", "~", "p=0.080", ""}},
			code: 0, want: []string{"bench-gate: PASS"}},
		// Slower within the threshold passes, and the verdict says so.
		{name: "within-threshold", pass1: []benchRow{{a, "1e-05", "1.1e-05", "+10.00%", "p=0.000", ""}, {b, "3e-04", "3.6e-04", "+20.00%", "p=0.002", ""}},
			code: 0, want: []string{"bench-gate: PASS", "2 slower by at most 25% with p < 0.05 (largest " + b + " +20.00% p=0.002)", "sec/op geomean +10.00%"}},
		// A flag not confirmed passes, with the re-measured figures (not
		// called noise: +20% with p = 0 is a slowdown within the threshold).
		{name: "not-confirmed", pass1: []benchRow{{a, "1e-05", "1.3e-05", "+30.00%", "p=0.000", ""}, {b, "3e-04", "3.9e-04", "+30.00%", "p=0.000", ""}},
			pass2: []benchRow{{a, "1e-05", "1.01e-05", "~", "p=0.400", ""}, {b, "3e-04", "3.6e-04", "+20.00%", "p=0.000", ""}},
			code:  0, want: []string{"bench-gate: re-measured: " + a + " ~ p=0.400", "bench-gate: re-measured: " + b + " +20.00% p=0.000",
				"bench-gate: PASS: none of the 2 pass-1 flags (sec/op above 25%, allocs/op growth) confirmed by the re-measurement (largest there: " + b + " +20.00% p=0.000)"},
			nowant: []string{"noise"}},
		{name: "cpu-suffix", cpu: "2", pass1: []benchRow{{a + "-2", "1e-05", "1.3e-05", "+30.00%", "p=0.000", ""}},
			pass2: []benchRow{{a + "-2", "1e-05", "1.3e-05", "+30.00%", "p=0.000", ""}},
			code:  1, want: []string{"bench-gate: FAIL: " + a + "-2 +30.00%"}},
		// A benchmark on one side only is not compared, and says so.
		{name: "one-sided", pass1: []benchRow{{a, "1e-05", "1e-05", "~", "p=0.9", ""}, {b, "3e-04", "", "", "", ""}, {b + "x", "", "3e-04", "", "", ""}},
			code: 0, want: []string{"bench-gate: not compared: " + b + " (only in HEAD)", "bench-gate: not compared: " + b + "x (only in the working tree)", "in 1 benchmarks compared (2 not compared)"}},
		// Nothing compared (every name changed): the gate cannot pass.
		{name: "nothing-compared", pass1: []benchRow{{a, "1e-05", "", "", "", ""}, {a + "x", "", "1.3e-05", "", "", ""}},
			code: 1, want: []string{"bench-gate: FAIL: no benchmark measured on both sides"}},
		// A flagged benchmark missing from the re-measurement keeps its flag.
		{name: "not-re-measured", pass1: []benchRow{{a, "1e-05", "1.3e-05", "+30.00%", "p=0.000", ""}},
			pass2: []benchRow{{b, "3e-04", "3e-04", "~", "p=0.5", ""}},
			code:  1, want: []string{"bench-gate: FAIL: " + a + " +30.00% p=0.000 in pass 1, not re-measured"}},
		// A comparison that fails (the working tree does not build, a run
		// fails) ends with a FAIL verdict.
		{name: "comparison-failed", failed: true, code: 1, want: []string{"bench-gate: FAIL: the comparison of pass1 did not complete"}},
		// BASE from the environment when there is no argument.
		{name: "base-from-env", env: []string{"BASE=HEAD^{commit}"}, pass1: []benchRow{{a, "1e-05", "1e-05", "~", "p=0.9", ""}},
			code: 0, want: []string{"bench-gate: short core suite, HEAD^{commit} vs working tree", "bench-gate: PASS"}},
		{name: "base-skipped", skipped: true, code: 0, want: []string{"bench-gate: SKIPPED (bench-compare: SKIPPED: canned)"}},
		// A new per-op allocation, from none (benchstat's "?") or from
		// many, fails when the re-measurement confirms it, whatever sec/op
		// says; growth under max(2, 10%) from a count above 0 (which drifts by
		// one with the collector's timing), or not significant, passes.
		{name: "allocs-grow", pass1: []benchRow{{name: a, old: "1e-05", new: "1e-05", vs: "~", p: "p=0.9", allocs: "0,1,?,p=0.000"}, {name: b, old: "3e-04", new: "3e-04", vs: "~", p: "p=0.5", allocs: "24,27,+12.50%,p=0.000"}},
			pass2: []benchRow{{name: a, old: "1e-05", new: "1e-05", vs: "~", p: "p=0.8", allocs: "0,1,?,p=0.000"}, {name: b, old: "3e-04", new: "3e-04", vs: "~", p: "p=0.5", allocs: "24,27,+12.50%,p=0.000"}},
			code:  1, want: []string{"bench-gate: flagged in pass 1: " + a + " 0→1 allocs/op p=0.000", "bench-gate: FAIL: " + a + " 0→1 allocs/op p=0.000", "bench-gate: FAIL: " + b + " 24→27 allocs/op p=0.000", "or allocating more"}},
		{name: "allocs-not-confirmed", pass1: []benchRow{{name: a, old: "1e-05", new: "1e-05", vs: "~", p: "p=0.9", allocs: "2,4,+100.00%,p=0.010"}},
			pass2: []benchRow{{name: a, old: "1e-05", new: "1e-05", vs: "~", p: "p=0.8", allocs: "2,2,~,p=0.600"}},
			code:  0, want: []string{"bench-gate: re-measured: " + a + " ~ p=0.8", "bench-gate: PASS: none of the 1 pass-1 flags"}},
		{name: "allocs-within", pass1: []benchRow{{name: a, old: "1e-05", new: "1e-05", vs: "~", p: "p=0.9", allocs: "24,26,+8.33%,p=0.000"}, {name: b, old: "3e-04", new: "3e-04", vs: "~", p: "p=0.5", allocs: "2,3,+50.00%,p=0.080"}, {name: b + "x", old: "3e-04", new: "3e-04", vs: "~", p: "p=0.5", allocs: "9,10,+11.11%,p=0.000"}},
			code: 0, want: []string{"bench-gate: PASS: no sec/op regression above 25% and no allocs/op growth"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			res := filepath.Join(dir, "results")
			if err := os.Mkdir(res, 0o755); err != nil {
				t.Fatal(err)
			}
			put := func(name, text string) {
				if err := os.WriteFile(filepath.Join(res, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			switch {
			case tc.failed:
			case tc.skipped:
				put("pass1.skipped", "bench-compare: SKIPPED: canned\n")
			default:
				put("pass1.csv", benchstatCSV(tc.pass1...))
			}
			if tc.pass2 != nil {
				put("pass2.csv", benchstatCSV(tc.pass2...))
			}
			cpu := tc.cpu
			if cpu == "" {
				cpu = "1"
			}
			env := []string{"BENCH_GATE_RESULTS=" + res, "OUT=" + filepath.Join(dir, "out"), "CPU=" + cpu,
				"THRESHOLD=25", "ALPHA=0.05", "ROUNDS=8", "RETRY_ROUNDS=10"}
			args := []string{"HEAD"}
			if len(tc.env) > 0 {
				env, args = append(env, tc.env...), nil
			}
			out, code := runScript(t, ".", env, "../scripts/bench-gate.sh", args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q", w)
				}
			}
			for _, w := range tc.nowant {
				if strings.Contains(out, w) {
					t.Errorf("output has %q", w)
				}
			}
			_, err := os.Stat(filepath.Join(dir, "out", "pass2"))
			if remeasured := err == nil; remeasured != (tc.pass2 != nil) {
				t.Errorf("re-measured: %v, want %v", remeasured, tc.pass2 != nil)
			}
			if t.Failed() {
				t.Logf("output:\n%s", out)
			}
		})
	}
}

// TestFuzzSkipsTargetsOutsideTheBuild runs scripts/fuzz.sh in a toy module
// whose only FuzzXxx is in a file behind a build tag: go test -fuzz then
// matches no target, runs nothing and exits 0, which the script once
// reported as executions with no failure. It must say the target was
// skipped instead. Without -short, a real target beside it is fuzzed.
func TestFuzzSkipsTargetsOutsideTheBuild(t *testing.T) {
	needTools(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("go not found: %v", err)
	}
	script, err := os.ReadFile("../scripts/fuzz.sh")
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	write := writeIn(t, repo)
	write("scripts/fuzz.sh", string(script))
	write("go.mod", "module fz\n\ngo 1.21\n")
	write("fz/tagged_test.go", "//go:build sometag\n\npackage fz\n\nimport \"testing\"\n\nfunc FuzzTagged(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) {}) }\n")
	write("fz/plain_test.go", "package fz\n\nimport \"testing\"\n\nfunc TestNothing(t *testing.T) {}\n")
	if !testing.Short() {
		write("fz/real_test.go", "package fz\n\nimport \"testing\"\n\nfunc FuzzReal(f *testing.F) { f.Add([]byte(\"a\")); f.Fuzz(func(t *testing.T, b []byte) {}) }\n")
	}
	env := []string{"FUZZTIME=1s", "FUZZFIRST=50", "GOFLAGS=-buildvcs=false"}
	for _, v := range []string{"GOCACHE", "GOPATH", "GOMODCACHE", "GOROOT", "GOTOOLCHAIN", "XDG_CACHE_HOME"} {
		if s, ok := os.LookupEnv(v); ok {
			env = append(env, v+"="+s)
		}
	}
	out, code := runScript(t, repo, env, "scripts/fuzz.sh")
	if code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
	if !strings.Contains(out, "fuzz: SKIPPED ./fz FuzzTagged") {
		t.Errorf("output lacks \"fuzz: SKIPPED ./fz FuzzTagged\"")
	}
	if regexp.MustCompile(`FuzzTagged(,|:) \d+ executions`).MatchString(out) {
		t.Errorf("output claims FuzzTagged ran")
	}
	want := "fuzz: 0 targets"
	if !testing.Short() {
		want = "fuzz: 1 targets"
		if !strings.Contains(out, "fuzz: ./fz FuzzReal: ") {
			t.Errorf("output lacks FuzzReal's executions")
		}
	}
	if !strings.Contains(out, want) || !strings.Contains(out, "1 skipped (not in the default build): ./fz FuzzTagged") {
		t.Errorf("output lacks %q with \"1 skipped (not in the default build): ./fz FuzzTagged\"", want)
	}
	if t.Failed() {
		t.Logf("output:\n%s", out)
	}
}

// TestGateSaysWhyHeadParent: without a usable tag bench-base the gate
// compares with HEAD~1, the last commit only (a submission of several
// commits is then not gated as a whole), and says why.
func TestGateSaysWhyHeadParent(t *testing.T) {
	needTools(t)
	script, err := os.ReadFile("../scripts/bench-gate.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, tag, want string }{
		{"no-tag", "", "bench-gate: there is no tag bench-base (a clone without tags?): comparing with HEAD~1, i.e. the last commit only"},
		{"tag-at-head", "HEAD", "bench-gate: the tag bench-base is HEAD itself: comparing with HEAD~1"},
		{"tag-elsewhere", "side", "bench-gate: the tag bench-base is not an ancestor of HEAD: comparing with HEAD~1"},
		{"tag-usable", "HEAD~2", "bench-gate: short core suite, bench-base vs working tree"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := t.TempDir()
			git := gitIn(t, repo)
			writeIn(t, repo)("scripts/bench-gate.sh", string(script))
			git("init", "-q")
			git("add", ".")
			for i := 0; i < 3; i++ {
				git("commit", "-q", "--allow-empty", "-m", "c")
			}
			git("branch", "side", "HEAD~1")
			git("checkout", "-q", "side")
			git("commit", "-q", "--allow-empty", "-m", "side")
			git("checkout", "-q", "-")
			if tc.tag != "" {
				git("tag", "bench-base", tc.tag)
			}
			res := filepath.Join(repo, "results")
			if err := os.Mkdir(res, 0o755); err != nil {
				t.Fatal(err)
			}
			csv := benchstatCSV(benchRow{"Core/kind=gram/kernel=max/n=55", "1e-05", "1e-05", "~", "p=0.9", ""})
			if err := os.WriteFile(filepath.Join(res, "pass1.csv"), []byte(csv), 0o644); err != nil {
				t.Fatal(err)
			}
			out, code := runScript(t, repo, []string{"BENCH_GATE_RESULTS=" + res, "OUT=" + filepath.Join(repo, "out"), "CPU=1"}, "scripts/bench-gate.sh")
			if code != 0 || !strings.Contains(out, tc.want) || !strings.Contains(out, "bench-gate: PASS") {
				t.Errorf("exit %d, want 0 with %q and a PASS; output:\n%s", code, tc.want, out)
			}
			if tc.name == "tag-usable" && strings.Contains(out, "HEAD~1") {
				t.Errorf("output mentions HEAD~1 with a usable tag:\n%s", out)
			}
		})
	}
}

// TestCIInstallsRemovedPackages: .ci/run installs a package that dpkg
// knows but that is not installed — removed with its configuration
// files left (status "deinstall ok config-files"), which dpkg -s accepts
// with exit 0, so a reused machine skipped the install — and only it:
// a package held ("hold ok installed") or installed for two
// architectures (a status line each) is installed already. Only the install
// step runs (the script up to "go version"), with dpkg, dpkg-query and
// apt-get replaced by fakes that report one package removed and record
// what apt-get is asked.
func TestCIInstallsRemovedPackages(t *testing.T) {
	needTools(t)
	script, err := os.ReadFile("../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	head, _, ok := strings.Cut(string(script), "\ngo version\n")
	if !ok {
		t.Fatal(".ci/run has no line \"go version\" after its install step")
	}
	dir := t.TempDir()
	write := writeIn(t, dir)
	write(".ci/run", head+"\n")
	log := filepath.Join(dir, "apt.log")
	// postgresql was removed, its configuration kept; dpkg -s exits 0
	// for it as the real one does.
	write("bin/dpkg", "#!/bin/sh\nexit 0\n")
	// gcc is held (installed), python3 installed for two architectures
	// (a line each): both count as installed, as dpkg -s had them; the
	// comparison with "install ok installed" reinstalled them every run.
	write("bin/dpkg-query", `#!/bin/sh
for a; do p=$a; done
case $p in
postgresql) printf 'deinstall ok config-files' ;;
gcc) printf 'hold ok installed\n' ;;
python3) printf 'install ok installed\ninstall ok installed\n' ;;
*) printf 'install ok installed' ;;
esac
`)
	write("bin/apt-get", "#!/bin/sh\necho \"$@\" >>"+log+"\n")
	out, code := runScript(t, dir, []string{"PATH=" + filepath.Join(dir, "bin") + ":" + os.Getenv("PATH")}, ".ci/run")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	got, _ := os.ReadFile(log)
	if !regexp.MustCompile(`(?m)^install -y -qq postgresql$`).Match(got) || strings.Count(string(got), "install") != 1 {
		t.Errorf("apt-get was asked %q (output %q), want one install of postgresql alone", got, out)
	}
}
