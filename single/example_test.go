package single_test

import (
	"context"
	"fmt"

	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/single"
)

// Example_attack recovers ten private binary labels from one exact
// cross-entropy score.
func Example_attack() {
	secret := []int{1, 0, 0, 1, 1, 1, 0, 1, 0, 0}
	q, err := single.NewQuery(len(secret), 2)
	if err != nil {
		panic(err)
	}
	server, err := oracle.NewExact(secret, 2, q.Prec())
	if err != nil {
		panic(err)
	}
	res, err := single.Attack(context.Background(), server, single.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println("bits needed:", q.Prec())
	fmt.Println("queries:", server.Queries())
	fmt.Println("labels:", res.Labels, "verified:", res.Verified)
	// Output:
	// bits needed: 37
	// queries: 1
	// labels: [1 0 0 1 1 1 0 1 0 0] verified: true
}
