package passive_test

import (
	"fmt"

	"github.com/labelinf/labelinf/passive"
)

// A model that memorized nothing: its outputs are the same whatever the
// canaries' labels. The threshold attack is at chance; the delta-margin
// attack, which reads each canary's loss against its training label,
// "succeeds" on 3 of 4, which is exactly what its null expects.
func ExampleEvaluate() {
	p1 := []float64{0.9, 0.9, 0.2, 0.2}
	canary := []int{1, 0, 1, 0} // training labels too: no DP (keep = 1)
	for _, a := range []passive.Attack{
		{Kind: passive.ThresholdFixed},
		{Kind: passive.DeltaMargin, Alpha: 1, Beta: 1},
	} {
		o, err := passive.Evaluate(a, p1, canary, canary, 1)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-22v rate %.2f  null %.3f  p(½) %.4f  p(null) %.3f  detected %v\n", a, o.Rate, o.NullRate, o.PHalf, o.PCond, o.Detected)
	}
	// Output:
	// threshold              rate 0.50  null 0.500  p(½) 0.6875  p(null) 0.688  detected false
	// delta-margin(α=1,β=1)  rate 0.75  null 0.750  p(½) 0.3125  p(null) 0.750  detected false
}
