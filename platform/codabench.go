package platform

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Codabench's documented defaults (Yaml-Structure: phases'
// max_submissions_per_day 5 and max_submissions 100; a leaderboard
// column's precision 2).
const (
	CodabenchDailyDefault     = 5
	CodabenchTotalDefault     = 100
	CodabenchPrecisionDefault = 2
	// CodabenchStoredDecimals is the decimal places of a stored score
	// (Codabench's SubmissionScore.score, a DecimalField with
	// decimal_places=10).
	CodabenchStoredDecimals = 10
)

// codabenchYAML is the part of a Codabench competition.yaml (version 2)
// that decides what a score leaks.
type codabenchYAML struct {
	Version json.Number `yaml:"version"`
	Title   string      `yaml:"title"`
	Tasks   []struct {
		Index          *int   `yaml:"index"`
		Name           string `yaml:"name"`
		ReferenceData  string `yaml:"reference_data"`
		ScoringProgram string `yaml:"scoring_program"`
	} `yaml:"tasks"`
	Phases []struct {
		Index                *int   `yaml:"index"`
		Name                 string `yaml:"name"`
		MaxSubmissionsPerDay *int   `yaml:"max_submissions_per_day"`
		MaxSubmissions       *int   `yaml:"max_submissions"`
		Tasks                []int  `yaml:"tasks"`
	} `yaml:"phases"`
	Leaderboards []struct {
		Title   string `yaml:"title"`
		Key     string `yaml:"key"`
		Columns []struct {
			Title     string `yaml:"title"`
			Key       string `yaml:"key"`
			Index     *int   `yaml:"index"`
			Sorting   string `yaml:"sorting"`
			Precision *int   `yaml:"precision"`
			// Hidden columns are not shown to participants.
			Hidden bool `yaml:"hidden"`
		} `yaml:"columns"`
	} `yaml:"leaderboards"`
}

func readCodabench(fsys fs.FS, name string, data []byte, o Options) (*Bundle, error) {
	var y codabenchYAML
	if err := yaml.Unmarshal(data, &y); err != nil {
		return nil, &FieldError{Codabench, name, err.Error()}
	}
	if y.Version.String() != "2" {
		return nil, &FieldError{Codabench, "version", fmt.Sprintf("%q: labelinf reads Codabench bundles (version: 2); a CodaLab (version 1) bundle's numeric_format and limits are not read", y.Version.String())}
	}
	b := &Bundle{Platform: Codabench, Title: y.Title, PublicFraction: 1}
	var names [][]string
	for i, p := range y.Phases {
		n := []string{p.Name, strconv.Itoa(i)}
		if p.Name == "" {
			n[0] = strconv.Itoa(i)
		}
		if p.Index != nil {
			n = append(n, strconv.Itoa(*p.Index))
		}
		names = append(names, n)
	}
	pi, err := pickPhase(Codabench, "phases", names, o.Phase)
	if err != nil {
		return nil, err
	}
	ph := y.Phases[pi]
	b.Phase = names[pi][0]
	pf := fmt.Sprintf("phases[%d]", pi)

	b.DailyLimit = CodabenchDailyDefault
	if ph.MaxSubmissionsPerDay != nil {
		if *ph.MaxSubmissionsPerDay < 0 {
			return nil, &FieldError{Codabench, pf + ".max_submissions_per_day", fmt.Sprintf("%d < 0", *ph.MaxSubmissionsPerDay)}
		}
		b.DailyLimit = *ph.MaxSubmissionsPerDay
		b.set("daily_limit", strconv.Itoa(b.DailyLimit), pf+".max_submissions_per_day")
	} else {
		b.set("daily_limit", strconv.Itoa(b.DailyLimit), fmt.Sprintf("Codabench's default (%s sets no max_submissions_per_day)", pf))
	}
	b.TotalLimit = CodabenchTotalDefault
	if ph.MaxSubmissions != nil {
		if *ph.MaxSubmissions < 0 {
			return nil, &FieldError{Codabench, pf + ".max_submissions", fmt.Sprintf("%d < 0", *ph.MaxSubmissions)}
		}
		b.TotalLimit = *ph.MaxSubmissions
		b.set("total_limit", strconv.Itoa(b.TotalLimit), pf+".max_submissions")
	} else {
		b.set("total_limit", strconv.Itoa(b.TotalLimit), fmt.Sprintf("Codabench's default (%s sets no max_submissions)", pf))
	}

	// The phase's task: its reference data.
	if len(ph.Tasks) != 1 {
		return nil, &FieldError{Codabench, pf + ".tasks", fmt.Sprintf("%d tasks; labelinf audits a phase of one task", len(ph.Tasks))}
	}
	ti := -1
	for i, t := range y.Tasks {
		if (t.Index != nil && *t.Index == ph.Tasks[0]) || (t.Index == nil && i == ph.Tasks[0]) {
			ti = i
		}
	}
	if ti < 0 {
		return nil, &FieldError{Codabench, pf + ".tasks", fmt.Sprintf("task %d is not among tasks", ph.Tasks[0])}
	}
	task := y.Tasks[ti]
	if err := b.readLabels(fsys, task.ReferenceData, fmt.Sprintf("tasks[%d].reference_data", ti), o); err != nil {
		return nil, err
	}

	// The leaderboard's score column.
	if len(y.Leaderboards) == 0 || len(y.Leaderboards[0].Columns) == 0 {
		return nil, &FieldError{Codabench, "leaderboards", "no leaderboard column: scores.json needs a column key"}
	}
	lb := y.Leaderboards[0]
	ci := 0
	for i, c := range lb.Columns {
		if c.Index != nil && *c.Index == 0 {
			ci = i
		}
	}
	col := lb.Columns[ci]
	cf := fmt.Sprintf("leaderboards[0].columns[%d]", ci)
	if col.Key == "" {
		return nil, &FieldError{Codabench, cf + ".key", "missing: scores.json is keyed by it"}
	}
	b.Key = col.Key
	b.set("key", col.Key, cf+".key")
	switch col.Sorting {
	case "", "desc":
		b.HigherIsBetter = true
	case "asc":
	default:
		return nil, &FieldError{Codabench, cf + ".sorting", fmt.Sprintf("%q; want asc or desc", col.Sorting)}
	}
	shown, shownSrc := CodabenchPrecisionDefault, fmt.Sprintf("Codabench's default column precision (%s sets none)", cf)
	if col.Precision != nil {
		if *col.Precision < 0 || *col.Precision > 17 {
			return nil, &FieldError{Codabench, cf + ".precision", fmt.Sprintf("%d outside [0, 17]", *col.Precision)}
		}
		shown, shownSrc = *col.Precision, cf+".precision"
	}
	// The page shows precision digits, but Codabench stores the value of
	// scores.json to CodabenchStoredDecimals places, which its results
	// and API carry: an attacker reads the stored value, so the audit
	// takes it unless the scorer itself rounds (labelinf score's
	// defence decimals).
	d := max(shown, CodabenchStoredDecimals)
	b.set("decimals", strconv.Itoa(d), fmt.Sprintf("Codabench stores scores.json's value to %d decimals (SubmissionScore) and shows %d (%s): the attacker reads the stored value; round in the scorer (labelinf score) and audit with -decimals", CodabenchStoredDecimals, shown, shownSrc))
	b.Decimals = &d
	if err := b.setMetric(o, "", fmt.Sprintf("tasks[%d].scoring_program", ti)); err != nil {
		return nil, err
	}
	b.applyOverrides(o)
	return b, nil
}
