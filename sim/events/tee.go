package events

// Tee is a Recorder that reports every event to each of its recorders in
// turn: a simulation records its timeline for an export and samples its
// picture at once.
type Tee []Recorder

// State implements Recorder.
func (t Tee) State(s State, who Procs, start, dur float64) {
	for _, r := range t {
		r.State(s, who, start, dur)
	}
}

// Message implements Recorder.
func (t Tee) Message(m Message) {
	for _, r := range t {
		r.Message(m)
	}
}
