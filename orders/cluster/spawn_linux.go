package cluster

import "syscall"

// dieWithParent makes a worker process end when the coordinator's does,
// however it ends (kill -9 included): no worker outlives its run.
func dieWithParent() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
