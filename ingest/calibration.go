package ingest

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/presage-dvm/presage/orders/calibration"
	"github.com/presage-dvm/presage/schema/store"
)

// maxCalibration bounds a calibration file: rows of a few dozen bytes, a
// few per block size and repetition.
const maxCalibration = 1 << 28

// CalibrationName is the name a calibration file is stored under: its base
// name without a .csv suffix.
func CalibrationName(path string) string { return storedName(path, ".csv") }

// Calibration stores the calibration file at path (docs/orders.md) with its
// analysis per block and machine, unless a file with the same bytes is
// stored already, in which case it returns that one with Existing set. A
// defective row (an *calibration.Error naming file and line) stores
// nothing.
func Calibration(ctx context.Context, st *store.Store, path string) (store.CalibrationInfo, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return store.CalibrationInfo{}, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(contextReader{ctx, f}, maxCalibration+1))
	if err != nil {
		if ctx.Err() != nil {
			return store.CalibrationInfo{}, ctx.Err()
		}
		return store.CalibrationInfo{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(src) > maxCalibration {
		return store.CalibrationInfo{}, fmt.Errorf("%s: larger than %d bytes, not a calibration file", path, maxCalibration)
	}
	digest := sum(src)
	if info, found, err := st.CalibrationBySHA(ctx, digest); err != nil || found {
		return info, err
	}
	rows, err := calibration.ReadAll(bytes.NewReader(src), path)
	if err != nil {
		return store.CalibrationInfo{}, err
	}
	info := store.CalibrationInfo{Name: CalibrationName(path), Path: path, SHA256: digest, Bytes: int64(len(src))}
	return st.SaveCalibration(ctx, info, rows, calibration.Analyze(rows, calibration.DefaultThresholds))
}
