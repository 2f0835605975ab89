package sweepreport

import "slices"

// param is one parameter of seriesKey, which a sweep may vary.
type param struct {
	name   string
	varies func(a, b seriesKey) bool
	format func(k seriesKey) string
	// keep copies the parameter from src into dst.
	keep func(dst *seriesKey, src seriesKey)
}

var params = []param{
	{"network", func(a, b seriesKey) bool { return a.Network != b.Network },
		func(k seriesKey) string { return orDefault(k.Network, "default network") },
		func(d *seriesKey, s seriesKey) { d.Network = s.Network }},
	{"start-up time", func(a, b seriesKey) bool { return a.TStart != b.TStart },
		func(k seriesKey) string { return "tstart " + micro(k.TStart) },
		func(d *seriesKey, s seriesKey) { d.TStart = s.TStart }},
	{"time per byte", func(a, b seriesKey) bool { return a.TByte != b.TByte },
		func(k seriesKey) string { return "tbyte " + micro(k.TByte) },
		func(d *seriesKey, s seriesKey) { d.TByte = s.TByte }},
	{"processor power", func(a, b seriesKey) bool { return a.Power != b.Power },
		func(k seriesKey) string { return "power " + power(k.Power) },
		func(d *seriesKey, s seriesKey) { d.Power = s.Power }},
	{"machine", func(a, b seriesKey) bool { return a.Machine != b.Machine },
		func(k seriesKey) string { return orDefault(k.Machine, "no machine") },
		func(d *seriesKey, s seriesKey) { d.Machine = s.Machine }},
}

// project keeps the parameters of k whose indexes are in keep, zeroing the
// others.
func project(k seriesKey, keep []int) seriesKey {
	var out seriesKey
	for _, i := range keep {
		params[i].keep(&out, k)
	}
	return out
}

// distinctKeys returns the distinct projections of the configurations'
// keys, sorted.
func distinctKeys(cs []*config, keep []int) []seriesKey {
	var ks []seriesKey
	for _, c := range cs {
		ks = append(ks, project(keyOf(c), keep))
	}
	slices.SortFunc(ks, compareKeys)
	return slices.Compact(ks)
}
