package table

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/schema"
)

// Sweeps returns the sweeps to export: sweepID alone (which must have
// runs), or, for sweepID 0, every sweep that has runs, with 0 standing for
// the runs outside any sweep. It also refuses a store whose schema lacks
// the views the exporters read.
func Sweeps(ctx context.Context, db *sqlx.DB, sweepID int64) ([]int64, error) {
	v, err := schema.CurrentVersion(db)
	if err != nil {
		return nil, err
	}
	if v < schema.Version {
		return nil, fmt.Errorf("store schema version %d is older than %d: open it once with schema.Open to migrate it", v, schema.Version)
	}
	var ids []int64
	if sweepID != 0 {
		err = db.SelectContext(ctx, &ids, `SELECT DISTINCT sweep_id FROM v_runs WHERE sweep_id = ?`, sweepID)
		if err == nil && len(ids) == 0 {
			err = fmt.Errorf("sweep %d: no runs", sweepID)
		}
		return ids, err
	}
	err = db.SelectContext(ctx, &ids, `SELECT DISTINCT sweep_id FROM v_runs ORDER BY sweep_id`)
	return ids, err
}
