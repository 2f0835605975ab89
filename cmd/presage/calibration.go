package main

import (
	"strconv"

	"github.com/presage-dvm/presage/orders/calibration"
	"github.com/presage-dvm/presage/schema/store"
)

// adviseCalibration says, one line per block, what the stored calibration
// of that id did not pin down and what to do (calibration.Advise), or
// that every block's median is known within the precision.
func (g *Globals) adviseCalibration(st *store.Store, id int64) error {
	info, rows, err := st.Calibration(strconv.FormatInt(id, 10))
	if err != nil {
		return err
	}
	g.adviseBlocks(info.Name, calibration.Analyze(rows, calibration.DefaultThresholds))
	return nil
}

// adviseBlocks prints the advice on the blocks of the calibration name.
func (g *Globals) adviseBlocks(name string, stats []calibration.Stat) {
	advice := calibration.Advise(stats, calibration.DefaultPrecision)
	for _, a := range advice {
		g.infof("%s", a.Text)
	}
	if len(advice) == 0 {
		g.infof("calibration %s: every block's median known within ±%.0f%% on a machine not loaded", name, 100*calibration.DefaultPrecision)
	}
}
