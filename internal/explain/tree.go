package explain

import (
	"cmp"
	"slices"

	"github.com/google/pprof/profile"
)

// A Node is one call path of a differential flame graph: a function
// reached through its parents, with what each version spent under it per
// operation.
type Node struct {
	Function   string
	Base, Head float64
	Children   []*Node
}

// Tree returns the call tree of both versions' profiles of kind, per
// operation, rooted at an unnamed node that holds everything: the paths
// of both, so that a path only the baseline took (one the change made
// vanish) is there with Head 0. Children are ordered by name, as flame
// graphs order them, so that the two versions' paths line up.
func Tree(base, head *profile.Profile, baseOps, headOps int64, kind Kind) (*Node, error) {
	base, head = relevant(base, kind), relevant(head, kind)
	root := &Node{}
	for _, side := range []struct {
		p   *profile.Profile
		ops float64
		val func(*Node) *float64
	}{
		{base, float64(baseOps), func(n *Node) *float64 { return &n.Base }},
		{head, float64(headOps), func(n *Node) *float64 { return &n.Head }},
	} {
		i, err := sampleIndex(side.p, kind)
		if err != nil {
			return nil, err
		}
		for _, s := range side.p.Sample {
			v := float64(s.Value[i]) / side.ops
			n := root
			*side.val(n) += v
			for _, name := range slices.Backward(frames(s)) {
				n = n.child(name)
				*side.val(n) += v
			}
		}
	}
	root.sort()
	return root, nil
}

// frames returns the functions of s, innermost first.
func frames(s *profile.Sample) []string {
	var names []string
	for _, loc := range s.Location {
		for _, ln := range loc.Line {
			name := "?"
			if ln.Function != nil {
				name = ln.Function.Name
			}
			names = append(names, name)
		}
	}
	return names
}

func (n *Node) child(name string) *Node {
	for _, c := range n.Children {
		if c.Function == name {
			return c
		}
	}
	c := &Node{Function: name}
	n.Children = append(n.Children, c)
	return c
}

func (n *Node) sort() {
	slices.SortFunc(n.Children, func(a, b *Node) int { return cmp.Compare(a.Function, b.Function) })
	for _, c := range n.Children {
		c.sort()
	}
}
