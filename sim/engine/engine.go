// Package engine is the simulation state of the DVM Predictor model: the
// processor clocks and per-interval counters, the model objects (templates,
// arrays, loops, reduction and shadow groups, buffers, processor systems),
// the handler of every traced run-time function and the final integration
// of the interval tree (docs/model.md §3-§7, Appendix A).
//
// Traced calls are first compiled (Compiler, Op): the handler and the
// parameters the handlers read are resolved and parsed once, and calls
// that differ only in their times share them. An Engine executes Ops.
package engine

import (
	"fmt"

	"github.com/presage-dvm/presage/sim/events"
	"github.com/presage-dvm/presage/sim/trace"

	"github.com/presage-dvm/presage/sim/internal/layout"
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/network"
	"github.com/presage-dvm/presage/sim/result"
)

// Options are deliberate deviations from the original, all off by default,
// and the network model.
type Options struct {
	// CloseOpenIntervals closes the intervals left open at the end of the
	// trace, so the report starts from Main.
	CloseOpenIntervals bool
	// LoadWeights installs the load weights of setelw_ as coordinate
	// weights of the template (docs/model.md §5.9); the original's results
	// are those of default weights.
	LoadWeights bool
	// Network is the message-time model (network.Cluster by default).
	Network network.Kind
	// Reference simulates every processor on its own instead of once per
	// class of identical processors (classes.go), and sends every batch of
	// messages in order instead of channel by channel (network.SendSpan):
	// slower, the same numbers bit for bit; the reference of the property
	// tests.
	Reference bool
	// Recorder, when not nil, is told of every clock-advancing charge and
	// every timed message (record.go); the results do not change.
	Recorder events.Recorder
	// MaxState bounds the bytes of per-class counters the simulation may
	// hold (limits.go); 0 is DefaultMaxState.
	MaxState int64
}

// Engine simulates one trace on one machine configuration.
type Engine struct {
	name string // trace file name for errors
	opt  Options
	net  *network.Net
	L    int // processors of the root VM
	root *layout.VM
	vm   *layout.VM // current VM
	pow  []float64  // power of every root processor
	// runWork is the machine's run work (the extended model), seconds
	// per processor, charged at the trace's end (chargeRunWork).
	runWork float64
	// ioByte is the machine's I/O copy time (the extended model), seconds
	// per byte an I/O statement copies (chargeIOCopy).
	ioByte float64
	// strided is the machine's strided iteration time (the extended
	// model), seconds per iteration of an ACROSS loop pipelined across its
	// array's contiguous dimension (chargeStrided).
	strided float64
	// freshPage is the machine's fresh page time (the extended model),
	// seconds per page a process's transfer buffers of an I/O statement
	// grow by (freshPagesTime); bufPages is every processor's largest
	// such buffer so far, in pages (nil until one is needed).
	freshPage float64
	bufPages  []int64

	clkU float64   // clock part common to every processor
	clk  []float64 // clock part of every processor class
	// skewed is false while every clk[c] is 0, so that all clocks are clkU.
	skewed bool
	// classes groups the processors whose clocks and counters are equal.
	classes procClasses
	// perClass are the intervals holding per-class counters or idle
	// times, which a class split extends.
	perClass []*interval
	// state counts the per-class counter rows held (over perClass), and
	// overState is the error of a simulation that needs more than
	// Options.MaxState of them, which Exec returns.
	state     int64
	overState error
	covering  map[*layout.VM]coverage
	classIDs  []int32   // 0, 1, 2, ... (allClasses)
	rec       *recorder // nil unless Options.Recorder is set
	// inOrder: batches are sent message by message (Options.Reference).
	inOrder bool

	ivs   []*interval // creation order; ivs[0] = Main
	cur   *interval
	level int

	op           *Op
	callT, retT  float64
	warnings     map[string]int
	doubts       map[string]bool // the warnings that make the run doubtful
	warningOrder []string

	// The objects by their handles (handles.go).
	templates  handles[uint64, *layout.Template]
	arrays     handles[uint64, *array] // by ArrayHeader
	byHandle   handles[uint64, *array] // by ArrayHandlePtr
	loops      handles[uint64, *loop]
	lastLoop   *loopMapping
	curLoop    *loop // the loop of the last crtpl_/mappl_
	acr        *acrossState
	redGroups  handles[uint64, *redGroup]
	freeRed    []*redGroup            // deleted reduction groups, reused by crtrg_
	reds       handles[uint64, int64] // RedRef -> variable size
	pendRed    handles[uint64, pending]
	shGroups   handles[uint64, *shadowGroup]
	freeSh     []*shadowGroup // deleted shadow groups, reused by crtshg_
	noEdges    *transfers     // the transfers of every empty shadow group, shared
	pendSh     handles[uint64, pending]
	lastTS     int64 // TypeSize of the last array inserted in a shadow group
	buffers    handles[uint64, *buffer]
	flags      handles[uint64, *flagRec]
	vms        handles[uint64, *layout.VM]
	ams        handles[uint64, *am]
	curAM      *am
	amStack    []amFrame
	loopCache  map[loopKey]*loopMapping      // by compiled parameters
	loopIndex  map[loopIndexKey]*loopMapping // by index arrays; emptied with loopCache
	keyBuf     []byte                        // the index arrays of the last mappl_, encoded
	boundCache map[boundKey]*boundResult
	// recentLoops and recentBounds are the last entries of loopCache and
	// boundCache, searched first (handles.go).
	recentLoops  recent[loopKey, *loopMapping]
	recentBounds recent[boundKey, *boundResult]
	epoch        int // changes whenever a layout changes (invalidates loopCache)
	ownCache     reductionOwners
	scratch      sendTimes
	clocks       network.Clocks // the clocks handed to network.SendSpan
}

// array is a distributed array or its remote buffer.
type array struct {
	*layout.Array
	header uint64
}

// New prepares the simulation of a trace with header h on machine m with the
// processor grid. name is the trace file name used in error messages. The
// configuration has been checked (sim checks it, once, for every caller):
// the grid is valid and fits the machine.
func New(name string, h *trace.Header, m *machine.Machine, grid []int, opt Options) (*Engine, error) {
	n := 1
	for _, d := range grid {
		n *= d
	}
	leaves := m.Leaves()
	net, err := network.NewModel(m, opt.Network, grid)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	pow := make([]float64, n)
	for k := range pow {
		pow[k] = leaves[k].Power
		if pow[k] <= 0 {
			pow[k] = 1
		}
	}
	if m.Contention > 0 {
		// The extended model's node contention: each other process on
		// a processor's node slows its work (machine.Machine.Contention).
		for k, b := range m.BusyNeighbours(n) {
			pow[k] /= 1 + m.Contention*float64(b)
		}
	}
	e := &Engine{
		name: name, opt: opt, net: net, L: n, pow: pow, runWork: m.RunWork, ioByte: m.IOByte,
		strided:    m.Strided,
		freshPage:  m.FreshPage,
		classes:    newClasses(n, opt.Reference),
		inOrder:    opt.Reference,
		covering:   map[*layout.VM]coverage{},
		warnings:   map[string]int{},
		doubts:     map[string]bool{},
		loopCache:  map[loopKey]*loopMapping{},
		loopIndex:  map[loopIndexKey]*loopMapping{},
		boundCache: map[boundKey]*boundResult{},
		noEdges:    newTransfers(n),
	}
	e.clk = make([]float64, e.classes.count())
	if opt.Recorder != nil {
		states, _ := opt.Recorder.(events.StatesOnly)
		e.rec = &recorder{r: opt.Recorder, messages: states == nil, states: states, uni: emptyUniform(), kindStates: &kindStates[0],
			classes: make([]events.Tally, e.classes.count()), mark: make([]float64, e.classes.count())}
	}
	e.root = layout.NewRoot(grid, pow)
	e.vm = e.root
	e.curAM = &am{vm: e.root}
	main := &interval{id: 1, typ: result.Main, count: 1, line: h.RootLine, file: h.RootFile}
	e.ivs = []*interval{main}
	e.cur = main
	return e, nil
}

// warn counts a diagnostic.
func (e *Engine) warn(msg string) {
	if e.warnings[msg] == 0 {
		e.warningOrder = append(e.warningOrder, msg)
	}
	e.warnings[msg]++
}

// doubt counts a diagnostic that makes the run doubtful (result.Warning).
func (e *Engine) doubt(msg string) {
	e.warn(msg)
	e.doubts[msg] = true
}
