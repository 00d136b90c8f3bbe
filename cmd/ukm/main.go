// Command ukm learns semi-supervised spectral kernels and kernel machines.
//
// Usage:
//
//	ukm demo [-seed S] [-trials N]
//	ukm reproduce -table NAME [-data DIR] [-trials N] [-seed S] [-json FILE] [model flags]
//	ukm fit -data FILE [-labels N] [-eval] [-proba] [-o MODEL] [-format csv|json] [model flags]
//	ukm predict (-model MODEL | -train FILE) -data FILE [-proba] [-format csv|json]
//	ukm active -data FILE -labels N [-budget B] [-batch K] [-strategy uklr|klr-active|klr-rand]
//	ukm version
//
// demo needs no files: it runs on synthetic sets generated in code.
// reproduce regenerates the papers' tables from the reference data sets; a
// trial that fails costs its cell that draw (in every column), is reported
// as it happens and listed under the table, and the exit status is then 1
// with the table written.
// fit and predict read a user's CSV (a label column; an empty label marks an
// unlabeled row) or LIBSVM file, gzip-compressed or not, and print one
// predicted class per row as CSV on standard output.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return // -h printed the usage: not a failure
		}
		fmt.Fprintln(os.Stderr, "ukm:", err)
		os.Exit(2)
	}
}

const usage = `usage: ukm <command> [flags]

commands:
  demo        base kernel vs SKL vs UKLR on synthetic sets (no files needed)
  reproduce   regenerate a paper's table: -table NAME (ukm reproduce -h lists them)
  fit         learn a kernel and classifier on a file, predict its unlabeled rows
  predict     predict the rows of -data (out of sample) with a saved -model, or fit on -train first
  active      the active-learning loop (UKLR) with the file's labels as the oracle: the learning curve
  version     print the version
  pictures    decision boundaries of RBF, KA and MM on the synthetic sets (PNG)

Run "ukm <command> -h" for the flags of a command.
`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	switch args[0] {
	case "demo":
		return demo(ctx, args[1:], stdout, stderr)
	case "reproduce":
		return reproduce(ctx, args[1:], stdout, stderr)
	case "fit":
		return fitCmd(ctx, args[1:], stdout, stderr, false)
	case "predict":
		return fitCmd(ctx, args[1:], stdout, stderr, true)
	case "pictures":
		return pictures(ctx, args[1:], stdout, stderr)
	case "active":
		return activeCmd(ctx, args[1:], stdout, stderr)
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, versionString())
		return nil
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

// version is the release of the command and the library.
const version = "0.5.0"

// versionString returns the version, with the VCS revision the binary was
// built from when the build recorded one.
func versionString() string {
	v := "ukm " + version
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " (" + s.Value[:12] + ")"
			}
		}
	}
	return v
}
