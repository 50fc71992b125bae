package platform

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// EvalAI's defaults (challenge configuration docs): a split's
// leaderboard_decimal_precision 2; each submission limit 100,000.
const (
	EvalAIPrecisionDefault = 2
	EvalAILimitDefault     = 100000
)

// EvalAI's visibility values of a challenge phase split.
const (
	evalAIHostOnly = 1
	evalAIOwner    = 2
	evalAIPublic   = 3
)

type evalAIYAML struct {
	Title       string `yaml:"title"`
	Leaderboard []struct {
		ID     int `yaml:"id"`
		Schema struct {
			Labels         []string `yaml:"labels" json:"labels"`
			DefaultOrderBy string   `yaml:"default_order_by" json:"default_order_by"`
		} `yaml:"schema"`
	} `yaml:"leaderboard"`
	ChallengePhases []struct {
		ID                     int    `yaml:"id"`
		Name                   string `yaml:"name"`
		Codename               string `yaml:"codename"`
		TestAnnotationFile     string `yaml:"test_annotation_file"`
		MaxSubmissionsPerDay   *int   `yaml:"max_submissions_per_day"`
		MaxSubmissionsPerMonth *int   `yaml:"max_submissions_per_month"`
		MaxSubmissions         *int   `yaml:"max_submissions"`
	} `yaml:"challenge_phases"`
	DatasetSplits []struct {
		ID       int    `yaml:"id"`
		Name     string `yaml:"name"`
		Codename string `yaml:"codename"`
	} `yaml:"dataset_splits"`
	ChallengePhaseSplits []struct {
		ChallengePhaseID             int   `yaml:"challenge_phase_id"`
		LeaderboardID                int   `yaml:"leaderboard_id"`
		DatasetSplitID               int   `yaml:"dataset_split_id"`
		Visibility                   int   `yaml:"visibility"`
		LeaderboardDecimalPrecision  *int  `yaml:"leaderboard_decimal_precision"`
		IsLeaderboardOrderDescending *bool `yaml:"is_leaderboard_order_descending"`
	} `yaml:"challenge_phase_splits"`
}

func readEvalAI(fsys fs.FS, name string, data []byte, o Options) (*Bundle, error) {
	var y evalAIYAML
	if err := yaml.Unmarshal(data, &y); err != nil {
		return nil, &FieldError{EvalAI, name, err.Error()}
	}
	b := &Bundle{Platform: EvalAI, Title: y.Title, PublicFraction: 1}
	var names [][]string
	for i, p := range y.ChallengePhases {
		n := []string{p.Codename, p.Name, strconv.Itoa(p.ID)}
		if p.Codename == "" {
			n[0] = strconv.Itoa(i)
		}
		names = append(names, n)
	}
	pi, err := pickPhase(EvalAI, "challenge_phases", names, o.Phase)
	if err != nil {
		return nil, err
	}
	ph := y.ChallengePhases[pi]
	b.Phase = names[pi][0]
	pf := fmt.Sprintf("challenge_phases[%d]", pi)

	limit := func(v *int, field string) (int, string, error) {
		if v == nil {
			return EvalAILimitDefault, fmt.Sprintf("EvalAI's default (%s sets no %s)", pf, field), nil
		}
		if *v < 0 {
			return 0, "", &FieldError{EvalAI, pf + "." + field, fmt.Sprintf("%d < 0", *v)}
		}
		return *v, pf + "." + field, nil
	}
	day, daySrc, err := limit(ph.MaxSubmissionsPerDay, "max_submissions_per_day")
	if err != nil {
		return nil, err
	}
	month, monthSrc, err := limit(ph.MaxSubmissionsPerMonth, "max_submissions_per_month")
	if err != nil {
		return nil, err
	}
	total, totalSrc, err := limit(ph.MaxSubmissions, "max_submissions")
	if err != nil {
		return nil, err
	}
	b.DailyLimit = day
	b.set("daily_limit", strconv.Itoa(day), daySrc)
	b.TotalLimit = total
	b.set("total_limit", strconv.Itoa(total), totalSrc)
	b.set("monthly_limit", strconv.Itoa(month), monthSrc+" (the audit counts the daily and total limits; a monthly one below 30 × daily caps an attacker's pace further, which the audit does not take)")

	// The phase's splits: the public leaderboard's decimals.
	si := -1
	var splits []string
	for i, s := range y.ChallengePhaseSplits {
		if s.ChallengePhaseID != ph.ID {
			continue
		}
		splits = append(splits, strconv.Itoa(i))
		if s.Visibility < evalAIHostOnly || s.Visibility > evalAIPublic {
			return nil, &FieldError{EvalAI, fmt.Sprintf("challenge_phase_splits[%d].visibility", i), fmt.Sprintf("%d; want 1 (host), 2 (owner and host) or 3 (public)", s.Visibility)}
		}
		if si < 0 || (s.Visibility == evalAIPublic && y.ChallengePhaseSplits[si].Visibility != evalAIPublic) {
			si = i
		}
	}
	if si < 0 {
		return nil, &FieldError{EvalAI, "challenge_phase_splits", fmt.Sprintf("none for challenge_phase_id %d (%s)", ph.ID, pf)}
	}
	s := y.ChallengePhaseSplits[si]
	sf := fmt.Sprintf("challenge_phase_splits[%d]", si)
	d := EvalAIPrecisionDefault
	if s.LeaderboardDecimalPrecision != nil {
		if *s.LeaderboardDecimalPrecision < 0 || *s.LeaderboardDecimalPrecision > 17 {
			return nil, &FieldError{EvalAI, sf + ".leaderboard_decimal_precision", fmt.Sprintf("%d outside [0, 17]", *s.LeaderboardDecimalPrecision)}
		}
		d = *s.LeaderboardDecimalPrecision
		b.set("decimals", strconv.Itoa(d), sf+".leaderboard_decimal_precision")
	} else {
		b.set("decimals", strconv.Itoa(d), fmt.Sprintf("EvalAI's default (%s sets no leaderboard_decimal_precision)", sf))
	}
	b.Decimals = &d
	b.HigherIsBetter = s.IsLeaderboardOrderDescending == nil || *s.IsLeaderboardOrderDescending
	for _, ds := range y.DatasetSplits {
		if ds.ID == s.DatasetSplitID {
			b.Split = ds.Codename
		}
	}
	if b.Split == "" {
		return nil, &FieldError{EvalAI, sf + ".dataset_split_id", fmt.Sprintf("%d is not among dataset_splits", s.DatasetSplitID)}
	}
	vis := map[int]string{1: "host only", 2: "owner and host", 3: "public"}[s.Visibility]
	b.set("split", b.Split, fmt.Sprintf("%s.dataset_split_id → dataset_splits codename (visibility %d: %s; the phase has splits %s)", sf, s.Visibility, vis, strings.Join(splits, ", ")))
	for _, l := range y.Leaderboard {
		if l.ID == s.LeaderboardID {
			b.Key = l.Schema.DefaultOrderBy
			if b.Key == "" && len(l.Schema.Labels) > 0 {
				b.Key = l.Schema.Labels[0]
			}
		}
	}
	if b.Key == "" {
		return nil, &FieldError{EvalAI, sf + ".leaderboard_id", fmt.Sprintf("leaderboard %d has no schema label", s.LeaderboardID)}
	}
	b.set("key", b.Key, "leaderboard schema default_order_by")
	if ph.TestAnnotationFile == "" && o.Labels == "" {
		return nil, &FieldError{EvalAI, pf + ".test_annotation_file", "missing: give -labels FILE"}
	}
	if err := b.readLabels(fsys, ph.TestAnnotationFile, pf+".test_annotation_file", o); err != nil {
		return nil, err
	}
	if b.Public == nil {
		b.set("public_fraction", "1", "every row taken as public: the rows of each dataset split are the evaluation script's, not the config's (the attacker's favour; -public-fraction F)")
	}
	if err := b.setMetric(o, "", "evaluation_script"); err != nil {
		return nil, err
	}
	b.applyOverrides(o)
	return b, nil
}
