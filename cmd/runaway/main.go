// Command runaway finds AI-agent runs that ran away: it reads agent step logs
// (JSON Lines), computes loop indicators per run and reports which runs
// looped, why, from which step, and what it cost.
package main

import "os"

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
