package serve

// Load, fault and replica tests. All traffic stays on 127.0.0.1, and every
// loop is bounded in count and time.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"regexp"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labelinf/labelinf/internal/cputime"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadResult is what a load run saw.
type loadResult struct {
	acked     map[string]string // submission id → key token
	ackedKey  map[string]int    // token → acknowledged submissions
	budget429 atomic.Int64
	other     map[int]int // status → count, for everything but 201 and budget 429s
	errors    int         // transport errors (a killed server)
	lat       []time.Duration
	elapsed   time.Duration
	requests  int
}

func (r *loadResult) quantile(q float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	s := slices.Clone(r.lat)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// bodies returns m distinct JSON bodies of n binary predictions.
func bodies(seed uint64, m, n int) [][]byte {
	r := rand.New(rand.NewPCG(seed, 99))
	out := make([][]byte, m)
	for j := range out {
		p := make([]float64, n)
		for i := range p {
			p[i] = r.Float64()
		}
		out[j] = predJSON(p)
	}
	return out
}

// runLoad has clients goroutines each send perClient submissions, client
// c with tokens[c%len(tokens)] to urls[c%len(urls)], stopping early at
// deadline or when stop is closed.
func runLoad(urls []string, tokens []string, clients, perClient int, bodies [][]byte, deadline time.Duration, stop <-chan struct{}) *loadResult {
	return runLoadFunc(clients, perClient, bodies, deadline, stop, func(c int) (string, string) { return urls[c%len(urls)], tokens[c%len(tokens)] })
}

// runLoadFunc is runLoad with client c's URL and token from pick(c).
func runLoadFunc(clients, perClient int, bodies [][]byte, deadline time.Duration, stop <-chan struct{}, pick func(c int) (url, token string)) *loadResult {
	res := &loadResult{acked: map[string]string{}, ackedKey: map[string]int{}, other: map[int]int{}}
	tr := &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients, DialContext: (&net.Dialer{Timeout: 5 * time.Second}).DialContext}
	defer tr.CloseIdleConnections()
	cl := &http.Client{Transport: tr, Timeout: 60 * time.Second}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	end := start.Add(deadline)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			url, tok := pick(c)
			for i := range perClient {
				select {
				case <-stop:
					return
				default:
				}
				if time.Now().After(end) {
					return
				}
				req, _ := http.NewRequest("POST", url, bytes.NewReader(bodies[(c+i)%len(bodies)]))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+tok)
				t0 := time.Now()
				resp, err := cl.Do(req)
				if err != nil {
					mu.Lock()
					res.errors++
					res.requests++
					mu.Unlock()
					continue
				}
				raw, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				d := time.Since(t0)
				mu.Lock()
				res.requests++
				switch {
				case err != nil:
					res.errors++
				case resp.StatusCode == http.StatusCreated:
					var id string
					if m := idPattern201.FindSubmatch(raw); m != nil {
						id = string(m[1])
					}
					res.acked[id] = tok
					res.ackedKey[tok]++
					res.lat = append(res.lat, d)
				case resp.StatusCode == http.StatusTooManyRequests && bytes.Contains(raw, []byte(`"budget_`)):
					res.budget429.Add(1)
					res.lat = append(res.lat, d)
				default:
					res.other[resp.StatusCode]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	return res
}

// checkStored asserts every acknowledged submission is in the store and
// no key has more accepted submissions than limit.
// With exact, each key's stored count equals its acknowledged count (no
// request was cut off mid-flight).
func checkStored(t *testing.T, st Store, comp string, res *loadResult, keyIDs map[string]string, limit int, exact bool) {
	t.Helper()
	subs, err := st.Submissions(context.Background(), comp)
	require.NoError(t, err)
	stored := map[string]bool{}
	perKey := map[string]int{}
	for _, s := range subs {
		stored[s.ID] = true
		perKey[s.KeyID]++
	}
	lost := 0
	for id := range res.acked {
		if !stored[id] {
			lost++
		}
	}
	assert.Zero(t, lost, "acknowledged submissions missing from the database")
	over := 0
	for _, n := range perKey {
		if n > limit {
			over++
		}
	}
	assert.Zero(t, over, "keys over their budget of %d", limit)
	for tok, n := range res.ackedKey {
		if exact {
			assert.Equal(t, n, perKey[keyIDs[tok]], "key %s: acknowledged and stored differ", keyIDs[tok])
		} else {
			assert.LessOrEqual(t, n, perKey[keyIDs[tok]], "key %s: fewer stored than acknowledged", keyIDs[tok])
		}
	}
}

// TestLoad: 200 concurrent clients submit 25,000-row log-loss predictions
// to one server on SQLite; two clients share each key, whose total budget
// is below their combined requests. Then one client at a time, for the
// unloaded latency. Numbers go to BENCHMARKS.md (go test -run TestLoad -v).
func TestLoad(t *testing.T) {
	n, clients, perClient := 25000, 200, 8
	if testing.Short() {
		n, clients, perClient = 2000, 20, 3
	}
	keys := clients / 2
	limit := perClient * 3 / 2 // of 2·perClient requests per key
	labels := randLabels(rand.New(rand.NewPCG(1, 1)), n, 2)
	e := newEnv(t, [][]int{labels}, CompetitionConfig{ID: "load", Classes: 2, Metric: "float64-sklearn", Decimals: ptr(5), PublicFraction: 0.5, TotalLimit: limit})
	e.srv.limits = newRejectLimiter(1e9, 1e9)
	e.srv.o.MaxBodyBytes = 16 << 20
	tokens := make([]string, keys)
	keyIDs := map[string]string{}
	for i := range tokens {
		tokens[i] = e.key(fmt.Sprintf("team%03d", i))
		keyIDs[tokens[i]] = tokens[i][4:20]
	}
	bs := bodies(7, 16, n)
	url := e.hs.URL + "/v1/competitions/load/submissions"
	cpu0 := cputime.Now()
	res := runLoad([]string{url}, tokens, clients, perClient, bs, 5*time.Minute, nil)
	cpu := cputime.Now() - cpu0
	assert.Empty(t, res.other, "unexpected statuses")
	assert.Zero(t, res.errors)
	assert.Equal(t, keys*limit, len(res.acked), "acknowledged")
	assert.Equal(t, int64(clients*perClient-keys*limit), res.budget429.Load(), "budget refusals")
	checkStored(t, e.st, "load", res, keyIDs, limit, true)
	t.Logf("load: N=%d, %d clients, %d requests (%d accepted, %d refused by budget) in %v: %.0f requests/s, p50 %v, p99 %v",
		n, clients, res.requests, len(res.acked), res.budget429.Load(), res.elapsed.Round(time.Millisecond),
		float64(res.requests)/res.elapsed.Seconds(), res.quantile(0.5).Round(10*time.Microsecond), res.quantile(0.99).Round(10*time.Microsecond))
	// The machine is shared: CPU time per request (server and clients
	// together, this process) says what 2 idle cores would sustain.
	perReq := cpu / time.Duration(res.requests)
	t.Logf("load: %v CPU per request (server + clients), i.e. %.0f requests/s on 2 idle cores; this process got %.2f cores",
		perReq.Round(10*time.Microsecond), 2/perReq.Seconds(), cpu.Seconds()/res.elapsed.Seconds())

	// One client at a time, on fresh keys with no limit.
	seq := 200
	if testing.Short() {
		seq = 20
	}
	e2 := newEnv(t, [][]int{labels}, CompetitionConfig{ID: "seq", Classes: 2, Metric: "float64-sklearn", Decimals: ptr(5), PublicFraction: 0.5})
	tok := e2.key("solo")
	r1 := runLoad([]string{e2.hs.URL + "/v1/competitions/seq/submissions"}, []string{tok}, 1, seq, bs, 2*time.Minute, nil)
	assert.Equal(t, seq, len(r1.acked))
	t.Logf("sequential: N=%d, %d submissions one at a time: p50 %v, p99 %v, %.0f submissions/s", n, seq,
		r1.quantile(0.5).Round(10*time.Microsecond), r1.quantile(0.99).Round(10*time.Microsecond), float64(seq)/r1.elapsed.Seconds())
}

func ptr[T any](v T) *T { return &v }

var idPattern201 = regexp.MustCompile(`"id":"(sub_[0-9a-f]+)"`)
