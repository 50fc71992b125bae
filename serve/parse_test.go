package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/scorer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomPred returns n probabilities spread over many magnitudes.
func randomPred(r *rand.Rand, n int) []float64 {
	p := make([]float64, n)
	for i := range p {
		switch r.IntN(4) {
		case 0:
			p[i] = r.Float64()
		case 1:
			p[i] = math.Ldexp(r.Float64(), -r.IntN(1000))
		case 2:
			p[i] = 1 - math.Ldexp(r.Float64(), -r.IntN(53))
		default:
			p[i] = float64(r.IntN(3)) / 2
		}
	}
	return p
}

func TestParseJSONRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, k := range []int{2, 3, 7} {
		n := 1000
		per := 1
		if k > 2 {
			per = k
		}
		p := randomPred(r, n*per)
		body := (&scorer.Pred{K: k, P: p}).AppendJSON(nil)
		got := make([]float64, n*per)
		require.NoError(t, parseJSON(got, body, n, k))
		for i := range p {
			if math.Float64bits(p[i]) != math.Float64bits(got[i]) {
				t.Fatalf("k=%d value %d: got %v, want %v", k, i, got[i], p[i])
			}
		}
		// Whitespace anywhere JSON allows it changes nothing.
		spaced := bytes.ReplaceAll(body, []byte(","), []byte(" ,\n\t"))
		spaced = append([]byte(" \r\n"), append(spaced, ' ')...)
		require.NoError(t, parseJSON(got, spaced, n, k))
		assert.Equal(t, p, got)
	}
}

// TestParseJSONRepeats: a number whose text begins with the previous
// number's is read in full (the repeat shortcut takes only an exact
// token), each value as strconv.ParseFloat reads it.
func TestParseJSONRepeats(t *testing.T) {
	toks := []string{"0.5", "0.5", "0.55", "0.5", "0.5e-1", "0.5", "0.5E1", "0.5", "0.5", "0.50", "0.5", "0.5e+0", "0.5",
		"0.4999999959800076", "0.4999999959800076", "0.49999999598000761", "0.4999999959800076", "1", "1", "10", "1", "1.0", "0", "0"}
	for _, sep := range []string{",", " , ", "\n,\t"} {
		body := `{"predictions":[` + strings.Join(toks, sep) + "]}"
		got := make([]float64, len(toks))
		require.NoError(t, parseJSON(got, []byte(body), len(toks), 2))
		for i, tok := range toks {
			want, err := strconv.ParseFloat(tok, 64)
			require.NoError(t, err)
			if math.Float64bits(got[i]) != math.Float64bits(want) {
				t.Fatalf("sep %q: value %d (%s) = %v, want %v", sep, i, tok, got[i], want)
			}
		}
	}
	// Long runs of one text (which repeats counts with periodic
	// compares), broken by near-copies and whitespace, at random.
	r := rand.New(rand.NewPCG(21, 22))
	alphabet := []string{"0.5", "0.55", "0.5e-1", "0.4999999959800076", "1", "10", "0"}
	for range 300 {
		var toks []string
		for len(toks) < 2000 {
			tok := alphabet[r.IntN(len(alphabet))]
			for range 1 + r.IntN(1<<r.IntN(10)) {
				toks = append(toks, tok)
			}
		}
		var b strings.Builder
		b.WriteString(`{"predictions":[`)
		for i, tok := range toks {
			if i > 0 {
				if r.IntN(50) == 0 {
					b.WriteString(" ,\n")
				} else {
					b.WriteByte(',')
				}
			}
			b.WriteString(tok)
		}
		b.WriteString("]}")
		got := make([]float64, len(toks))
		require.NoError(t, parseJSON(got, []byte(b.String()), len(toks), 2))
		for i, tok := range toks {
			want, _ := strconv.ParseFloat(tok, 64)
			if math.Float64bits(got[i]) != math.Float64bits(want) {
				t.Fatalf("value %d (%s) = %v, want %v", i, tok, got[i], want)
			}
		}
		// One row fewer than sent: refused, however long the last run.
		err := parseJSON(got[:len(toks)-1], []byte(b.String()), len(toks)-1, 2)
		require.ErrorContains(t, err, "more than")
	}
	// A repeated token followed by garbage is still refused.
	got := make([]float64, 3)
	require.Error(t, parseJSON(got, []byte(`{"predictions":[0.5,0.5x,0.5]}`), 3, 2))
	require.Error(t, parseJSON(got, []byte(`{"predictions":[0.5,0.5.5,0.5]}`), 3, 2))
	require.Error(t, parseJSON(got, []byte(`{"predictions":[0.5,0.5,0.5,]}`), 3, 2))
	require.Error(t, parseJSON(got, []byte(`{"predictions":[0.5,0.5,0.5,0.5]}`), 3, 2))
	require.Error(t, parseJSON(got, []byte(`{"predictions":[0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5}`), 3, 2))
}

// FuzzParseJSON: never panics; whatever it accepts, encoding/json reads
// as the same numbers (the hand-written parser is stricter, never looser).
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{"predictions":[0.5,1,0]}`, `{"predictions":[[0.2,0.3,0.5],[1,0,0]]}`, ` { "predictions" : [ 1e-3 , 0.25 ,1E+0] } `,
		`{"predictions":[NaN,1,0]}`, `{"predictions":[-0,1,0]}`, `{"predictions":[1e400,1,0]}`, `{"predictions":[0.5,1,0]`,
		`{"predictions":[0.5,0.5,0.55]}`, `{"predictions":[0.25,0.25e1,0.25]}`, `{"predictions":[1,1,1,1,1,1,1,1]}`, `{"predictions":[1,1,1,1,1,1,1,1,]}`, `{}`, `[]`, ``} {
		f.Add([]byte(s), uint8(3), uint8(2))
	}
	f.Fuzz(func(t *testing.T, body []byte, n8, k8 uint8) {
		n := int(n8%8) + 1
		k := int(k8%4) + 2
		per := 1
		if k > 2 {
			per = k
		}
		got := make([]float64, n*per)
		if err := parseJSON(got, body, n, k); err != nil {
			return
		}
		for _, v := range got {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("accepted a non-finite value %v", v)
			}
		}
		var flat []float64
		if k == 2 {
			var v struct{ Predictions []float64 }
			if err := json.Unmarshal(body, &v); err != nil {
				t.Fatalf("accepted %q, encoding/json refuses: %v", body, err)
			}
			flat = v.Predictions
		} else {
			var v struct{ Predictions [][]float64 }
			if err := json.Unmarshal(body, &v); err != nil {
				t.Fatalf("accepted %q, encoding/json refuses: %v", body, err)
			}
			for _, row := range v.Predictions {
				flat = append(flat, row...)
			}
		}
		if len(flat) != len(got) {
			t.Fatalf("%q: %d values, encoding/json %d", body, len(got), len(flat))
		}
		for i := range flat {
			if math.Float64bits(flat[i]) != math.Float64bits(got[i]) {
				t.Fatalf("%q: value %d = %v, encoding/json %v", body, i, got[i], flat[i])
			}
		}
	})
}

// FuzzParseCSV: never panics; an accepted upload sets every row.
func FuzzParseCSV(f *testing.F) {
	for _, s := range []string{"id,p\n0,0.5\n1,0.25\n", "id,a,b,c\n1,0.2,0.3,0.5\n0,1,0,0\n", "id,p\n0,nan\n", "\"id\",p\n0,\"0.5\"\n1,1\n"} {
		f.Add([]byte(s), uint8(2), uint8(2))
	}
	f.Fuzz(func(t *testing.T, body []byte, n8, k8 uint8) {
		n := int(n8%6) + 1
		k := int(k8%3) + 2
		per := 1
		if k > 2 {
			per = k
		}
		got := make([]float64, n*per)
		for i := range got {
			got[i] = math.NaN()
		}
		if err := parseCSV(got, bytes.NewReader(body), n, k); err != nil {
			return
		}
		for i, v := range got {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%q: value %d = %v after an accepted upload", body, i, v)
			}
		}
	})
}

// FuzzSubmitHandler sends arbitrary bodies, media types and keys to the
// submission route: the answer is never 5xx, and a rejected request
// stores nothing.
func FuzzSubmitHandler(f *testing.F) {
	for _, s := range []string{`{"predictions":[0.5,0.5,0.5]}`, `{"predictions":[0,0,0]}`, "id,p\n0,1\n1,0\n2,0.5\n", `{"predictions":[NaN]}`, `{"predictions":[-1,2,3]}`, "\x00\xff"} {
		f.Add([]byte(s), uint8(0), uint8(0))
		f.Add([]byte(s), uint8(1), uint8(1))
	}
	e := newEnv(f, [][]int{{1, 0, 1}}, CompetitionConfig{ID: "c", Classes: 2, Metric: "float64-sklearn", Clip: "none"})
	tok, revoked := e.key("alice"), e.key("mallory")
	ks, _ := e.st.Keys(context.Background())
	for _, k := range ks {
		if k.Name == "mallory" {
			require.NoError(f, e.st.RevokeKey(context.Background(), k.ID, e.clock.Now()))
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, ct8, key8 uint8) {
		e.t = t
		before := e.count("c")
		ctype := []string{"application/json", "text/csv", "text/plain", "multipart/form-data; boundary=x", ""}[int(ct8)%5]
		key := []string{tok, revoked, "lik_0000000000000000_" + strings.Repeat("A", 43), "", string(body)}[int(key8)%5]
		req := httptest.NewRequest("POST", "/v1/competitions/c/submissions", bytes.NewReader(body))
		req.Header.Set("Content-Type", ctype)
		req.Header.Set("Authorization", "Bearer "+key)
		e.clock.Add(1e9)
		w := httptest.NewRecorder()
		e.srv.ServeHTTP(w, req)
		if w.Code >= 500 {
			t.Fatalf("status %d for %q: %s", w.Code, body, w.Body)
		}
		after := e.count("c")
		if w.Code != http.StatusCreated && after != before {
			t.Fatalf("status %d stored a submission", w.Code)
		}
		if w.Code == http.StatusCreated && after != before+1 {
			t.Fatalf("201 but %d rows added", after-before)
		}
	})
}

// BenchmarkParseJSON compares the hand-written parser with encoding/json
// on a 25,000-row binary body.
func BenchmarkParseJSON(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	p := make([]float64, 25000)
	for i := range p {
		p[i] = r.Float64()
	}
	body := (&scorer.Pred{K: 2, P: p}).AppendJSON(nil)
	b.Run("parser=serve", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(body)))
		dst := make([]float64, len(p))
		for b.Loop() {
			if err := parseJSON(dst, body, len(p), 2); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parser=encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			var v struct{ Predictions []float64 }
			if err := json.Unmarshal(body, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
