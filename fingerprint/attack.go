package fingerprint

// This file is the attack on a scorer whose model is unknown: identify it
// by probes, attack under the model identified starting from the labels
// the probes determined, and, when a score stops fitting that model,
// re-identify it from the evidence gathered so far instead of failing.

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sync/atomic"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/scorer"
)

// DefaultMaxReidentify is the number of re-identifications [Attack]
// allows by default: a third model failing means the scorer is not one
// the grid describes, or not a fixed model at all.
const DefaultMaxReidentify = 2

// AttackOptions are the settings of [Attack]. The zero value works.
type AttackOptions struct {
	// Strategy is the block layout (nil: decode.Cross).
	Strategy decode.Strategy
	// NoEmulation decodes with the rigorous error budget alone.
	NoEmulation bool
	// MaxReidentify is the number of re-identifications allowed: 0 means
	// [DefaultMaxReidentify], a negative value none.
	MaxReidentify int
	// IgnoreProbeLabels starts the first attack from no label, as if the
	// probes had determined none: only to measure what they save.
	IgnoreProbeLabels bool
	// OnModel, if set, is called with each model the attack adopts,
	// before it queries under it (an external scorer's text answers are
	// then read in the model's format).
	OnModel func(*scorer.Model)
	// OnIdentify, if set, is called after each identification by probes.
	OnIdentify func(*Result)
	// Progress, if set, is called after each attack query with the labels
	// known and every query spent (probes included).
	Progress func(known, queries int)
}

// A Reidentification is one change of model mid-attack.
type Reidentification struct {
	// AfterQuery is the number of queries spent (probes included) when
	// the attack under Failed stopped, and Why is its error.
	AfterQuery int
	Failed     string
	Why        string
	// Model is the model adopted ("" if none fits), and How says from
	// which evidence: the transcript alone, or new probes too.
	Model string
	How   string
	// Probes are the new probe queries sent (0 if the transcript alone
	// decided).
	Probes int
	// Labels are the labels the transcript determines under Model, which
	// the next attack starts with.
	Labels int
	// Stale is the number of queries at the start of the transcript that
	// Model does not explain (the server changed its model), 0 if it
	// explains every query.
	Stale int
}

// A Refinement is a change of the model's decimals mid-attack: a score
// showed more decimals than the model rounds to.
type Refinement struct {
	AfterQuery int
	From, To   string
	Decimals   int
}

// An AttackResult is the outcome of [Attack].
type AttackResult struct {
	// Result is the last attack's result, with Queries counting every
	// query sent (probes, failed attacks and the check included). Nil if
	// no attack ran. Its labels are verified only if Result.Verified.
	Result *decode.Result
	// Identifications are the identifications by probes, in order.
	Identifications []*Result
	// Reidentified lists the changes of model mid-attack.
	Reidentified []Reidentification
	// Refined lists the changes of decimals mid-attack (see Attack).
	Refined []Refinement
	// Model is the model of the last attack.
	Model *scorer.Model
	// Probes counts every probe query, and ProbeLabels the labels the
	// first identification determined, which the attack did not query.
	Probes, ProbeLabels int
}

// ErrNoModel reports a scorer that no candidate model describes.
var ErrNoModel = errors.New("fingerprint: no model fits")

// counter counts the queries sent, answered or not.
type counter struct {
	scorer.Server
	n atomic.Int64
}

func (c *counter) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	c.n.Add(1)
	return c.Server.Score(ctx, p)
}

// digits records the most decimals among the scores it passes on.
type digits struct {
	scorer.Server
	max atomic.Int64
}

func (d *digits) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	r, err := d.Server.Score(ctx, p)
	if err == nil && r != nil {
		if n := int64(decimalsOf(r)); n > d.max.Load() {
			d.max.Store(n)
		}
	}
	return r, err
}

// Attack identifies s's model by probe queries ([Identify]) and attacks it
// under that model ([decode.AttackMulti] with the final check), starting
// from the labels the probes determined. When the attack finds a score no
// labeling explains under the model (decode.ErrInconsistent: its blocks
// keep failing verification, or the final check does not match), it
// re-identifies the scorer, at most opt.MaxReidentify times:
//
//  1. The other models that fit the probes are replayed over the whole
//     transcript, every query sent and its score
//     ([decode.ReplayTranscript]), largest error budget first; the first
//     that explains every score is adopted, with the labels the
//     transcript determines under it. No query is spent.
//  2. If none does, new probes identify the scorer anew, and the models
//     that fit them are replayed the same way; if none explains the
//     scores before the new probes, the server changed its model, and
//     the transcript is read from the new probes on (Stale).
//
// A model whose attack failed is not adopted again. A score showing more
// decimals than the model rounds to (the probes' scores had trailing
// zeros, and the coarsest decimals that fit were assumed: safe, but a
// larger error budget) makes the attack resume under the finer decimals
// with the labels verified so far (Refined). The attack then
// resumes under the new model from the labels the transcript determines
// under it; its final check verifies every label end to end, so that
// labels reported verified were checked against the scorer itself, never
// only against a model. If no model fits, the result's labels are
// unverified and the error wraps [ErrNoModel].
func Attack(ctx context.Context, s scorer.Server, opt AttackOptions) (*AttackResult, error) {
	cnt := &counter{Server: s}
	rec := decode.NewRecorder(cnt)
	out := &AttackResult{}
	maxRe := opt.MaxReidentify
	if maxRe == 0 {
		maxRe = DefaultMaxReidentify
	}
	identify := func() (*Result, error) {
		id, err := Identify(ctx, rec)
		if err != nil {
			return nil, err
		}
		out.Identifications = append(out.Identifications, id)
		out.Probes += id.Queries()
		if opt.OnIdentify != nil {
			opt.OnIdentify(id)
		}
		return id, nil
	}
	id, err := identify()
	if err != nil {
		return out, err
	}
	if id.Model == nil {
		return out, fmt.Errorf("%w: %s", ErrNoModel, id.NoFit)
	}
	model, known := id.Model, id.Labels
	if opt.IgnoreProbeLabels {
		known = nil
	}
	for _, c := range known {
		if c >= 0 {
			out.ProbeLabels++
		}
	}
	fits := id.Fits
	var failed []string
	watch := &digits{Server: rec}
	watch.max.Store(-1)
	for {
		out.Model = model
		if opt.OnModel != nil {
			opt.OnModel(model)
		}
		before := int(cnt.n.Load())
		// A score with more decimals than the model rounds to shows the
		// model's decimals too coarse (trailing zeros of the probes'
		// scores hid some): the attack stops after the block and resumes
		// under the finer decimals, keeping every label it verified.
		actx, cancel := context.WithCancel(ctx)
		finer := func() bool { return model.Decimals >= 0 && int(watch.max.Load()) > model.Decimals }
		progress := func(k, q int) {
			if opt.Progress != nil {
				opt.Progress(k, before+q)
			}
			if k < s.N() && finer() {
				cancel()
			}
		}
		// A block that fails verification is replayed under the model:
		// if no labeling explains its score, the model is refuted and the
		// scorer is re-identified at once rather than retried.
		onFail := func(labels []int) error {
			tr := rec.Transcript()
			if tr.Len() == 0 {
				return nil
			}
			rp, err := decode.ReplayTranscript(ctx, tr, tr.Len()-1, model, labels, opt.NoEmulation)
			if err != nil || rp.Refuted < 0 {
				return nil // undecided: let the attack retry a smaller block
			}
			return errors.New(rp.Reason)
		}
		res, aerr := decode.AttackMulti(actx, scorer.PerPoint(watch, model), decode.MultiOptions{
			Strategy: opt.Strategy, Model: model, Check: true, NoEmulation: opt.NoEmulation, Known: known, Progress: progress, OnFail: onFail,
		})
		cancel()
		if res != nil {
			res.Queries = int(cnt.n.Load())
		}
		out.Result = res
		if ctx.Err() == nil && errors.Is(aerr, context.Canceled) && finer() && res != nil {
			sp, err := scorer.ParseSpec(model.Name)
			if err != nil {
				return out, fmt.Errorf("fingerprint: model %s: %w", model.Name, err)
			}
			sp.Decimals = int(watch.max.Load())
			m, err := sp.Model()
			if err != nil {
				return out, fmt.Errorf("fingerprint: model %s: %w", sp, err)
			}
			out.Refined = append(out.Refined, Refinement{AfterQuery: res.Queries, From: model.Name, To: m.Name, Decimals: sp.Decimals})
			known = make([]int, len(res.Labels))
			for i, c := range res.Labels {
				known[i] = -1
				if res.Known[i] {
					known[i] = c
				}
			}
			model = m
			continue
		}
		if aerr == nil || !errors.Is(aerr, decode.ErrInconsistent) || ctx.Err() != nil {
			return out, aerr
		}
		if len(out.Reidentified) >= maxRe {
			return out, fmt.Errorf("%w after %d re-identifications: %v", ErrNoModel, len(out.Reidentified), aerr)
		}
		failed = append(failed, model.Name)
		re := Reidentification{AfterQuery: int(cnt.n.Load()), Failed: model.Name, Why: aerr.Error()}
		tr := rec.Transcript()
		// 1. The transcript alone, among the models that fit the probes.
		m, rp, stale, err := bestFit(ctx, tr, fits, failed, opt.NoEmulation, false)
		if err != nil {
			return out, err
		}
		if m != nil {
			re.How = fmt.Sprintf("the first of the %d models that fit the probes (largest error budget first) that explains all %d scores so far", len(fits), tr.Len())
		} else {
			// 2. New probes, then the transcript.
			id, err := identify()
			if err != nil {
				return out, err
			}
			re.Probes = id.Queries()
			if id.Model == nil {
				re.How = "new probes: " + id.NoFit
				out.Reidentified = append(out.Reidentified, re)
				return out, fmt.Errorf("%w: the attack under %s failed (%v), and new probes fit no model: %s", ErrNoModel, failed[len(failed)-1], aerr, id.NoFit)
			}
			fits = id.Fits
			tr = rec.Transcript()
			if m, rp, stale, err = bestFit(ctx, tr, fits, failed, opt.NoEmulation, true); err != nil {
				return out, err
			}
			if m == nil {
				re.How = "new probes: every model that fits them failed already or does not explain their scores"
				out.Reidentified = append(out.Reidentified, re)
				return out, fmt.Errorf("%w: the attack under %s failed (%v); the models that fit new probes (%s) failed already or do not explain the scores", ErrNoModel, failed[len(failed)-1], aerr, specNames(fits))
			}
			re.Stale = stale
			re.How = fmt.Sprintf("new probes (%d queries), then every score so far", re.Probes)
			if stale > 0 {
				re.How = fmt.Sprintf("new probes (%d queries); no model that fits them explains the first %d of the %d scores: the server changed its model, and those scores are set aside", re.Probes, stale, tr.Len())
			}
		}
		re.Model = m.Name
		for _, c := range rp.Labels {
			if c >= 0 {
				re.Labels++
			}
		}
		out.Reidentified = append(out.Reidentified, re)
		model, known = m, rp.Labels
	}
}

// maxSuffixTries bounds the replays bestFit spends looking for the
// scores a model explains after a change of the server's model.
const maxSuffixTries = 8

// bestFit returns the model of fits (not among failed) that explains the
// most of t, with the labels the scores determine under it: the first, by
// error budget, that explains every score; or, if suffix is set and none
// does, the one that explains the longest final run of scores, and the
// number of scores before that run (stale; the replay restarts after each
// score the model cannot explain, at most maxSuffixTries times). nil if
// none explains even the last score.
func bestFit(ctx context.Context, t *decode.Transcript, fits []scorer.Spec, failed []string, noEmu, suffix bool) (best *scorer.Model, brp *decode.Replay, stale int, err error) {
	stale = t.Len()
	for _, sp := range fits {
		m, err := sp.Model()
		if err != nil || slices.Contains(failed, m.Name) {
			continue
		}
		from := 0
		for try := 0; try <= maxSuffixTries && from < stale; try++ {
			rp, err := decode.ReplayTranscript(ctx, t, from, m, nil, noEmu)
			if err != nil {
				return nil, nil, 0, err
			}
			if rp.Refuted < 0 {
				best, brp, stale = m, rp, from
				break
			}
			if !suffix {
				break
			}
			from = rp.Refuted + 1
		}
		if best != nil && stale == 0 {
			break
		}
	}
	return best, brp, stale, nil
}

func specNames(fits []scorer.Spec) string {
	s := ""
	for i, sp := range fits {
		if i > 0 {
			s += ", "
		}
		s += sp.String()
	}
	return s
}
