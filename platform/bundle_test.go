package platform

import (
	"archive/zip"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sources maps each setting's name to "value (source)".
func sources(b *Bundle) map[string]string {
	m := map[string]string{}
	for _, s := range b.Settings {
		m[s.Name] = s.Value + " (" + s.Source + ")"
	}
	return m
}

func TestReadCodabench(t *testing.T) {
	_, err := Read("testdata/codabench", Options{Decimals: -1, Metric: "float64-sklearn"})
	var fe *FieldError
	require.ErrorAs(t, err, &fe, "two phases and no -phase")
	assert.Equal(t, "phases", fe.Field)
	assert.Contains(t, err.Error(), "Development, Final")

	b, err := Read("testdata/codabench/competition.yaml", Options{Phase: "Development", Decimals: -1, Metric: "float64-sklearn"})
	require.NoError(t, err)
	assert.Equal(t, Codabench, b.Platform)
	assert.Equal(t, "Development", b.Phase)
	assert.Len(t, b.Labels, 40)
	assert.Equal(t, 2, b.K)
	assert.Equal(t, CodabenchStoredDecimals, *b.Decimals, "what Codabench stores, not the 4 it shows")
	assert.Equal(t, 10, b.DailyLimit)
	assert.Equal(t, 300, b.TotalLimit)
	assert.Equal(t, "logloss", b.Key)
	assert.False(t, b.HigherIsBetter)
	s := sources(b)
	assert.Contains(t, s["decimals"], "10 (Codabench stores scores.json's value to 10 decimals (SubmissionScore) and shows 4 (leaderboards[0].columns[0].precision)")
	assert.Equal(t, "10 (phases[0].max_submissions_per_day)", s["daily_limit"])
	assert.Equal(t, "300 (phases[0].max_submissions)", s["total_limit"])
	assert.Equal(t, `40 rows, 2 classes (reference_data/dev/solution.csv column "target" (tasks[0].reference_data))`, s["labels"])
	assert.Equal(t, "float64-sklearn (-metric)", s["metric"])

	// The final phase: one-hot reference rows, Codabench's default limits.
	b, err = Read("testdata/codabench", Options{Phase: "1", Decimals: -1, Metric: "float64-sklearn"})
	require.NoError(t, err)
	assert.Equal(t, "Final", b.Phase)
	assert.Len(t, b.Labels, 30)
	assert.Equal(t, CodabenchDailyDefault, b.DailyLimit)
	assert.Equal(t, CodabenchTotalDefault, b.TotalLimit)
	assert.Contains(t, sources(b)["daily_limit"], "Codabench's default (phases[1] sets no max_submissions_per_day)")

	// The metric is not in the bundle.
	_, err = Read("testdata/codabench", Options{Phase: "Development", Decimals: -1})
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "tasks[0].scoring_program", fe.Field)
	assert.Contains(t, err.Error(), "-metric")
}

// TestReadZip reads the Codabench bundle as the zip a host uploads.
func TestReadZip(t *testing.T) {
	zp := filepath.Join(t.TempDir(), "bundle.zip")
	f, err := os.Create(zp)
	require.NoError(t, err)
	zw := zip.NewWriter(f)
	require.NoError(t, zw.AddFS(os.DirFS("testdata/codabench")))
	require.NoError(t, zw.Close())
	require.NoError(t, f.Close())
	b, err := Read(zp, Options{Phase: "Development", Decimals: -1, Metric: "float64-sklearn"})
	require.NoError(t, err)
	assert.Len(t, b.Labels, 40)
	assert.Equal(t, 10, *b.Decimals)
	// -decimals: the host's scorer rounds.
	b, err = Read(zp, Options{Phase: "Development", Decimals: 4, Metric: "float64-sklearn"})
	require.NoError(t, err)
	assert.Equal(t, 4, *b.Decimals)
	assert.Contains(t, sources(b)["decimals"], "-decimals")
}

func TestReadEvalAI(t *testing.T) {
	b, err := Read("testdata/evalai", Options{Phase: "dev", Decimals: -1, Metric: "float64-sklearn"})
	require.NoError(t, err)
	assert.Equal(t, EvalAI, b.Platform)
	assert.Equal(t, 3, *b.Decimals)
	assert.Equal(t, 20, b.DailyLimit)
	assert.Equal(t, 500, b.TotalLimit)
	assert.Equal(t, "dev_split", b.Split)
	assert.Equal(t, "logloss", b.Key)
	assert.Len(t, b.Labels, 50)
	s := sources(b)
	assert.Equal(t, "3 (challenge_phase_splits[0].leaderboard_decimal_precision)", s["decimals"])
	assert.Equal(t, "20 (challenge_phases[0].max_submissions_per_day)", s["daily_limit"])
	assert.Contains(t, s["monthly_limit"], "200 (challenge_phases[0].max_submissions_per_month")
	assert.Contains(t, s["public_fraction"], "every row taken as public")

	// The test phase: JSON annotations need -labels; its public split
	// has no precision (EvalAI's default 2) and the limits default.
	_, err = Read("testdata/evalai", Options{Phase: "test", Decimals: -1, Metric: "float64-sklearn"})
	var fe *FieldError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "challenge_phases[1].test_annotation_file", fe.Field)
	assert.Contains(t, err.Error(), "-labels")
	b, err = Read("testdata/evalai", Options{Phase: "Test Phase", Labels: "testdata/evalai/annotations/dev_split.csv", Decimals: -1, Metric: "float64-sklearn"})
	require.NoError(t, err)
	assert.Equal(t, 2, *b.Decimals)
	assert.Contains(t, sources(b)["decimals"], "EvalAI's default (challenge_phase_splits[2] sets no leaderboard_decimal_precision)")
	assert.Equal(t, 3, b.DailyLimit)
	assert.Equal(t, EvalAILimitDefault, b.TotalLimit)
	assert.Equal(t, "dev_split", b.Split, "the public split of the phase (visibility 3)")
}

func TestReadHuggingFace(t *testing.T) {
	b, err := Read("testdata/huggingface/conf.json", Options{Decimals: -1})
	require.NoError(t, err)
	assert.Equal(t, HuggingFace, b.Platform)
	assert.Nil(t, b.Decimals)
	assert.Equal(t, 5, b.DailyLimit)
	assert.Equal(t, "float64-sklearn", b.Metric)
	assert.Equal(t, "log_loss", b.Key)
	assert.Len(t, b.Labels, 60)
	assert.InDelta(t, 20.0/60, b.PublicFraction, 1e-12)
	s := sources(b)
	assert.Equal(t, "5 (SUBMISSION_LIMIT (per day))", s["daily_limit"])
	assert.Equal(t, `float64-sklearn (EVAL_METRIC "log_loss")`, s["metric"])
	assert.Equal(t, `0.333333 (solution.csv column "split": 20 of 60 rows public)`, s["public_fraction"])
}

func TestReadKaggle(t *testing.T) {
	_, err := Read("testdata/kaggle/solution.csv", Options{Platform: Kaggle, Decimals: -1, Metric: "leaderboard"})
	var fe *FieldError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "-daily-limit", fe.Field)
	b, err := Read("testdata/kaggle/solution.csv", Options{Platform: Kaggle, Decimals: -1, DailyLimit: 5, Metric: "leaderboard"})
	require.NoError(t, err)
	assert.Equal(t, KaggleDecimals, *b.Decimals)
	assert.InDelta(t, 0.4, b.PublicFraction, 1e-12)
	assert.Contains(t, sources(b)["public_fraction"], `column "Usage": 20 of 50 rows public`)
	_, err = Read("testdata/kaggle/solution.csv", Options{Platform: Kaggle, Decimals: 3, DailyLimit: 5, Metric: "leaderboard"})
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "-decimals", fe.Field)
}

// TestMalformed: each malformed bundle is an error naming its field.
func TestMalformed(t *testing.T) {
	ref := &fstest.MapFile{Data: []byte("id,target\na,0\nb,1\n")}
	cb := func(y string) fstest.MapFS {
		return fstest.MapFS{"competition.yaml": {Data: []byte(y)}, "ref/s.csv": ref}
	}
	good := "version: 2\ntasks: [{index: 0, reference_data: ref}]\nphases: [{name: P, tasks: [0]}]\nleaderboards: [{columns: [{key: k, index: 0}]}]\n"
	for _, c := range []struct{ name, yaml, field string }{
		{"version 1", strings.Replace(good, "version: 2", "version: 1", 1), "version"},
		{"no phases", "version: 2\n", "phases"},
		{"two tasks", strings.Replace(good, "tasks: [0]", "tasks: [0, 1]", 1), "phases[0].tasks"},
		{"unknown task", strings.Replace(good, "tasks: [0]", "tasks: [7]", 1), "phases[0].tasks"},
		{"negative limit", strings.Replace(good, "name: P,", "name: P, max_submissions_per_day: -1,", 1), "phases[0].max_submissions_per_day"},
		{"no key", strings.Replace(good, "key: k, ", "", 1), "leaderboards[0].columns[0].key"},
		{"bad sorting", strings.Replace(good, "index: 0}]", "index: 0, sorting: up}]", 1), "leaderboards[0].columns[0].sorting"},
		{"bad precision", strings.Replace(good, "index: 0}]", "index: 0, precision: 99}]", 1), "leaderboards[0].columns[0].precision"},
		{"missing reference", strings.Replace(good, "reference_data: ref", "reference_data: nowhere", 1), "tasks[0].reference_data"},
		{"not yaml", "version: [2\n", "competition.yaml"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fsys := cb(c.yaml)
			data, _ := fs.ReadFile(fsys, "competition.yaml")
			_, err := readCodabench(fsys, "competition.yaml", data, Options{Decimals: -1, Metric: "leaderboard"})
			var fe *FieldError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, c.field, fe.Field, "%v", err)
		})
	}
	b, err := readCodabench(cb(good), "competition.yaml", []byte(good), Options{Decimals: -1, Metric: "leaderboard"})
	require.NoError(t, err, "the good bundle the cases break")
	assert.Len(t, b.Labels, 2)

	for _, c := range []struct{ name, data, want string }{
		{"empty", "", "no rows"},
		{"header only", "id,target\n", "a header and no rows"},
		{"two label columns", "id,a,b\n1,0,1\n", "name the labels' column with -column"},
		{"bad class", "id,target\n1,x\n", "is not a class index"},
		{"bad split", "id,target,split\n1,0,maybe\n", "want public or private"},
		{"repeated id", "id,target\n1,0\n1,1\n", "repeated"},
		{"ragged", "id,target\n1,0,3\n", "wrong number of fields"},
		{"two ones", "1 1\n0 1\n", "two classes marked 1"},
		{"bad one-hot", "0.5 0.5\n", "want one-hot rows"},
		{"json", `{"a": 1}`, "is JSON"},
		{"binary", "\x00\x01", "binary"},
		{"negative", "-1\n", "not a class index"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, _, _, err := ParseReference([]byte(c.data), "f", "")
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestReadUnknown(t *testing.T) {
	_, err := Read(t.TempDir(), Options{Decimals: -1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "-platform kaggle")
	_, err = Read("testdata/nowhere", Options{Decimals: -1})
	assert.True(t, errors.Is(err, fs.ErrNotExist), "%v", err)
}

// FuzzCodabench, FuzzEvalAI and FuzzHF feed arbitrary configs to the
// readers: an error or a bundle with labels, never a panic.
func FuzzCodabench(f *testing.F) {
	b, _ := os.ReadFile("testdata/codabench/competition.yaml")
	f.Add(b)
	f.Add([]byte("version: 2\nphases: [{tasks: [0]}]\ntasks: [{reference_data: ref}]\nleaderboards: [{columns: [{key: k}]}]"))
	f.Fuzz(func(t *testing.T, y []byte) {
		fsys := fstest.MapFS{"ref/s.csv": {Data: []byte("id,target\na,0\nb,1\n")}}
		out, err := readCodabench(fsys, "competition.yaml", y, Options{Decimals: -1, Metric: "leaderboard", Phase: "0"})
		if err == nil && len(out.Labels) == 0 {
			t.Fatal("a bundle without labels")
		}
	})
}

func FuzzEvalAI(f *testing.F) {
	b, _ := os.ReadFile("testdata/evalai/challenge_config.yaml")
	f.Add(b)
	f.Fuzz(func(t *testing.T, y []byte) {
		fsys := fstest.MapFS{"annotations/dev_split.csv": {Data: []byte("id,label\n0,1\n1,0\n")}}
		out, err := readEvalAI(fsys, "challenge_config.yaml", y, Options{Decimals: -1, Metric: "leaderboard", Phase: "dev"})
		if err == nil && len(out.Labels) == 0 {
			t.Fatal("a bundle without labels")
		}
	})
}

func FuzzHF(f *testing.F) {
	b, _ := os.ReadFile("testdata/huggingface/conf.json")
	f.Add(b, []byte("id,pred,split\n0,1,public\n1,0,private\n"))
	f.Fuzz(func(t *testing.T, conf, sol []byte) {
		fsys := fstest.MapFS{"solution.csv": {Data: sol}}
		out, err := readHF(fsys, "conf.json", conf, Options{Decimals: -1})
		if err == nil && (len(out.Labels) == 0 || out.PublicFraction <= 0 || out.PublicFraction > 1) {
			t.Fatalf("labels %d, public fraction %v", len(out.Labels), out.PublicFraction)
		}
	})
}

// FuzzReference feeds arbitrary reference and prediction files to
// ParseReference, ReadPredictions and Score: an error or a score, never a
// panic; labels always in [0, k).
func FuzzReference(f *testing.F) {
	f.Add([]byte("id,target,split\na,0,public\nb,1,private\n"), []byte("id,p\nb,0.8\na,0.3\n"))
	f.Add([]byte("1 0\n0 1\n"), []byte("0.2\n0.9\n"))
	f.Add([]byte("0\n1\n1\n"), []byte("0.5 0.5\n"))
	f.Fuzz(func(t *testing.T, ref, pred []byte) {
		labels, k, public, ids, err := ParseReference(ref, "ref", "")
		if err != nil {
			return
		}
		for _, y := range labels {
			if y < 0 || y >= k {
				t.Fatalf("label %d outside [0, %d)", y, k)
			}
		}
		p, err := ReadPredictions(strings.NewReader(string(pred)), "pred", len(labels), k, ids)
		if err != nil {
			return
		}
		_, _ = Score(labels, k, p, public, ScoreOptions{Metric: "float64-sklearn"})
	})
}

// TestReadCodabenchUpstream reads Codabench's own test bundle
// (testdata/codabench-upstream, Apache-2.0, unmodified): a zip whose
// phases set no limits and whose columns set no precision.
func TestReadCodabenchUpstream(t *testing.T) {
	const zp = "testdata/codabench-upstream/competition.zip"
	_, err := Read(zp, Options{Decimals: -1, Metric: "leaderboard"})
	require.ErrorContains(t, err, "2 phases (Development Phase, Testing Phase)")
	for _, c := range []struct {
		phase string
		rows  int
		ref   string
	}{
		{"Development Phase", 40, "dev_phase/reference_data/testing_label (tasks[0].reference_data)"},
		{"Testing Phase", 53, "final_phase/reference_data/testing_label (tasks[1].reference_data)"},
	} {
		b, err := Read(zp, Options{Phase: c.phase, Decimals: -1, Metric: "leaderboard"})
		require.NoError(t, err, c.phase)
		assert.Equal(t, "Classify Wheat Seeds", b.Title)
		assert.Len(t, b.Labels, c.rows)
		assert.Equal(t, 3, b.K, "wheat seeds: classes 0, 1, 2")
		assert.Equal(t, "accuracy", b.Key)
		assert.True(t, b.HigherIsBetter)
		assert.Equal(t, CodabenchDailyDefault, b.DailyLimit)
		assert.Equal(t, CodabenchTotalDefault, b.TotalLimit)
		assert.Equal(t, CodabenchStoredDecimals, *b.Decimals)
		s := sources(b)
		assert.Contains(t, s["labels"], c.ref)
		assert.Contains(t, s["decimals"], "shows 2 (Codabench's default column precision (leaderboards[0].columns[0] sets none))")
	}
}
