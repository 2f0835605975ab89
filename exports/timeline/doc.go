// Package timeline writes the timeline of a predicted run: what every
// processor does over simulated time (computing, I/O, communicating, in a
// collective, waiting) and the messages between processors. The engine
// holds no events; it reports its charges to an events.Recorder while a
// stored run is re-simulated (internal/stage.Replay), and an
// events.Collector turns them into spans of whole nanoseconds for the
// sinks of this package, the formats: Paraver (.prv with its .pcf and
// .row, NewParaver) and Chrome/Perfetto trace JSON (NewPerfetto). The
// colours and names of the states are shared with the run report's
// picture (Color). docs/timeline.md says what each state means and what
// is derived. An orders run, simulated or real, is written from what the
// store keeps of it, its orders' stretches on its nodes or workers, a
// slice per stretch named by the order's procedure (WriteOrdersPerfetto,
// WriteOrdersParaver).
package timeline
