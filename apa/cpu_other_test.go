//go:build !unix

package apa

func cpuNanos() int64 { return 0 }
