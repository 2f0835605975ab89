// Package result holds what a prediction or a measurement produces: the
// interval tree of one run with its characteristics, per interval and per
// processor, under the canonical characteristic names used everywhere in
// Presage (store, exports, reports). It also saves runs to and loads them
// from the SQLite store.
package result

// Char identifies a characteristic. The numbering is the order of Chars and
// is stored in the characteristics table, so new names are only appended.
type Char int

// Family groups characteristics for reports and the characteristics table.
type Family string

const (
	FamilyMain       Family = "main"       // efficiency, execution and total time
	FamilyProductive Family = "productive" // productive time and its parts
	FamilyLost       Family = "lost"       // lost time and its parts
	FamilyComm       Family = "communication"
	FamilyPotential  Family = "potential" // imbalance, synchronization, variation, overlap
	FamilyOpCount    Family = "op_count"
	FamilyCPU        Family = "cpu"      // raw CPU counters of the simulator
	FamilyMeasured   Family = "measured" // analyzer-only extras
)

// CharInfo describes one characteristic.
type CharInfo struct {
	Name        string
	Unit        string // "s", "ratio", "count" or "processors"
	Family      Family
	OpClass     string // IO, Reduction, Shadow, Remote, Redistribution or ""
	Description string
}

// The characteristics. The first block is seed 002 Appendix 1 in report order.
const (
	Efficiency Char = iota
	ExecutionTime
	TotalTime
	ProductiveTime
	ProductiveCPUTime
	ProductiveSYSTime
	IOTime
	LostTime
	InsuffParallelism
	InsuffParallelismUsr
	InsuffParallelismSys
	Communication
	CommunicationSynch
	Idle
	LoadImbalance
	Synchronization
	TimeVariation
	Overlap
	// Per operation class: count, communication, real synch, synch, vary, overlap.
	NumOpIO
	IOComm
	IORealSynch
	IOSynch
	IOVary
	IOOverlap
	NumOpReduct
	WaitReduction
	ReductionRealSynch
	ReductionSynch
	ReductionVary
	ReductionOverlap
	NumOpShadow
	WaitShadow
	ShadowRealSynch
	ShadowSynch
	ShadowVary
	ShadowOverlap
	NumOpRemote
	RemoteAccess
	RemoteRealSynch
	RemoteSynch
	RemoteVary
	RemoteOverlap
	NumOpRedist
	Redistribution
	RedistributionRealSynch
	RedistributionSynch
	RedistributionVary
	RedistributionOverlap
	// Raw CPU counters of the Predictor (docs/model.md §6.1).
	CPUTime
	CPUTimeUsr
	CPUTimeSys
	// Extras printed by the analyzer (seed 001 §6, docs/model.md §10.8).
	Processors
	ThreadsAmount
	Starts
	ThreadsUserTime
	ThreadsSystemTime
	GPUProductiveTime
	GPULostTime
	NumChars // number of characteristics; not a characteristic
)

// OpClass is one of the five classes of collective operations.
type OpClass int

const (
	OpIO OpClass = iota
	OpReduction
	OpShadow
	OpRemote
	OpRedistribution
	NumOpClasses
)

// OpClassNames are the class names in report order.
var OpClassNames = [NumOpClasses]string{"IO", "Reduction", "Shadow", "Remote", "Redistribution"}

// The six per-class columns, as offsets from the class's first Char.
const (
	OpCount = iota
	OpComm
	OpRealSynch
	OpSynch
	OpVary
	OpOverlap
	numOpColumns
)

// OpChar returns the characteristic of column col (OpCount..OpOverlap) of class c.
func OpChar(c OpClass, col int) Char {
	return NumOpIO + Char(int(c)*numOpColumns+col)
}

// Chars lists every characteristic, indexed by Char.
var Chars = [NumChars]CharInfo{
	Efficiency:           {"Efficiency", "ratio", FamilyMain, "", "Parallelization efficiency: productive time divided by total time."},
	ExecutionTime:        {"Execution_time", "s", FamilyMain, "", "Execution time: the largest execution time over the processors."},
	TotalTime:            {"Total_time", "s", FamilyMain, "", "Total processor time: execution time multiplied by the number of processors."},
	ProductiveTime:       {"Productive_time", "s", FamilyProductive, "", "Productive time: the time the program would need on one processor."},
	ProductiveCPUTime:    {"Productive_CPU_time", "s", FamilyProductive, "", "Productive processor time of the user program."},
	ProductiveSYSTime:    {"Productive_SYS_time", "s", FamilyProductive, "", "Productive processor time of the run-time system."},
	IOTime:               {"IO_time", "s", FamilyProductive, "", "Input/output time (not counting message exchanges)."},
	LostTime:             {"Lost_time", "s", FamilyLost, "", "Lost time: total time minus productive time."},
	InsuffParallelism:    {"Insuff_parallelism", "s", FamilyLost, "", "Losses from insufficient parallelism: code executed redundantly on several processors."},
	InsuffParallelismUsr: {"Insuff_parallelism_usr", "s", FamilyLost, "", "Insufficient parallelism in the user program."},
	InsuffParallelismSys: {"Insuff_parallelism_sys", "s", FamilyLost, "", "Insufficient parallelism in the run-time system."},
	Communication:        {"Communication", "s", FamilyLost, "", "Communication time, including dissynchronization losses of collective operations."},
	CommunicationSynch:   {"Communication_SYNCH", "s", FamilyLost, "", "Real dissynchronization losses within communication."},
	Idle:                 {"Idle", "s", FamilyLost, "", "Idle time: waiting of a processor for the slowest one at the end of the interval."},
	LoadImbalance:        {"Load_imbalance", "s", FamilyPotential, "", "Load imbalance: potential losses from unequal processor loading."},
	Synchronization:      {"Synchronization", "s", FamilyPotential, "", "Potential losses from non-simultaneous start of collective operations."},
	TimeVariation:        {"Time_variation", "s", FamilyPotential, "", "Potential losses from non-simultaneous completion of collective operations."},
	Overlap:              {"Overlap", "s", FamilyPotential, "", "Overlap of communications with computations in asynchronous operations."},

	CPUTime:           {"CPU_time", "s", FamilyCPU, "", "Processor time charged by the simulator (user plus system)."},
	CPUTimeUsr:        {"CPU_time_usr", "s", FamilyCPU, "", "Processor time of user code charged by the simulator."},
	CPUTimeSys:        {"CPU_time_sys", "s", FamilyCPU, "", "Processor time of run-time calls charged by the simulator."},
	Processors:        {"Processors", "processors", FamilyMeasured, "", "Number of processors the interval ran on."},
	ThreadsAmount:     {"Threads_amount", "count", FamilyMeasured, "", "Number of threads over the processors."},
	Starts:            {"Starts", "s", FamilyMeasured, "", "Time to start send and receive operations."},
	ThreadsUserTime:   {"Threads_user_time", "s", FamilyMeasured, "", "User time of the OpenMP threads."},
	ThreadsSystemTime: {"Threads_system_time", "s", FamilyMeasured, "", "System time of the OpenMP threads."},
	GPUProductiveTime: {"GPU_productive_time", "s", FamilyMeasured, "", "Productive time on GPUs."},
	GPULostTime:       {"GPU_lost_time", "s", FamilyMeasured, "", "Lost time on GPUs."},
}

func init() {
	type col struct{ name, unit, what string }
	// Names of the per-class columns, keyed by class; the communication
	// column has its own name per class (seed 002 Appendix 1).
	short := [NumOpClasses]string{"io", "reduct", "shadow", "remote", "redist"}
	comm := [NumOpClasses]string{"IO_comm", "Wait_reduction", "Wait_shadow", "Remote_access", "Redistribution"}
	what := [NumOpClasses]string{"input/output", "reduction", "shadow renewal", "remote access", "redistribution"}
	for c := OpIO; c < NumOpClasses; c++ {
		name := OpClassNames[c]
		cols := [numOpColumns]col{
			{"Num_op_" + short[c], "count", "Number of " + what[c] + " operations."},
			{comm[c], "s", "Communication time of " + what[c] + " operations."},
			{name + "_real_synch", "s", "Real dissynchronization losses of " + what[c] + " operations."},
			{name + "_synch", "s", "Potential synchronization losses of " + what[c] + " operations."},
			{name + "_vary", "s", "Time variation of " + what[c] + " operations."},
			{name + "_overlap", "s", "Overlap of " + what[c] + " communications with computations."},
		}
		for i, k := range cols {
			fam := FamilyComm
			if i == OpCount {
				fam = FamilyOpCount
			}
			Chars[OpChar(c, i)] = CharInfo{k.name, k.unit, fam, name, k.what}
		}
	}
	for i, info := range Chars {
		if info.Name == "" {
			panic("result: characteristic without a name")
		}
		byName[info.Name] = Char(i)
	}
}

var byName = map[string]Char{}

// String returns the canonical name.
func (c Char) String() string {
	if c < 0 || c >= NumChars {
		return "Char(?)"
	}
	return Chars[c].Name
}

// CharByName finds a characteristic by its canonical name.
func CharByName(name string) (Char, bool) {
	c, ok := byName[name]
	return c, ok
}
