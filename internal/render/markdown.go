package render

import "strings"

// markdown escapes every character that starts Markdown or HTML markup
// inside a line or ends a table cell: emphasis, code, links, HTML tags and
// entities, strikethrough, GitHub's mentions and math. A backslash escape works for any ASCII punctuation in
// CommonMark, so an escaped character always reads as itself; line breaks
// would end a table row, so they become spaces.
var markdown = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "|", `\|`,
	"<", `\<`, ">", `\>`, "[", `\[`, "]", `\]`, "~", `\~`, "&", `\&`,
	"@", `\@`, "$", `\$`,
	"\r\n", " ", "\n", " ", "\r", " ",
)

// Markdown escapes s for running text or a table cell of GitHub-flavoured
// Markdown, as a pull-request comment and a job summary render it: the
// text reads as itself, with no markup, no HTML and no cell boundary.
func Markdown(s string) string { return markdown.Replace(s) }

// MarkdownCode returns s as an inline code span for running text. The
// fence is one backtick longer than the longest run of backticks in s, so
// that no backtick inside can close it.
func MarkdownCode(s string) string {
	return codeSpan(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s))
}

// MarkdownCodeCell returns s as an inline code span for a table cell: as
// MarkdownCode, with pipes escaped, since a table splits its row at every
// unescaped pipe, code spans included (GitHub's table extension removes
// the backslash before the code span is read).
func MarkdownCodeCell(s string) string {
	return codeSpan(strings.NewReplacer("|", `\|`, "\r\n", " ", "\n", " ", "\r", " ").Replace(s))
}

func codeSpan(s string) string {
	longest, run := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 || strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") && strings.TrimSpace(s) != "" {
		// A space on each side keeps a backtick at either end from
		// joining the fence; CommonMark strips one space on each side.
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
