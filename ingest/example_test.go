package ingest_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/ingest/tracegen"
	"github.com/presage-dvm/presage/schema/store"
)

// Ingesting a trace twice: the second time, the bytes are known and
// nothing is written.
func ExampleTrace() {
	dir, err := os.MkdirTemp("", "presage-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "jacobi.ptr.gz")
	if _, err := tracegen.WriteFile(path, tracegen.Options{Program: tracegen.Jacobi, N: 16, Iterations: 2, Seed: 1}); err != nil {
		log.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "store.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	for range 2 {
		info, err := ingest.Trace(context.Background(), st, path, nil)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("trace %s (id %d): %d calls, already stored: %v\n", info.Name, info.ID, info.Calls, info.Existing)
	}
	// Output:
	// trace jacobi (id 1): 64 calls, already stored: false
	// trace jacobi (id 1): 64 calls, already stored: true
}

func ExampleTraceName() {
	fmt.Println(ingest.TraceName("runs/jac1d_x1000.ptr.gz"))
	fmt.Println(ingest.MachineName("machines/Predictor.par"))
	fmt.Println(ingest.StsName("sts/jac.2x2.sts.gz+"))
	// Output:
	// jac1d_x1000
	// Predictor
	// jac.2x2
}
