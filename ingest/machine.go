package ingest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/presage-dvm/presage/ingest/machinefile"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/schema/stored"
)

// maxMachineSource bounds the file read by Machine; machinefile.Parse
// refuses larger files anyway.
const maxMachineSource = 1 << 22

// MachineName is the name a machine file is stored under: its base name
// without a .par suffix.
func MachineName(path string) string { return storedName(path, ".par") }

// Machine stores the machine file at path unless a file with the same
// bytes is stored already, in which case it returns that machine with
// Existing set. The file is parsed first: a defective file (a
// *machinefile.Error) is not stored. The source is stored verbatim.
func Machine(ctx context.Context, st *store.Store, path string) (stored.MachineInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return stored.MachineInfo{}, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, maxMachineSource+1))
	if err != nil {
		return stored.MachineInfo{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(src) > maxMachineSource {
		return stored.MachineInfo{}, fmt.Errorf("%s: larger than %d bytes, not a machine file", path, maxMachineSource)
	}
	digest := sum(src)
	if info, found, err := st.MachineBySHA(ctx, digest); err != nil || found {
		return info, err
	}
	m, err := machinefile.Parse(bytes.NewReader(src), path)
	if err != nil {
		return stored.MachineInfo{}, err
	}
	return st.SaveMachine(ctx, stored.MachineInfo{Name: MachineName(path), Path: path, SHA256: digest}, m, src)
}
