package datasets

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
)

// files holds every data file; data/ is the directory they live in.
//
//go:embed data/*.csv data/*.labels data/SOURCES.md
var files embed.FS

// dataFS is files seen from inside data/. fs.Sub only fails for an invalid
// directory name, and "data" is valid.
var dataFS, _ = fs.Sub(files, "data")

// An Info describes one data set: its name NAME (files NAME.csv, unless
// CSV is false, and NAME.labels), the number of labelled rows, and its
// classes in label order with their counts, as SOURCES.md records them.
type Info struct {
	Name    string
	CSV     bool // NAME.csv exists (false for imdb_like, which has labels only)
	Rows    int
	Classes []string
	Counts  []int
}

// K returns the number of classes.
func (d Info) K() int { return len(d.Classes) }

// list is the catalogue; counts are from SOURCES.md (each counted twice,
// by Python's csv module and by awk) and checked against the files by the
// package test.
var list = []Info{
	{"adult_train", true, 32561, []string{"<=50K", ">50K"}, []int{24720, 7841}},
	{"adult_test", true, 16281, []string{"<=50K", ">50K"}, []int{12435, 3846}},
	{"wdbc", true, 569, []string{"malignant", "benign"}, []int{212, 357}},
	{"haberman", true, 306, []string{"survived 5 years or longer", "died within 5 years"}, []int{225, 81}},
	{"banknote", true, 1372, []string{"0", "1"}, []int{762, 610}},
	{"titanic", true, 2201, []string{"No", "Yes"}, []int{1490, 711}},
	{"iris", true, 150, []string{"setosa", "versicolor", "virginica"}, []int{50, 50, 50}},
	{"satellite", true, 6435, []string{"red soil", "cotton crop", "grey soil", "damp grey soil", "vegetation stubble", "very damp grey soil"}, []int{1533, 703, 1358, 626, 707, 1508}},
	{IMDBLikeName, false, IMDBLikeN, []string{"negative", "positive"}, []int{IMDBLikeN / 2, IMDBLikeN / 2}},
}

// List returns the embedded data sets, in the order of the package
// documentation. The result is a fresh copy.
func List() []Info {
	out := make([]Info, len(list))
	for i, d := range list {
		d.Classes = append([]string(nil), d.Classes...)
		d.Counts = append([]int(nil), d.Counts...)
		out[i] = d
	}
	return out
}

// Lookup returns the data set called name.
func Lookup(name string) (Info, error) {
	for _, d := range List() {
		if d.Name == name {
			return d, nil
		}
	}
	return Info{}, fmt.Errorf("datasets: no data set %q (have %s)", name, strings.Join(names(), ", "))
}

func names() []string {
	out := make([]string, len(list))
	for i, d := range list {
		out[i] = d.Name
	}
	return out
}

// FS returns the embedded files as a read-only file system: NAME.csv,
// NAME.labels, titanic_table.csv and SOURCES.md at its root.
func FS() fs.FS { return dataFS }

// Open opens the embedded file called name (for example
// "adult_train.csv").
func Open(name string) (fs.File, error) {
	f, err := dataFS.Open(name)
	if err != nil {
		return nil, fmt.Errorf("datasets: no embedded file %q", name)
	}
	return f, nil
}

// ReadFile returns the bytes of the embedded file called name. The slice
// is the caller's own.
func ReadFile(name string) ([]byte, error) {
	b, err := fs.ReadFile(dataFS, name)
	if err != nil {
		return nil, fmt.Errorf("datasets: no embedded file %q", name)
	}
	return b, nil
}

// Labels returns the label vector of the data set called name, read from
// NAME.labels: one class index in [0, K) per line.
func Labels(name string) ([]int, error) {
	d, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	b, err := ReadFile(name + ".labels")
	if err != nil {
		return nil, err
	}
	return ParseLabels(b, name+".labels", d.K())
}

// ParseLabels parses a label file: one integer class index in [0, k) per
// line, surrounding space ignored, a trailing empty line allowed. name is
// used in error messages, which give the line.
func ParseLabels(b []byte, name string, k int) ([]int, error) {
	var out []int
	lines := bytes.Split(b, []byte("\n"))
	if len(lines) > 0 && len(bytes.TrimSpace(lines[len(lines)-1])) == 0 {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		s := string(bytes.TrimSpace(l))
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 || v >= k {
			return nil, fmt.Errorf("datasets: %s:%d: %q is not a class index in [0, %d)", name, i+1, s, k)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("datasets: %s: no labels", name)
	}
	return out, nil
}

// The IMDB-like label file (see the package documentation).
const (
	IMDBLikeName = "imdb_like"
	IMDBLikeN    = 25000
)

// IMDBLikeSeed1 and IMDBLikeSeed2 seed the IMDB-like labels' shuffle: the
// PCG source rand.NewPCG(IMDBLikeSeed1, IMDBLikeSeed2). 2011 is the year of
// the IMDB data set [Maas11]; 25000 its test split's size.
const (
	IMDBLikeSeed1 = 2011
	IMDBLikeSeed2 = 25000
)

// IMDBLike returns the IMDB-like labels, computed from their seed: the
// Fisher–Yates shuffle of N/2 ones followed by N/2 zeros, N = 25,000, each
// position i = N−1, …, 1 swapped with j uniform in [0, i] (see
// [uniform]). It equals the embedded imdb_like.labels.
func IMDBLike() []int { return shuffledHalves(IMDBLikeN, IMDBLikeSeed1, IMDBLikeSeed2) }

// shuffledHalves is [IMDBLike] for n labels (n even) and any seed.
func shuffledHalves(n int, seed1, seed2 uint64) []int {
	src := rand.NewPCG(seed1, seed2)
	y := make([]int, n)
	for i := range n / 2 {
		y[i] = 1
	}
	for i := n - 1; i > 0; i-- {
		j := uniform(src, uint64(i)+1)
		y[i], y[j] = y[j], y[i]
	}
	return y
}

// uniform returns a uniform integer in [0, m) from src by Lemire's
// multiply-and-reject method [Lem19]: the high word of x·m for a uniform
// 64-bit x, redrawing x while the low word falls below 2^64 mod m (the
// values that would bias the result). It is written out here, rather than
// taken from rand.Rand, so that the file's derivation does not depend on
// how a future Go draws bounded integers. m must be positive.
func uniform(src rand.Source, m uint64) uint64 {
	hi, lo := bits.Mul64(src.Uint64(), m)
	if lo < m {
		thresh := -m % m // 2^64 mod m
		for lo < thresh {
			hi, lo = bits.Mul64(src.Uint64(), m)
		}
	}
	return hi
}

// formatLabels writes labels one per line, as the .labels files hold them.
func formatLabels(y []int) []byte {
	var b bytes.Buffer
	for _, v := range y {
		b.WriteString(strconv.Itoa(v))
		b.WriteByte('\n')
	}
	return b.Bytes()
}
