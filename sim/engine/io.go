package engine

import (
	"github.com/presage-dvm/presage/sim/result"
)

func enterInterval(e *Engine) error {
	e.regular()
	var expr *int64
	switch e.op.p.site.kind {
	case fnEnterUser:
		x, ok, err := e.optDec(in, kIndex)
		if err != nil {
			return err
		}
		if ok {
			expr = &x
		}
		return e.enter(result.User, e.op.p.site.line, e.op.p.site.file, expr)
	case fnEnterSeq:
		return e.enter(result.Seq, e.op.p.site.line, e.op.p.site.file, nil)
	}
	return e.enter(result.Par, e.op.p.site.line, e.op.p.site.file, nil)
}

func leaveInterval(e *Engine) error {
	if _, err := e.dec(in, kNline); err != nil {
		return err
	}
	e.regular()
	if !e.leave() {
		return e.errorf("interval closed that was never opened (the current interval is Main)")
	}
	return nil
}

func biof(e *Engine) error {
	e.cur.io = true
	e.cur.nop[classIO]++
	e.regular()
	return nil
}

func eiof(e *Engine) error {
	e.cur.io = false
	e.regular()
	return nil
}

func srmem(e *Engine) error {
	if _, err := e.dec(in, kMemoryCount); err != nil {
		return err
	}
	e.mpsSync(KIOComm)
	return nil
}

// ioCall is every other I/O function: processor 0 is charged its ret time as
// I/O time, then the call runs as regular code.
func ioCall(e *Engine) error {
	e.add(KIOTime, 0, e.retT/e.pow[0])
	e.cur.nop[classIO]++
	e.regular()
	return nil
}
