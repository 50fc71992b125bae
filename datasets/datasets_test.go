package datasets

import (
	"bytes"
	"crypto/md5"
	"encoding/csv"
	"encoding/hex"
	"flag"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite data/imdb_like.labels from its seed")

// wantMD5 pins every embedded file. The .csv sums marked "SOURCES.md" are
// the ones SOURCES.md records (there matched against public loaders' sums
// for the UCI originals); the others were computed with md5sum when the
// files were copied into the repository, and SOURCES.md lists them too.
var wantMD5 = map[string]string{
	"adult_train.csv":    "5d7c39d7b8804f071cdd1f2a7c460872", // SOURCES.md
	"adult_test.csv":     "366c746021dc50ad9d933d2817612fc9", // SOURCES.md
	"wdbc.csv":           "36ef90874abc87f4b4a8554dcc17cf6f", // SOURCES.md
	"haberman.csv":       "867c77f6a99090e1af91510211f8b68c", // SOURCES.md
	"banknote.csv":       "3f64e2b50525a2f36dcd947eaf7bac8a", // SOURCES.md
	"iris.csv":           "d69a16ea6136ccb02a7c37c66375ebba", // SOURCES.md
	"satellite.csv":      "cae46fe407ee000e52f73dc3f518a274", // SOURCES.md
	"titanic.csv":        "310a0b589eecd59a754b898ea364329f",
	"titanic_table.csv":  "addff3f01ee9364e96a3f50240c106e1",
	"adult_train.labels": "f54dc42ec416e3355bb0fb4efc2e02dd",
	"adult_test.labels":  "431f582e72f9ece0e44c3db9173a877e",
	"wdbc.labels":        "b9a060382ef0d955e8b251d1bcb53d89",
	"haberman.labels":    "97ad49e5769967b81e56e4c1f609a8b5",
	"banknote.labels":    "e3d08f04f5741a9b0b6109b1c0c47b64",
	"titanic.labels":     "64728000969729da8b40151af46e9ee1",
	"iris.labels":        "dc04f473bc42dd5a555520c955a8ce74",
	"satellite.labels":   "03320b27dc8e8dc0ceed204f9ce75885",
	"imdb_like.labels":   "d9d796df1fd5a60c5e0214445fc8e687",
	"SOURCES.md":         "-", // prose, not pinned
}

func TestChecksums(t *testing.T) {
	var got []string
	if err := fs.WalkDir(FS(), ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			got = append(got, path)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	want := make([]string, 0, len(wantMD5))
	for name := range wantMD5 {
		want = append(want, name)
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("embedded files: got %v, want %v", got, want)
	}
	for name, sum := range wantMD5 {
		if sum == "-" {
			continue
		}
		b, err := ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		h := md5.Sum(b)
		if got := hex.EncodeToString(h[:]); got != sum {
			t.Errorf("md5 of %s: got %v, want %v", name, got, sum)
		}
	}
}

// labelColumn says how to read a data set's labels from its CSV file,
// independently of NAME.labels and of package passive: how many lines to
// skip, which field holds the label (−1: the last), and the label of each
// raw value, per SOURCES.md.
var labelColumn = map[string]struct {
	skip, field int
	trimLeft    bool // fields separated by ", " (Adult)
	label       map[string]int
}{
	"adult_train": {0, 14, true, map[string]int{"<=50K": 0, ">50K": 1}},
	"adult_test":  {0, 14, true, map[string]int{"<=50K.": 0, ">50K.": 1}},
	"wdbc":        {1, -1, false, map[string]int{"0": 0, "1": 1}},
	"haberman":    {0, 3, false, map[string]int{"1": 0, "2": 1}},
	"banknote":    {0, 4, false, map[string]int{"0": 0, "1": 1}},
	"titanic":     {1, 3, false, map[string]int{"No": 0, "Yes": 1}},
	"iris":        {1, -1, false, map[string]int{"0": 0, "1": 1, "2": 2}},
	"satellite": {1, 36, false, map[string]int{"red soil": 0, "cotton crop": 1, "grey soil": 2,
		"damp grey soil": 3, "vegetation stubble": 4, "very damp grey soil": 5}},
}

func TestLabelsMatchCSV(t *testing.T) {
	for _, d := range List() {
		t.Run(d.Name, func(t *testing.T) {
			y, err := Labels(d.Name)
			if err != nil {
				t.Fatal(err)
			}
			if len(y) != d.Rows {
				t.Errorf("len %d, want %d", len(y), d.Rows)
			}
			counts := make([]int, d.K())
			for _, v := range y {
				counts[v]++
			}
			if !slices.Equal(counts, d.Counts) {
				t.Errorf("class counts of %s.labels: got %v, want %v", d.Name, counts, d.Counts)
			}
			if !d.CSV {
				return
			}
			lc, ok := labelColumn[d.Name]
			if !ok {
				t.Fatal("ok is false")
			}
			f, err := Open(d.Name + ".csv")
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cr := csv.NewReader(f)
			cr.FieldsPerRecord = -1
			cr.TrimLeadingSpace = lc.trimLeft
			var fromCSV []int
			for line := 1; ; line++ {
				rec, err := cr.Read()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if line <= lc.skip {
					continue
				}
				j := lc.field
				if j < 0 {
					j = len(rec) - 1
				}
				if !(j < len(rec)) {
					t.Fatalf("%s.csv:%d", d.Name, line)
				}
				v, ok := lc.label[rec[j]]
				if !ok {
					t.Fatalf("%s.csv:%d: label %q", d.Name, line, rec[j])
				}
				fromCSV = append(fromCSV, v)
			}
			if !slices.Equal(fromCSV, y) {
				t.Errorf("%s.labels differs from %s.csv", d.Name, d.Name)
			}
		})
	}
}

// TestTitanicExpansion checks SOURCES.md's derivation: titanic.csv repeats
// each row of titanic_table.csv Freq times, in table order.
func TestTitanicExpansion(t *testing.T) {
	tab, err := ReadFile("titanic_table.csv")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(tab)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Class", "Sex", "Age", "Survived", "Freq"}; !slices.Equal(recs[0], want) {
		t.Fatalf("recs[0] = %v, want %v", recs[0], want)
	}
	if len(recs) != 33 {
		t.Fatalf("len %d, want %d", len(recs), 33)
	}
	var want bytes.Buffer
	want.WriteString(`"Class","Sex","Age","Survived"` + "\n")
	rows := 0
	for _, r := range recs[1:] {
		n, err := strconv.Atoi(r[4])
		if err != nil {
			t.Fatal(err)
		}
		for range n {
			want.WriteString(`"` + strings.Join(r[:4], `","`) + `"` + "\n")
		}
		rows += n
	}
	if rows != 2201 {
		t.Errorf("rows = %v, want %v", rows, 2201)
	}
	got, err := ReadFile("titanic.csv")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want.String() {
		t.Error("titanic.csv as read differs from the records written")
	}
}

func TestIMDBLike(t *testing.T) {
	y := IMDBLike()
	if len(y) != IMDBLikeN {
		t.Fatalf("len %d, want %d", len(y), IMDBLikeN)
	}
	ones := 0
	firstHalf := 0
	for i, v := range y {
		ones += v
		if i < IMDBLikeN/2 {
			firstHalf += v
		}
	}
	if want := IMDBLikeN / 2; ones != want {
		t.Errorf("exactly half ones, by construction: got %v, want %v", ones, want)
	}
	// A shuffle, not the initial order: the first half holds about a
	// quarter of N ones (hypergeometric, sd ≈ 40); 6 sd either side.
	if d := firstHalf - IMDBLikeN/4; d < -240 || d > 240 {
		t.Errorf("ones in the first half: got %v, want %v within %v", firstHalf, IMDBLikeN/4, 240)
	}
	b := formatLabels(y)
	if *update {
		if err := os.WriteFile(filepath.Join("data", IMDBLikeName+".labels"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote data/%s.labels; rebuild to embed it", IMDBLikeName)
		return
	}
	got, err := ReadFile(IMDBLikeName + ".labels")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, got) {
		t.Error("imdb_like.labels does not regenerate from its seed")
	}
	// Another seed gives another labeling (the seed is what fixes it).
	if got := shuffledHalves(IMDBLikeN, 2011, 25000); !slices.Equal(got, y) {
		t.Error("the seed the doc states gives another labeling")
	}
	if slices.Equal(y, shuffledHalves(IMDBLikeN, 2011, 25001)) {
		t.Error("seeds 25000 and 25001 give the same labeling")
	}
}

// fixedSource returns a fixed sequence of words.
type fixedSource struct{ w []uint64 }

func (s *fixedSource) Uint64() uint64 {
	v := s.w[0]
	s.w = s.w[1:]
	return v
}

func TestUniform(t *testing.T) {
	// m = 3: 2^64 mod 3 = 1, so x = 0 (low word 0 < 1) is rejected and the
	// next word is used; x = 2^63 gives ⌊3·2^63 / 2^64⌋ = 1.
	if got, want := uniform(&fixedSource{[]uint64{0, 1 << 63}}, 3), uint64(1); got != want {
		t.Errorf("uniform(&fixedSource{[]uint64{0, 1 << 63}}, 3) = %v, want %v", got, want)
	}
	if got, want := uniform(&fixedSource{[]uint64{math.MaxUint64}}, 3), uint64(2); got != want {
		t.Errorf("got %v, want %v", got, want)
	}
	if got, want := uniform(&fixedSource{[]uint64{12345}}, 1), uint64(0); got != want {
		t.Errorf("uniform(&fixedSource{[]uint64{12345}}, 1) = %v, want %v", got, want)
	}
	// m a power of two: never rejects, takes the top bits.
	if got, want := uniform(&fixedSource{[]uint64{5 << 61}}, 8), uint64(5); got != want {
		t.Errorf("uniform(&fixedSource{[]uint64{5 << 61}}, 8) = %v, want %v", got, want)
	}
}

func TestErrors(t *testing.T) {
	_, err := Labels("imdb")
	if err == nil || !strings.Contains(err.Error(), `datasets: no data set "imdb" (have adult_train,`) {
		t.Errorf("error %v, want one containing %q", err, `datasets: no data set "imdb" (have adult_train,`)
	}
	_, err = Open("nope.csv")
	if err == nil || !strings.Contains(err.Error(), `no embedded file "nope.csv"`) {
		t.Errorf("error %v, want one containing %q", err, `no embedded file "nope.csv"`)
	}
	_, err = ReadFile("../go.mod")
	if err == nil {
		t.Error("want an error, got nil")
	}
	for _, tt := range []struct{ in, want string }{
		{"0\n1\n2\n", "f:3: \"2\" is not a class index in [0, 2)"},
		{"0\nx\n", "f:2"},
		{"0\n\n1\n", "f:2: \"\""},
		{"-1\n", "f:1"},
		{"", "no labels"},
	} {
		_, err := ParseLabels([]byte(tt.in), "f", 2)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want one containing %q", tt.in, err, tt.want)
		}
	}
	y, err := ParseLabels([]byte(" 1\r\n0"), "f", 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 0}; !slices.Equal(y, want) {
		t.Errorf("y = %v, want %v", y, want)
	}
}
