package serve

// This file decides what GET /v1/competitions/{id} says about a
// competition's defence: nothing, unless the host sets publish_defence,
// and then only the parameters of an allow-list (PublishedDefence):
// seeds, secrets, state and which rows are public are never published.

import (
	"fmt"
	"strings"
	"time"

	"github.com/labelinf/labelinf/defence"
)

// PublishedDefence is what a competition with publish_defence publishes
// of its defence: each field is copied from defence.Settings by
// publishDefence, so that a parameter added to the settings stays
// private until it is added here. Never in it: the split's seed, the
// noise secret and simulation seed, the state file, which rows are
// public, any team's Ladder best or remaining budget.
type PublishedDefence struct {
	// Split is the public fraction and the close; the seed is private.
	Split *PublishedSplit `json:"split,omitempty"`
	// Subset is the number of public rows each score covers (also
	// public_rows).
	Subset       int                           `json:"subset,omitempty"`
	Thresholdout *defence.ThresholdoutSettings `json:"thresholdout,omitempty"`
	Ladder       *defence.LadderSettings       `json:"ladder,omitempty"`
	Noise        *defence.NoiseSettings        `json:"noise,omitempty"`
	Decimals     *int                          `json:"decimals,omitempty"`
	Clip         float64                       `json:"clip,omitempty"`
	Limits       *defence.LimitSettings        `json:"limits,omitempty"`
}

// PublishedSplit is a split's public part.
type PublishedSplit struct {
	Public float64    `json:"public"`
	Close  *time.Time `json:"close,omitempty"`
}

// publishDefence copies the allow-listed parameters of d, field by
// field.
func publishDefence(d defence.Settings) *PublishedDefence {
	p := &PublishedDefence{Subset: d.Subset, Clip: d.Clip}
	if d.Split != nil {
		p.Split = &PublishedSplit{Public: d.Split.Public}
		if !d.Split.Close.IsZero() {
			t := d.Split.Close.UTC()
			p.Split.Close = &t
		}
	}
	if t := d.Thresholdout; t != nil {
		p.Thresholdout = &defence.ThresholdoutSettings{T: t.T, Sigma: t.Sigma, Budget: t.Budget, Gaussian: t.Gaussian,
			PerTeam: t.PerTeam, Exhausted: t.Exhausted}
	}
	if l := d.Ladder; l != nil {
		p.Ladder = &defence.LadderSettings{Kind: l.Kind, Eta: l.Eta, Grid: l.Grid, PerTeam: l.PerTeam}
	}
	if z := d.Noise; z != nil {
		p.Noise = &defence.NoiseSettings{Kind: z.Kind, Scale: z.Scale, Key: z.Key}
	}
	if d.Decimals != nil {
		v := *d.Decimals
		p.Decimals = &v
	}
	if d.Limits != (defence.LimitSettings{}) {
		l := defence.LimitSettings{PerDay: d.Limits.PerDay, Total: d.Limits.Total, MinInterval: d.Limits.MinInterval}
		p.Limits = &l
	}
	return p
}

// Unmodelled names the published defences that change a released score
// beyond what the published model says (rounding, clipping and limits
// are in the model and the competition's fields): a random subset of
// rows, Thresholdout, the Ladder, noise. A split is named too, though
// public_rows already shows it. An attack that plans for the model alone
// refuses such a competition before it spends a submission.
func (p *PublishedDefence) Unmodelled() []string {
	if p == nil {
		return nil
	}
	var out []string
	if p.Split != nil {
		out = append(out, fmt.Sprintf("a public/private split (%g public)", p.Split.Public))
	}
	if p.Subset > 0 {
		out = append(out, fmt.Sprintf("a random subset of %d rows per score", p.Subset))
	}
	if t := p.Thresholdout; t != nil {
		scope := "global"
		if t.PerTeam {
			scope = "per team"
		}
		out = append(out, fmt.Sprintf("Thresholdout (T %g, σ %g, budget %d %s)", t.T, t.Sigma, t.Budget, scope))
	}
	if l := p.Ladder; l != nil {
		scope := "global"
		if l.PerTeam {
			scope = "per-team"
		}
		out = append(out, fmt.Sprintf("a %s %s Ladder", scope, l.Kind))
	}
	if z := p.Noise; z != nil {
		key := z.Key
		if key == "" {
			key = "fresh"
		}
		out = append(out, fmt.Sprintf("%s %s noise of scale %g", key, z.Kind, z.Scale))
	}
	return out
}

// unmodelledError is NewClient's refusal of a competition whose
// published defence an attack does not model.
func unmodelledError(url string, p *PublishedDefence) error {
	return fmt.Errorf("serve: %s publishes its defence: %s; the attacks here plan for a score released by the published model alone (rounding, clipping), so none would be correct: nothing was submitted (labelinf audit measures attacks told the defence)",
		url, strings.Join(p.Unmodelled(), ", "))
}
