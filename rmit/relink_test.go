package rmit

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// printedArgs prints words as the go command's -x output prints a
// command's arguments: quoted as Go quotes them when they hold a space,
// a parenthesis, > or ;, or when quoting changes them; as they are
// otherwise.
func printedArgs(words []string) string {
	var b strings.Builder
	for i, s := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		q := strconv.Quote(s)
		if s == "" || strings.ContainsAny(s, " ()>;") || len(q) > len(s)+2 {
			b.WriteString(q)
		} else {
			b.WriteString(s)
		}
	}
	return b.String()
}

// The linker's command line is read back from go test -x -work as the go
// command ran it: its work directory in place of $WORK, quoted arguments
// unquoted, its environment, the output and the layout flag found.
func TestParseLinkCommand(t *testing.T) {
	x := `WORK=/tmp/go-build 1
mkdir -p $WORK/b001/
cat >$WORK/b001/importcfg.link << 'EOF' # internal
packagefile example.com/p.test=$WORK/b001/_pkg_.a
EOF
cd .
GOROOT='/usr/local/go' GOEXPERIMENT="it's" /usr/local/go/pkg/tool/linux_amd64/link -o $WORK/b001/p.test -importcfg $WORK/b001/importcfg.link -buildmode=exe "-X=main.v=a b" -randlayout=42 -X testing.testBinary=1 -extld=gcc $WORK/b001/_pkg_.a
mv $WORK/b001/p.test /tmp/out/p.test
`
	c, err := parseLinkCommand([]byte(x), 42)
	require.NoError(t, err)
	assert.Equal(t, "/usr/local/go/pkg/tool/linux_amd64/link", c.tool)
	assert.Equal(t, []string{"GOROOT=/usr/local/go", "GOEXPERIMENT=it's"}, c.env)
	assert.Equal(t, []string{"-o", "/tmp/go-build 1/b001/p.test", "-importcfg", "/tmp/go-build 1/b001/importcfg.link", "-buildmode=exe",
		"-X=main.v=a b", "-randlayout=42", "-X", "testing.testBinary=1", "-extld=gcc", "/tmp/go-build 1/b001/_pkg_.a"}, c.args)
	assert.Equal(t, 1, c.out)
	assert.Equal(t, "-randlayout=42", c.args[c.seed])

	for name, bad := range map[string]string{
		"no link":            "WORK=/w\nmkdir -p $WORK/b001/\n",
		"no work directory":  "/go/link -o x -randlayout=42 a.a\n",
		"two links":          "WORK=/w\n/go/link -o x -randlayout=42 a.a\n/go/link -o y -randlayout=42 a.a\n",
		"another layout":     "WORK=/w\n/go/link -o x -randlayout=7 a.a\n",
		"two layouts":        "WORK=/w\n/go/link -o x -randlayout=42 -randlayout=7 a.a\n",
		"no output":          "WORK=/w\n/go/link -randlayout=42 a.a\n",
		"a relative linker":  "WORK=/w\nlink -o x -randlayout=42 a.a\n",
		"a broken quotation": "WORK=/w\n/go/link -o \"x -randlayout=42 a.a\n",
	} {
		_, err := parseLinkCommand([]byte(bad), 42)
		assert.Error(t, err, name)
	}
}

// Whatever the arguments, a command line printed as the go command
// prints it splits back into them.
func FuzzSplitCommand(f *testing.F) {
	f.Add("-X", "main.v=a b", `"quoted"`)
	f.Add("", "(x)", "a=>b;c")
	f.Add("it's", "tab\there", "é\x00")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		words := []string{"/go/link", a, b, c}
		env, got, err := splitCommand("GOROOT='/go' " + printedArgs(words))
		require.NoError(t, err)
		assert.Equal(t, []string{"GOROOT=/go"}, env)
		assert.Equal(t, words, got)
	})
}
