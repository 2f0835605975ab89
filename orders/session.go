package orders

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/presage-dvm/presage/orders/measured"
)

// session is a coordinator with its workers joined, through a
// Transport's Hub.
type session struct {
	*coordinator
	hub         Hub
	unsubHellos func() error
	procs       int
}

// openSession starts the coordinator's end of a run of cfg through t,
// starts or awaits the workers and returns once they have all joined.
func openSession(ctx context.Context, t Transport, cfg Config) (s *session, err error) {
	if err := travelProblems(); err != nil {
		return nil, err
	}
	hub, err := t.Listen(ctx, cfg)
	if err != nil {
		return nil, err
	}
	procs, cores := hub.Workers()
	s = &session{hub: hub, procs: procs}
	s.coordinator = &coordinator{conn: hub.Conn(), cores: max(cores, 1), stderr: os.Stderr, orders: map[int64]*tracked{}, byName: map[ref]*tracked{},
		schedule: cfg.Out != "" || cfg.Output != nil}
	s.runState.start(ctx, false)
	defer func() {
		if err != nil {
			s.close("")
		}
	}()
	if err := s.subscribe(); err != nil {
		return s, err
	}
	// Hellos are answered before any worker starts: none goes unanswered.
	joined, unsub, err := s.admit(procs)
	if err != nil {
		return s, err
	}
	s.unsubHellos = unsub
	exited := make(chan Exit, procs)
	if err := hub.Start(exited); err != nil {
		return s, err
	}
	lost, err := s.join(ctx, procs, joined, exited)
	if err != nil {
		return s, err
	}
	// The ends of workers that joined and ended before the run go to
	// loseExited with the others: exited holds one per process at most.
	for _, e := range lost {
		exited <- e
	}
	s.pool = newPool(procs*s.cores, cfg.scheduler(), false, cfg.Seed)
	s.pool.collect = true
	s.pool.ahead, s.pool.aheadMax = cfg.ahead()
	s.start = s.pool.start
	go s.watch()
	go s.loseExited(exited)
	return s, nil
}

// close tells the workers that the run ended (why, when it failed), and
// closes the hub, which waits for them to leave: no worker outlives it,
// nor takes the end for a lost coordinator.
func (s *session) close(why string) {
	s.stopAll(why)
	s.cancel() // ended: workers that leave now are not lost
	if s.unsubHellos != nil {
		_ = s.unsubHellos()
	}
	s.hub.Close()
}

// loseExited loses the node of every worker process the transport
// started that ends before the run does.
func (c *coordinator) loseExited(exited <-chan Exit) {
	for {
		select {
		case e := <-exited:
			c.mu.Lock()
			var n *member
			for _, m := range c.nodes {
				if m.pid == e.PID {
					n = m
				}
			}
			c.mu.Unlock()
			if n != nil {
				c.lose(n, fmt.Errorf("its process ended (%v)", e.Err))
			}
		case <-c.ctx.Done():
			return
		}
	}
}

// runMain runs a main order of procedure name on args on the session's
// workers and returns when it ended, or when the run failed. Network mode
// runs several in one session (probeRuntime); the main's result is then
// in c.main.
func (s *session) runMain(ctx context.Context, name string, args []byte) (end time.Time, err error) {
	c := s.coordinator
	c.mu.Lock()
	done := make(chan struct{})
	c.mainDone = done
	c.main = c.newOrder(nil, name, args)
	c.place(c.main, -1)
	c.dispatched()
	c.mu.Unlock()
	select {
	case <-done:
	case <-c.ctx.Done():
	}
	return time.Now(), c.err(ctx)
}

// runCluster runs the main order of procedure name on args in worker
// processes through t and returns its encoded result with the summary.
func runCluster(ctx context.Context, t Transport, cfg Config, name string, args []byte) ([]byte, *Summary, error) {
	s, err := openSession(ctx, t, cfg)
	if err != nil {
		return nil, nil, err
	}
	c := s.coordinator
	end, runErr := s.runMain(ctx, name, args)
	why := ""
	if runErr != nil {
		why = runErr.Error()
	}
	s.close(why)
	c.mu.Lock()
	if c.remade > 0 {
		fmt.Fprintf(c.stderr, "orders: %d ended orders made again: their results were lost with their workers\n", c.remade)
	}
	c.mu.Unlock()
	rep := &Summary{Mode: ModeRun, Workers: s.procs * c.cores, Elapsed: end.Sub(c.start), Orders: c.count}
	if runErr != nil {
		return nil, rep, runErr
	}
	rep.Measured = &measured.Execution{Program: cmp.Or(cfg.Program, name), Machine: cfg.machine(), Scheduler: string(cfg.scheduler()),
		Started: c.start.UTC(), Orders: c.count, Makespan: end.Sub(c.start).Seconds(), Workers: c.pool.measure(end), Cores: c.cores}
	if c.schedule {
		rep.Measured.Schedule = c.schedules()
		out, closeOut, err := cfg.output()
		if err != nil {
			return nil, rep, err
		}
		if err := errors.Join(measured.Write(out, rep.Measured), closeOut()); err != nil {
			return nil, rep, err
		}
	}
	return c.main.result, rep, nil
}
