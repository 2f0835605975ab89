package store_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/presage-dvm/presage/schema/store"
)

// BenchmarkOpenNew makes a new store and closes it: the part of every
// command's first run that the new store costs (`presage predict FILE`
// into a fresh --db).
func BenchmarkOpenNew(b *testing.B) {
	dir := b.TempDir()
	for i := range b.N {
		st, err := store.Open(filepath.Join(dir, fmt.Sprintf("s%d.db", i)))
		if err != nil {
			b.Fatal(err)
		}
		st.Close()
	}
}

// BenchmarkOpenExisting opens a store made before and closes it: what
// every writing command pays to open its store.
func BenchmarkOpenExisting(b *testing.B) {
	path := filepath.Join(b.TempDir(), "s.db")
	st, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	st.Close()
	b.ResetTimer()
	for range b.N {
		st, err := store.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		st.Close()
	}
}
