package main

import (
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/labelinf/labelinf/scorer"
)

// The manual is manual.txt, in Go doc comment syntax: labelinf help prints
// it from the binary, and doc.go, generated from it, makes it the package
// doc that go doc ./cmd/labelinf prints. After editing manual.txt (or when
// the attacks change), regenerate doc.go; TestDocGo fails until then.
//
//go:generate go test -run TestDocGo -update-doc

//go:embed manual.txt
var manualSource string

// manualText returns the manual: manual.txt with attackCatalog's list in
// place of {{attacks}}.
func manualText() string {
	s := strings.Replace(manualSource, "{{attacks}}", attackList(), 1)
	// Figures are marked as in the Markdown docs (TestFigures checks
	// them against the code); the manual shows the value alone.
	return figMarks.ReplaceAllString(s, "$1")
}

var figMarks = regexp.MustCompile(`<!-- fig [a-z0-9-]+ -->(.*?)<!-- /fig -->`)

// A topic is one section of the manual: the text before the first heading
// is "commands", and each "# Heading" is one topic named by its words in
// lower case joined by "-".
type topic struct {
	name, title, body string
}

func topics() []topic {
	var out []topic
	cur := topic{name: "commands", title: "Commands"}
	for _, l := range strings.SplitAfter(manualText(), "\n") {
		if h, ok := strings.CutPrefix(l, "# "); ok {
			cur.body = strings.TrimSpace(cur.body)
			out = append(out, cur)
			h = strings.TrimSpace(h)
			cur = topic{name: strings.ReplaceAll(strings.ToLower(h), " ", "-"), title: h}
			continue
		}
		cur.body += l
	}
	cur.body = strings.TrimSpace(cur.body)
	return append(out, cur)
}

// runHelp is labelinf help [TOPIC|all].
func runHelp(e *env, args []string) int {
	ts := topics()
	var names []string
	for _, t := range ts {
		names = append(names, t.name)
	}
	switch {
	case len(args) > 1:
		return usageError(e.stderr, "help", fmt.Errorf("want at most one topic, got %q", args))
	case len(args) == 0:
		fmt.Fprintln(e.stdout, ts[0].body)
		fmt.Fprintln(e.stdout, "\nTopics (labelinf help TOPIC; labelinf help all prints the whole manual, as go doc ./cmd/labelinf does in a clone):")
		fmt.Fprintln(e.stdout)
		tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
		for i, t := range ts {
			fmt.Fprintf(tw, "  %s\t%s\n", t.name, firstSentence(t, i == 0))
		}
		tw.Flush()
		return 0
	case args[0] == "all":
		fmt.Fprint(e.stdout, manualText())
		return 0
	}
	name := strings.ToLower(strings.TrimLeft(args[0], "-"))
	for _, t := range ts {
		if t.name == name {
			fmt.Fprintf(e.stdout, "%s\n\n%s\n", t.title, t.body)
			return 0
		}
	}
	// A unique prefix ("output" for output-files) is the topic.
	var match []topic
	for _, t := range ts {
		if strings.HasPrefix(t.name, name) {
			match = append(match, t)
		}
	}
	if len(match) == 1 {
		fmt.Fprintf(e.stdout, "%s\n\n%s\n", match[0].title, match[0].body)
		return 0
	}
	return usageError(e.stderr, "help", fmt.Errorf("no topic %q%s (topics: %s, all)", args[0], didYouMean(args[0], names), strings.Join(names, ", ")))
}

// firstSentence summarises topic t for the topic list.
func firstSentence(t topic, first bool) string {
	if first {
		return "the commands, their usage and exit status (this page)"
	}
	s := strings.Join(strings.Fields(t.body), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	if len(s) > 90 {
		s = s[:strings.LastIndex(s[:87], " ")] + " …"
	}
	return s
}

// didYouMean returns "; did you mean X?" naming the candidates closest to
// name (edit distance at most a third of its length, at least 1, or name a
// prefix of one candidate), or "".
func didYouMean(name string, candidates []string) string {
	low := strings.ToLower(name)
	best, bestD := []string(nil), max(1, len([]rune(low))/3)+1
	for _, c := range candidates {
		d := editDistance(low, strings.ToLower(c))
		if d == 0 {
			continue
		}
		if strings.HasPrefix(strings.ToLower(c), low) && len(low) >= 2 {
			d = min(d, 1)
		}
		switch {
		case d < bestD:
			best, bestD = []string{c}, d
		case d == bestD && len(best) > 0:
			best = append(best, c)
		}
	}
	if len(best) == 0 {
		return ""
	}
	return "; did you mean " + strings.Join(best, " or ") + "?"
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// commandUsage returns the lines of the short usage for command name.
func commandUsage(name string) string {
	var out []string
	in := false
	for _, l := range strings.Split(usage, "\n") {
		t := strings.TrimSpace(strings.TrimPrefix(l, "usage:"))
		if rest, ok := strings.CutPrefix(t, "labelinf "); ok {
			cmd, _, _ := strings.Cut(rest, " ")
			in = cmd == name
		} else if !strings.HasPrefix(l, " ") {
			in = false
		}
		if in {
			out = append(out, "       "+strings.TrimPrefix(strings.TrimPrefix(l, "usage: "), "       "))
		}
	}
	if len(out) == 0 {
		return ""
	}
	out[0] = "usage: " + strings.TrimPrefix(out[0], "       ")
	return strings.Join(out, "\n")
}

// helpExtra adds a command's own lists to its -h (its items, operations).
var helpExtra = map[string]func() string{}

// printCommandHelp prints command name's -h: its usage, its flags and
// where its manual is.
func printCommandHelp(w io.Writer, name string, fs *flag.FlagSet) {
	fmt.Fprintln(w, commandUsage(name))
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	} else {
		fmt.Fprintln(w, "\nNo flags.")
	}
	if f := helpExtra[name]; f != nil {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(f(), "\n"))
	}
	fmt.Fprintf(w, "\nRun 'labelinf help %s' for the manual.\n", name)
}

// lastFlagSets keeps the most recent flag set of each command, so that a
// usage error about a flag can say what the flag means. A command's flags
// and their texts are the same at every run.
var lastFlagSets sync.Map // command name → *flag.FlagSet

// parseArgs parses args into fs. It prints the command's help on -h, and
// on an unknown flag the closest flags; it returns false after a usage
// error or -h (exit status 2).
func parseArgs(fs *flag.FlagSet, args []string, stderr io.Writer) bool {
	err := fs.Parse(args)
	if err == nil {
		return true
	}
	name := strings.TrimPrefix(fs.Name(), "labelinf ")
	if errors.Is(err, flag.ErrHelp) {
		printCommandHelp(stderr, name, fs)
		return false
	}
	// The flag package printed err already.
	if m := undefinedFlag.FindStringSubmatch(err.Error()); m != nil {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, "-"+f.Name) })
		if s := didYouMean("-"+m[1], names); s != "" {
			fmt.Fprintf(stderr, "%s\n", strings.TrimPrefix(s, "; "))
		}
	}
	fmt.Fprintf(stderr, "Run 'labelinf %s -h' for its flags.\n", name)
	return false
}

var undefinedFlag = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)

// explainFlag returns, when msg (a usage error of command name) is about
// one of its flags ("-n 0 outside …"), a line saying what the flag is and
// whether it was given; else "".
func explainFlag(name, msg string) string {
	v, ok := lastFlagSets.Load(name)
	if !ok || !strings.HasPrefix(msg, "-") {
		return ""
	}
	fs := v.(*flag.FlagSet)
	fname := strings.TrimLeft(msg, "-")
	if i := strings.IndexAny(fname, " :=,"); i >= 0 {
		fname = fname[:i]
	}
	f := fs.Lookup(fname)
	if f == nil {
		return ""
	}
	given := false
	fs.Visit(func(g *flag.Flag) { given = given || g == f })
	if given && !strings.Contains(msg, " outside ") {
		// A message about a value given says what is wrong with it; a
		// flag not given, or a value out of range, is explained.
		return ""
	}
	arg, use := flag.UnquoteUsage(f)
	s := "  -" + f.Name
	if arg != "" {
		s += " " + arg
	}
	s += ": " + use
	if !given {
		s += fmt.Sprintf("\n  (-%s was not given: its default is %s)", f.Name, defaultText(f))
	}
	return s
}

func defaultText(f *flag.Flag) string {
	if f.DefValue == "" {
		return `""`
	}
	return f.DefValue
}

// plainError returns err's message for a user: without the library
// package's prefix ("precision: ", "decode: "), and with the closest names
// after a name the message says it does not know, `"NAME" … (want one of
// A, B, C)` and the like.
func plainError(err error) string {
	msg := pkgPrefix.ReplaceAllString(err.Error(), "")
	msg = strings.ReplaceAll(msg, ": fpa: ", ": ")
	for _, re := range nameLists {
		m := re.FindStringSubmatchIndex(msg)
		if m == nil {
			continue
		}
		name := msg[m[2]:m[3]]
		var cands []string
		for _, c := range strings.FieldsFunc(msg[m[4]:m[5]], func(r rune) bool { return r == ',' || r == ' ' || r == ')' }) {
			if c != "or" && c != "" {
				cands = append(cands, c)
			}
		}
		if s := didYouMean(name, cands); s != "" {
			// After `"NAME"`, unless the list follows it at once; else
			// at the end.
			at := len(msg)
			if m[3] < len(msg) && msg[m[3]] == '"' && !strings.HasPrefix(msg[m[3]+1:], " is not one of") {
				at = m[3] + 1
			}
			return msg[:at] + s + msg[at:]
		}
		return msg
	}
	return msg
}

var (
	pkgPrefix = regexp.MustCompile(`^(?:bench|precision|catalog|single|discrete|decode|scorer|fpa|repro|audit|passive|fingerprint|oracle|defence|adaptive): `)
	// nameLists match a quoted unknown name (group 1) and the list of
	// known ones (group 2).
	nameLists = []*regexp.Regexp{
		regexp.MustCompile(`"([^"]+)"[^"(]*\(want(?: one of)? ([^)]+)\)`),
		regexp.MustCompile(`"([^"]+)" is not one of (.+)$`),
		regexp.MustCompile(`file ([^ ]+) not found \(built-in names: ([^)]+)\)`),
	}
)

// scorerError shortens scorer.ParseModel's error for an unknown name (the
// whole composed grammar) to the closest names and where the grammar is.
func scorerError(name string, err error) error {
	if !strings.HasPrefix(err.Error(), "scorer: unknown scorer") {
		return err
	}
	var names []string
	for _, n := range scorer.ModelNames {
		if n, _, _ = strings.Cut(n, "["); !strings.Contains(n, ":") {
			names = append(names, n)
		}
	}
	names = append(names, "binary64", "float64", "binary32", "float32", "binary16", "bfloat16", "exact")
	return fmt.Errorf("unknown scorer %q%s (presets: %s; labelinf help scorers gives the formats and the composed syntax)",
		name, didYouMean(name, names), strings.Join(scorer.ModelNames, ", "))
}
