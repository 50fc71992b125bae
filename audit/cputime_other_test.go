//go:build !unix

package audit

import "time"

// cpuTime is 0 where getrusage is missing: the benchmark's cpu-ns/op is
// then 0.
func cpuTime() time.Duration { return 0 }
