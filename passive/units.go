package passive

// This file splits an experiment into its units, one trained model per
// (seed, ε), and the assembly of their runs into the report, so that the
// units can run elsewhere (package queue) and give the same report.

import (
	"context"
	"fmt"
)

// ConfigWire is a [Config]'s wire form: its fields without the
// callbacks (Progress, MLP.Progress) and without Workers and MLP.Seed,
// which do not change a report (MLP.Seed is drawn per run).
type ConfigWire struct {
	Model      string        `json:"model"`
	LogReg     LogRegOptions `json:"logreg"`
	Hidden     []int         `json:"hidden,omitempty"`
	Epochs     int           `json:"epochs,omitempty"`
	Batch      int           `json:"batch,omitempty"`
	LR         float64       `json:"lr,omitempty"`
	Decay      float64       `json:"decay,omitempty"`
	Epsilons   []Epsilon     `json:"epsilons"`
	Seeds      int           `json:"seeds"`
	FirstSeed  uint64        `json:"first_seed"`
	CanaryFrac float64       `json:"canary_frac"`
	TrainFrac  float64       `json:"train_frac"`
	Alpha      float64       `json:"alpha"`
	Beta       float64       `json:"beta"`
}

// Wire returns c's wire form, its defaults filled in, or c's error.
func (c Config) Wire() (ConfigWire, error) {
	c.Workers = 1
	if err := c.validate(); err != nil {
		return ConfigWire{}, err
	}
	w := ConfigWire{Model: c.Model, LogReg: c.LogReg, Epsilons: c.Epsilons, Seeds: c.Seeds, FirstSeed: c.FirstSeed,
		CanaryFrac: c.CanaryFrac, TrainFrac: c.TrainFrac, Alpha: c.Alpha, Beta: c.Beta}
	if c.Model == "mlp" {
		w.Hidden, w.Epochs, w.Batch, w.LR, w.Decay = c.MLP.Hidden, c.MLP.Epochs, c.MLP.Batch, c.MLP.LR, c.MLP.Decay
	}
	return w, nil
}

// Config returns the configuration w is the wire form of (one worker,
// no callbacks).
func (w ConfigWire) Config() Config {
	return Config{Model: w.Model, LogReg: w.LogReg,
		MLP:      MLPOptions{Hidden: w.Hidden, Epochs: w.Epochs, Batch: w.Batch, LR: w.LR, Decay: w.Decay},
		Epsilons: w.Epsilons, Seeds: w.Seeds, FirstSeed: w.FirstSeed, CanaryFrac: w.CanaryFrac, TrainFrac: w.TrainFrac,
		Alpha: w.Alpha, Beta: w.Beta, Workers: 1}
}

// Units returns the number of units of cfg: one per (seed, ε), unit i
// being seed index i / len(ε), ε index i % len(ε); an error if cfg is
// invalid.
func Units(cfg Config) (int, error) {
	if err := cfg.validate(); err != nil {
		return 0, err
	}
	return cfg.Seeds * len(cfg.Epsilons), nil
}

// RunUnit trains and attacks unit i's model (see [Units]): the run
// [RunExperiment] reports for that seed and ε.
func RunUnit(ctx context.Context, d *Dataset, cfg Config, i int) (Run, error) {
	n, err := Units(cfg)
	if err != nil {
		return Run{}, err
	}
	if i < 0 || i >= n {
		return Run{}, fmt.Errorf("passive: unit %d of %d", i, n)
	}
	s, e := i/len(cfg.Epsilons), i%len(cfg.Epsilons)
	sd, err := prepare(d, &cfg, cfg.FirstSeed+uint64(s))
	if err != nil {
		return Run{}, err
	}
	return runOne(ctx, sd, &cfg, cfg.Epsilons[e], cfg.Attacks(), func(int) {})
}

// Assemble returns the report of cfg on d from the runs of its units, in
// unit order ([Units]), with seconds as its time.
func Assemble(d *Dataset, cfg Config, runs []Run, seconds float64) (*Report, error) {
	n, err := Units(cfg)
	if err != nil {
		return nil, err
	}
	if len(runs) != n {
		return nil, fmt.Errorf("passive: %d runs for %d units", len(runs), n)
	}
	sd, err := prepare(d, &cfg, cfg.FirstSeed)
	if err != nil {
		return nil, err
	}
	byEps := make([][]Run, len(cfg.Epsilons))
	for i, r := range runs {
		s, e := i/len(cfg.Epsilons), i%len(cfg.Epsilons)
		if want := cfg.FirstSeed + uint64(s); r.Seed != want {
			return nil, fmt.Errorf("passive: run %d is of seed %d, not %d", i, r.Seed, want)
		}
		if len(r.Outcomes) != len(cfg.Attacks()) || len(r.Decoys) != len(cfg.Attacks()) {
			return nil, fmt.Errorf("passive: run %d has %d outcomes and %d decoys for %d attacks", i, len(r.Outcomes), len(r.Decoys), len(cfg.Attacks()))
		}
		byEps[e] = append(byEps[e], r)
	}
	return assemble(d, &cfg, sd.nFeatures, byEps, seconds), nil
}
