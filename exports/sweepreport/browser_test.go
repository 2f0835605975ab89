//go:build linux

package sweepreport

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/presage-dvm/presage/exports/internal/chart"
)

// chromium returns the browser to render with, or "" when none is installed.
func chromium() string {
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// needChromium returns the browser, or skips the test when none is
// installed; on CI, where .ci/chromium.sh installs it, it fails instead.
func needChromium(t *testing.T) string {
	t.Helper()
	browser := chromium()
	if browser == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed (CI installs it with .ci/chromium.sh)")
		}
		t.Skip("chromium is not installed (apt-get install -y chromium); skipping the browser rendering test")
	}
	return browser
}

// screenshot renders the HTML file with headless Chromium into a PNG of the
// given window size and decodes it. The browser runs in its own process
// group so that a timeout ends its helper processes too.
func screenshot(t *testing.T, browser, html string, w, h int) image.Image {
	t.Helper()
	dir := t.TempDir()
	shot := filepath.Join(dir, "page.png")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--hide-scrollbars", "--force-device-scale-factor=1",
		"--user-data-dir="+filepath.Join(dir, "profile"),
		"--screenshot="+shot, "--window-size="+itoa(w)+","+itoa(h),
		"file://"+html)
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_CACHE_HOME="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("chromium did not finish within 60 s; output:\n%s", tail(out.String(), 2000))
	}
	if err != nil {
		t.Fatalf("chromium: %v; output:\n%s", err, tail(out.String(), 2000))
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("chromium wrote no screenshot: %v; output:\n%s", err, tail(out.String(), 2000))
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot %s: %v", shot, err)
	}
	if keep := os.Getenv("PRESAGE_SCREENSHOT"); keep != "" {
		b, _ := os.ReadFile(shot)
		if err := os.WriteFile(keep, b, 0o644); err != nil {
			t.Errorf("keep screenshot: %v", err)
		}
	}
	return img
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// TestChartsRenderInChromium renders the fixture's page in a real browser
// and checks in the screenshot that the charts were drawn: each line
// chart's plot area holds every series' stroke colour, the breakdown's
// holds every bar colour, and the page is not blank. Set
// PRESAGE_SCREENSHOT=file.png to keep the screenshot.
func TestChartsRenderInChromium(t *testing.T) {
	browser := needChromium(t)
	f := newSweep(t)
	html := filepath.Join(t.TempDir(), "sweep.html")
	if err := os.WriteFile(html, f.render(t, Options{}), 0o644); err != nil {
		t.Fatal(err)
	}
	img := screenshot(t, browser, html, 1280, 2400)
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 2400 {
		t.Fatalf("screenshot is %dx%d, want 1280x2400", b.Dx(), b.Dy())
	}
	if ink := inkShare(img); ink < 0.03 {
		t.Fatalf("the page looks blank: %.2f%% of its pixels differ from the backgrounds", 100*ink)
	}
	plots := plotAreas(img)
	if len(plots) < 4 {
		t.Fatalf("found %d plot areas in the screenshot, want 4: %v", len(plots), plots)
	}
	var lineCharts, barCharts int
	for _, r := range plots {
		px, cols := colourCounts(img, r, chart.Palette[:len(fixtureSeries)])
		// Every series drawn as a line: some hundreds of pixels, and
		// present in a third of the columns (its markers cover about 50).
		if minInt(px) > 200 && minInt(cols) > r.Dx()/3 {
			lineCharts++
			t.Logf("line chart at %v: series pixels %v in columns %v", r, px, cols)
			continue
		}
		bpx, _ := colourCounts(img, r, partColors)
		if minInt(bpx) > 100 {
			barCharts++
			t.Logf("bar chart at %v: bar pixels %v", r, bpx)
			continue
		}
		t.Logf("plot area %v holds neither every series line nor every bar colour: series pixels %v in columns %v, bar pixels %v",
			r, px, cols, bpx)
	}
	if lineCharts != 3 || barCharts != 1 {
		t.Errorf("%d line charts with every series drawn, %d breakdowns with every part drawn; want 3 and 1", lineCharts, barCharts)
	}
}

// The page's backgrounds: the page tint and the white of the cards.
var (
	pageTint = color.RGBA{0xf5, 0xf7, 0xfa, 0xff}
	white    = color.RGBA{0xff, 0xff, 0xff, 0xff}
)

func rgb(img image.Image, x, y int) color.RGBA {
	r, g, b, _ := img.At(x, y).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}
}

func inkShare(img image.Image) float64 {
	b := img.Bounds()
	ink := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if c := rgb(img, x, y); c != pageTint && c != white {
				ink++
			}
		}
	}
	return float64(ink) / float64(b.Dx()*b.Dy())
}

// plotAreas finds the charts' plot areas: the large connected regions of
// pixels that are neither card white nor page tint and fill their bounding
// box (a plot's background is tinted, so its gridlines, lines and bars are
// connected to it; card borders are connected too but fill nothing).
func plotAreas(img image.Image) []image.Rectangle {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	seen := make([]bool, w*h)
	ink := func(x, y int) bool {
		c := rgb(img, b.Min.X+x, b.Min.Y+y)
		return c != pageTint && c != white
	}
	var out []image.Rectangle
	var stack []int
	for start := range seen {
		if seen[start] || !ink(start%w, start/w) {
			continue
		}
		seen[start] = true
		stack = append(stack[:0], start)
		r := image.Rect(start%w, start/w, start%w+1, start/w+1)
		n := 0
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := p%w, p/w
			n++
			r = r.Union(image.Rect(x, y, x+1, y+1))
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				nx, ny := x+d[0], y+d[1]
				if nx < 0 || ny < 0 || nx >= w || ny >= h {
					continue
				}
				if q := ny*w + nx; !seen[q] && ink(nx, ny) {
					seen[q] = true
					stack = append(stack, q)
				}
			}
		}
		if r.Dx() >= 200 && r.Dy() >= 100 && float64(n) >= 0.9*float64(r.Dx()*r.Dy()) {
			out = append(out, r.Add(b.Min))
		}
	}
	return out
}

// colourCounts counts, per colour ("#rrggbb"), the pixels of r within a
// small distance of it (anti-aliasing leaves the core of a stroke exact),
// and the columns of r in which the colour occurs: a line crosses many
// columns, markers alone only a few.
func colourCounts(img image.Image, r image.Rectangle, colours []string) (pixels, columns []int) {
	want := make([]color.RGBA, len(colours))
	for i, c := range colours {
		want[i] = parseHex(c)
	}
	pixels, columns = make([]int, len(colours)), make([]int, len(colours))
	for x := r.Min.X; x < r.Max.X; x++ {
		seen := make([]bool, len(colours))
		for y := r.Min.Y; y < r.Max.Y; y++ {
			c := rgb(img, x, y)
			for i, w := range want {
				if near(c, w, 6) {
					pixels[i]++
					seen[i] = true
				}
			}
		}
		for i, ok := range seen {
			if ok {
				columns[i]++
			}
		}
	}
	return pixels, columns
}

func parseHex(s string) color.RGBA {
	var c color.RGBA
	c.A = 0xff
	v := strings.TrimPrefix(s, "#")
	for i, p := range []*uint8{&c.R, &c.G, &c.B} {
		n := 0
		for _, ch := range v[2*i : 2*i+2] {
			n *= 16
			switch {
			case ch >= '0' && ch <= '9':
				n += int(ch - '0')
			case ch >= 'a' && ch <= 'f':
				n += int(ch-'a') + 10
			case ch >= 'A' && ch <= 'F':
				n += int(ch-'A') + 10
			}
		}
		*p = uint8(n)
	}
	return c
}

func near(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) bool { return int(x)-int(y) <= tol && int(y)-int(x) <= tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}

func minInt(v []int) int {
	m := v[0]
	for _, x := range v[1:] {
		m = min(m, x)
	}
	return m
}

// TestBigSweepInChromium renders a large sweep (74,574
// configurations) in a real browser and checks that every chart was drawn:
// nine line charts (three quantities for each of three networks) whose
// plot areas hold each start-up time's colour, and the breakdown. Set
// PRESAGE_SCREENSHOT=file.png to keep the screenshot; the browser's time
// (start-up, rendering and capture) is logged, not asserted.
func TestBigSweepInChromium(t *testing.T) {
	browser := needChromium(t)
	var b bytes.Buffer
	if err := Write(&b, bigSweep(1024), Options{}); err != nil {
		t.Fatal(err)
	}
	html := filepath.Join(t.TempDir(), "big.html")
	if err := os.WriteFile(html, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	img := screenshot(t, browser, html, 1280, 2400)
	t.Logf("%d bytes rendered and captured in %v", b.Len(), time.Since(start).Round(time.Millisecond))
	lines := 0
	for _, r := range plotAreas(img) {
		if px, _ := colourCounts(img, r, chart.Palette[:3]); minInt(px) > 100 {
			lines++
		}
	}
	// 1280x2400 shows the first rows of charts, two per row.
	if lines < 4 {
		t.Errorf("%d line charts with all three start-up times drawn in the first 2400 pixels, want at least 4", lines)
	}
}
