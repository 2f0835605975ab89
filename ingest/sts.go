package ingest

import (
	"context"

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
	f, size, digest, err := openHashed(ctx, path, sts.Sniff)
	if err != nil {
		return store.StsInfo{}, err
	}
	defer f.Close()
	if info, found, err := st.StsBySHA(ctx, digest); err != nil || found {
		return info, err
	}
	text, err := inputText(ctx, f, path) // a .gz+ file is not gzip as a whole: read as it is
	if err != nil {
		return store.StsInfo{}, err
	}
	defer text.Close()
	file, err := sts.Decode(text, path)
	if err != nil {
		return store.StsInfo{}, err
	}
	name := StsName(path)
	a, err := pppa.Analyze(file, name)
	if err != nil {
		return store.StsInfo{}, err
	}
	return st.SaveSts(ctx, store.StsInfo{Name: name, Path: path, SHA256: digest, Bytes: size}, a)
}
