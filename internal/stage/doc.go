// Package stage orchestrates the prediction stages: it sits above the
// store (schema/store) and the pure simulators (sim, sim/sweep,
// sim/search) and is the only place where they meet. It loads a stored
// trace and machine, hands them to the simulator, and stores what comes
// back — one configuration (PredictOne), a sweep with resume and shards
// (Sweep), or a search for the best grid (Search). Every arrow points
// down: the simulators never see the store.
package stage
