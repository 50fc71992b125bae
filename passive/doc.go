// Package passive implements passive label-inference attacks on trained
// binary classifiers (BLIA) [BLIA]: a challenger trains a model on data in
// which a random 2% of the training rows, the canaries, had their labels
// flipped with probability ½, optionally under randomized-response label
// differential privacy; the attacker, who sees only the model's outputs
// on the canaries (and, for the delta-margin attack, their per-sample
// log-loss), infers the canary labels. A success ratio reliably above ½
// shows that the model memorized labels that carry no signal.
//
// The package holds every step as real, reproducible code: loaders for the
// Census (Adult) and WDBC files and for generic CSV ([ReadAdult],
// [ReadCSV], [Encoder]), canary selection and randomized response
// ([Canaries], [FlipCanaries], [RandomizedResponse]), models trained in Go
// and deterministic under a seed ([TrainLogReg], [TrainMLP]), the attacks
// ([Attack]), the statistics ([Evaluate], [ClopperPearson], [Wilson]) and
// the experiment driver ([RunExperiment]), also split into its units,
// one trained model per (seed, ε), and their assembly ([RunUnit],
// [Assemble]; the configuration's wire form [ConfigWire]), which package
// queue runs on other machines for the same report.
//
// # Statistics
//
// The paper reads any success ratio above ½ as memorization [BLIA,
// Lemma 3.1] and reports single rates with no test. Here every rate comes
// with a 95% Clopper–Pearson interval and two one-sided p-values:
// PHalf against Bin(n, ½), the paper's null, and PCond, an exact test
// conditional on the model's outputs (see [Evaluate]). They coincide for
// attacks that look only at the model's probabilities. The delta-margin
// attack also reads the per-sample loss against the training label, which
// is itself a function of that label, so its rate exceeds ½ even for a
// model that memorized nothing; PCond accounts for this, PHalf does not.
// An outcome counts as "memorization detected" only when PCond < 0.01.
//
// # Conventions
//
// Labels are 0 or 1. Probabilities are P(y = 1 | x), written p₁. The canary
// label is the label after the ½ flip, which the attack tries to infer
// [BLIA, (1)]; the training label is the canary label after randomized
// response, which the model saw. ε = +Inf means no label DP. Bad input
// (malformed files, ε < 0, probabilities outside [0, 1]) returns an error;
// only mismatched slice lengths in internal helpers panic.
//
// # References
//
//   - [BLIA] M. W. Khan, S. Chen, I. Mironov, L. Zhang, R. Noor, "BLIA:
//     Detect model memorization in binary classification model through
//     passive label inference attack".
//   - [AKXFT21] A. Aggarwal, S. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Label Inference Attacks from Log-loss Scores", ICML
//     2021, arXiv:2105.08266.
//   - [War65] S. L. Warner, "Randomized response: a survey technique for
//     eliminating evasive answer bias", JASA 60(309), 1965.
//   - [CP34] C. J. Clopper, E. S. Pearson, "The use of confidence or
//     fiducial limits illustrated in the case of the binomial",
//     Biometrika 26(4), 1934.
//   - [Wil27] E. B. Wilson, "Probable inference, the law of succession,
//     and statistical inference", JASA 22(158), 1927.
//   - [Ste14] G. L. Steele, D. Lea, C. H. Flood, "Fast splittable
//     pseudorandom number generators", OOPSLA 2014.
//   - [BV04] S. Boyd, L. Vandenberghe, "Convex Optimization", Cambridge
//     University Press, 2004.
//   - [KB15] D. P. Kingma, J. Ba, "Adam: a method for stochastic
//     optimization", ICLR 2015, arXiv:1412.6980.
//   - [HZRS15] K. He, X. Zhang, S. Ren, J. Sun, "Delving deep into
//     rectifiers", ICCV 2015, arXiv:1502.01852.
//   - [GB10] X. Glorot, Y. Bengio, "Understanding the difficulty of
//     training deep feedforward neural networks", AISTATS 2010.
package passive
