package audit

import (
	"os/exec"
	"syscall"
)

// setParentDeath asks Linux to send the server SIGTERM if the audit's
// thread that started it dies (the audit killed with SIGKILL), so that no
// server outlives its audit.
func setParentDeath(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
