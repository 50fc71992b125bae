package libm

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
)

// The oracle is the C library itself: testdata/libm_ref.py calls this
// machine's log and logf through ctypes. The golden files hold its
// answers on Debian 12 (glibc 2.36) for a fixed set of inputs, with FMA
// (glibc.txt) and with the FMA variants masked off by GLIBC_TUNABLES
// (glibc_nofma.txt), so that the models are checked on any machine;
// TestAgainstLibm asks the running libm about fresh random inputs.
//
// Beyond these tests, Logf and LogfNoFMA were compared with glibc 2.36's
// logf on all 2^32 float32 inputs (FNV hashes of every 2^28 results, a C
// loop against the same loop in Go): identical.

var update = flag.Bool("update", false, "rewrite testdata/glibc*.txt from this machine's libm (glibc 2.36, x86-64 with FMA)")

const python = "/usr/bin/python3"

// nofmaTunables masks the FMA and AVX2 features off glibc's ifunc choice.
const nofmaTunables = "GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA,-FMA4"

// inputs returns float64 and float32 bit patterns: the edge cases of both
// functions (zeros, subnormals, the ends of the near-1 path, 1 ± ulps,
// the largest values, infinities, NaN, negatives, the clipping constants
// of log-loss scorers) and n random ones, spread over every binade, the
// unit interval and the neighbourhood of 1.
func inputs(r *rand.Rand, n int) (d []uint64, f []uint32) {
	for _, x := range []float64{0, math.Copysign(0, -1), 5e-324, 1e-323, 0x1p-1022, 0x1.fffffffffffffp-1023,
		math.Nextafter(1, 0), 1, math.Nextafter(1, 2), 1 - 0x1p-4, math.Nextafter(1-0x1p-4, 0), math.Nextafter(1-0x1p-4, 1),
		1 + 0x1.09p-4, math.Nextafter(1+0x1.09p-4, 0), math.Nextafter(1+0x1.09p-4, 2), 0.5, 2, 0x1p-52, 1 - 0x1p-52,
		1e-15, 1 - 1e-15, 1e-7, 1 - 1e-7, 1e-300, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), -1, -5e-324} {
		d = append(d, math.Float64bits(x))
	}
	for _, x := range []float32{0, float32(math.Copysign(0, -1)), 1e-45, 0x1p-126, 0x1.fffffcp-127, math.Nextafter32(1, 0), 1,
		math.Nextafter32(1, 2), 0.5, 2, 0x1p-23, 1 - 0x1p-24, 1e-7, 1 - 1e-7, math.MaxFloat32,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), -1} {
		f = append(f, math.Float32bits(x))
	}
	for i := range n {
		switch i % 5 {
		case 0: // any positive float64 (subnormals, infinities and NaNs included)
			d = append(d, r.Uint64()>>1)
			f = append(f, r.Uint32()>>1)
		case 1: // a probability
			x := r.Float64()
			d = append(d, math.Float64bits(x))
			f = append(f, math.Float32bits(float32(x)))
		case 2: // near 1, both sides of the near-1 path's ends
			x := 1 + (r.Float64()-0.5)*0.3
			d = append(d, math.Float64bits(x))
			f = append(f, math.Float32bits(float32(x)))
		case 3: // one minus a tiny probability
			x := 1 - math.Ldexp(r.Float64(), -r.IntN(53))
			d = append(d, math.Float64bits(x))
			f = append(f, math.Float32bits(float32(x)))
		default: // tiny, down to the subnormals
			d = append(d, math.Float64bits(math.Ldexp(r.Float64(), -r.IntN(1075))))
			f = append(f, math.Float32bits(float32(math.Ldexp(r.Float64(), -r.IntN(150)))))
		}
	}
	return d, f
}

func request(d []uint64, f []uint32) string {
	var b strings.Builder
	for _, x := range d {
		fmt.Fprintf(&b, "D %016x\n", x)
	}
	for _, x := range f {
		fmt.Fprintf(&b, "F %08x\n", x)
	}
	return b.String()
}

// askLibm runs testdata/libm_ref.py on the inputs, with glibc's FMA
// variants masked off if nofma, and returns its output.
func askLibm(t *testing.T, d []uint64, f []uint32, nofma bool) []byte {
	t.Helper()
	cmd := exec.Command(python, filepath.Join("testdata", "libm_ref.py"))
	cmd.Stdin = strings.NewReader(request(d, f))
	cmd.Env = os.Environ()
	if nofma {
		cmd.Env = append(cmd.Env, nofmaTunables)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s testdata/libm_ref.py: %v: %s", python, err, stderr.String())
	}
	return out
}

// check compares every answer of out (libm_ref.py's format) with the
// models and returns the number of lines checked.
func check(t *testing.T, out []byte, nofma bool, what string) int {
	t.Helper()
	log, logf := Log, Logf
	if nofma {
		log, logf = LogNoFMA, LogfNoFMA
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	n, bad := 0, 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		var kind string
		var x, y uint64
		if _, err := fmt.Sscanf(line, "%s %x %x", &kind, &x, &y); err != nil {
			t.Fatalf("%s: line %q: %v", what, line, err)
		}
		n++
		var got, want string
		switch kind {
		case "D":
			g, w := log(math.Float64frombits(x)), math.Float64frombits(y)
			if math.Float64bits(g) == y || math.IsNaN(g) && math.IsNaN(w) {
				continue
			}
			got, want = fmt.Sprintf("%x", g), fmt.Sprintf("%x", w)
		case "F":
			g, w := logf(math.Float32frombits(uint32(x))), math.Float32frombits(uint32(y))
			if math.Float32bits(g) == uint32(y) || g != g && w != w {
				continue
			}
			got, want = fmt.Sprintf("%x", g), fmt.Sprintf("%x", w)
		default:
			t.Fatalf("%s: line %q", what, line)
		}
		bad++
		if bad <= 10 {
			t.Errorf("%s: %s %016x: model %s, libm %s", what, kind, x, got, want)
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d values differ", what, bad, n)
	}
	return n
}

func TestGolden(t *testing.T) {
	for _, c := range []struct {
		file  string
		nofma bool
	}{{"glibc.txt", false}, {"glibc_nofma.txt", true}} {
		path := filepath.Join("testdata", c.file)
		if *update {
			d, f := inputs(rand.New(rand.NewPCG(2036, 1)), 2000)
			if err := os.WriteFile(path, askLibm(t, d, f, c.nofma), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		n := check(t, out, c.nofma, c.file)
		if n < 4000 {
			t.Errorf("%s: only %d values", c.file, n)
		}
	}
}

// hostFMA reports whether glibc's ifunc picks the FMA variants here: an
// x86-64 CPU with FMA and AVX2 (its cpuinfo flags).
func hostFMA(t *testing.T) bool {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("no /proc/cpuinfo: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "flags") {
			fl := " " + line + " "
			return strings.Contains(fl, " fma ") && strings.Contains(fl, " avx2 ")
		}
	}
	return false
}

// TestAgainstLibm compares the models with the C library of this machine
// on fresh random inputs: the FMA variant the CPU runs, and the variant
// without FMA that GLIBC_TUNABLES selects.
func TestAgainstLibm(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the models are glibc's x86-64 variants; this is not linux/amd64")
	}
	if _, err := os.Stat(python); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s missing (CI=true makes that a failure): apt-get install -y python3", python)
		}
		t.Skipf("%s missing: apt-get install -y python3", python)
	}
	n := 200000
	if testing.Short() {
		n = 1000
	}
	d, f := inputs(testrand.New(t), n)
	for _, nofma := range []bool{false, true} {
		out := askLibm(t, d, f, nofma)
		first, _, _ := bytes.Cut(out, []byte("\n"))
		ver := strings.TrimPrefix(string(first), "# glibc ")
		var major, minor int
		if _, err := fmt.Sscanf(ver, "%d.%d", &major, &minor); err != nil || major != 2 || minor < 28 || minor > 40 {
			t.Skipf("this machine runs glibc %q; the models are glibc 2.28–2.40's log and logf", ver)
		}
		if !nofma && !hostFMA(t) {
			continue // the CPU runs the variant without FMA: the second pass checks it
		}
		what := fmt.Sprintf("glibc %s (FMA)", ver)
		if nofma {
			what = fmt.Sprintf("glibc %s (%s)", ver, nofmaTunables)
		}
		m := check(t, out, nofma, what)
		t.Logf("%s: %d log and logf values, bit for bit", what, m)
	}
}

func BenchmarkLog(b *testing.B) {
	x := 0.3
	var s float64
	for b.Loop() {
		s += Log(x)
		x += 0x1p-30
	}
	_ = s
}

func BenchmarkLogf(b *testing.B) {
	x := float32(0.3)
	var s float32
	for b.Loop() {
		s += Logf(x)
		x += 0x1p-20
	}
	_ = s
}

// The same loops with Go's math.Log: the baseline of BENCHMARKS.md's
// ratio (run together: go test ./libm -bench Log -count 5).
func BenchmarkMathLog(b *testing.B) {
	x := 0.3
	var s float64
	for b.Loop() {
		s += math.Log(x)
		x += 0x1p-30
	}
	_ = s
}

func BenchmarkMathLog32(b *testing.B) {
	x := float32(0.3)
	var s float32
	for b.Loop() {
		s += float32(math.Log(float64(x)))
		x += 0x1p-20
	}
	_ = s
}

// FuzzLog checks the models on arbitrary bit patterns where no library is
// at hand: both variants of log within an ulp of Go's math.Log (itself
// within an ulp of ln x), logf within an ulp of float32(math.Log), the
// same special values, and the FMA and non-FMA variants within an ulp of
// each other. The bit-for-bit oracle is the C library (TestAgainstLibm).
func FuzzLog(f *testing.F) {
	for _, x := range []uint64{0, 1, 0x3ff0000000000000, 0x3fee000000000000, 0x3ff1090000000000, 0x7ff0000000000000, 0x7ff8000000000000, 0x8000000000000001, 0x3fefffffffffffff} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		x := math.Float64frombits(bits)
		want := math.Log(x)
		if x > 0 && x < 0x1p-1022 {
			// Go's amd64 math.Log is wrong on subnormals (about −709.09
			// for all); scale into the normal range instead.
			want = math.Log(x*0x1p52) - 52*math.Ln2
		}
		for name, got := range map[string]float64{"Log": Log(x), "LogNoFMA": LogNoFMA(x)} {
			if !withinULPs(got, want, 2) {
				t.Fatalf("%s(%x) = %x, math.Log %x", name, x, got, want)
			}
		}
		x32 := math.Float32frombits(uint32(bits))
		want32 := float32(math.Log(float64(x32)))
		for name, got := range map[string]float32{"Logf": Logf(x32), "LogfNoFMA": LogfNoFMA(x32)} {
			if !withinULPs(float64(got), float64(want32), 0) && !withinULPs32(got, want32) {
				t.Fatalf("%s(%x) = %x, float32(math.Log) %x", name, x32, got, want32)
			}
		}
	})
}

// withinULPs reports whether a and b are the same special value or at
// most k float64 ulps apart.
func withinULPs(a, b float64, k int) bool {
	switch {
	case math.IsNaN(a) || math.IsNaN(b):
		return math.IsNaN(a) && math.IsNaN(b)
	case math.IsInf(a, 0) || math.IsInf(b, 0) || a == 0 || b == 0:
		return a == b
	}
	for range k {
		if a == b {
			return true
		}
		a = math.Nextafter(a, b)
	}
	return a == b
}

func withinULPs32(a, b float32) bool {
	if a != a || b != b {
		return a != a && b != b
	}
	return a == b || math.Nextafter32(a, b) == b
}

func TestGoLogSubnormal(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{
		{0x1p-1074, -744.4400719213812},
		{0x1p-1040, -720.8730677823431},
		{0x1.fffffffffffffp-1023, -708.3964185322641},
		{0x1p-1022, -708.3964185322641},
		{0.5, -0.6931471805599453},
	} {
		if got := GoLog(c.x); got != c.want {
			t.Errorf("GoLog(%b) = %v, want %v", c.x, got, c.want)
		}
	}
	for _, x := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if got, want := GoLog(x), math.Log(x); !(got == want || math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("GoLog(%v) = %v, want %v", x, got, want)
		}
	}
}
