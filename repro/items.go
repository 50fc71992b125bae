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
	// Items of the figs2 branch (EA Fig 1–3, BLIA Table 4) follow.
	{Name: "ea-fig1", Title: "EA Fig 1 (largest N against τ: cross-entropy at 100% and ≥ 50%, softmax at ≥ 50%; Titanic, Iris, Satellite)", Cheap: true,
		Command: "labelinf repro ea-fig1", run: runEAFig1},
	{Name: "ea-fig2", Title: "EA Fig 2 (sigmoid cross-entropy on Titanic: largest N against τ, accuracy against M)", Cheap: true,
		Command: "labelinf repro ea-fig2", run: runEAFig2},
	{Name: "ea-fig3", Title: "EA Fig 3 (multi-query accuracy against M on Iris and Satellite)", Cheap: true,
		Command: "labelinf repro ea-fig3", run: runEAFig3},
	{Name: "ea-thm9", Title: "EA Thm 9 / App G: MUTNET as ONNX models run by onnxruntime, labels from the host's sklearn log_loss", Cheap: true,
		Command: "labelinf repro ea-thm9", run: runEAThm9},
	{Name: "blia-table4", Title: "BLIA Table 4 (CENSUS against ε) with exact intervals, the DP bound and the decoy control", Cheap: true,
		Command: "labelinf repro blia-table4", run: runBLIATable4},
}

// notDone lists the items this package does not regenerate yet:
// none since ICML Fig 1 and App C Fig 4, the robust query's N against τ
// and App J under a float64 server joined (figs1) EA Fig 1–3 and BLIA
// Table 4 (figs2).
const notDone = `## Not yet regenerated

Every table and figure issue 15 lists has an item above.
`
