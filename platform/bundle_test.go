package platform

import (
	"archive/zip"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
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
	if !errors.As(err, &fe) {
		t.Fatalf("two phases and no -phase: err = %v (%T), want a %T", err, err, fe)
	}
	if fe.Field != "phases" {
		t.Errorf("fe.Field = %v, want %v", fe.Field, "phases")
	}
	if !strings.Contains(err.Error(), "Development, Final") {
		t.Errorf("err.Error() = %q, want it to contain %q", err.Error(), "Development, Final")
	}

	b, err := Read("testdata/codabench/competition.yaml", Options{Phase: "Development", Decimals: -1, Metric: "float64-sklearn"})
	if err != nil {
		t.Fatal(err)
	}
	if b.Platform != Codabench {
		t.Errorf("b.Platform = %v, want %v", b.Platform, Codabench)
	}
	if b.Phase != "Development" {
		t.Errorf("b.Phase = %v, want %v", b.Phase, "Development")
	}
	if len(b.Labels) != 40 {
		t.Errorf("len(b.Labels) = %d, want %d", len(b.Labels), 40)
	}
	if b.K != 2 {
		t.Errorf("b.K = %v, want %v", b.K, 2)
	}
	if *b.Decimals != CodabenchStoredDecimals {
		t.Errorf("what Codabench stores, not the 4 it shows: *b.Decimals = %v, want %v", *b.Decimals, CodabenchStoredDecimals)
	}
	if b.DailyLimit != 10 {
		t.Errorf("b.DailyLimit = %v, want %v", b.DailyLimit, 10)
	}
	if b.TotalLimit != 300 {
		t.Errorf("b.TotalLimit = %v, want %v", b.TotalLimit, 300)
	}
	if b.Key != "logloss" {
		t.Errorf("b.Key = %v, want %v", b.Key, "logloss")
	}
	if b.HigherIsBetter {
		t.Error("b.HigherIsBetter is true")
	}
	s := sources(b)
	if !strings.Contains(s["decimals"], "10 (Codabench stores scores.json's value to 10 decimals (SubmissionScore) and shows 4 (leaderboards[0].columns[0].precision)") {
		t.Errorf("s[\"decimals\"] = %q, want it to contain %q", s["decimals"], "10 (Codabench stores scores.json's value to 10 decimals (SubmissionScore) and shows 4 (leaderboards[0].columns[0].precision)")
	}
	if s["daily_limit"] != "10 (phases[0].max_submissions_per_day)" {
		t.Errorf("s[\"daily_limit\"] = %v, want %v", s["daily_limit"], "10 (phases[0].max_submissions_per_day)")
	}
	if s["total_limit"] != "300 (phases[0].max_submissions)" {
		t.Errorf("s[\"total_limit\"] = %v, want %v", s["total_limit"], "300 (phases[0].max_submissions)")
	}
	if s["labels"] != `40 rows, 2 classes (reference_data/dev/solution.csv column "target" (tasks[0].reference_data))` {
		t.Errorf("s[\"labels\"] = %v, want %v", s["labels"], `40 rows, 2 classes (reference_data/dev/solution.csv column "target" (tasks[0].reference_data))`)
	}
	if s["metric"] != "float64-sklearn (-metric)" {
		t.Errorf("s[\"metric\"] = %v, want %v", s["metric"], "float64-sklearn (-metric)")
	}

	// The final phase: one-hot reference rows, Codabench's default limits.
	b, err = Read("testdata/codabench", Options{Phase: "1", Decimals: -1, Metric: "float64-sklearn"})
	if err != nil {
		t.Fatal(err)
	}
	if b.Phase != "Final" {
		t.Errorf("b.Phase = %v, want %v", b.Phase, "Final")
	}
	if len(b.Labels) != 30 {
		t.Errorf("len(b.Labels) = %d, want %d", len(b.Labels), 30)
	}
	if b.DailyLimit != CodabenchDailyDefault {
		t.Errorf("b.DailyLimit = %v, want %v", b.DailyLimit, CodabenchDailyDefault)
	}
	if b.TotalLimit != CodabenchTotalDefault {
		t.Errorf("b.TotalLimit = %v, want %v", b.TotalLimit, CodabenchTotalDefault)
	}
	if !strings.Contains(sources(b)["daily_limit"], "Codabench's default (phases[1] sets no max_submissions_per_day)") {
		t.Errorf("sources(b)[\"daily_limit\"] = %q, want it to contain %q", sources(b)["daily_limit"], "Codabench's default (phases[1] sets no max_submissions_per_day)")
	}

	// The metric is not in the bundle.
	_, err = Read("testdata/codabench", Options{Phase: "Development", Decimals: -1})
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v (%T), want a %T", err, err, fe)
	}
	if fe.Field != "tasks[0].scoring_program" {
		t.Errorf("fe.Field = %v, want %v", fe.Field, "tasks[0].scoring_program")
	}
	if !strings.Contains(err.Error(), "-metric") {
		t.Errorf("err.Error() = %q, want it to contain %q", err.Error(), "-metric")
	}
}

// TestReadZip reads the Codabench bundle as the zip a host uploads.
func TestReadZip(t *testing.T) {
	zp := filepath.Join(t.TempDir(), "bundle.zip")
	f, err := os.Create(zp)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	if err := zw.AddFS(os.DirFS("testdata/codabench")); err != nil {
		t.Fatalf("%v", err)
	}
	if err := zw.Close(); err != nil {
		t.Fatalf("%v", err)
	}
	if err := f.Close(); err != nil {
		t.Fatalf("%v", err)
	}
	b, err := Read(zp, Options{Phase: "Development", Decimals: -1, Metric: "float64-sklearn"})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Labels) != 40 {
		t.Errorf("len(b.Labels) = %d, want %d", len(b.Labels), 40)
	}
	if *b.Decimals != 10 {
		t.Errorf("*b.Decimals = %v, want %v", *b.Decimals, 10)
	}
	// -decimals: the host's scorer rounds.
	b, err = Read(zp, Options{Phase: "Development", Decimals: 4, Metric: "float64-sklearn"})
	if err != nil {
		t.Fatal(err)
	}
	if *b.Decimals != 4 {
		t.Errorf("*b.Decimals = %v, want %v", *b.Decimals, 4)
	}
	if !strings.Contains(sources(b)["decimals"], "-decimals") {
		t.Errorf("sources(b)[\"decimals\"] = %q, want it to contain %q", sources(b)["decimals"], "-decimals")
	}
}

func TestReadEvalAI(t *testing.T) {
	b, err := Read("testdata/evalai", Options{Phase: "dev", Decimals: -1, Metric: "float64-sklearn"})
	if err != nil {
		t.Fatal(err)
	}
	if b.Platform != EvalAI {
		t.Errorf("b.Platform = %v, want %v", b.Platform, EvalAI)
	}
	if *b.Decimals != 3 {
		t.Errorf("*b.Decimals = %v, want %v", *b.Decimals, 3)
	}
	if b.DailyLimit != 20 {
		t.Errorf("b.DailyLimit = %v, want %v", b.DailyLimit, 20)
	}
	if b.TotalLimit != 500 {
		t.Errorf("b.TotalLimit = %v, want %v", b.TotalLimit, 500)
	}
	if b.Split != "dev_split" {
		t.Errorf("b.Split = %v, want %v", b.Split, "dev_split")
	}
	if b.Key != "logloss" {
		t.Errorf("b.Key = %v, want %v", b.Key, "logloss")
	}
	if len(b.Labels) != 50 {
		t.Errorf("len(b.Labels) = %d, want %d", len(b.Labels), 50)
	}
	s := sources(b)
	if s["decimals"] != "3 (challenge_phase_splits[0].leaderboard_decimal_precision)" {
		t.Errorf("s[\"decimals\"] = %v, want %v", s["decimals"], "3 (challenge_phase_splits[0].leaderboard_decimal_precision)")
	}
	if s["daily_limit"] != "20 (challenge_phases[0].max_submissions_per_day)" {
		t.Errorf("s[\"daily_limit\"] = %v, want %v", s["daily_limit"], "20 (challenge_phases[0].max_submissions_per_day)")
	}
	if !strings.Contains(s["monthly_limit"], "200 (challenge_phases[0].max_submissions_per_month") {
		t.Errorf("s[\"monthly_limit\"] = %q, want it to contain %q", s["monthly_limit"], "200 (challenge_phases[0].max_submissions_per_month")
	}
	if !strings.Contains(s["public_fraction"], "every row taken as public") {
		t.Errorf("s[\"public_fraction\"] = %q, want it to contain %q", s["public_fraction"], "every row taken as public")
	}

	// The test phase: JSON annotations need -labels; its public split
	// has no precision (EvalAI's default 2) and the limits default.
	_, err = Read("testdata/evalai", Options{Phase: "test", Decimals: -1, Metric: "float64-sklearn"})
	var fe *FieldError
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v (%T), want a %T", err, err, fe)
	}
	if fe.Field != "challenge_phases[1].test_annotation_file" {
		t.Errorf("fe.Field = %v, want %v", fe.Field, "challenge_phases[1].test_annotation_file")
	}
	if !strings.Contains(err.Error(), "-labels") {
		t.Errorf("err.Error() = %q, want it to contain %q", err.Error(), "-labels")
	}
	b, err = Read("testdata/evalai", Options{Phase: "Test Phase", Labels: "testdata/evalai/annotations/dev_split.csv", Decimals: -1, Metric: "float64-sklearn"})
	if err != nil {
		t.Fatal(err)
	}
	if *b.Decimals != 2 {
		t.Errorf("*b.Decimals = %v, want %v", *b.Decimals, 2)
	}
	if !strings.Contains(sources(b)["decimals"], "EvalAI's default (challenge_phase_splits[2] sets no leaderboard_decimal_precision)") {
		t.Errorf("sources(b)[\"decimals\"] = %q, want it to contain %q", sources(b)["decimals"], "EvalAI's default (challenge_phase_splits[2] sets no leaderboard_decimal_precision)")
	}
	if b.DailyLimit != 3 {
		t.Errorf("b.DailyLimit = %v, want %v", b.DailyLimit, 3)
	}
	if b.TotalLimit != EvalAILimitDefault {
		t.Errorf("b.TotalLimit = %v, want %v", b.TotalLimit, EvalAILimitDefault)
	}
	if b.Split != "dev_split" {
		t.Errorf("the public split of the phase (visibility 3): b.Split = %v, want %v", b.Split, "dev_split")
	}
}

func TestReadHuggingFace(t *testing.T) {
	b, err := Read("testdata/huggingface/conf.json", Options{Decimals: -1})
	if err != nil {
		t.Fatal(err)
	}
	if b.Platform != HuggingFace {
		t.Errorf("b.Platform = %v, want %v", b.Platform, HuggingFace)
	}
	if b.Decimals != nil {
		t.Errorf("b.Decimals = %v, want nil", b.Decimals)
	}
	if b.DailyLimit != 5 {
		t.Errorf("b.DailyLimit = %v, want %v", b.DailyLimit, 5)
	}
	if b.Metric != "float64-sklearn" {
		t.Errorf("b.Metric = %v, want %v", b.Metric, "float64-sklearn")
	}
	if b.Key != "log_loss" {
		t.Errorf("b.Key = %v, want %v", b.Key, "log_loss")
	}
	if len(b.Labels) != 60 {
		t.Errorf("len(b.Labels) = %d, want %d", len(b.Labels), 60)
	}
	if !(math.Abs(b.PublicFraction-20.0/60) <= 1e-12) {
		t.Errorf("b.PublicFraction = %v, want %v within 1e-12", b.PublicFraction, 20.0/60)
	}
	s := sources(b)
	if s["daily_limit"] != "5 (SUBMISSION_LIMIT (per day))" {
		t.Errorf("s[\"daily_limit\"] = %v, want %v", s["daily_limit"], "5 (SUBMISSION_LIMIT (per day))")
	}
	if s["metric"] != `float64-sklearn (EVAL_METRIC "log_loss")` {
		t.Errorf("s[\"metric\"] = %v, want %v", s["metric"], `float64-sklearn (EVAL_METRIC "log_loss")`)
	}
	if s["public_fraction"] != `0.333333 (solution.csv column "split": 20 of 60 rows public)` {
		t.Errorf("s[\"public_fraction\"] = %v, want %v", s["public_fraction"], `0.333333 (solution.csv column "split": 20 of 60 rows public)`)
	}
}

func TestReadKaggle(t *testing.T) {
	_, err := Read("testdata/kaggle/solution.csv", Options{Platform: Kaggle, Decimals: -1, Metric: "leaderboard"})
	var fe *FieldError
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v (%T), want a %T", err, err, fe)
	}
	if fe.Field != "-daily-limit" {
		t.Errorf("fe.Field = %v, want %v", fe.Field, "-daily-limit")
	}
	b, err := Read("testdata/kaggle/solution.csv", Options{Platform: Kaggle, Decimals: -1, DailyLimit: 5, Metric: "leaderboard"})
	if err != nil {
		t.Fatal(err)
	}
	if *b.Decimals != KaggleDecimals {
		t.Errorf("*b.Decimals = %v, want %v", *b.Decimals, KaggleDecimals)
	}
	if !(math.Abs(b.PublicFraction-0.4) <= 1e-12) {
		t.Errorf("b.PublicFraction = %v, want %v within 1e-12", b.PublicFraction, 0.4)
	}
	if !strings.Contains(sources(b)["public_fraction"], `column "Usage": 20 of 50 rows public`) {
		t.Errorf("sources(b)[\"public_fraction\"] = %q, want it to contain %q", sources(b)["public_fraction"], `column "Usage": 20 of 50 rows public`)
	}
	_, err = Read("testdata/kaggle/solution.csv", Options{Platform: Kaggle, Decimals: 3, DailyLimit: 5, Metric: "leaderboard"})
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v (%T), want a %T", err, err, fe)
	}
	if fe.Field != "-decimals" {
		t.Errorf("fe.Field = %v, want %v", fe.Field, "-decimals")
	}
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
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v (%T), want a %T", err, err, fe)
			}
			if fe.Field != c.field {
				t.Errorf("%v: fe.Field = %v, want %v", err, fe.Field, c.field)
			}
		})
	}
	b, err := readCodabench(cb(good), "competition.yaml", []byte(good), Options{Decimals: -1, Metric: "leaderboard"})
	if err != nil {
		t.Fatalf("the good bundle the cases break: %v", err)
	}
	if len(b.Labels) != 2 {
		t.Errorf("len(b.Labels) = %d, want %d", len(b.Labels), 2)
	}

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
			if err == nil {
				t.Fatal("err is nil, want an error")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("err.Error() = %q, want it to contain %q", err.Error(), c.want)
			}
		})
	}
}

func TestReadUnknown(t *testing.T) {
	_, err := Read(t.TempDir(), Options{Decimals: -1})
	if err == nil {
		t.Fatal("err is nil, want an error")
	}
	if !strings.Contains(err.Error(), "-platform kaggle") {
		t.Errorf("err.Error() = %q, want it to contain %q", err.Error(), "-platform kaggle")
	}
	_, err = Read("testdata/nowhere", Options{Decimals: -1})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%v: errors.Is(err, fs.ErrNotExist) is false", err)
	}
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
	if err == nil || !strings.Contains(err.Error(), "2 phases (Development Phase, Testing Phase)") {
		t.Fatalf("err = %v, want one containing %q", err, "2 phases (Development Phase, Testing Phase)")
	}
	for _, c := range []struct {
		phase string
		rows  int
		ref   string
	}{
		{"Development Phase", 40, "dev_phase/reference_data/testing_label (tasks[0].reference_data)"},
		{"Testing Phase", 53, "final_phase/reference_data/testing_label (tasks[1].reference_data)"},
	} {
		b, err := Read(zp, Options{Phase: c.phase, Decimals: -1, Metric: "leaderboard"})
		if err != nil {
			t.Fatalf("%s: %v", c.phase, err)
		}
		if b.Title != "Classify Wheat Seeds" {
			t.Errorf("b.Title = %v, want %v", b.Title, "Classify Wheat Seeds")
		}
		if len(b.Labels) != c.rows {
			t.Errorf("len(b.Labels) = %d, want %d", len(b.Labels), c.rows)
		}
		if b.K != 3 {
			t.Errorf("wheat seeds: classes 0, 1, 2: b.K = %v, want %v", b.K, 3)
		}
		if b.Key != "accuracy" {
			t.Errorf("b.Key = %v, want %v", b.Key, "accuracy")
		}
		if !b.HigherIsBetter {
			t.Error("b.HigherIsBetter is false")
		}
		if b.DailyLimit != CodabenchDailyDefault {
			t.Errorf("b.DailyLimit = %v, want %v", b.DailyLimit, CodabenchDailyDefault)
		}
		if b.TotalLimit != CodabenchTotalDefault {
			t.Errorf("b.TotalLimit = %v, want %v", b.TotalLimit, CodabenchTotalDefault)
		}
		if *b.Decimals != CodabenchStoredDecimals {
			t.Errorf("*b.Decimals = %v, want %v", *b.Decimals, CodabenchStoredDecimals)
		}
		s := sources(b)
		if !strings.Contains(s["labels"], c.ref) {
			t.Errorf("s[\"labels\"] = %q, want it to contain %q", s["labels"], c.ref)
		}
		if !strings.Contains(s["decimals"], "shows 2 (Codabench's default column precision (leaderboards[0].columns[0] sets none))") {
			t.Errorf("s[\"decimals\"] = %q, want it to contain %q", s["decimals"], "shows 2 (Codabench's default column precision (leaderboards[0].columns[0] sets none))")
		}
	}
}
