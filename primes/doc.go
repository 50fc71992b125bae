// Package primes provides the number theory of the exact label-inference
// attacks: a segmented sieve for the first n primes or the primes up to x, a
// rigorous upper bound for the n-th prime to size it, product trees, and
// remainder trees that find which primes of a known set divide a huge
// integer, and with which multiplicity.
//
// Big products go through FFT multiplication above a measured crossover
// (internal/bigmul). A tree over primes or their powers ([NewPowerTree])
// keeps its leaves as words and gives remainders as words
// ([ProductTree.Residues]), with no big.Int per leaf. Slices of results
// are called dst where the caller supplies them.
//
// # References
//
//   - [RS62] J. B. Rosser, L. Schoenfeld, "Approximate formulas for some
//     functions of prime numbers", Illinois J. Math. 6 (1962), 64–94.
//   - [Dus10] P. Dusart, "Estimates of some functions over primes without
//     R.H.", arXiv:1002.0442 (2010).
//   - [Ber04] D. J. Bernstein, "Scaled remainder trees" (2004); and "Fast
//     multiplication and its applications", Algorithmic Number Theory (2008),
//     §12 (product trees) and §18 (remainder trees).
//   - [AKXFT21] A. Aggarwal, S. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Label Inference Attacks from Log-loss Scores", ICML 2021,
//     arXiv:2105.08266.
package primes
