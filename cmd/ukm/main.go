// Command ukm learns semi-supervised spectral kernels and kernel machines.
//
// Usage:
//
//	ukm demo [-seed S] [-trials N]
//	ukm reproduce -table NAME [-data DIR] [-trials N] [-seed S] [-json FILE] [model flags]
//	ukm fit -data FILE [-label-col K] [model flags]          predictions for the unlabeled rows
//	ukm predict -train FILE -data FILE [-label-col K] [model flags]
//
// demo needs no files: it runs on synthetic sets generated in code.
// reproduce regenerates the papers' tables from the reference data sets.
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
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "ukm:", err)
		}
		os.Exit(2)
	}
}

const usage = `usage: ukm <command> [flags]

commands:
  demo        base kernel vs SKL vs UKLR on synthetic sets (no files needed)
  reproduce   regenerate a paper's table: -table kdd06-table2|kdd06-table3|mm-table4|la-table1
  fit         learn a kernel and classifier on a file, predict its unlabeled rows
  predict     fit on -train, predict the rows of -data (out of sample)
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
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}
