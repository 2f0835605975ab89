package sweep

// SaveRun exposes the writer's transaction to the benchmarks.
var SaveRun = saveRun
