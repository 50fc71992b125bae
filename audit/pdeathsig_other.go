//go:build !linux

package audit

import "os/exec"

// setParentDeath does nothing outside Linux: a server started by an
// audit that is killed with SIGKILL keeps running until stopped.
func setParentDeath(cmd *exec.Cmd) {}
