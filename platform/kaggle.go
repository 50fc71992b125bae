package platform

import (
	"os"
	"path/filepath"
	"strconv"
)

// KaggleDecimals is what Kaggle's leaderboard shows.
const KaggleDecimals = 5

// readKaggle is the Kaggle preset: Kaggle runs its own scorer, so the
// bundle is the host's solution file (p, or -labels) and the settings
// the host chose on Kaggle's pages.
func readKaggle(p string, o Options) (*Bundle, error) {
	b := &Bundle{Platform: Kaggle, Path: p}
	d := KaggleDecimals
	b.Decimals = &d
	b.set("decimals", strconv.Itoa(d), "Kaggle's leaderboard (the platform shows 5 decimals; a host cannot change it)")
	if o.DailyLimit <= 0 {
		return nil, &FieldError{Kaggle, "-daily-limit", "the daily submission limit is the host's Kaggle setting: give -daily-limit N"}
	}
	b.DailyLimit = o.DailyLimit
	b.set("daily_limit", strconv.Itoa(o.DailyLimit), "-daily-limit (the host's Kaggle setting)")
	b.set("total_limit", "0", "none: Kaggle limits submissions per day")
	lab := o.Labels
	if lab == "" {
		lab = p
	}
	if lab == "" {
		return nil, &FieldError{Kaggle, "-labels", "give the solution file (-bundle FILE or -labels FILE)"}
	}
	if st, err := os.Stat(lab); err == nil && st.IsDir() {
		return nil, &FieldError{Kaggle, "-labels", lab + " is a directory: give the solution file"}
	}
	o2 := o
	o2.Labels = ""
	if err := b.readLabels(os.DirFS(filepath.Dir(lab)), filepath.Base(lab), "solution file", o2); err != nil {
		return nil, err
	}
	switch {
	case o.PublicFraction > 0 && b.Public != nil:
		return nil, &FieldError{Kaggle, "-public-fraction", "the solution file's Usage column already says which rows are public"}
	case o.PublicFraction > 0:
		if o.PublicFraction > 1 {
			return nil, &FieldError{Kaggle, "-public-fraction", "outside (0, 1]"}
		}
		b.PublicFraction = o.PublicFraction
		b.set("public_fraction", strconv.FormatFloat(o.PublicFraction, 'g', -1, 64), "-public-fraction (the host's Kaggle setting)")
	case b.Public == nil:
		return nil, &FieldError{Kaggle, "-public-fraction", "the public fraction is the host's Kaggle setting: give -public-fraction F (or a Usage column in the solution file)"}
	}
	if err := b.setMetric(o, "", "-metric"); err != nil {
		return nil, err
	}
	if o.Decimals >= 0 && o.Decimals != KaggleDecimals {
		return nil, &FieldError{Kaggle, "-decimals", "Kaggle shows 5 decimals; a host cannot change it"}
	}
	return b, nil
}
