package audit

// This file counts what an attacker with k accounts gets: the
// submissions within his reach, what each attack recovers within them,
// and the fewest accounts that break a cell.

import (
	"fmt"
	"sort"
)

// budget is a cell's submission limits.
type budget struct {
	perDay, total, days int64
	// reach is the config's limit: what the host deems within reach
	// when no per-account limit applies (accounts do not multiply it).
	reach int64
}

// limitOf returns the submissions an attacker with k accounts can make:
// per day × days × k, capped by total × k, when the cell limits each
// account; else the config's limit.
func (b budget) limitOf(k int64) int64 {
	out := b.reach
	if b.perDay > 0 {
		out = b.perDay * b.days * k
	}
	if b.total > 0 {
		out = min(out, b.total*k)
	}
	return out
}

// avail returns the submissions attack a gets with k accounts: an
// attack that submits each query from a fresh account gets one per
// account (within the limit); one that submits as one team gets the
// limit (its submissions spread over the accounts' keys where the
// limits are per account; a cell with per-team state sees them as one
// team's only in the fresh view, which is a separate attack).
func (b budget) avail(a *AttackResult, k int64) int64 {
	if a.FreshAccounts {
		return min(k, b.limitOf(k))
	}
	return b.limitOf(k)
}

// scale is the share of attack a's labels that k accounts afford (its
// measured progress after the submissions they allow).
func (b budget) scale(a *AttackResult, k int64) float64 {
	return a.share(b.avail(a, k))
}

// recovered is the largest public fraction any accurate attack of atks
// recovers with k accounts, and whether one of them runs to its end.
func (b budget) recovered(atks []AttackResult, k int64) (float64, bool) {
	best, whole := 0.0, false
	for i := range atks {
		a := &atks[i]
		if a.Needed == 0 || !a.Accurate() {
			continue
		}
		s := b.scale(a, k)
		best = max(best, a.PublicRecovered*s)
		if s == 1 && a.Recovered() {
			whole = true
		}
	}
	return best, whole
}

// accountsNeeded returns the fewest accounts in [1, maxK] with which
// some attack recovers StopFraction of the public labels within the
// limit, and the fewest with which a recovering attack runs to its end;
// nil where none does. Both predicates grow with k.
func (b budget) accountsNeeded(atks []AttackResult, maxK int64) (stop, all *int64) {
	find := func(ok func(k int64) bool) *int64 {
		k := int64(sort.Search(int(maxK), func(i int) bool { return ok(int64(i) + 1) })) + 1
		if k > maxK {
			return nil
		}
		return &k
	}
	stop = find(func(k int64) bool { f, _ := b.recovered(atks, k); return f >= StopFraction })
	all = find(func(k int64) bool { _, w := b.recovered(atks, k); return w })
	return stop, all
}

// verdictText says the cell's verdict in words, for accounts accounts
// (the config's) and up to maxK.
func (cr *CellResult) verdictText(accounts, maxK int) string {
	if cr.Refused {
		return "not applicable (serve refuses)"
	}
	if !cr.Measured {
		return "not measured"
	}
	acc := func(k int64) string {
		if k == 1 {
			return "1 account"
		}
		return comma(k) + " accounts"
	}
	if cr.Stopped {
		if cr.AccountsNeeded != nil {
			return fmt.Sprintf("stopped with %s, falls with %s", acc(int64(accounts)), comma(*cr.AccountsNeeded))
		}
		return fmt.Sprintf("stopped with %s and with %s", acc(int64(accounts)), comma(int64(maxK)))
	}
	if cr.AccountsNeeded != nil && *cr.AccountsNeeded > 1 {
		return fmt.Sprintf("NOT stopped: falls with %s", acc(*cr.AccountsNeeded))
	}
	return "NOT stopped"
}
