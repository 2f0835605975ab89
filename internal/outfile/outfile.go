// Package outfile writes every file and folder a command outputs, so
// that nothing of the user's is overwritten or left half-written:
//
//   - an existing path is replaced only when it is an earlier output of
//     the same kind, told by its content (Kind.Is), or when the user
//     gave --force (Guard.Force);
//   - the paths a command must never write (its store, with its -wal
//     and -shm, and its inputs: Guard.Keep) are refused, --force or
//     not, whatever name reaches them (os.SameFile);
//   - the output is written to a temporary beside it, whose name says
//     it is Presage's and carries the host and the process id, and
//     renamed into place once complete; the temporary is removed on an
//     error, and a cancelled context (SIGINT, SIGTERM) stops the writing
//     at its next write and removes it too;
//   - the temporaries a killed process left in the folder an output goes
//     to are removed by the next write there (RemoveStale).
package outfile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Kind is one kind of output: its name, as messages say it, and how an
// earlier output of the kind is told from any other file.
type Kind struct {
	Name string // "an HTML report"
	// Is reports whether the file at path, which starts with head (at
	// most HeadBytes), is an earlier output of the kind.
	Is func(path string, head []byte) bool
}

// HeadBytes is how much of an existing file Kind.Is sees.
const HeadBytes = 8 << 10

// Target is one file a command writes.
type Target struct {
	Path string
	// Flag is how the user named the path ("--out", "--report", "OUT"),
	// for the messages; empty for a name the command chose itself.
	Flag string
	Kind Kind
}

// name is the target as the messages say it.
func (t Target) name() string {
	if t.Flag == "" {
		return t.Path
	}
	return t.Flag + " " + t.Path
}

// Guard is what a command's outputs must not replace.
type Guard struct {
	// Force replaces an existing file that is not an earlier output of
	// its kind (never a kept path, never a folder of other files).
	Force bool
	keep  []kept
}

type kept struct{ path, what string }

// Keep makes path one that no output may be: what says what it is in
// the refusal ("the store (--db presage.db)").
func (g *Guard) Keep(path, what string) {
	if path != "" && path != "-" {
		g.keep = append(g.keep, kept{path, what})
	}
}

// KeepStore keeps the store db with its write-ahead log and shared memory.
func (g *Guard) KeepStore(db string) {
	what := "the store (--db " + db + ")"
	for _, suffix := range []string{"", "-wal", "-shm"} {
		g.Keep(db+suffix, what)
	}
}

// Check refuses a target the command must not write: a kept path, a
// folder, something other than a regular file, or an existing file that
// is not an earlier output of the target's kind (unless Force). A
// command calls it before its work, so that a refused output costs
// nothing; WriteFile calls it again.
func (g *Guard) Check(t Target) error {
	if err := g.checkKept(t.name(), t.Path); err != nil {
		return err
	}
	info, err := os.Stat(t.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return checkFolderExists(t)
	case err != nil:
		return fmt.Errorf("%s: %w", t.name(), err)
	case info.IsDir():
		return fmt.Errorf("%s is a folder: expected a file name", t.name())
	case !info.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (%s): expected a file name", t.name(), info.Mode().Type())
	}
	if g.Force || t.Kind.Is != nil && t.Kind.Is(t.Path, readHead(t.Path)) {
		return nil
	}
	return fmt.Errorf("%s: the file exists and is not %s written by Presage: give another name, or --force to replace it", t.name(), t.Kind.Name)
}

// checkFolderExists refuses a new file in a folder that does not exist,
// before any work and naming the folder (not the temporary that could
// not be made there).
func checkFolderExists(t Target) error {
	dir := filepath.Dir(t.Path)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return fmt.Errorf("%s: no folder %s to write it in", t.name(), dir)
	}
	return nil
}

// checkKept refuses path when it is one of the kept paths.
func (g *Guard) checkKept(name, path string) error {
	for _, k := range g.keep {
		if samePath(path, k.path) {
			return fmt.Errorf("%s is %s: choose another name", name, k.what)
		}
	}
	return nil
}

// samePath reports whether a and b name one file: the same file when
// both exist (through links too), else the same absolute path once the
// symbolic links of their folders are resolved.
func samePath(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(ia, ib)
	}
	return resolved(a) == resolved(b)
}

// resolved is path absolute, its folder's symbolic links resolved.
func resolved(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	dir, base := filepath.Split(abs)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return filepath.Join(dir, base)
}

// readHead returns the first HeadBytes of path (fewer when it is
// shorter; nil when it cannot be read).
func readHead(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, HeadBytes)
	n, _ := io.ReadFull(f, head)
	return head[:n]
}

// WriteFile writes t through a temporary in its folder, renamed into
// place once write returned without error and ctx is not cancelled. The
// writer write gets is buffered and fails once ctx is cancelled, so that
// a long writing stops at the first signal.
func (g *Guard) WriteFile(ctx context.Context, t Target, write func(io.Writer) error) error {
	if err := g.Check(t); err != nil {
		return err
	}
	dir := filepath.Dir(t.Path)
	RemoveStale(dir)
	f, err := os.CreateTemp(dir, TempPattern(filepath.Base(t.Path)))
	if err != nil {
		return fmt.Errorf("%s: %w", t.name(), err)
	}
	renamed := false
	defer func() {
		if !renamed {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	w := bufio.NewWriterSize(ctxWriter{ctx, f}, 256<<10)
	if err := write(w); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("write %s: %w", t.Path, err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", t.Path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", t.Path, err)
	}
	if err := ctx.Err(); err != nil {
		return err // stopped: the complete output is not put in place either
	}
	// CreateTemp makes the file 0600; an output is for the group too (a
	// shared cluster's project folder).
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), t.Path); err != nil {
		return fmt.Errorf("%s: %w", t.name(), err)
	}
	renamed = true
	return nil
}

// ctxWriter fails every write once ctx is cancelled.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// Folder is a folder a command writes whole (an export).
type Folder struct {
	Path string
	Flag string
	// Replaceable returns nil when the existing, non-empty folder at
	// Path may be replaced (an earlier output of its kind; with force,
	// whatever the kind allows), else why not.
	Replaceable func(path string, force bool) error
}

// WriteFolder writes f through a temporary folder beside it, put in its
// place once write returned without error and ctx is not cancelled: a
// failed or stopped writing leaves the previous folder whole and no
// temporary.
func (g *Guard) WriteFolder(ctx context.Context, f Folder, write func(tmp string) error) error {
	t := Target{Path: f.Path, Flag: f.Flag}
	if err := g.checkFolder(f, t.name()); err != nil {
		return err
	}
	parent := filepath.Dir(f.Path)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("%s: %w", t.name(), err)
	}
	RemoveStale(parent)
	tmp, err := os.MkdirTemp(parent, TempPattern(filepath.Base(f.Path)))
	if err != nil {
		return fmt.Errorf("%s: %w", t.name(), err)
	}
	defer os.RemoveAll(tmp)                      // nothing left after the rename
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp makes it 0700
		return err
	}
	if err := write(tmp); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return replaceDir(f.Path, tmp)
}

// checkFolder refuses a folder target that is kept, a file, or a
// folder of other files.
func (g *Guard) checkFolder(f Folder, name string) error {
	if err := g.checkKept(name, f.Path); err != nil {
		return err
	}
	info, err := os.Stat(f.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%s: %w", name, err)
	case !info.IsDir():
		return fmt.Errorf("%s is a file: expected a folder (a new or empty one, or an earlier export)", name)
	}
	entries, err := os.ReadDir(f.Path)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if len(entries) == 0 || f.Replaceable == nil {
		return nil
	}
	return f.Replaceable(f.Path, g.Force)
}

// replaceDir puts the folder tmp in out's place.
func replaceDir(out, tmp string) error {
	if _, err := os.Stat(out); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(tmp, out)
	}
	old := tmp + "-old" // a temporary's name still: RemoveStale removes it if the process dies here
	if err := os.Rename(out, old); err != nil {
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		os.Rename(old, out) // put the previous one back
		return err
	}
	return os.RemoveAll(old)
}

// tempMark is in the name of every temporary: what tells Presage's
// temporaries from the user's files.
const tempMark = ".presage-tmp."

// TempPattern is the os.CreateTemp pattern of a temporary of the output
// named base: ".BASE.presage-tmp.PID.HOST.*", hidden, beside it.
func TempPattern(base string) string {
	return "." + base + tempMark + strconv.Itoa(os.Getpid()) + "." + hostname() + ".*"
}

// hostname is this host's name as temporaries carry it: a folder shared
// between the nodes of a cluster holds the temporaries of processes of
// other hosts, which only their host can tell alive.
func hostname() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "localhost"
	}
	return strings.ReplaceAll(h, string(filepath.Separator), "_")
}

// parseTemp returns the process id and host of a temporary's name, ok
// false when the name is not one of a temporary.
func parseTemp(name string) (pid int, host string, ok bool) {
	i := strings.LastIndex(name, tempMark)
	if !strings.HasPrefix(name, ".") || i < 0 {
		return 0, "", false
	}
	rest := name[i+len(tempMark):] // PID.HOST.RANDOM
	p, rest, found := strings.Cut(rest, ".")
	j := strings.LastIndex(rest, ".")
	if !found || j <= 0 {
		return 0, "", false
	}
	pid, err := strconv.Atoi(p)
	if err != nil || pid <= 0 {
		return 0, "", false
	}
	return pid, rest[:j], true
}

// RemoveStale removes from dir the temporaries of processes of this host
// that are no longer alive (killed before they could remove them), and
// returns their names. A temporary of a live process, of another host or
// of this process is left alone.
func RemoveStale(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	host, self := hostname(), os.Getpid()
	var removed []string
	for _, e := range entries {
		pid, h, ok := parseTemp(e.Name())
		if !ok || h != host || pid == self || alive(pid) {
			continue
		}
		if os.RemoveAll(filepath.Join(dir, e.Name())) == nil {
			removed = append(removed, e.Name())
		}
	}
	return removed
}

// alive reports whether process pid exists (EPERM: it does, another
// user's).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
