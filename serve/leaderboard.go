package serve

import (
	"context"
	"sort"
	"time"
)

// A Leaderboard is a competition's ranking: each key's best public
// submission; after the close, the private scores of those same
// submissions (each team's best public entry is its selected entry, as
// Kaggle selects by default), ranked.
type Leaderboard struct {
	Competition string  `json:"competition"`
	Metric      string  `json:"metric"`
	LowerBetter bool    `json:"lower_is_better"`
	Closed      bool    `json:"closed"`
	Public      []Entry `json:"public"`
	Private     []Entry `json:"private,omitempty"`
}

// An Entry is one team's line.
type Entry struct {
	Rank        int       `json:"rank"`
	Team        string    `json:"team"`
	Score       string    `json:"score"`
	Submissions int       `json:"submissions"`
	Submission  string    `json:"submission"`
	At          time.Time `json:"submitted_at"`
	f           float64
}

func (s *Server) leaderboard(ctx context.Context, c *Competition) (*Leaderboard, error) {
	subs, err := s.o.Store.Submissions(ctx, c.ID)
	if err != nil {
		return nil, err
	}
	keys, err := s.o.Store.Keys(ctx)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for _, k := range keys {
		names[k.ID] = k.Name
	}
	lower := c.Metric.LowerIsBetter()
	better := func(a, b float64) bool {
		if lower {
			return a < b
		}
		return a > b
	}
	type best struct {
		sub   Submission
		f     float64
		count int
	}
	byKey := map[string]*best{}
	var order []string
	for _, sub := range subs {
		v, err := parseValue(sub.Public)
		if err != nil {
			return nil, err
		}
		f := float64Of(v)
		b, ok := byKey[sub.KeyID]
		if !ok {
			byKey[sub.KeyID] = &best{sub: sub, f: f, count: 1}
			order = append(order, sub.KeyID)
			continue
		}
		b.count++
		if better(f, b.f) {
			b.sub, b.f = sub, f
		}
	}
	// An empty board is [], never null.
	lb := &Leaderboard{Competition: c.ID, Metric: c.Metric.Name(), LowerBetter: lower, Closed: c.Closed(s.o.Now()), Public: []Entry{}}
	for _, id := range order {
		b := byKey[id]
		lb.Public = append(lb.Public, Entry{Team: names[id], Score: b.sub.Public, Submissions: b.count, Submission: b.sub.ID, At: b.sub.At, f: b.f})
		if lb.Closed && c.HasPrivate() {
			v, err := parseValue(b.sub.Private)
			if err != nil {
				return nil, err
			}
			lb.Private = append(lb.Private, Entry{Team: names[id], Score: b.sub.Private, Submissions: b.count, Submission: b.sub.ID, At: b.sub.At, f: float64Of(v)})
		}
	}
	rank(lb.Public, better)
	rank(lb.Private, better)
	return lb, nil
}

// rank sorts entries best first (earlier submission first on a tie) and
// numbers them, ties sharing a rank.
func rank(e []Entry, better func(a, b float64) bool) {
	sort.SliceStable(e, func(i, j int) bool {
		if e[i].f != e[j].f {
			return better(e[i].f, e[j].f)
		}
		return e[i].At.Before(e[j].At)
	})
	for i := range e {
		e[i].Rank = i + 1
		if i > 0 && e[i].f == e[i-1].f {
			e[i].Rank = e[i-1].Rank
		}
	}
}
