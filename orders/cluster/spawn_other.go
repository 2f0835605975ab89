//go:build !linux

package cluster

import "syscall"

// dieWithParent has no way here to end the workers with the coordinator:
// they end when they lose its connection.
func dieWithParent() *syscall.SysProcAttr { return nil }
