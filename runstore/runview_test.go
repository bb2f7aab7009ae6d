package runstore

import (
	"math/rand"
	"slices"
	"testing"
)

// position replaced a map from row to step index; it must answer as that
// map would, whether gather sorted the rows or not, with duplicate lines
// dropped, and whatever order the rows are asked in.
func TestPositionMatchesAMap(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var v runView
	for iter := 0; iter < 5000; iter++ {
		var rows []int32
		row := int32(rng.Intn(5))
		for range rng.Intn(40) {
			row += 1 + int32(rng.Intn(4))
			rows = append(rows, row)
		}
		order := slices.Clone(rows)
		inOrder := rng.Intn(2) == 0
		if !inOrder {
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		kept := order[:0]
		for _, r := range order {
			if rng.Intn(5) != 0 {
				kept = append(kept, r)
			}
		}
		v.rows, v.order, v.inOrder, v.posBuilt, v.next = rows, kept, inOrder, false, 0
		want := map[int32]int{}
		for i, r := range kept {
			want[r] = i
		}
		for range 3 { // as placeValues, placeMemory and markNewArtifacts ask in turn
			var asked []int32
			for range rng.Intn(30) {
				asked = append(asked, int32(rng.Intn(int(row)+10)))
			}
			if rng.Intn(2) == 0 {
				slices.Sort(asked)
			}
			for _, r := range asked {
				i, ok := v.position(r)
				if wi, wok := want[r]; i != wi || ok != wok {
					t.Fatalf("rows %v, order %v: row %d at %d %v, want %d %v", rows, kept, r, i, ok, wi, wok)
				}
			}
		}
	}
}
