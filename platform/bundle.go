package platform

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Platform names.
const (
	Codabench   = "codabench"
	EvalAI      = "evalai"
	HuggingFace = "huggingface"
	Kaggle      = "kaggle"
)

// Bundle is one phase of a platform's competition as the audit and the
// scorer need it. Settings lists where each value came from.
type Bundle struct {
	Platform string
	Path     string // the bundle as given
	Phase    string // the phase read ("" if the platform has none)
	Title    string

	// Labels are the phase's reference labels in row order; K the
	// number of classes (2 for binary labels).
	Labels []int
	K      int
	// Public marks the public rows when the reference data says which
	// (Hugging Face's split column, Kaggle's Usage column); nil: every
	// row public, or the split is not in the bundle.
	Public []bool
	// IDs are the reference rows' ids when the reference is a CSV with
	// an id column (predictions are matched on them); nil otherwise.
	IDs []string

	// Metric is a labelinf metric name (a scorer model such as
	// float64-sklearn, or accuracy, roc-auc).
	Metric         string
	HigherIsBetter bool
	Decimals       *int    // nil: the platform shows the full float
	PublicFraction float64 // (0, 1]
	DailyLimit     int     // 0: none
	TotalLimit     int     // 0: none
	// Key is the score's key in the platform's result (Codabench's
	// leaderboard column key, EvalAI's leaderboard label, Hugging Face's
	// metric name).
	Key string
	// Split is EvalAI's dataset split codename of the public leaderboard.
	Split string

	Settings []Setting
}

// Setting is one value of a bundle with the field it came from.
type Setting struct {
	Name   string // decimals, daily_limit, total_limit, public_fraction, metric, labels
	Value  string
	Source string // e.g. "challenge_phase_splits[0].leaderboard_decimal_precision"
}

func (b *Bundle) set(name, value, source string) {
	b.Settings = append(b.Settings, Setting{Name: name, Value: value, Source: source})
}

// Options are what a bundle does not say: labelinf audit's and labelinf
// score's flags.
type Options struct {
	// Platform forces the platform ("kaggle" is only ever forced); ""
	// tells it from the file.
	Platform string
	// Phase selects a phase by name, codename or index when there are
	// several.
	Phase string
	// Labels replaces the reference data: a file (one class per line,
	// CSV, one-hot rows), or a file inside the reference directory.
	Labels string
	// Column names the labels' column of a CSV reference.
	Column string
	// Metric is the labelinf metric name of the scoring program (the
	// bundle names a metric at most; how it computes it, never).
	Metric string
	// Kaggle's host settings (and overrides elsewhere): Decimals ≥ 0
	// sets the decimals (−1: unset), DailyLimit the daily limit,
	// PublicFraction the public fraction.
	Decimals       int
	DailyLimit     int
	PublicFraction float64
}

// FieldError is a setting that is needed and that neither the bundle nor
// the options give, or a field that is malformed.
type FieldError struct {
	Platform string
	Field    string // the bundle field or the flag
	Msg      string
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("platform: %s: %s: %s", e.Platform, e.Field, e.Msg)
}

// Read reads the bundle at p (a directory, a zip or one of the
// platform's files) with the options o.
func Read(p string, o Options) (*Bundle, error) {
	if o.Platform == Kaggle {
		return readKaggle(p, o)
	}
	fsys, name, err := openBundle(p)
	if err != nil {
		return nil, err
	}
	plat := o.Platform
	if plat == "" {
		switch {
		case name != "":
		case exists(fsys, "competition.yaml"):
			name = "competition.yaml"
		case exists(fsys, "challenge_config.yaml"):
			name = "challenge_config.yaml"
		case exists(fsys, "conf.json"):
			name = "conf.json"
		default:
			return nil, fmt.Errorf("platform: %s holds none of competition.yaml (Codabench), challenge_config.yaml (EvalAI), conf.json (Hugging Face); for Kaggle give -platform kaggle", p)
		}
		switch name {
		case "competition.yaml", "competition.yml":
			plat = Codabench
		case "challenge_config.yaml", "challenge_config.yml":
			plat = EvalAI
		case "conf.json":
			plat = HuggingFace
		default:
			return nil, fmt.Errorf("platform: %s: not a competition.yaml, challenge_config.yaml or conf.json", p)
		}
	}
	if name == "" {
		name = map[string]string{Codabench: "competition.yaml", EvalAI: "challenge_config.yaml", HuggingFace: "conf.json"}[plat]
	}
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("platform: %s: %w", p, err)
	}
	const maxConfig = 4 << 20
	if len(data) > maxConfig {
		return nil, fmt.Errorf("platform: %s: %s is %d bytes; a config is at most %d", p, name, len(data), maxConfig)
	}
	var b *Bundle
	switch plat {
	case Codabench:
		b, err = readCodabench(fsys, name, data, o)
	case EvalAI:
		b, err = readEvalAI(fsys, name, data, o)
	case HuggingFace:
		b, err = readHF(fsys, name, data, o)
	default:
		return nil, fmt.Errorf("platform: unknown platform %q (want codabench, evalai, huggingface or kaggle)", plat)
	}
	if err != nil {
		return nil, err
	}
	b.Path = p
	return b, nil
}

// openBundle returns the bundle's file system and, when p names a file
// of it, that file's name.
func openBundle(p string) (fs.FS, string, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, "", fmt.Errorf("platform: bundle: %w", err)
	}
	if st.IsDir() {
		return os.DirFS(p), "", nil
	}
	if strings.EqualFold(filepath.Ext(p), ".zip") {
		z, err := zip.OpenReader(p)
		if err != nil {
			return nil, "", fmt.Errorf("platform: bundle %s: %w", p, err)
		}
		// The reader stays open for the bundle's life (a CLI run).
		return z, "", nil
	}
	return os.DirFS(filepath.Dir(p)), filepath.Base(p), nil
}

func exists(fsys fs.FS, name string) bool {
	_, err := fs.Stat(fsys, name)
	return err == nil
}

// maxReference bounds a reference file read into memory.
const maxReference = 1 << 30

// readLabels reads the reference data ref (a file, a directory, or a zip
// of either) inside fsys, or o.Labels when set; field names the bundle
// field that named ref, for errors and the report.
func (b *Bundle) readLabels(fsys fs.FS, ref, field string, o Options) error {
	var (
		data []byte
		name string
		err  error
	)
	switch {
	case o.Labels != "" && ref != "" && exists(fsys, path.Join(ref, o.Labels)):
		name = path.Join(ref, o.Labels)
		data, err = readLimited(fsys, name)
	case o.Labels != "":
		name = o.Labels
		data, err = os.ReadFile(o.Labels)
		field = "-labels"
	case ref == "":
		return &FieldError{b.Platform, field, "the bundle names no reference data: give -labels FILE"}
	default:
		data, name, err = findReference(fsys, ref, o.Column)
		if err != nil {
			return &FieldError{b.Platform, field, err.Error()}
		}
	}
	if err != nil {
		return &FieldError{b.Platform, field, err.Error()}
	}
	t, err := parseTable(data, name, o.Column)
	if err != nil {
		return &FieldError{b.Platform, field, err.Error()}
	}
	b.Labels, b.K, b.Public, b.IDs = t.labels, t.k, t.public, t.ids
	v := fmt.Sprintf("%d rows, %d classes", len(t.labels), t.k)
	src := name
	if t.column != "" {
		src += " column " + strconv.Quote(t.column)
	}
	if field != "-labels" {
		src += " (" + field + ")"
	}
	b.set("labels", v, src)
	if t.public != nil {
		np := 0
		for _, p := range t.public {
			if p {
				np++
			}
		}
		if np == 0 {
			return &FieldError{b.Platform, field, fmt.Sprintf("%s: column %q marks no row public", name, t.splitColumn)}
		}
		b.PublicFraction = float64(np) / float64(len(t.public))
		b.set("public_fraction", strconv.FormatFloat(b.PublicFraction, 'g', 6, 64), fmt.Sprintf("%s column %q: %d of %d rows public", name, t.splitColumn, np, len(t.public)))
	}
	return nil
}

func readLimited(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxReference+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxReference {
		return nil, fmt.Errorf("%s is larger than %d bytes", name, maxReference)
	}
	return b, nil
}

// findReference returns the one label file of ref: ref itself, the one
// data file of a directory, or the same inside a zip.
func findReference(fsys fs.FS, ref, column string) ([]byte, string, error) {
	ref = path.Clean(strings.TrimSuffix(ref, "/"))
	if !fs.ValidPath(ref) {
		return nil, "", fmt.Errorf("%q is not a path inside the bundle", ref)
	}
	st, err := fs.Stat(fsys, ref)
	if err != nil {
		return nil, "", err
	}
	if !st.IsDir() {
		data, err := readLimited(fsys, ref)
		if err != nil {
			return nil, "", err
		}
		if strings.EqualFold(path.Ext(ref), ".zip") {
			z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				return nil, "", fmt.Errorf("%s: %w", ref, err)
			}
			d, n, err := findReference(z, ".", column)
			return d, ref + "!" + n, err
		}
		return data, ref, nil
	}
	var files []string
	err = fs.WalkDir(fsys, ref, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		base := d.Name()
		if d.IsDir() {
			if p != ref && (strings.HasPrefix(base, ".") || base == "__MACOSX") {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(base, ".") || strings.HasSuffix(base, ".secret") || base == "metadata" || base == "metadata.yaml" || strings.EqualFold(path.Ext(base), ".md") {
			return nil
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	switch len(files) {
	case 0:
		return nil, "", fmt.Errorf("%s holds no label file", ref)
	case 1:
		data, err := readLimited(fsys, files[0])
		if err == nil && strings.EqualFold(path.Ext(files[0]), ".zip") {
			z, zerr := zip.NewReader(bytes.NewReader(data), int64(len(data)))
			if zerr != nil {
				return nil, "", fmt.Errorf("%s: %w", files[0], zerr)
			}
			d, n, err := findReference(z, ".", column)
			return d, files[0] + "!" + n, err
		}
		return data, files[0], err
	}
	slices.Sort(files)
	return nil, "", fmt.Errorf("%s holds %d files (%s): name the label file with -labels NAME", ref, len(files), strings.Join(files, ", "))
}

// table is a parsed reference file.
type table struct {
	labels      []int
	k           int
	public      []bool
	ids         []string
	column      string // the labels' column of a CSV
	splitColumn string
}

// idColumns and splitColumns are the header names taken for the row id
// and for the public/private split.
var (
	idColumns    = []string{"id", "ID", "Id", "row_id", "index"}
	splitColumns = []string{"split", "Usage", "usage"}
)

// maxClasses bounds the class count of a reference.
const maxClasses = 1000

// parseTable parses a reference: a CSV with a header, one class per
// line, or one-hot rows.
func parseTable(data []byte, name, column string) (*table, error) {
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, fmt.Errorf("%s is binary, not a label file", name)
	}
	text := strings.TrimPrefix(string(data), "\ufeff")
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("%s: no rows", name)
	}
	first := strings.TrimSpace(lines[0])
	if strings.HasPrefix(first, "{") || strings.HasPrefix(first, "[") {
		return nil, fmt.Errorf("%s is JSON, whose layout the host's evaluation script defines: give -labels FILE (a CSV or one label per line)", name)
	}
	if isHeader(first) {
		return parseCSV(text, name, column)
	}
	if column != "" {
		return nil, fmt.Errorf("%s has no header row: -column %q names nothing", name, column)
	}
	t := &table{k: 2}
	for i, l := range lines {
		f := strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' })
		var y int
		switch len(f) {
		case 0:
			return nil, fmt.Errorf("%s:%d: empty line", name, i+1)
		case 1:
			v, err := strconv.Atoi(f[0])
			if err != nil || v < 0 || v >= maxClasses {
				return nil, fmt.Errorf("%s:%d: %q is not a class index in [0, %d)", name, i+1, f[0], maxClasses)
			}
			y = v
			t.k = max(t.k, v+1)
		default:
			// A one-hot row (Codabench's .solution files).
			if len(f) > maxClasses {
				return nil, fmt.Errorf("%s:%d: %d columns; at most %d classes", name, i+1, len(f), maxClasses)
			}
			if i > 0 && len(f) != t.k {
				return nil, fmt.Errorf("%s:%d: %d columns; line 1 has %d", name, i+1, len(f), t.k)
			}
			t.k = len(f)
			y = -1
			for j, s := range f {
				switch s {
				case "0", "0.0":
				case "1", "1.0":
					if y >= 0 {
						return nil, fmt.Errorf("%s:%d: two classes marked 1; want one-hot rows", name, i+1)
					}
					y = j
				default:
					return nil, fmt.Errorf("%s:%d: %q: want one-hot rows of 0 and 1", name, i+1, s)
				}
			}
			if y < 0 {
				return nil, fmt.Errorf("%s:%d: no class marked 1; want one-hot rows", name, i+1)
			}
		}
		t.labels = append(t.labels, y)
	}
	return t, nil
}

// isHeader reports whether a first line is a CSV header: a field that is
// not a number.
func isHeader(line string) bool {
	for _, f := range strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		f = strings.Trim(f, `"`)
		if _, err := strconv.ParseFloat(f, 64); err != nil && f != "" {
			return true
		}
	}
	return false
}

func parseCSV(text, name, column string) (*table, error) {
	r := csv.NewReader(strings.NewReader(text))
	r.ReuseRecord = false
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i := range head {
		head[i] = strings.TrimSpace(head[i])
	}
	idCol, splitCol, labCol := -1, -1, -1
	for i, h := range head {
		switch {
		case slices.Contains(idColumns, h) && idCol < 0:
			idCol = i
		case slices.Contains(splitColumns, h) && splitCol < 0:
			splitCol = i
		}
	}
	if column != "" {
		labCol = slices.Index(head, column)
		if labCol < 0 {
			return nil, fmt.Errorf("%s has no column %q (it has %s)", name, column, strings.Join(head, ", "))
		}
	} else {
		var rest []int
		for i := range head {
			if i != idCol && i != splitCol {
				rest = append(rest, i)
			}
		}
		if len(rest) != 1 {
			return nil, fmt.Errorf("%s has columns %s: name the labels' column with -column NAME", name, strings.Join(head, ", "))
		}
		labCol = rest[0]
	}
	t := &table{k: 2, column: head[labCol]}
	if splitCol >= 0 {
		t.splitColumn = head[splitCol]
	}
	seen := map[string]bool{}
	for line := 2; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if len(rec) != len(head) {
			return nil, fmt.Errorf("%s:%d: %d fields; the header has %d", name, line, len(rec), len(head))
		}
		s := strings.TrimSpace(rec[labCol])
		v, err := strconv.Atoi(s)
		if err != nil {
			// 0.0 / 1.0 as pandas writes integer columns with gaps.
			f, ferr := strconv.ParseFloat(s, 64)
			if ferr != nil || f != float64(int(f)) {
				return nil, fmt.Errorf("%s:%d: column %q: %q is not a class index", name, line, t.column, s)
			}
			v = int(f)
		}
		if v < 0 || v >= maxClasses {
			return nil, fmt.Errorf("%s:%d: column %q: class %d outside [0, %d)", name, line, t.column, v, maxClasses)
		}
		t.k = max(t.k, v+1)
		t.labels = append(t.labels, v)
		if idCol >= 0 {
			id := strings.TrimSpace(rec[idCol])
			if seen[id] {
				return nil, fmt.Errorf("%s:%d: id %q repeated", name, line, id)
			}
			seen[id] = true
			t.ids = append(t.ids, id)
		}
		if splitCol >= 0 {
			switch strings.ToLower(strings.TrimSpace(rec[splitCol])) {
			case "public":
				t.public = append(t.public, true)
			case "private", "ignored":
				t.public = append(t.public, false)
			default:
				return nil, fmt.Errorf("%s:%d: column %q: %q; want public or private", name, line, t.splitColumn, rec[splitCol])
			}
		}
	}
	if len(t.labels) == 0 {
		return nil, fmt.Errorf("%s: a header and no rows", name)
	}
	return t, nil
}

// setMetric sets the metric from o.Metric, else from the bundle's named
// metric (field) if labelinf knows how the platform computes it.
func (b *Bundle) setMetric(o Options, named, field string) error {
	switch {
	case o.Metric != "":
		b.Metric = o.Metric
		src := "-metric"
		if named != "" {
			src += fmt.Sprintf(" (the bundle's %s is %q)", field, named)
		}
		b.set("metric", o.Metric, src)
	case named != "":
		m, ok := knownMetrics[b.Platform+"/"+named]
		if !ok {
			return &FieldError{b.Platform, field, fmt.Sprintf("%q: labelinf does not know how this scoring program computes it: give -metric NAME (float64-sklearn, float32-keras, torch-bce, leaderboard, accuracy, roc-auc, …)", named)}
		}
		b.Metric = m
		b.set("metric", m, fmt.Sprintf("%s %q", field, named))
	default:
		return &FieldError{b.Platform, field, "the bundle does not say how its scoring program computes the score: give -metric NAME (float64-sklearn, float32-keras, torch-bce, leaderboard, accuracy, roc-auc, …)"}
	}
	return nil
}

// knownMetrics are platform metric names whose computation is known:
// Hugging Face competitions call scikit-learn's function of that name
// on float64 columns (competitions/compute_metrics.py).
var knownMetrics = map[string]string{
	HuggingFace + "/log_loss":       "float64-sklearn",
	HuggingFace + "/accuracy_score": "accuracy",
	HuggingFace + "/roc_auc_score":  "roc-auc",
}

// applyOverrides applies the options that override the bundle
// (-decimals, -daily-limit, -public-fraction).
func (b *Bundle) applyOverrides(o Options) {
	if o.Decimals >= 0 && o.Platform != Kaggle {
		d := o.Decimals
		b.Decimals = &d
		b.set("decimals", strconv.Itoa(d), "-decimals (overrides the bundle)")
	}
	if o.DailyLimit > 0 && o.Platform != Kaggle {
		b.DailyLimit = o.DailyLimit
		b.set("daily_limit", strconv.Itoa(o.DailyLimit), "-daily-limit (overrides the bundle)")
	}
	if o.PublicFraction > 0 && o.Platform != Kaggle {
		b.PublicFraction = o.PublicFraction
		b.set("public_fraction", strconv.FormatFloat(o.PublicFraction, 'g', -1, 64), "-public-fraction (overrides the bundle)")
	}
}

// errNoPhase is returned when a bundle has phases and none matches.
var errNoPhase = errors.New("no such phase")

// pickPhase returns the index of the phase o.Phase names among names
// (each phase's aliases), or the only phase.
func pickPhase(plat, field string, names [][]string, want string) (int, error) {
	var all []string
	for _, n := range names {
		all = append(all, n[0])
	}
	if len(names) == 0 {
		return 0, &FieldError{plat, field, "no phases"}
	}
	if want == "" {
		if len(names) == 1 {
			return 0, nil
		}
		return 0, &FieldError{plat, field, fmt.Sprintf("%d phases (%s): pick one with -phase NAME", len(names), strings.Join(all, ", "))}
	}
	for i, n := range names {
		if slices.Contains(n, want) {
			return i, nil
		}
	}
	return 0, &FieldError{plat, field, fmt.Sprintf("%v %q (the phases are %s)", errNoPhase, want, strings.Join(all, ", "))}
}

// ParseReference parses a reference file (see [Read] for the formats):
// its labels, class count, public rows (nil: all) and ids (nil: none).
func ParseReference(data []byte, name, column string) (labels []int, k int, public []bool, ids []string, err error) {
	t, err := parseTable(data, name, column)
	if err != nil {
		return nil, 0, nil, nil, fmt.Errorf("platform: %w", err)
	}
	return t.labels, t.k, t.public, t.ids, nil
}
