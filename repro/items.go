package repro

// items lists the items in REPRO.md's order.
var items = []*Item{
	{Name: "icml-table2", Title: "ICML Table 2 (real data sets, float64, Acc1, AccN/5, TimeN/5)", Cheap: true,
		Command: "labelinf repro icml-table2", run: runTable2},
	{Name: "icml-fig2", Title: "ICML Fig 2 (IMDB, accuracy as queries double)", Cheap: true,
		Command: "labelinf repro icml-fig2", run: runFig2},
	{Name: "icml-fig1", Title: "ICML Fig 1 (all 8 panels: accuracy and time against N; one query and ⌈N/5⌉ queries; Alg 2 and Alg 3 with noise; float64)",
		Command: "labelinf repro icml-fig1", run: runFig1},
	{Name: "icml-fig4", Title: "ICML App C Fig 4 (K-ary single query in float64: accuracy and time against N)",
		Command: "labelinf repro icml-fig4", run: runFig4},
	{Name: "ea-prop3", Title: "EA Prop 3 against the observed bit requirement", Cheap: true,
		Command: "labelinf repro ea-prop3", run: runProp3},
	{Name: "robust-tau", Title: "The robust single query's largest N against τ (float formats, probabilities and logits)",
		Command: "labelinf repro robust-tau", run: runRobustTau},
	{Name: "ea-appj-float64", Title: "EA App J under a float64 server: Titanic, cross-entropy, accuracy against M in both readings of M", Cheap: true,
		Command: "labelinf repro ea-appj-float64", run: runAppJ},
	{Name: "ea-thm5", Title: "EA Thm 5 / App J: multi-query attack on Titanic, accuracy against M",
		Command: "labelinf repro ea-thm5", run: runThm5},
}

// notDone lists the items this package does not regenerate yet.
const notDone = `## Not yet regenerated

These items of issue 15 are not in this run yet; each is NOT YET DONE (no number is claimed for them here):

- EA Fig 1–3 on Iris and Satellite, the K-ary and softmax cross-entropy limits, sigmoid CE at 50%.
- BLIA Table 4 with confidence intervals as a plot, the DP bound and the decoy control (BENCHMARKS.md §8 has the numbers from ` + "`labelinf blia`" + `).
`
