package serve

// This file decodes submitted predictions: a strict hand-written parser
// for the JSON body {"predictions": [...]} (about 1.2 ms for 25,000
// numbers against 6.3 ms for encoding/json; BENCHMARKS.md §9) and the CSV
// upload.
// Neither looks at the labels.

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unsafe"
)

// A ParseError says where a body is malformed.
type ParseError struct {
	Offset int // byte offset in the body (JSON) or line (CSV)
	Line   bool
	Msg    string
}

func (e *ParseError) Error() string {
	if e.Line {
		return fmt.Sprintf("line %d: %s", e.Offset, e.Msg)
	}
	return fmt.Sprintf("byte %d: %s", e.Offset, e.Msg)
}

// parseJSON decodes body, which must be exactly one JSON object with the
// single member "predictions": for k = 2 an array of n numbers (the
// probability of class 1), for k > 2 an array of n arrays of k numbers.
// The values go to dst (len n·1 or n·k). Numbers follow RFC 8259's grammar
// strictly (no NaN, no Infinity, no leading +, no hex) and must be finite
// as float64.
func parseJSON(dst []float64, body []byte, n, k int) error {
	p := jsonParser{b: body}
	p.ws()
	if !p.eat('{') {
		return p.fail("want '{' to open the object")
	}
	p.ws()
	key, ok := p.str()
	if !ok {
		return p.fail(`want the member "predictions"`)
	}
	if key != "predictions" {
		return p.fail(fmt.Sprintf("unknown member %q (want only \"predictions\")", clipText(key, 40)))
	}
	p.ws()
	if !p.eat(':') {
		return p.fail("want ':'")
	}
	p.ws()
	if !p.eat('[') {
		return p.fail("predictions: want '['")
	}
	per := 1
	if k > 2 {
		per = k
	}
	got := 0
	for {
		p.ws()
		if got == 0 && p.eat(']') {
			break
		}
		if got == n {
			return p.fail(fmt.Sprintf("predictions: more than %d rows", n))
		}
		if per == 1 {
			// A number whose text is the previous number's is that number:
			// attack queries repeat one value over most rows. Right after
			// "prev," the copies of "prev," that follow are counted with
			// a few long compares.
			if k := p.repeats(n - got); k > 0 {
				for j := range k {
					dst[got+j] = p.prevV
				}
				got += k
				continue
			}
			start := p.i
			if t := p.prev; len(t) > 0 && bytes.HasPrefix(p.b[p.i:], t) && !numByte(p.b, p.i+len(t)) {
				p.i += len(t)
				dst[got] = p.prevV
			} else {
				v, err := p.num()
				if err != nil {
					return err
				}
				dst[got] = v
				p.prev, p.prevV = p.b[start:p.i], v
			}
			p.prevAt = start
		} else {
			if !p.eat('[') {
				return p.fail(fmt.Sprintf("row %d: want '[' (an array of %d class probabilities)", got, k))
			}
			for c := range k {
				p.ws()
				if c > 0 {
					if !p.eat(',') {
						return p.fail(fmt.Sprintf("row %d: want ',' after %d values (want %d)", got, c, k))
					}
					p.ws()
				}
				v, err := p.num()
				if err != nil {
					return err
				}
				dst[got*k+c] = v
			}
			p.ws()
			if !p.eat(']') {
				return p.fail(fmt.Sprintf("row %d: want ']' after %d values", got, k))
			}
		}
		got++
		p.ws()
		if p.eat(',') {
			continue
		}
		if p.eat(']') {
			break
		}
		return p.fail("predictions: want ',' or ']'")
	}
	if got != n {
		return &ParseError{Offset: p.i, Msg: fmt.Sprintf("predictions: %d rows, want %d", got, n)}
	}
	p.ws()
	if !p.eat('}') {
		return p.fail(`want '}' (the object has one member, "predictions")`)
	}
	p.ws()
	if p.i != len(p.b) {
		return p.fail("trailing data after the object")
	}
	return nil
}

type jsonParser struct {
	b []byte
	i int
	// prev is the text of the last binary prediction read, prevV its value
	// and prevAt where it starts in b.
	prev   []byte
	prevV  float64
	prevAt int
}

// repeats: if the last value read is the text prev followed by ',' and
// the parser stands right after that comma, repeats counts the copies of
// "prev," that follow (at most max), steps past them and returns their
// number. Each copy is the number prev ended by a comma, so its value is
// prevV. The run is found by comparing b[i:i+m] with b[i−L:i−L+m], L =
// len("prev,"): equal exactly when b is periodic with period L there.
func (p *jsonParser) repeats(max int) int {
	L := len(p.prev) + 1
	i := p.i
	if len(p.prev) == 0 || p.prevAt != i-L || p.b[i-1] != ',' {
		return 0
	}
	lim := min(len(p.b), i+max*L)
	same := func(m, step int) bool {
		return i+m+step <= lim && bytes.Equal(p.b[i+m:i+m+step], p.b[i+m-L:i+m-L+step])
	}
	m, step := 0, L
	for same(m, step) {
		m += step
		step *= 2
	}
	for step > L {
		step /= 2
		if same(m, step) {
			m += step
		}
	}
	if m == 0 {
		return 0
	}
	p.i += m
	p.prevAt = p.i - L
	return m / L
}

// numByte reports whether b[i] exists and may continue a JSON number: a
// token equal to the previous number's text ends there only if not.
func numByte(b []byte, i int) bool {
	if i >= len(b) {
		return false
	}
	switch c := b[i]; {
	case c >= '0' && c <= '9', c == '.', c == 'e', c == 'E', c == '+', c == '-':
		return true
	}
	return false
}

func (p *jsonParser) fail(msg string) error { return &ParseError{Offset: p.i, Msg: msg} }

func (p *jsonParser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) eat(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str reads a string without escapes (member names are plain ASCII).
func (p *jsonParser) str() (string, bool) {
	if !p.eat('"') {
		return "", false
	}
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		if c == '"' {
			s := string(p.b[start:p.i])
			p.i++
			return s, true
		}
		if c == '\\' || c < 0x20 {
			return "", false
		}
		p.i++
	}
	return "", false
}

// num reads one JSON number (RFC 8259 §6) as the nearest float64. The
// scan checks the grammar and gathers up to 19 significant digits, which
// Eisel–Lemire converts (parsefloat.go); anything it cannot decide goes to
// strconv.ParseFloat.
func (p *jsonParser) num() (float64, error) {
	start := p.i
	b := p.b
	i := p.i
	neg := false
	if i < len(b) && b[i] == '-' {
		neg = true
		i++
	}
	var man uint64
	nd, exp10 := 0, 0 // significant digits kept; decimal exponent of man
	trunc := false    // a nonzero digit beyond the 19 kept
	digit := func(d byte, frac bool) {
		switch {
		case nd < 19:
			if d == '0' && nd == 0 {
				if frac {
					exp10--
				}
				return
			}
			man = man*10 + uint64(d-'0')
			nd++
			if frac {
				exp10--
			}
		default:
			if d != '0' {
				trunc = true
			}
			if !frac {
				exp10++
			}
		}
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			digit(b[i], false)
			i++
		}
	default:
		return 0, &ParseError{Offset: start, Msg: "want a number" + tokenHint(b[start:])}
	}
	if i < len(b) && b[i] == '.' {
		i++
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			digit(b[i], true)
			i++
		}
		if i == d {
			return 0, &ParseError{Offset: i, Msg: "want a digit after '.'"}
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		eneg := false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			eneg = b[i] == '-'
			i++
		}
		d := i
		e := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			if e < 100000 { // beyond any float64 exponent: ParseFloat decides
				e = e*10 + int(b[i]-'0')
			}
			i++
		}
		if i == d {
			return 0, &ParseError{Offset: i, Msg: "want a digit in the exponent"}
		}
		if eneg {
			e = -e
		}
		exp10 += e
	}
	tok := b[start:i]
	if !trunc && man <= 1<<53 && exp10 >= -22 && exp10 <= 22 {
		// Clinger's fast path [Clinger90]: man and 10^|exp10| are exact
		// float64s, so one correctly rounded product or quotient is the
		// nearest float64 (strconv's atof64exact; Eisel–Lemire gives up
		// on exact halfway-looking inputs such as 0.2509765625).
		v := float64(man)
		if exp10 < 0 {
			v /= float64pow10[-exp10]
		} else {
			v *= float64pow10[exp10]
		}
		if neg {
			v = -v
		}
		p.i = i
		return v, nil
	}
	if !trunc {
		if v, ok := eiselLemire(man, exp10, neg); ok {
			p.i = i
			return v, nil
		}
	}
	// The string view does not outlive this call: ParseFloat's error keeps
	// it, so errors are rebuilt from a copy below.
	v, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(tok), len(tok)), 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, &ParseError{Offset: start, Msg: fmt.Sprintf("number %s is not finite as float64", clipText(string(tok), 40))}
	}
	p.i = i
	return v, nil
}

// float64pow10[k] is 10^k, exact for k ≤ 22.
var float64pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// tokenHint names a few common non-numbers.
func tokenHint(b []byte) string {
	for _, w := range []string{"NaN", "nan", "Infinity", "-Infinity", "inf", "null", "true", "false", `"`} {
		if bytes.HasPrefix(b, []byte(w)) {
			return fmt.Sprintf(", got %s (only finite JSON numbers)", w)
		}
	}
	if len(b) == 0 {
		return ", got the end of the body"
	}
	return ""
}

// contentType returns the media type of a submission's Content-Type
// header ct, refusing a charset other than UTF-8 (or its subset
// US-ASCII): a body is read as UTF-8, so a UTF-16 one would be misread.
// A missing or malformed header gives "" (no known type).
func contentType(ct string) (string, *apiError) {
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return "", nil
	}
	if cs, ok := params["charset"]; ok {
		switch strings.ToLower(cs) {
		case "utf-8", "utf8", "us-ascii":
		default:
			return "", reject(http.StatusUnsupportedMediaType, "charset",
				fmt.Sprintf("Content-Type charset %q: the body must be UTF-8 (convert it, or send it without a charset)", clipText(cs, 40)))
		}
	}
	return mt, nil
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// utf8BOM is the byte-order mark spreadsheet programs write at the start
// of a "CSV UTF-8" file.
const utf8BOM = "\xef\xbb\xbf"

// parseCSV decodes a Kaggle-style CSV upload into dst: a header line, then
// one line per row "id,prediction" (k = 2) or "id,p0,…,p(k−1)" (k > 2),
// the id being the row's index in [0, n), each exactly once, in any order.
// A UTF-8 byte-order mark before the header is skipped.
func parseCSV(dst []float64, r io.Reader, n, k int) error {
	per := 1
	if k > 2 {
		per = k
	}
	br := bufio.NewReader(r)
	if b, err := br.Peek(len(utf8BOM)); err == nil && string(b) == utf8BOM {
		br.Discard(len(utf8BOM))
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = per + 1
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		return csvError(err, 1, per)
	}
	if !strings.EqualFold(strings.TrimSpace(head[0]), "id") {
		return &ParseError{Offset: 1, Line: true, Msg: fmt.Sprintf("header: first column %q, want id", clipText(head[0], 40))}
	}
	seen := make([]bool, n)
	rows := 0
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return csvError(err, line, per)
		}
		id, err := strconv.Atoi(strings.TrimSpace(rec[0]))
		if err != nil || id < 0 || id >= n {
			return &ParseError{Offset: line, Line: true, Msg: fmt.Sprintf("id %q: want a row index in [0, %d)", clipText(rec[0], 40), n)}
		}
		if seen[id] {
			return &ParseError{Offset: line, Line: true, Msg: fmt.Sprintf("id %d appears twice", id)}
		}
		seen[id] = true
		for c := range per {
			f := strings.TrimSpace(rec[c+1])
			v, err := strconv.ParseFloat(f, 64)
			if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
				return &ParseError{Offset: line, Line: true, Msg: fmt.Sprintf("column %d: %q is not a finite number", c+2, clipText(f, 40))}
			}
			dst[id*per+c] = v
		}
		rows++
	}
	if rows != n {
		return &ParseError{Offset: rows + 2, Line: true, Msg: fmt.Sprintf("%d rows, want %d (ids 0 to %d)", rows, n, n-1)}
	}
	return nil
}

func csvError(err error, line, per int) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			return &ParseError{Offset: pe.Line, Line: true, Msg: fmt.Sprintf("want %d columns (id and %d values)", per+1, per)}
		}
		return &ParseError{Offset: pe.Line, Line: true, Msg: pe.Err.Error()}
	}
	if err == io.EOF {
		return &ParseError{Offset: line, Line: true, Msg: "empty upload: want a header line and one line per row"}
	}
	return &ParseError{Offset: line, Line: true, Msg: err.Error()}
}
