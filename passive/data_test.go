package passive

import (
	"bufio"
	"cmp"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dataDir is where the shared real datasets live: $LABELINF_DATA (as for
// labelinf blia), else beside the repository.
var dataDir = cmp.Or(os.Getenv("LABELINF_DATA"), "../../shared/datasets")

func needData(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(dataDir); err != nil {
		t.Skipf("real datasets not found at %s", dataDir)
	}
}

// readLabelsFile reads NAME.labels, the independent label vector made from
// the same files by ../shared/datasets/SOURCES.md.
func readLabelsFile(t *testing.T, name string) []int {
	t.Helper()
	f, err := os.Open(filepath.Join(dataDir, name+".labels"))
	require.NoError(t, err)
	defer f.Close()
	var out []int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		v, err := strconv.Atoi(strings.TrimSpace(sc.Text()))
		require.NoError(t, err)
		out = append(out, v)
	}
	require.NoError(t, sc.Err())
	return out
}

func TestReadAdultRealFiles(t *testing.T) {
	needData(t)
	d, err := LoadDataset(dataDir, "adult")
	require.NoError(t, err)
	// Counts from SOURCES.md.
	for _, tt := range []struct {
		tab       *Table
		labels    string
		rows, pos int
	}{
		{d.Train, "adult_train", 32561, 7841},
		{d.Test, "adult_test", 16281, 3846},
	} {
		assert.Equal(t, tt.rows, tt.tab.Rows(), tt.labels)
		pos := 0
		for _, y := range tt.tab.Labels {
			pos += y
		}
		assert.Equal(t, tt.pos, pos, tt.labels)
		assert.Equal(t, readLabelsFile(t, tt.labels), tt.tab.Labels, tt.labels)
		require.Len(t, tt.tab.Cols, 14)
		for _, c := range tt.tab.Cols {
			if c.Kind == Numeric {
				assert.Len(t, c.Num, tt.rows, c.Name)
			} else {
				assert.Len(t, c.Cat, tt.rows, c.Name)
			}
		}
	}
	// 1,836 training rows have a missing workclass (awk on the raw file).
	missing := 0
	for _, s := range d.Train.Cols[1].Cat {
		if s == Missing {
			missing++
		}
	}
	assert.Equal(t, 1836, missing)
	assert.Equal(t, [2]string{"<=50K", ">50K"}, d.Train.Classes)
}

func TestReadCSVRealFiles(t *testing.T) {
	needData(t)
	for _, tt := range []struct {
		name       string
		cols       int
		categories int // categorical columns
		classes    [2]string
	}{
		{"wdbc", 30, 0, [2]string{"malignant", "benign"}}, // sklearn metadata line
		{"haberman", 3, 0, [2]string{"1", "2"}},           // labels 1/2, no header
		{"banknote", 4, 0, [2]string{"0", "1"}},           // no trailing newline
		{"titanic", 3, 3, [2]string{"No", "Yes"}},         // quoted header, all categorical
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := LoadDataset(dataDir, filepath.Join(dataDir, tt.name+".csv"))
			require.NoError(t, err)
			tab := d.Train
			assert.Equal(t, readLabelsFile(t, tt.name), tab.Labels)
			assert.Len(t, tab.Cols, tt.cols)
			cat := 0
			for _, c := range tab.Cols {
				if c.Kind == Categorical {
					cat++
				}
			}
			assert.Equal(t, tt.categories, cat)
			assert.Equal(t, tt.classes, tab.Classes)
		})
	}
	d, err := LoadDataset(dataDir, "titanic.csv") // not in dataDir's cwd
	assert.Error(t, err)
	assert.Nil(t, d)
	_, err = LoadDataset(dataDir, filepath.Join(dataDir, "iris.csv"))
	assert.ErrorContains(t, err, "3 distinct values (0, 1, 2)")
}

func TestReadAdultErrors(t *testing.T) {
	good := "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K\n"
	for _, tt := range []struct {
		name, in, want string
	}{
		{"short row", good + "39, State-gov\n", "adult.data"},
		{"bad number", good + strings.Replace(good, "77516", "7x", 1), "adult.data:2: column fnlwgt"},
		{"infinite number", strings.Replace(good, "77516", "Inf", 1), "not a finite number"},
		{"bad label", strings.Replace(good, "<=50K", "maybe", 1), "adult.data:1: label"},
		{"empty", "", "no rows"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadAdult(strings.NewReader(tt.in), "adult.data")
			assert.ErrorContains(t, err, tt.want)
		})
	}
	tab, err := ReadAdult(strings.NewReader(good+strings.Replace(strings.Replace(good, "State-gov", "?", 1), "<=50K", ">50K.", 1)+"\n"), "adult.test")
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1}, tab.Labels)
	assert.Equal(t, []string{"State-gov", Missing}, tab.Cols[1].Cat)
}

func TestReadCSVErrors(t *testing.T) {
	for _, tt := range []struct {
		name, in, want string
	}{
		{"ragged", "1,2,0\n3,1\n", "f.csv:2: 2 fields, but line 1 has 3"},
		{"one class", "1,0\n2,0\n", "1 distinct values"},
		{"three classes", "1,0\n2,1\n3,2\n", "3 distinct values"},
		{"missing label", "1,0\n2,?\n", "f.csv:2: missing label"},
		{"one row", "1,0\n", "fewer than two rows"},
		{"no features", "0\n1\n", "need at least one feature"},
		{"bad metadata", "9,9,a,b\n1,2,0\n3,4,1\n", "f.csv:2: 3 fields, but line 1 has 4"},
		{"quote", "1,\"2,0\n", "f.csv"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(tt.in), "f.csv")
			assert.ErrorContains(t, err, tt.want)
		})
	}
}

func TestReadCSVHeaderAndKinds(t *testing.T) {
	// A header, a numeric column with a missing value, a categorical one,
	// string labels ordered alphabetically.
	tab, err := ReadCSV(strings.NewReader("size,color,class\n1.5,red,yes\nNA,blue,no\n3,red,yes\n"), "f.csv")
	require.NoError(t, err)
	require.Len(t, tab.Cols, 2)
	assert.Equal(t, "size", tab.Cols[0].Name)
	assert.Equal(t, Numeric, tab.Cols[0].Kind)
	assert.True(t, math.IsNaN(tab.Cols[0].Num[1]))
	assert.Equal(t, Categorical, tab.Cols[1].Kind)
	assert.Equal(t, []int{1, 0, 1}, tab.Labels)
	assert.Equal(t, [2]string{"no", "yes"}, tab.Classes)
	// Numeric labels order numerically: 10 > 9.
	tab, err = ReadCSV(strings.NewReader("1,10\n2,9\n"), "f.csv")
	require.NoError(t, err)
	assert.Equal(t, []int{1, 0}, tab.Labels)
	// A first row whose value recurs in its column is data, not a header.
	tab, err = ReadCSV(strings.NewReader("a,0\na,1\nb,1\n"), "f.csv")
	require.NoError(t, err)
	assert.Equal(t, 3, tab.Rows())
}

func TestEncoder(t *testing.T) {
	tab, err := ReadCSV(strings.NewReader("x,c,y\n1,a,0\n2,b,1\n3,a,0\n?,d,1\n100,z,0\n"), "f.csv")
	require.NoError(t, err)
	fit := []int{0, 1, 2, 3}
	e := NewEncoder(tab, fit)
	assert.Equal(t, []string{"x", "c=a", "c=b", "c=d"}, e.Features())
	x := e.Encode(tab, []int{0, 1, 2, 3, 4})
	// x: mean 2, population sd √(2/3) over the three present values.
	sd := math.Sqrt(2.0 / 3)
	want := [][]float64{
		{-1 / sd, 1, 0, 0},
		{0, 0, 1, 0},
		{1 / sd, 1, 0, 0},
		{0, 0, 0, 1},       // missing x → the mean → 0
		{98 / sd, 0, 0, 0}, // level z never seen in the fitting rows
	}
	for i, row := range want {
		for j, v := range row {
			assert.InDelta(t, v, x.At(i, j), 1e-12, "x[%d][%d]", i, j)
		}
	}
}

func FuzzReadCSV(f *testing.F) {
	f.Add("1,2,0\n3,4,1\n")
	f.Add("a,b,y\nx,1,no\nz,2,yes\n")
	f.Add("2,1,m,b\n1.5,0\n2,1\n")
	f.Fuzz(func(t *testing.T, in string) {
		tab, err := ReadCSV(strings.NewReader(in), "f.csv")
		if err != nil {
			return
		}
		n := tab.Rows()
		for _, y := range tab.Labels {
			if y != 0 && y != 1 {
				t.Fatalf("label %d", y)
			}
		}
		for _, c := range tab.Cols {
			if len(c.Num)+len(c.Cat) != n {
				t.Fatalf("column %s has %d values for %d rows", c.Name, len(c.Num)+len(c.Cat), n)
			}
		}
		rows := make([]int, n)
		for i := range rows {
			rows[i] = i
		}
		x := NewEncoder(tab, rows).Encode(tab, rows)
		r, _ := x.Dims()
		if r != n {
			t.Fatalf("encoded %d rows of %d", r, n)
		}
		for i := range r {
			for _, v := range x.RawRowView(i) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("non-finite feature %v", v)
				}
			}
		}
	})
}

func FuzzReadAdult(f *testing.F) {
	f.Add("39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K\n")
	f.Fuzz(func(t *testing.T, in string) {
		tab, err := ReadAdult(strings.NewReader(in), "adult.data")
		if err != nil {
			return
		}
		if len(tab.Cols) != 14 || tab.Rows() == 0 {
			t.Fatalf("%d columns, %d rows", len(tab.Cols), tab.Rows())
		}
	})
}
