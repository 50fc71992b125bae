package serve

// This file keeps a leaderboard to one scoring rule across releases and
// configuration changes: the rule a competition's stored scores follow is
// recorded in the database, and a server whose metric would score new
// submissions by another rule refuses to start while old scores exist
// (the stored scores cannot be recomputed: the predictions are not kept,
// only their hash).

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/labelinf/labelinf/metric"
)

// legacyRule is the rule of the scores a database written before rules
// were recorded (schema version 1) holds for a competition of k classes
// whose metric is m: binary accuracy counted p = 0.5 as class 1; every
// other metric scored as today.
func legacyRule(m metric.Metric, k int) string {
	if m.Name() == metric.Accuracy && k <= 2 {
		return accuracyV1Rule(k)
	}
	return m.Rule(k)
}

// accuracyV1Rule is the rule of accuracy-v1 (metric.AccuracyV1) on k
// classes.
func accuracyV1Rule(k int) string {
	m, _ := metric.Parse(metric.AccuracyV1, "")
	return m.Rule(k)
}

// stateLayout says whose state a competition's Ladder and Thresholdout
// keep (one for everyone, or one per team): the stored defence state is
// kept by that layout, so a switch would start every best and budget
// afresh (a global budget already spent would become fresh per-team
// ones). It is empty without either.
func stateLayout(c *Competition) string {
	if c.defence == nil {
		return ""
	}
	scope := func(perTeam bool) string {
		if perTeam {
			return "per team"
		}
		return "global"
	}
	var out string
	if c.defence.chain.Ladder() != nil {
		out += "; ladder " + scope(c.defence.ladderPerTeam)
	}
	if c.defence.chain.Thresholdout() != nil {
		out += "; thresholdout " + scope(c.defence.thPerTeam)
	}
	return out
}

// CheckRules records the scoring rule of each competition in st and
// refuses (with an error naming the competition, both rules and the way
// out) a competition whose stored scores follow another rule than its
// configuration's: a board must not mix two rules. The rule is the
// metric's and whose state the Ladder and Thresholdout keep (global or
// per team, stateLayout), so that a switch cannot start spent budgets
// afresh. A competition with no stored submission takes its
// configuration's rule; one whose scores predate recorded rules (a
// database written by a release before them) is taken to follow that
// release's rule. labelinf serve calls it at start.
func CheckRules(ctx context.Context, st Store, comps []*Competition) error {
	for _, c := range comps {
		want := c.Metric.Rule(c.K) + stateLayout(c)
		have, scored, err := st.MetricRule(ctx, c.ID)
		if err != nil {
			return err
		}
		if scored == 0 {
			if have != want {
				if err := st.SetMetricRule(ctx, c.ID, want); err != nil {
					return err
				}
			}
			continue
		}
		if have == "" {
			have = legacyRule(c.Metric, c.K) + stateLayout(c)
			if err := st.SetMetricRule(ctx, c.ID, have); err != nil {
				return err
			}
		}
		if have != want {
			hint := "start the new rule as a new competition (another id)"
			if have == accuracyV1Rule(c.K)+stateLayout(c) {
				hint = `set "metric": "` + metric.AccuracyV1 + `" to finish it under the old rule, or ` + hint
			}
			return fmt.Errorf("serve: competition %q: its %d stored scores follow the rule %q and its configuration (metric %s) scores by %q; a leaderboard must not mix two rules: %s",
				c.ID, scored, have, c.Metric.Name(), want, hint)
		}
	}
	return nil
}

func (s *sqlStore) MetricRule(ctx context.Context, competition string) (string, int64, error) {
	var rule sql.NullString
	err := s.db.QueryRowContext(ctx, s.q(`SELECT rule FROM metric_rules WHERE competition = ?`), competition).Scan(&rule)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", 0, fmt.Errorf("serve: metric rule: %w", err)
	}
	var n int64
	if err := s.db.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM submissions WHERE competition = ?`), competition).Scan(&n); err != nil {
		return "", 0, fmt.Errorf("serve: metric rule: %w", err)
	}
	return rule.String, n, nil
}

func (s *sqlStore) SetMetricRule(ctx context.Context, competition, rule string) error {
	defer s.lock()()
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO metric_rules (competition, rule, recorded_at) VALUES (?, ?, ?)
		ON CONFLICT (competition) DO UPDATE SET rule = excluded.rule, recorded_at = excluded.recorded_at`), competition, rule, time.Now().UnixNano())
	if err != nil {
		return fmt.Errorf("serve: metric rule: %w", err)
	}
	return nil
}
