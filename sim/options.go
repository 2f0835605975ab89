package sim

import "fmt"

// OptionsFromNames is the inverse of Options.Names: the options of a
// stored configuration (result.Config.Options), so that a stored run can
// be simulated again as it was.
func OptionsFromNames(names []string) (Options, error) {
	var o Options
	for _, n := range names {
		switch n {
		case "close-open-intervals":
			o.CloseOpenIntervals = true
		case "load-weights":
			o.LoadWeights = true
		default:
			return Options{}, fmt.Errorf("unknown option %q: expected close-open-intervals or load-weights", n)
		}
	}
	return o, nil
}
