package platform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"strconv"
)

// hfConf is the part of a Hugging Face competitions conf.json that
// decides what a score leaks.
type hfConf struct {
	CompetitionType    string          `json:"COMPETITION_TYPE"`
	SubmissionLimit    *int            `json:"SUBMISSION_LIMIT"`
	EvalMetric         string          `json:"EVAL_METRIC"`
	EvalHigherIsBetter json.RawMessage `json:"EVAL_HIGHER_IS_BETTER"`
	SubmissionIDColumn string          `json:"SUBMISSION_ID_COLUMN"`
	SubmissionColumns  string          `json:"SUBMISSION_COLUMNS"`
	SubmissionRows     int             `json:"SUBMISSION_ROWS"`
	ScoringMetric      string          `json:"SCORING_METRIC"`
}

func readHF(fsys fs.FS, name string, data []byte, o Options) (*Bundle, error) {
	var c hfConf
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&c); err != nil {
		return nil, &FieldError{HuggingFace, name, err.Error()}
	}
	b := &Bundle{Platform: HuggingFace, PublicFraction: 1}
	if c.SubmissionLimit == nil {
		return nil, &FieldError{HuggingFace, "SUBMISSION_LIMIT", "missing (the daily limit)"}
	}
	if *c.SubmissionLimit < 0 {
		return nil, &FieldError{HuggingFace, "SUBMISSION_LIMIT", fmt.Sprintf("%d < 0", *c.SubmissionLimit)}
	}
	b.DailyLimit = *c.SubmissionLimit
	b.set("daily_limit", strconv.Itoa(b.DailyLimit), "SUBMISSION_LIMIT (per day)")
	b.set("total_limit", "0", "none: conf.json has no total limit")
	switch string(bytes.TrimSpace(c.EvalHigherIsBetter)) {
	case "1", "true":
		b.HigherIsBetter = true
	case "0", "false":
	case "":
		return nil, &FieldError{HuggingFace, "EVAL_HIGHER_IS_BETTER", "missing"}
	default:
		return nil, &FieldError{HuggingFace, "EVAL_HIGHER_IS_BETTER", fmt.Sprintf("%s; want 1, 0, true or false", c.EvalHigherIsBetter)}
	}
	b.Key = c.EvalMetric
	if c.EvalMetric == "custom" && c.ScoringMetric != "" {
		b.Key = c.ScoringMetric
	}
	if b.Key == "" {
		return nil, &FieldError{HuggingFace, "EVAL_METRIC", "missing"}
	}
	named := c.EvalMetric
	if named == "custom" {
		named = ""
	}
	if err := b.setMetric(o, named, "EVAL_METRIC"); err != nil {
		return nil, err
	}
	if b.Metric == "float64-sklearn" && b.HigherIsBetter {
		return nil, &FieldError{HuggingFace, "EVAL_HIGHER_IS_BETTER", "1 with a log-loss metric (lower is better)"}
	}
	if err := b.readLabels(fsys, "solution.csv", "solution.csv", o); err != nil {
		return nil, err
	}
	if c.SubmissionRows != 0 && c.SubmissionRows != len(b.Labels) {
		return nil, &FieldError{HuggingFace, "SUBMISSION_ROWS", fmt.Sprintf("%d; solution.csv has %d rows", c.SubmissionRows, len(b.Labels))}
	}
	if b.Public == nil {
		b.set("public_fraction", "1", "solution.csv has no split column: every row public")
	}
	b.set("decimals", "none", "conf.json sets none: the leaderboard shows the metric's float (-decimals D if the space rounds)")
	b.applyOverrides(o)
	return b, nil
}
