package main

import (
	"context"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// stopSignals are the signals that stop a command cleanly: Ctrl-C, and
// SIGTERM, which Slurm sends on scancel and at a job's time limit.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// signals cancels a context at the first stop signal and remembers it; a
// second signal kills the process at once, as the user asks twice.
type signals struct {
	caught atomic.Value // os.Signal
	ch     chan os.Signal
}

// watch returns a context cancelled by the first stop signal.
func (s *signals) watch(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	s.ch = make(chan os.Signal, 1)
	signal.Notify(s.ch, stopSignals...)
	go func() {
		sig, ok := <-s.ch
		if !ok {
			return
		}
		s.caught.Store(sig)
		signal.Reset(stopSignals...) // the next one kills
		cancel()
	}()
	return ctx, func() {
		signal.Stop(s.ch)
		close(s.ch)
		cancel()
	}
}

// signal returns the stop signal caught, nil if none.
func (s *signals) signal() os.Signal {
	sig, _ := s.caught.Load().(os.Signal)
	return sig
}

// exitCode is the shell's status for a process stopped by sig: 128 plus
// its number (130 for SIGINT, 143 for SIGTERM).
func exitCode(sig os.Signal) int {
	if n, ok := sig.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 1
}

// signalName is sig as people write it.
func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}
