package discrete

import "fmt"

// PlanRows returns the queries with which o's attack, aimed at m of its
// N rows (the other N − m rows held at one prediction throughout),
// decodes the labels of those m rows: the attack's own plan for m rows
// ([Plan] with N = m and no query budget, so the whole design of m
// rows), plus one query that reads what the held rows add to the score
// (a weighing's release minus it is the count the plan reads), every
// query repeated o.Repeats times as the whole attack repeats it.
//
// The repeats o carries were chosen for the whole attack's queries
// (more queries than m rows need, so at least as many repeats as m rows
// need: [NoiseRepeats]'s bound grows with the queries) and for the score
// step of N rows, which the m rows' labels still move the score by. So
// the count is what a run aimed at m rows sends, an upper end of what an
// attacker needs for m labels (an attacker may do better).
//
// It holds for flip and group on accuracy and the Brier score (binary or
// K-ary), whose weighings read a count that is linear in the labels of
// the weighed rows whatever the held rows hold. For ROC AUC (a count
// that depends on every row's rank), family (its block size follows N)
// and edge (its walk follows the scores) it returns an error: their
// progress on part of the rows is not modelled here.
func PlanRows(o Options, m int) (int, error) {
	if err := o.validate(); err != nil {
		return 0, err
	}
	if m < 0 || m > o.N {
		return 0, fmt.Errorf("discrete: %d rows of %d", m, o.N)
	}
	if m == 0 {
		return 0, nil
	}
	st := o.Strategy
	if st == Auto {
		st = Choose(o)
	}
	if o.Metric == AUC || (st != Flip && st != Group) {
		return 0, fmt.Errorf("discrete: %v on %v: the cost of part of the rows is not modelled", st, o.Metric)
	}
	p := o
	p.N, p.Strategy, p.MaxQueries, p.Repeats = m, st, 0, 1
	q, err := Plan(p)
	if err != nil {
		return 0, err
	}
	return (q + 1) * max(o.Repeats, 1), nil
}
