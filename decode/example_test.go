package decode_test

import (
	"context"
	"fmt"
	"slices"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// Recover 300 private binary labels from a simulated scikit-learn
// log_loss (float64, numpy's pairwise sum) with Hybrid, the strategy
// labelinf attack picks for that model (catalog.Auto), and a final check
// query. This is the package doc's example.
func Example() {
	m, err := scorer.ParseModel(scorer.Float64Sklearn)
	if err != nil {
		fmt.Println(err)
		return
	}
	labels := make([]int, 300)
	for i := range labels {
		labels[i] = i * i % 7 % 2 // the server's private labels
	}
	server, err := oracle.NewSim(m, labels, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	st := decode.Hybrid
	res, err := decode.AttackMulti(context.Background(), server, decode.MultiOptions{Model: m, Strategy: st, Check: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st, res.Queries, res.Verified, slices.Equal(res.Labels, labels))
	// Output:
	// hybrid 7 true true
}
