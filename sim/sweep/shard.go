package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// What every kind of sweep shares (the DVM's cartesian products and
// searches, the orders engine's node counts): a definition identified by
// its content, configurations numbered in a canonical order, and shards
// selected by those numbers. Sharing them is what lets the shards of any
// sweep, run on different hosts, merge into one.

// DefinitionHash identifies a sweep definition in every store: the
// SHA-256 of its JSON. def holds contents (hashes of the inputs), never
// store ids; the caller blanks the names that are there for people, so
// that renaming an input keeps the identity.
func DefinitionHash(def any) string {
	b, err := json.Marshal(def)
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Positioned is a configuration that knows its position in its sweep's
// canonical order: where it is stored, what its shard is.
type Positioned interface{ Position() int }

// At is a value at a position of a sweep: the configuration of a sweep
// whose canonical order is a plain list (an orders sweep's node counts).
type At[T any] struct {
	Index int
	Value T
}

// Position is a's index.
func (a At[T]) Position() int { return a.Index }

// List numbers values in their order, the canonical order of a sweep
// over a list.
func List[T any](values []T) []At[T] {
	out := make([]At[T], len(values))
	for i, v := range values {
		out[i] = At[T]{i, v}
	}
	return out
}

// Shard returns the configurations of shard i of n, in their order: those
// whose position is i modulo n (n 0 or 1: all). It refuses a shard
// outside 0..n−1.
func Shard[C Positioned](cfgs []C, i, n int) ([]C, error) {
	if n <= 1 {
		return cfgs, nil
	}
	if i < 0 || i >= n {
		return nil, fmt.Errorf("shard %d/%d: expected 0 <= I < N", i, n)
	}
	var out []C
	for _, c := range cfgs {
		if c.Position()%n == i {
			out = append(out, c)
		}
	}
	return out, nil
}
