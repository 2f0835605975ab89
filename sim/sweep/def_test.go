package sweep

import (
	"reflect"
	"testing"
)

func TestFactorisations(t *testing.T) {
	for _, tc := range []struct {
		n, rank int
		want    [][]int
	}{
		{12, 1, [][]int{{12}}},
		{12, 2, [][]int{{1, 12}, {2, 6}, {3, 4}, {4, 3}, {6, 2}, {12, 1}}},
		{4, 3, [][]int{{1, 1, 4}, {1, 2, 2}, {1, 4, 1}, {2, 1, 2}, {2, 2, 1}, {4, 1, 1}}},
		{1, 2, [][]int{{1, 1}}},
		{0, 2, nil},
	} {
		if got := Factorisations(tc.n, tc.rank); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Factorisations(%d, %d) = %v, want %v", tc.n, tc.rank, got, tc.want)
		}
	}
}

func TestGridsInRange(t *testing.T) {
	got := GridsInRange(3, 4, 2)
	want := [][]int{{3}, {1, 3}, {3, 1}, {4}, {1, 4}, {2, 2}, {4, 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("GridsInRange(3, 4, 2) = %v, want %v", got, want)
	}
	// Rank-2 grids of 1..1024: the number of divisors summed.
	n := 0
	for p := 1; p <= 1024; p++ {
		for d := 1; d <= p; d++ {
			if p%d == 0 {
				n++
			}
		}
	}
	if got := len(GridsInRange(1, 1024, 2)); got != n+1024 {
		t.Errorf("GridsInRange(1, 1024, 2): %d grids, want %d", got, n+1024)
	}
}

func TestConfigsAndShards(t *testing.T) {
	d := Definition{Machines: []MachineRef{{SHA256: "a"}, {SHA256: "b"}}, Grids: [][]int{{1}, {2, 2}, {8}},
		TStart: []float64{1e-6, 2e-6}, Networks: []string{"cluster", "bus"}}
	if err := d.Normalize(); err != nil {
		t.Fatal(err)
	}
	cfgs, skipped := d.Configs([]int{4, 16})
	// Machine a (4 processors) cannot take 8: 2 networks x 2 tstarts skipped.
	if len(cfgs) != 20 || skipped != 4 {
		t.Fatalf("%d configurations, %d skipped; want 20, 4", len(cfgs), skipped)
	}
	for i, c := range cfgs {
		if c.Index != i {
			t.Fatalf("configuration %d has index %d", i, c.Index)
		}
	}
	if c := cfgs[1]; c.Machine != 0 || c.Network != "cluster" || c.TStart != 2e-6 {
		t.Errorf("canonical order: second configuration %+v", c)
	}
	seen := map[int]int{}
	for s := range 3 {
		shard, err := Shard(cfgs, s, 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range shard {
			if c.Index%3 != s {
				t.Errorf("shard %d/3 holds configuration %d", s, c.Index)
			}
			seen[c.Index]++
		}
	}
	if len(seen) != len(cfgs) {
		t.Errorf("shards cover %d of %d configurations", len(seen), len(cfgs))
	}
	bad := d
	bad.Networks = []string{"ring"}
	if err := bad.Normalize(); err == nil {
		t.Error("network ring accepted")
	}
}

func TestHashIgnoresNames(t *testing.T) {
	a := Definition{Trace: "jac", TraceSHA: "t", Machines: []MachineRef{{Name: "x", SHA256: "m"}}, Grids: [][]int{{2}}}
	b := a
	b.Trace, b.Machines = "other", []MachineRef{{Name: "y", SHA256: "m"}}
	if a.Hash() != b.Hash() {
		t.Error("renaming changes the hash")
	}
	c := a
	c.Grids = [][]int{{4}}
	if a.Hash() == c.Hash() {
		t.Error("different grids, same hash")
	}
	c = a
	c.TraceSHA = "u"
	if a.Hash() == c.Hash() {
		t.Error("different traces, same hash")
	}
}

// TestShardOfList: a sweep over a plain list shards by position, as the
// cartesian products do, whatever order the list is run in.
func TestShardOfList(t *testing.T) {
	nodes := List([]int{64, 1, 8, 2, 32})
	for _, tc := range []struct {
		i, n int
		want []int
	}{{0, 0, []int{64, 1, 8, 2, 32}}, {0, 1, []int{64, 1, 8, 2, 32}}, {0, 2, []int{64, 8, 32}}, {1, 2, []int{1, 2}}, {2, 3, []int{8}}} {
		var got []int
		shard, err := Shard(nodes, tc.i, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range shard {
			if nodes[a.Position()] != a {
				t.Errorf("%+v is not at its position", a)
			}
			got = append(got, a.Value)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("shard %d/%d: %v, want %v", tc.i, tc.n, got, tc.want)
		}
	}
	for _, bad := range [][2]int{{-1, 2}, {2, 2}, {5, 3}} {
		if _, err := Shard(nodes, bad[0], bad[1]); err == nil {
			t.Errorf("shard %d/%d accepted", bad[0], bad[1])
		}
	}
}

// TestDefinitionHashStands: the hash of a definition is the SHA-256 of
// its JSON, so that the sweeps of earlier builds resume (the stage's
// tests pin real sweeps' hashes too).
func TestDefinitionHashStands(t *testing.T) {
	if got := DefinitionHash(struct {
		Kind string `json:"kind"`
	}{"orders"}); got != "d3ecfce9b9311d7e749e60e03ae659b97214d95b99c4bee6c9c270f46cd65b10" { // sha256sum of {"kind":"orders"}
		t.Errorf("hash %q", got)
	}
}
