package scorer

// This file gives an emulator the server's computed terms bit for bit
// when the model names its log function (LogLib): the score is then a
// deterministic function of the labeling under the model, and an
// attacker may compare a labeling's emulated score with the reported one
// exactly instead of bracketing it.

// ExactLog reports whether the model names the log its server calls
// (a [LogLib] other than [LogGo]), so that [Emulator.ComputedTerm] gives
// each term bit for bit.
func (e *Emulator) ExactLog() bool {
	_, _, err := e.m.Loss.LogLib.funcs()
	return e.m.Loss.LogLib != LogGo && err == nil && e.m.Loss.LogFunc == nil
}

// ComputedTerm returns the term the model's server computes for one
// prediction row whose label is y: row holds the K probabilities of the
// row, or for K = 2 the class-1 probability alone (the layout of
// [Pred]). The term is the server's own (clipping, renormalisation, its
// named log, clamping: the arithmetic of [Model.Eval]), as a value of
// the format. ok is false when the model does not name its log
// ([Emulator.ExactLog]); err reports a row the server rejects (a
// non-finite term).
func (e *Emulator) ComputedTerm(row []float64, k, y int) (t float64, ok bool, err error) {
	if !e.ExactLog() {
		return 0, false, nil
	}
	log64, log32, err := e.m.Loss.LogLib.funcs()
	if err != nil {
		return 0, false, err
	}
	p := &Pred{K: k, P: row}
	labels := []int{y}
	if e.f64 {
		_, ts, err := evalNative(e.m, labels, p, nil, log64)
		if err != nil {
			return 0, false, err
		}
		return ts[0], true, nil
	}
	_, ts, err := evalNative(e.m, labels, p, nil, log32)
	if err != nil {
		return 0, false, err
	}
	return float64(ts[0]), true, nil
}
