//go:build !unix

package bigmul

func cpuNanos() int64 { return 0 }
