package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/presage-dvm/presage/internal/stage"
)

// Long work shows its progress on stderr: a bar on a terminal, a line
// every few seconds elsewhere (pipes, Slurm logs; PRESAGE_PROGRESS_INTERVAL,
// a Go duration, default 5s), nothing with --quiet.

// progressInterval is how often a progress line is printed off a terminal.
func progressInterval() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("PRESAGE_PROGRESS_INTERVAL")); err == nil && d > 0 {
		return d
	}
	return 5 * time.Second
}

// progressMode says how progress is shown.
type progressMode int

const (
	noProgress progressMode = iota
	barProgress
	lineProgress
)

func (g *Globals) progressMode() progressMode {
	switch {
	case g.Quiet:
		return noProgress
	case term.IsTerminal(int(os.Stderr.Fd())):
		return barProgress
	}
	return lineProgress
}

// lines prints a progress line at most every interval.
type lines struct {
	start, last time.Time
	every       time.Duration
}

func newLines() *lines {
	now := time.Now()
	return &lines{start: now, last: now, every: progressInterval()}
}

// due reports whether a line is due now.
func (l *lines) due() bool {
	if time.Since(l.last) < l.every {
		return false
	}
	l.last = time.Now()
	return true
}

// eta estimates the time left after done of total in elapsed.
func eta(done, total float64, elapsed time.Duration) string {
	if done <= 0 || total <= done {
		return ""
	}
	return etaLeft(time.Duration(float64(elapsed) * (total - done) / done))
}

// etaLeft says the time left.
func etaLeft(left time.Duration) string {
	return ", about " + left.Round(time.Second).String() + " left"
}

// sweepETA estimates the time a sweep has left: the stage's estimate from
// the configurations' costs when it has one (its largest configurations
// run first, so their count says little), else from their count.
func sweepETA(p stage.Progress) string {
	if p.Left > 0 && p.Done < p.Total {
		return etaLeft(p.Left)
	}
	return eta(float64(p.Done), float64(p.Total), p.Elapsed)
}

// progress returns a callback showing the progress of reading a file of
// total bytes, and a finish function.
func (g *Globals) progress(description string) (update func(done, total int64), finish func()) {
	switch g.progressMode() {
	case barProgress:
		return lazyBar(description, progressbar.OptionShowBytes(true))
	case lineProgress:
		l := newLines()
		return func(done, total int64) {
			if l.due() && total > 0 {
				fmt.Fprintf(os.Stderr, "%s: %.1f of %.1f MB (%.0f%%)%s\n", description, float64(done)/1e6, float64(total)/1e6,
					100*float64(done)/float64(total), eta(float64(done), float64(total), time.Since(l.start)))
			}
		}, func() {}
	}
	return func(int64, int64) {}, func() {}
}

// lazyBar returns the update and finish functions of a bar on stderr made
// at the first update, when the total is known (a total ≤ 0: a spinner
// that counts), with the options of what it counts.
func lazyBar(description string, counting ...progressbar.Option) (update func(done, total int64), finish func()) {
	var bar *progressbar.ProgressBar
	update = func(done, total int64) {
		if bar == nil {
			if total <= 0 {
				total = -1
			}
			opts := append([]progressbar.Option{
				progressbar.OptionSetWriter(os.Stderr),
				progressbar.OptionSetDescription(description),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionThrottle(100 * time.Millisecond),
				progressbar.OptionClearOnFinish(),
			}, counting...)
			// The bar's clock starts at its first showing: shown at once
			// with done, it would rate the work done before it in a
			// microsecond. It starts at 0, and shows done at the next call.
			bar = progressbar.NewOptions64(total, opts...)
			bar.Set64(0)
			return
		}
		bar.Set64(done)
	}
	return update, func() {
		if bar != nil {
			bar.Finish()
		}
	}
}

// counted says what a progress count counts and how its total is known.
type counted struct {
	things    string // rows, orders
	estimated bool   // the total is an estimate: "of about"
	uneven    bool   // the pace is too uneven to extrapolate the time left
}

// countProgress returns a callback showing how many things are done of
// total (0: unknown), and a finish function.
func (g *Globals) countProgress(description string, c counted) (update func(done, total int64), finish func()) {
	switch g.progressMode() {
	case barProgress:
		opts := []progressbar.Option{progressbar.OptionShowCount(), progressbar.OptionSetItsString(c.things), progressbar.OptionShowIts()}
		if c.uneven {
			opts = append(opts, progressbar.OptionSetPredictTime(false))
		}
		return lazyBar(description, opts...)
	case lineProgress:
		of := "of"
		if c.estimated {
			of = "of about"
		}
		var l *lines // from the first update: the work may start well after the call
		return func(done, total int64) {
			if l == nil {
				l = newLines()
			}
			if !l.due() {
				return
			}
			if total <= 0 {
				fmt.Fprintf(os.Stderr, "%s: %d %s\n", description, done, c.things)
				return
			}
			left := ""
			if !c.uneven {
				left = eta(float64(min(done, total)), float64(total), time.Since(l.start))
			}
			fmt.Fprintf(os.Stderr, "%s: %d %s %d %s (%.0f%%)%s\n", description, done, of, total, c.things,
				min(100, 100*float64(done)/float64(total)), left)
		}, func() {}
	}
	return func(int64, int64) {}, func() {}
}

// sweepProgress returns a callback showing the progress of a sweep's
// configurations, and a finish function.
func (g *Globals) sweepProgress() (update func(stage.Progress), finish func()) {
	rate := func(p stage.Progress) string {
		if s := p.Elapsed.Seconds(); s > 0 && p.Calls > 0 {
			return fmt.Sprintf("%.3g Mcalls/s", float64(p.Calls)/s/1e6)
		}
		return ""
	}
	switch g.progressMode() {
	case barProgress:
		var bar *progressbar.ProgressBar
		update = func(p stage.Progress) {
			if bar == nil {
				bar = progressbar.NewOptions(p.Total,
					progressbar.OptionSetWriter(os.Stderr),
					progressbar.OptionShowCount(),
					progressbar.OptionShowIts(),
					progressbar.OptionSetItsString("configs"),
					progressbar.OptionSetPredictTime(true),
					progressbar.OptionThrottle(200*time.Millisecond),
					progressbar.OptionClearOnFinish(),
				)
			}
			if r := rate(p); r != "" {
				bar.Describe("sweep " + r)
			}
			bar.Set(p.Done)
		}
		return update, func() {
			if bar != nil {
				bar.Finish()
			}
		}
	case lineProgress:
		l := newLines()
		return func(p stage.Progress) {
			if !l.due() {
				return
			}
			parts := []string{fmt.Sprintf("sweep: %d of %d configurations (%.0f%%)", p.Done, p.Total, 100*float64(p.Done)/float64(max(p.Total, 1)))}
			if r := rate(p); r != "" {
				parts = append(parts, r)
			}
			fmt.Fprintf(os.Stderr, "%s%s\n", strings.Join(parts, ", "), sweepETA(p))
		}, func() {}
	}
	return nil, func() {}
}
