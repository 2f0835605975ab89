package store_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/machinefile"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/schema/store"
	"github.com/presage-dvm/presage/schema/stored"
	"github.com/presage-dvm/presage/sim/machine"
)

// ingestMachine writes text to a file name in a temporary directory and
// ingests it into st.
func ingestMachine(t *testing.T, st *store.Store, name, text string) stored.MachineInfo {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := ingest.Machine(context.Background(), st, path)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// TestMachineLookups finds a stored machine by name, id and sum; the
// source comes back verbatim and parses as the file does.
func TestMachineLookups(t *testing.T) {
	st := storetest.Open(t)
	path := golden.Path(t, "machines", "Predictor.par")
	info, err := ingest.Machine(context.Background(), st, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"Predictor", "1"} {
		m, got, err := st.Machine(key)
		if err != nil {
			t.Fatalf("Machine(%q): %v", key, err)
		}
		if got != info || m.Processors() != 1024 || m.Root.TStart != 7.0/1e6 {
			t.Fatalf("Machine(%q) = %+v, %d processors", key, got, m.Processors())
		}
	}
	var source []string
	if err := st.Select(&source, `SELECT source FROM machines WHERE id = ?`, info.ID); err != nil {
		t.Fatal(err)
	}
	if want, _ := os.ReadFile(path); len(source) != 1 || source[0] != string(want) {
		t.Fatal("source not stored verbatim")
	}
	byHash, found, err := st.MachineBySHA(context.Background(), info.SHA256)
	if err != nil || !found || !byHash.Existing || byHash.ID != info.ID {
		t.Errorf("MachineBySHA = %+v, %v, %v", byHash, found, err)
	}
	_, _, err = st.Machine("nowhere")
	if !errors.Is(err, store.ErrNotFound) || err.Error() != `no machine "nowhere" in the store (its machines: Predictor); ingest it with presage ingest machine FILE, or give a stored name or id` {
		t.Fatalf("Machine of an unknown machine: %v", err)
	}
}

// TestSameMachineNameAmbiguous stores two different files with the same base
// name: the name is refused as ambiguous, naming both ids, each id finds
// its own, Machines lists both.
func TestSameMachineNameAmbiguous(t *testing.T) {
	st := storetest.Open(t)
	first := ingestMachine(t, st, "m.par", "cluster = c; c = {2 x p}; p = 1;")
	second := ingestMachine(t, st, "m.par", "type = ethernet; start time = 5; send byte time = 1; topology = {2, 4};")
	if _, _, err := st.Machine("m"); err == nil || !strings.Contains(err.Error(), `2 machines are named "m": ids 1 (`) {
		t.Fatalf("Machine(m) of two machines named m: %v", err)
	}
	m, info, err := st.Machine(strconv.FormatInt(second.ID, 10))
	if err != nil {
		t.Fatal(err)
	}
	if info.ID != second.ID || m.Format != machine.FormatFlat || m.Processors() != 8 || len(m.Topology) != 2 {
		t.Fatalf("Machine(%d) = %+v, %s %d processors", second.ID, info, m.Format, m.Processors())
	}
	if ids, err := st.Namesakes("machines", second.ID); err != nil || len(ids) != 1 || ids[0] != first.ID {
		t.Errorf("Namesakes = %v, %v; want [%d]", ids, err, first.ID)
	}
	list, err := st.Machines()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0] != first || list[1] != second {
		t.Fatalf("Machines = %+v", list)
	}
}

// TestSaveMachineSameBytes saves a machine whose sum the store holds
// already, as the loser of two concurrent ingests does.
func TestSaveMachineSameBytes(t *testing.T) {
	st := storetest.Open(t)
	const text = "cluster = c; c = {2 x p}; p = 1;"
	first := ingestMachine(t, st, "m.par", text)
	m, err := machinefile.Parse(strings.NewReader(text), "other.par")
	if err != nil {
		t.Fatal(err)
	}
	again, err := st.SaveMachine(context.Background(), stored.MachineInfo{Name: "other", Path: "other.par", SHA256: first.SHA256}, m, []byte(text))
	first.Existing = true
	if err != nil || again != first {
		t.Errorf("SaveMachine of stored bytes = %+v, %v; want %+v", again, err, first)
	}
	if n := storetest.Count(t, st, "machines"); n != 1 {
		t.Errorf("%d machines stored, want 1", n)
	}
}
