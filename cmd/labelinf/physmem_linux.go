package main

import "syscall"

// physicalMemory returns the machine's total memory in bytes.
func physicalMemory() (uint64, bool) {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0, false
	}
	return uint64(si.Totalram) * uint64(si.Unit), true
}
