// Command labelinf shows, measures and reproduces how much a loss score
// leaks about the private labels it is computed on.
//
// Usage:
//
//	labelinf demo [-json] [-seed S] [-n N] [-kn N] [-k K]
//
// The demo draws seeded random private labels, puts them behind an exact
// arbitrary-precision scoring server (mean cross-entropy, correctly rounded
// to the precision the attack plans), and recovers every label from ONE
// score with the prime construction of Aggarwal et al., ICML 2021 (Theorems
// 1 and 3): a binary case of N = 25,000 labels and a K = 6 case of 5,000.
// It prints a table (N, K, queries, bits, accuracy, seconds) or, with
// -json, a JSON array of objects with the fields n, k, queries, bits,
// accuracy, verified, seconds, oracle_seconds and attack_seconds. It exits
// with status 1 if any label is wrong or unverified, 2 on a usage error.
//
// Flags:
//
//	-json      print JSON instead of a table
//	-seed S    seed of the private labels (default 1)
//	-n N       labels in the binary case (default 25000)
//	-kn N      labels in the K-ary case (default 5000; 0 skips it)
//	-k K       classes in the K-ary case (default 6)
//
// Progress goes to stderr when stderr is a terminal, nothing when piped.
package main

import "os"

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }
