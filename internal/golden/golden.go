// Package golden locates the real reference data of the DVM system
// (../shared beside the checkout) for tests. Where it is absent, golden
// tests skip with a message, except under CI=true, where its absence fails
// the test: CI always has it.
package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the shared directory (the one holding data/, spec/, seeds/).
// PRESAGE_SHARED overrides the location.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := find()
	if err == nil {
		return dir
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("golden data not found (%v); CI must have ../shared beside the checkout", err)
	}
	t.Skipf("golden data not found (%v): skipping; put the shared directory beside the checkout or set PRESAGE_SHARED", err)
	return ""
}

// Path returns a file or directory below the shared data directory,
// e.g. Path(t, "traces", "jac1d.ptr") for ../shared/data/traces/jac1d.ptr.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	return filepath.Join(append([]string{Dir(t), "data"}, elem...)...)
}

func find() (string, error) {
	if d := os.Getenv("PRESAGE_SHARED"); d != "" {
		return d, check(d)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	// Walk up to the module root (the directory with go.mod), then look
	// beside it.
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(filepath.Dir(dir), "shared")
			return d, check(d)
		}
		if filepath.Dir(dir) == dir {
			return "", os.ErrNotExist
		}
	}
}

func check(dir string) error {
	_, err := os.Stat(filepath.Join(dir, "data", "README.md"))
	return err
}
