// Package timeline owns the timeline of a predicted run: what every
// processor does over simulated time (computing, I/O, communicating, in a
// collective, waiting) and the messages between processors. The engine
// holds no events; it reports its charges to an events.Recorder while a
// stored run is re-simulated (internal/stage.Replay). Collector is that
// recorder: it turns the charges into spans of whole nanoseconds, merges
// a processor's consecutive spans of one state, and streams spans and
// messages to a events.Sink. The sinks are the formats: Paraver (.prv with its
// .pcf and .row, NewParaver), Chrome/Perfetto trace JSON (NewPerfetto),
// and a Sample of bounded size for the HTML report (NewSampler).
// docs/timeline.md says what each state means and what is derived.
package timeline
