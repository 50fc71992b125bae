package audit

// This file is what the audit knows of package discrete's metrics
// (accuracy, ROC AUC, the Brier score): which one a competition serves
// and a cell's information floor; their attacks come from the catalogue
// (catalog.go).

import (
	"fmt"
	"math"

	"github.com/labelinf/labelinf/discrete"
)

// discreteMetric returns the competition's metric as package discrete
// names it, if it is one.
func (c *competition) discreteMetric() (discrete.Metric, bool) {
	m, err := discrete.ParseMetric(c.cfg.Metric)
	return m, err == nil
}

// discreteFloor is the information bound of the cell for a metric of
// package discrete: the public labels' bits given their class counts
// (discrete.LabelBits) over the bits of one
// released score at the cell's rounding (discrete.Floor, ValuesOf); noise
// is not counted, which keeps it a lower bound.
func (c *cellRun) discreteFloor() (int, error) {
	m, ok := c.comp.discreteMetric()
	if !ok {
		return 0, fmt.Errorf("audit: metric %s has no discrete floor", c.comp.cfg.Metric)
	}
	k := max(c.comp.cfg.Classes, 2)
	dec := -1
	if d := c.cell.Defence.Decimals; d != nil {
		dec = *d
	}
	// Behind a split the score is over the public rows and the attack's
	// goal is their labels: their bits over the values of their score.
	var pub []int
	for i, p := range c.public {
		if p {
			pub = append(pub, c.comp.labels[i])
		}
	}
	if len(pub) == 0 {
		pub = c.comp.labels
	}
	v := discrete.ValuesOf(m, pub, k, dec)
	if math.IsInf(v, 0) {
		return 0, nil
	}
	return discrete.Floor(discrete.LabelBits(pub, k), v)
}
