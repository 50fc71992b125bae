// Command labelinf-score is labelinf score alone: the defended scorer a
// Codabench, EvalAI or Hugging Face bundle ships (docs/PLATFORMS.md). It
// links package platform and package defence only — no SQLite,
// PostgreSQL or plotting — so that the binary a bundle carries is small.
//
// Usage:
//
//	labelinf-score -platform codabench|evalai|huggingface -metric NAME -key KEY -secret-file FILE
//	               [-defence FILE] [-ref PATH] [-res PATH] [-out DIR] [-split CODENAME] [-column NAME]
package main

import (
	"os"

	"github.com/labelinf/labelinf/internal/scorecli"
)

func main() { os.Exit(scorecli.Main(os.Args[1:], os.Stdout, os.Stderr)) }
