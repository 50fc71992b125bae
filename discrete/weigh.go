package discrete

// This file implements the coin-weighing design: 0/1 queries that
// determine n unknown bits from their subset sums in about 2n/log₂n
// queries [ER63, CM66, Lin65], with exact recursive decoding.

import (
	"errors"
	"fmt"
)

// maxLevel bounds the recursion of [design]: level 10 weighs 10,241 coins
// with 2,047 queries (about 10 M entries); larger N is split into blocks.
const maxLevel = 10

// A design is a 0/1 weighing matrix A_t of the recursion
//
//	A_0 = [1],
//	A_{t+1} = | A_t   A_t      I |   (the x, y and z columns)
//	          | A_t   J − A_t  0 |
//	          | 0     1…1      0 |,
//
// q_{t+1} = 2q_t + 1 rows and n_{t+1} = 2n_t + q_t columns, so
// n_t = t·2^t + 1 coins with q_t = 2^(t+1) − 1 weighings: 1, 3, 9, 25,
// 65, 161, 385, 897, 2,049 coins with 1, 3, 7, 15, 31, 63, 127, 255, 511
// weighings (q/n ≈ 2/log₂n, within a factor of about 1 + 1/log₂n of
// Lindström's optimum). It is the 0/1 form of the Cantor–Mills doubling
// [CM66]: the last row weighs the y coins together, which turns the
// bottom rows' J − A_t into −A_t, and then
//
//	u + v − T_y = 2A_t x + z,   u − v + T_y = 2A_t y + z,
//
// so z is the parity of u + v − T_y, and A_t x and A_t y are decoded
// recursively. Every step checks its integers (parity, range 0/1), so a
// set of answers no 0/1 vector explains is an error, never a guess.
type design struct {
	level int
	rows  [][]int32 // rows[r]: the columns weighed by query r, ascending
	n     int
}

// levelSize returns n_t and q_t.
func levelSize(t int) (n, q int) {
	n, q = 1, 1
	for range t {
		n, q = 2*n+q, 2*q+1
	}
	return n, q
}

// newDesign builds A_t.
func newDesign(t int) *design {
	if t == 0 {
		return &design{level: 0, rows: [][]int32{{0}}, n: 1}
	}
	a := newDesign(t - 1)
	n, q := a.n, len(a.rows)
	d := &design{level: t, n: 2*n + q}
	for r, row := range a.rows {
		top := make([]int32, 0, 2*len(row)+1)
		top = append(top, row...)
		for _, c := range row {
			top = append(top, c+int32(n))
		}
		top = append(top, int32(2*n+r))
		d.rows = append(d.rows, top)
	}
	for _, row := range a.rows {
		bot := make([]int32, 0, len(row)+n-len(row))
		bot = append(bot, row...)
		j := 0
		for c := range n { // J − A_t over the y columns
			if j < len(row) && int(row[j]) == c {
				j++
				continue
			}
			bot = append(bot, int32(n+c))
		}
		d.rows = append(d.rows, bot)
	}
	tot := make([]int32, n)
	for c := range n {
		tot[c] = int32(n + c)
	}
	d.rows = append(d.rows, tot)
	return d
}

// errWeigh is returned when the answers of a design are explained by no
// 0/1 vector.
var errWeigh = errors.New("no 0/1 labeling explains the subset sums")

// decode returns the 0/1 vector x with rows·x = ans. It returns an error
// wrapping errWeigh if there is none.
func (d *design) decode(ans []int) ([]int, error) {
	if len(ans) != len(d.rows) {
		panic("discrete: decode: answers do not match the design")
	}
	x := make([]int, d.n)
	if err := decodeLevel(d.level, ans, x); err != nil {
		return nil, err
	}
	// The recursion used every answer once; check them all against x so
	// that nothing a later step assumed goes unverified.
	for r, row := range d.rows {
		s := 0
		for _, c := range row {
			s += x[c]
		}
		if s != ans[r] {
			return nil, fmt.Errorf("%w (weighing %d: %d, the decoded coins give %d)", errWeigh, r, ans[r], s)
		}
	}
	return x, nil
}

// decodeLevel writes into x (n_t values) the coins of A_t with answers ans
// (q_t values).
func decodeLevel(t int, ans []int, x []int) error {
	if t == 0 {
		if ans[0] != 0 && ans[0] != 1 {
			return fmt.Errorf("%w (a single coin weighs %d)", errWeigh, ans[0])
		}
		x[0] = ans[0]
		return nil
	}
	n, q := levelSize(t - 1)
	u, v, ty := ans[:q], ans[q:2*q], ans[2*q]
	ax := make([]int, q)
	ay := make([]int, q)
	for i := range q {
		s := u[i] + v[i] - ty // 2(A x)_i + z_i
		dlt := u[i] - v[i] + ty
		z := s & 1
		if s < 0 || dlt < 0 || (dlt&1) != z {
			return fmt.Errorf("%w (level %d, weighing %d)", errWeigh, t, i)
		}
		x[2*n+i] = z
		ax[i], ay[i] = (s-z)/2, (dlt-z)/2
	}
	if err := decodeLevel(t-1, ax, x[:n]); err != nil {
		return err
	}
	return decodeLevel(t-1, ay, x[n:2*n])
}

// A block is one design applied to rows [lo, lo+width) of the labels; the
// design's columns beyond width are virtual coins of weight 0, and a
// weighing that touches none of the block's rows is not sent.
type block struct {
	lo, width int
	d         *design
	sent      []int // the design rows sent: those touching a real column
}

// A planner splits coins into blocks; it caches the designs it builds.
// top, if positive, caps the level (0: maxLevel).
type planner struct {
	designs map[int]*design
	top     int
}

func (p *planner) design(t int) *design {
	if p.designs == nil {
		p.designs = map[int]*design{}
	}
	if p.designs[t] == nil {
		p.designs[t] = newDesign(t)
	}
	return p.designs[t]
}

// plan splits n coins into blocks, greedily (the largest level that fits,
// or the next level truncated when that sends fewer weighings than this
// level and a plan of the rest), and returns them with the number of
// weighings they send.
func (p *planner) plan(n int) ([]block, int) {
	var out []block
	total := 0
	for lo := 0; lo < n; {
		r := n - lo
		top := maxLevel
		if p.top > 0 {
			top = min(p.top, maxLevel)
		}
		t := 0
		for t < top {
			if nn, _ := levelSize(t + 1); nn > r {
				break
			}
			t++
		}
		nt, _ := levelSize(t)
		w := min(nt, r)
		b := truncated(p.design(t), lo, w)
		if nt < r && t < top {
			bb := truncated(p.design(t+1), lo, r)
			if _, rest := p.plan(r - nt); len(bb.sent) <= len(b.sent)+rest {
				b, w = bb, r
			}
		}
		out = append(out, b)
		total += len(b.sent)
		lo += w
	}
	return out, total
}

// truncated applies d to rows [lo, lo+w).
func truncated(d *design, lo, w int) block {
	b := block{lo: lo, width: w, d: d}
	for r, row := range d.rows {
		if len(row) > 0 && int(row[0]) < w {
			b.sent = append(b.sent, r)
		}
	}
	return b
}
