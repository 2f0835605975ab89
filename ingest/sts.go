package ingest

import (
	"bytes"
	"context"
	"os"

	"github.com/presage-dvm/presage/ingest/pppa"
	"github.com/presage-dvm/presage/ingest/sts"
	"github.com/presage-dvm/presage/schema/store"
)

// StsName is the name a statistics file is stored under: its base name
// without its .sts.gz+ or .gz+ suffix.
func StsName(path string) string { return storedName(path, ".gz+", ".sts") }

// Sts reads the statistics file at path, analyses it as the DVM
// performance analyzer does and stores the file with its measured run, in
// one transaction. A file whose bytes are already stored is not read
// again: its description comes back with Existing set. A defective file
// (an *sts.Error) is not stored.
func Sts(ctx context.Context, st *store.Store, path string) (store.StsInfo, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return store.StsInfo{}, err
	}
	digest := sum(raw)
	if info, found, err := st.StsBySHA(ctx, digest); err != nil || found {
		return info, err
	}
	f, err := sts.Decode(bytes.NewReader(raw), path)
	if err != nil {
		return store.StsInfo{}, err
	}
	name := StsName(path)
	a, err := pppa.Analyze(f, name)
	if err != nil {
		return store.StsInfo{}, err
	}
	return st.SaveSts(ctx, store.StsInfo{Name: name, Path: path, SHA256: digest, Bytes: int64(len(raw))}, a)
}
