package explain

import (
	"fmt"
	"html/template"
	"io"
	"math"

	"github.com/gobench-dyn/gobench-dyn/internal/render"
)

// A Graph is one differential flame graph of an HTML page: the tree of a
// change, and what it is the change of.
type Graph struct {
	Title string
	Unit  string
	Root  *Node
}

// graphMinWidth is the narrowest path drawn, as a share of the root: the
// rest would be slivers no one can read.
const graphMinWidth = 0.002

// graphMaxDepth bounds the frames drawn below the root.
const graphMaxDepth = 80

// WriteHTML writes the graphs as one page with nothing loaded from
// elsewhere: icicles from the root down, each path as wide as the larger
// of its two versions, red where the code under test spends more, blue
// where it spends less, the colour as deep as the change is large against
// the path's own value. A path that vanished keeps the width the
// baseline gave it, blue with a dashed border; a new one is red with a
// solid border. Each path's title holds both values and the change.
func WriteHTML(w io.Writer, title string, graphs []Graph) error {
	page := struct {
		Title  string
		Graphs []htmlGraph
	}{Title: title}
	for _, g := range graphs {
		sc := render.NewScale(g.Unit, g.Root.Base, g.Root.Head)
		page.Graphs = append(page.Graphs, htmlGraph{Title: g.Title, Unit: g.Unit,
			Total: fmt.Sprintf("%s → %s per op", sc.Value(g.Root.Base), sc.Value(g.Root.Head)),
			Nodes: layout(g.Root.Children, width(g.Root), width(g.Root), sc, 0)})
	}
	return htmlPage.Execute(w, page)
}

type htmlGraph struct {
	Title, Unit, Total string
	Nodes              []htmlNode
}

type htmlNode struct {
	Label, Title string
	// Width goes on the path's box, which holds its callees, and
	// Colour on its own frame only.
	Width, Colour template.CSS
	Class         string
	Children      []htmlNode
}

func width(n *Node) float64 { return math.Max(n.Base, n.Head) }

// layout lays out siblings whose parent is parent wide, root being the
// root's width.
func layout(nodes []*Node, parent, root float64, sc render.Scale, depth int) []htmlNode {
	if depth >= graphMaxDepth || parent <= 0 {
		return nil
	}
	sum := 0.0
	for _, n := range nodes {
		sum += width(n)
	}
	// Children can add up to more than their parent when a path moved
	// from one callee to another: each version fits, both together
	// need the larger sum.
	span := math.Max(sum, parent)
	var out []htmlNode
	for _, n := range nodes {
		w := width(n)
		if w < graphMinWidth*root {
			continue
		}
		d := 0.0
		if w > 0 {
			d = (n.Head - n.Base) / w
		}
		class := ""
		switch {
		case n.Head == 0:
			class = "gone"
		case n.Base == 0:
			class = "new"
		}
		out = append(out, htmlNode{
			Label:    n.Function,
			Title:    fmt.Sprintf("%s\nbaseline %s, code under test %s per op", n.Function, sc.Value(n.Base), sc.Value(n.Head)),
			Width:    template.CSS(fmt.Sprintf("width:%.3f%%", 100*w/span)),
			Colour:   template.CSS("background:" + colour(d)),
			Class:    class,
			Children: layout(n.Children, w, root, sc, depth+1),
		})
	}
	return out
}

// colour is red for a path that grew by the share d of its width, blue
// for one that shrank, and grey for one that stayed within 2%.
func colour(d float64) string {
	a := math.Min(1, math.Abs(d))
	switch {
	case a < 0.02:
		return "#ddd"
	case d > 0:
		return fmt.Sprintf("rgba(214,39,40,%.2f)", 0.15+0.85*a)
	}
	return fmt.Sprintf("rgba(31,119,180,%.2f)", 0.15+0.85*a)
}

var htmlPage = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{{.Title}}</title>
<style>
body{font:13px sans-serif;margin:1em}
.row{display:flex;align-items:flex-start;width:100%}
.n{box-sizing:border-box;overflow:hidden}
.f{box-sizing:border-box;border:1px solid #fff;height:18px;line-height:16px;padding:0 2px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font:11px monospace}
.gone>.f{border:1px dashed #1f77b4}
.new>.f{border:1px solid #d62728}
</style></head><body>
<h1>{{.Title}}</h1>
<p>Each path is as wide as the larger of its two versions' values per operation; red: the code under test spends more there, blue: less, the deeper the larger the change; dashed: a path that vanished, solid red border: a new one. Hover for the values.</p>
{{range .Graphs}}<h2>{{.Title}}</h2><p>{{.Total}}</p>
<div class="row">{{range .Nodes}}{{template "node" .}}{{end}}</div>
{{end}}</body></html>
{{define "node"}}<div class="n {{.Class}}" style="{{.Width}}"><div class="f" style="{{.Colour}}" title="{{.Title}}">{{.Label}}</div>{{if .Children}}<div class="row">{{range .Children}}{{template "node" .}}{{end}}</div>{{end}}</div>{{end}}
`))
