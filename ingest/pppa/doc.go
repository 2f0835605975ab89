// Package pppa owns the computations of the original performance analyzer
// PPPA (`dvm pa`, docs/model.md §10.4-§10.7) on a decoded statistics file: the
// per-processor values of every interval taken from its time matrix, the
// synchronisation, time variation and overlap derived from the collective-
// operation time records, the roll-up of nested intervals into their
// parents, the matching of intervals across processors, and idle time and
// load imbalance. The outcome is a measured result.Run plus what the
// analyzer's report prints besides (processor names, test times, versions,
// warnings).
package pppa
