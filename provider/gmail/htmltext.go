package gmail

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
)

// blockTags end a line of text when converting HTML mail to text.
var blockTags = map[string]bool{"p": true, "div": true, "br": true, "tr": true, "li": true, "h1": true, "h2": true,
	"h3": true, "h4": true, "h5": true, "h6": true, "table": true, "ul": true, "ol": true, "blockquote": true, "hr": true}

// htmlToText renders an HTML mail body as plain text: text content with
// line breaks at block elements, list items as "- ", links as "text (url)",
// script and style dropped.
func htmlToText(s string) string {
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	skip := 0
	var href string
	for {
		switch z.Next() {
		case html.ErrorToken:
			return tidy(b.String())
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			tag := string(name)
			switch {
			case tag == "script" || tag == "style" || tag == "head":
				skip++
			case blockTags[tag]:
				b.WriteString("\n")
				if tag == "li" {
					b.WriteString("- ")
				}
			case tag == "a" && hasAttr:
				href = attr(z, "href")
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			tag := string(name)
			switch {
			case tag == "script" || tag == "style" || tag == "head":
				skip = max(0, skip-1)
			case blockTags[tag] && tag != "li":
				b.WriteString("\n")
			case tag == "a" && href != "":
				if strings.HasPrefix(href, "http") {
					b.WriteString(" (" + href + ")")
				}
				href = ""
			}
		case html.TextToken:
			if skip == 0 {
				raw := string(z.Text())
				words := strings.Join(strings.Fields(raw), " ")
				if words == "" {
					if raw != "" {
						b.WriteString(" ")
					}
					continue
				}
				if unicode.IsSpace(rune(raw[0])) {
					b.WriteString(" ")
				}
				b.WriteString(words)
				if unicode.IsSpace(rune(raw[len(raw)-1])) {
					b.WriteString(" ")
				}
			}
		}
	}
}

func attr(z *html.Tokenizer, want string) string {
	for {
		k, v, more := z.TagAttr()
		if string(k) == want {
			return string(v)
		}
		if !more {
			return ""
		}
	}
}

// tidy trims each line and collapses runs of blank lines.
func tidy(s string) string {
	var out []string
	blank := false
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			if !blank && len(out) > 0 {
				out = append(out, "")
			}
			blank = true
			continue
		}
		blank = false
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}
