// Command presage predicts and analyses the performance of parallel DVM
// programs: it ingests Lib-DVM traces, machine files and measured
// statistics into a SQLite store, simulates traces on machine
// configurations, and writes reports and exports.
package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/orders/ordersched"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/sim"
)

// Globals are the flags every command has.
type Globals struct {
	DB      string           `help:"SQLite store: a Presage store, or a name where no file is (a new store is made there)." default:"presage.db" type:"path" env:"PRESAGE_DB"`
	Quiet   bool             `help:"Print no progress and no informational messages." short:"q"`
	Version kong.VersionFlag `help:"Print the version and exit."`
	// MaxMemory bounds one DVM prediction's simulator state
	// (sim.Options.MaxState).
	MaxMemory int64 `name:"max-memory" help:"Most memory one prediction's simulator state may take, in MB: a configuration that needs more fails with a message (a sweep goes on with the others)." default:"2048"`

	created bool // openStore created the store: a failed command removes it
}

// openStore opens the store named by --db, creating it if needed: for
// the commands that bring inputs (ingest, demo).
func (g *Globals) openStore() (*store.Store, error) {
	if _, err := os.Stat(g.DB); errors.Is(err, fs.ErrNotExist) {
		g.created = true
	}
	st, err := openWritable(g.DB)
	return st, dbError(err)
}

// dbError puts the flag before an error saying that the file --db names
// is not a store ("--db x.db is a directory, expected a store file").
func dbError(err error) error {
	var notStore *store.NotStoreError
	if errors.As(err, &notStore) {
		return fmt.Errorf("--db %w", err)
	}
	return err
}

// openWritable opens a store for writing and brings what older versions
// stored up to date where SQL alone cannot: machines get their parsed
// form.
func openWritable(path string) (*store.Store, error) {
	st, err := store.Open(path)
	if err != nil {
		return nil, err
	}
	if err := ingest.ParseStored(context.Background(), st); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}

// removeCreated removes the store a failed command created, when it
// holds nothing: no file was ingested and no run stored before the
// failure.
func (g *Globals) removeCreated() {
	if !g.created {
		return
	}
	if _, err := os.Stat(g.DB); err != nil { // never made: nothing to remove, nothing to create
		return
	}
	st, err := store.Open(g.DB) // writable: closing it removes its -wal
	if err != nil {
		return
	}
	empty, err := st.Empty()
	st.Close()
	if err != nil || !empty {
		return
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(g.DB + suffix)
	}
}

// existingStore opens the store named by --db for a command that works
// on what it holds: a mistyped --db, or a folder without a store, is an
// error that creates nothing.
func (g *Globals) existingStore() (*store.Store, error) {
	if _, err := os.Stat(g.DB); err != nil {
		return nil, fmt.Errorf("no store %s: ingest the inputs first (presage --db %s ingest trace FILE.ptr, or ingest orders FILE.jsonl)", g.DB, g.DB)
	}
	st, err := openWritable(g.DB)
	return st, dbError(err)
}

// readStore opens the store named by --db for reading only: commands that
// only read (list, report, export, compare, query) work on a store the
// user may not write, and never create one at a mistyped path.
func (g *Globals) readStore() (*store.Store, error) {
	st, err := store.OpenReadOnly(g.DB)
	var notStore *store.NotStoreError
	if errors.As(err, &notStore) {
		return nil, dbError(err)
	}
	if err != nil {
		return nil, fmt.Errorf("%w (expected a store made by presage ingest, predict or sweep)", err)
	}
	if err := st.CheckCurrent(); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}

// simOptions are the DVM simulator's options the global flags set.
func (g *Globals) simOptions() sim.Options { return sim.Options{MaxState: g.MaxMemory << 20} }

// infof prints an informational message unless --quiet.
func (g *Globals) infof(format string, args ...any) {
	if !g.Quiet {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
	}
}

type cli struct {
	Globals

	Ingest  ingestCmd  `cmd:"" help:"Ingest traces, machine files, statistics files, order traces, calibrations and measured orders runs into the store."`
	Predict predictCmd `cmd:"" help:"Predict a trace (a stored one, or a trace file, ingested first) on one machine configuration."`
	Report  reportCmd  `cmd:"" help:"Write the report of a stored run."`
	Compare compareCmd `cmd:"" help:"Compare a measured run (sts, or a real run of an orders program) with a prediction of the same program, interval by interval."`
	Export  exportCmd  `cmd:"" help:"Export the stored results for pandas, DuckDB or Extra-P."`
	Query   queryCmd   `cmd:"" help:"Run an ad hoc or a named SQL query on the store (read-only)."`
	List    listCmd    `cmd:"" help:"List what the store holds."`
	Gen     genCmd     `cmd:"" help:"Generate synthetic inputs."`
	Demo    demoCmd    `cmd:"" help:"Run the whole pipeline on a generated trace and write an HTML report."`
	Sweep   sweepCmd   `cmd:"" help:"Predict a stored trace on every configuration of a cartesian product, concurrently."`
	Search  searchCmd  `cmd:"" aliases:"plan" help:"Plan: the fastest, cheapest, most efficient grids of a machine for a stored trace, under a deadline, an efficiency floor, a processor budget (stored runs first)."`
	Merge   mergeCmd   `cmd:"" help:"Merge stores (e.g. the shards of a sweep) into one."`
	Orders  ordersCmd  `cmd:"" help:"Simulate programs of the orders-based technology (seed 004) from their order traces."`
	Fit     fitCmd     `cmd:"" aliases:"calibrate" help:"Fit the machine parameters of the model to measured runs of a traced program and store the fitted machine."`
	Calls   callsCmd   `cmd:"" help:"Write the calls table (one SQL row per call) of stored traces, for SQL queries such as func_profile."`
	Reality realityCmd `cmd:"" help:"The DVM reality check: real DVM runs (devdvm's folders) against predictions, and Presage's reports against the original's on them."`
}

func main() { os.Exit(run(os.Args[1:])) }

// run runs the command line args and returns the exit status: 0, 1 for
// an error, 2 for a command line that does not parse, 128+n when signal
// n stopped the command.
func run(args []string) int {
	var c cli
	parser, err := kong.New(&c,
		kong.Name("presage"),
		kong.Description("Predict and analyse the performance of parallel DVM programs."),
		kong.Vars{"listings": strings.Join(store.Listings(), ", "), "version": version(),
			"schedulers": ordersched.List(), "scheduler_enum": strings.ReplaceAll(ordersched.List(), " ", ""), "scheduler_default": string(ordersched.Default)},
	)
	if err != nil {
		panic(err) // the command-line grammar itself is wrong: a bug
	}
	kctx, err := parser.Parse(negativeValues(args))
	if err != nil {
		fmt.Fprintln(os.Stderr, "presage:", err)
		fmt.Fprintln(os.Stderr, usageHint(err))
		return 2
	}
	warnDeprecated(args, kctx.Command())
	if path := os.Getenv("PRESAGE_CPUPROFILE"); path != "" {
		stopProfile, err := startCPUProfile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "presage:", err)
			return 1
		}
		defer stopProfile()
	}
	var sigs signals
	ctx, stop := sigs.watch(context.Background())
	defer stop()
	kctx.BindTo(ctx, (*context.Context)(nil))
	err = kctx.Run(&c.Globals)
	if err != nil || sigs.signal() != nil {
		c.removeCreated()
	}
	if sig := sigs.signal(); sig != nil {
		fmt.Fprintf(os.Stderr, "presage: stopped by %s: what was complete is stored, nothing half-written is; run the same command again to go on\n", signalName(sig))
		return exitCode(sig)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "presage:", clipMessage(err.Error()))
		return 1
	}
	return 0
}

// negativeValues joins a long flag and a negative number after it
// ("--tstart -1" becomes "--tstart=-1"), which Kong would otherwise read
// as a short flag: the value then gets the flag's own check and message.
// No command takes a number as an argument, so a negative number after a
// flag can only be its value.
func negativeValues(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "--") && len(a) > 2 && !strings.Contains(a, "=") && i+1 < len(args) && isNegativeNumber(args[i+1]) {
			a += "=" + args[i+1]
			i++
		}
		out = append(out, a)
	}
	return out
}

func isNegativeNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return strings.HasPrefix(s, "-") && err == nil
}

// startCPUProfile writes a CPU profile of the command to path, for
// go tool pprof: PRESAGE_CPUPROFILE=cpu.out presage predict ...
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("PRESAGE_CPUPROFILE: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("PRESAGE_CPUPROFILE: %w", err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// version is the build's module version and commit, as Go records them.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "presage (unknown build)"
	}
	v := "presage " + info.Main.Version
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		v += " " + rev[:min(12, len(rev))]
		if settings["vcs.modified"] == "true" {
			v += "+modified"
		}
	}
	if t := settings["vcs.time"]; t != "" {
		v += " " + t
	}
	return v + " " + info.GoVersion
}

// usageHint points at the help of the command a parse error is about.
func usageHint(err error) string {
	cmd := "presage"
	var pe *kong.ParseError
	if errors.As(err, &pe) && pe.Context != nil {
		if path := pe.Context.Command(); path != "" {
			cmd += " " + strings.Join(commandWords(path), " ")
		}
	}
	return fmt.Sprintf("hint: %s --help shows the usage", cmd)
}

// commandWords keeps the command names of kong's command path ("sweep",
// "ingest trace <files>") and drops its argument placeholders.
func commandWords(path string) []string {
	var words []string
	for _, w := range strings.Fields(path) {
		if !strings.HasPrefix(w, "<") {
			words = append(words, w)
		}
	}
	return words
}

// deprecatedNames are the commands' former names, kept as aliases, with
// the name that replaced them.
var deprecatedNames = map[string]string{"calibrate": "fit"}

// warnDeprecated says on standard error when the command line named the
// command it runs (kong's command path, e.g. "fit") by a former name.
func warnDeprecated(args []string, command string) {
	for _, a := range args {
		if now, ok := deprecatedNames[a]; ok && strings.HasPrefix(command, now) {
			fmt.Fprintf(os.Stderr, "presage: %q is now %q; the old name will be removed\n", a, now)
			return
		}
	}
}
