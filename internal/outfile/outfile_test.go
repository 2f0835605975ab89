package outfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// kindX is a kind whose outputs start with "X".
var kindX = Kind{Name: "an X file", Is: func(_ string, head []byte) bool { return strings.HasPrefix(string(head), "X") }}

func write(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestWriteFile: a new file, an earlier output replaced, a file of
// another kind refused unless forced, a kept path refused even forced
// (by another name too: a symbolic and a hard link), a folder refused.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	store := filepath.Join(dir, "store.db")
	if err := os.WriteFile(store, []byte("store"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(store, filepath.Join(dir, "soft.db")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(store, filepath.Join(dir, "hard.db")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	var g Guard
	g.KeepStore(store)
	out := filepath.Join(dir, "out.x")
	for _, tc := range []struct {
		name, path, content string
		force               bool
		want                string // in the error; "" for none
	}{
		{"new", out, "X1", false, ""},
		{"earlier output", out, "X2", false, ""},
		{"another kind", filepath.Join(dir, "mine.txt"), "X3", false, "mine.txt: the file exists and is not an X file written by Presage"},
		{"another kind forced", filepath.Join(dir, "mine.txt"), "X3", true, ""},
		{"the store", store, "X", true, "is the store (--db " + store + ")"},
		{"its log", store + "-wal", "X", true, "is the store"},
		{"a symbolic link to it", filepath.Join(dir, "soft.db"), "X", true, "is the store"},
		{"a hard link to it", filepath.Join(dir, "hard.db"), "X", true, "is the store"},
		{"a folder", dir, "X", true, "is a folder: expected a file name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g.Force = tc.force
			err := g.WriteFile(ctx, Target{Path: tc.path, Flag: "--out", Kind: kindX}, write(tc.content))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("error %v", err)
			case tc.want == "" && read(t, tc.path) != tc.content:
				t.Errorf("%s holds %q, want %q", tc.path, read(t, tc.path), tc.content)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	if got := read(t, store); got != "store" {
		t.Errorf("the store holds %q", got)
	}
	if _, err := os.Stat(store + "-wal"); err == nil {
		t.Error("a -wal was written")
	}
	assertNoTemporaries(t, dir)
}

// TestWriteFileFailsClean: a write that fails, or whose context is
// cancelled midway, leaves the earlier output and no temporary.
func TestWriteFileFailsClean(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.x")
	var g Guard
	if err := g.WriteFile(context.Background(), Target{Path: out, Kind: kindX}, write("X old")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := g.WriteFile(context.Background(), Target{Path: out, Kind: kindX}, func(w io.Writer) error {
		io.WriteString(w, "X half")
		return boom
	}); !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	writes := 0
	err := g.WriteFile(ctx, Target{Path: out, Kind: kindX}, func(w io.Writer) error {
		block := []byte("X" + strings.Repeat(".", 1<<20))
		for {
			if _, err := w.Write(block); err != nil {
				return err
			}
			if writes++; writes == 3 {
				cancel() // a signal
			}
			if writes > 100 {
				return errors.New("the writer never failed after the cancel")
			}
		}
	})
	if !errors.Is(err, context.Canceled) || writes > 5 {
		t.Errorf("error %v after %d writes, want context.Canceled soon after the third", err, writes)
	}
	if got := read(t, out); got != "X old" {
		t.Errorf("the earlier output holds %q", got)
	}
	assertNoTemporaries(t, dir)
}

// TestRemoveStale: only this host's temporaries of dead processes go.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	host := hostname()
	name := func(base string, pid int, host string) string {
		return "." + base + tempMark + strconv.Itoa(pid) + "." + host + ".7"
	}
	const dead = 1 << 22 // above Linux's pid_max default: no such process
	gone := []string{name("a.html", dead, host), name("b.json", dead, host) + "-old"}
	kept := []string{name("a.html", os.Getpid(), host), name("a.html", dead, "other"), name("a.html", 1, host), ".a.html.123", "a.html"}
	for _, n := range append(gone, kept...) {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	removed := RemoveStale(dir)
	if strings.Join(removed, ",") != strings.Join(gone, ",") {
		t.Errorf("removed %v, want %v", removed, gone)
	}
	for _, n := range kept {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s removed", n)
		}
	}
}

// TestWriteFolder: a new folder, an earlier one replaced whole, one
// refused by Replaceable, a file refused, a failed write leaving the
// earlier folder.
func TestWriteFolder(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "export")
	ours := func(path string, force bool) error {
		if _, err := os.Stat(filepath.Join(path, "manifest")); err != nil {
			return errors.New("not ours")
		}
		return nil
	}
	var g Guard
	put := func(files ...string) func(string) error {
		return func(tmp string) error {
			for _, f := range files {
				if err := os.WriteFile(filepath.Join(tmp, f), []byte(f), 0o644); err != nil {
					return err
				}
			}
			return nil
		}
	}
	ctx := context.Background()
	if err := g.WriteFolder(ctx, Folder{Path: out, Flag: "--out", Replaceable: ours}, put("manifest", "a")); err != nil {
		t.Fatal(err)
	}
	if err := g.WriteFolder(ctx, Folder{Path: out, Flag: "--out", Replaceable: ours}, put("manifest", "b")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "a")); err == nil {
		t.Error("a file of the earlier folder survived its replacement")
	}
	if err := g.WriteFolder(ctx, Folder{Path: out, Replaceable: ours}, func(string) error { return errors.New("boom") }); err == nil {
		t.Error("a failed write succeeded")
	}
	if _, err := os.Stat(filepath.Join(out, "b")); err != nil {
		t.Errorf("a failed write lost the earlier folder: %v", err)
	}
	mine := filepath.Join(dir, "mine")
	os.Mkdir(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "notes"), nil, 0o644)
	if err := g.WriteFolder(ctx, Folder{Path: mine, Flag: "--out", Replaceable: ours}, put("manifest")); err == nil || err.Error() != "not ours" {
		t.Errorf("a folder of other files: %v", err)
	}
	if err := g.WriteFolder(ctx, Folder{Path: filepath.Join(mine, "notes"), Flag: "--out"}, put("manifest")); err == nil || !strings.Contains(err.Error(), "is a file: expected a folder") {
		t.Errorf("a file: %v", err)
	}
	assertNoTemporaries(t, dir)
}

func assertNoTemporaries(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), tempMark) {
			t.Errorf("temporary %s left behind", e.Name())
		}
	}
}

// TestMissingFolder: a file in a folder that does not exist is refused
// by Check, naming the folder.
func TestMissingFolder(t *testing.T) {
	var g Guard
	path := filepath.Join(t.TempDir(), "nowhere", "r.html")
	err := g.Check(Target{Path: path, Flag: "--out", Kind: kindX})
	if err == nil || err.Error() != "--out "+path+": no folder "+filepath.Dir(path)+" to write it in" {
		t.Errorf("error %v", err)
	}
}
