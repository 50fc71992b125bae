//go:build ignore

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"strconv"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	m, _ := scorer.ParseModel("leaderboard")
	r := rand.New(rand.NewPCG(1, 1))
	truth := make([]int, n)
	for i := range truth {
		truth[i] = r.IntN(2)
	}
	sim, _ := oracle.NewSim(m, truth, 2)
	f, _ := os.Create("/tmp/lb/cpu.prof")
	pprof.StartCPUProfile(f)
	res, err := decode.AttackMulti(context.Background(), sim, decode.MultiOptions{Strategy: decode.Leaderboard, Model: m})
	pprof.StopCPUProfile()
	fmt.Println(res.Queries, res.Verified, err)
}
