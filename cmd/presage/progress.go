package main

import (
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress returns a callback drawing a byte progress bar on stderr when it
// is a terminal and --quiet is off, and a finish function; otherwise both
// do nothing.
func (g *Globals) progress(description string) (update func(done, total int64), finish func()) {
	if g.Quiet || !term.IsTerminal(int(os.Stderr.Fd())) {
		return func(int64, int64) {}, func() {}
	}
	var bar *progressbar.ProgressBar
	update = func(done, total int64) {
		if bar == nil {
			bar = progressbar.NewOptions64(total,
				progressbar.OptionSetWriter(os.Stderr),
				progressbar.OptionSetDescription(description),
				progressbar.OptionShowBytes(true),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionClearOnFinish(),
			)
		}
		bar.Set64(done)
	}
	finish = func() {
		if bar != nil {
			bar.Finish()
		}
	}
	return update, finish
}
