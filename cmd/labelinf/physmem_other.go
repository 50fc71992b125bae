//go:build !linux

package main

// physicalMemory reports that the machine's memory is unknown outside
// Linux: the demo's size check then trusts -memlimit alone.
func physicalMemory() (uint64, bool) { return 0, false }
