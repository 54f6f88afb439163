#!/bin/sh
# Records the cyclictest outputs in this folder with the machine's own
# cyclictest (Debian rt-tests). Run as root (SCHED_FIFO, mlockall) from this
# folder; README.md lists what each command produced and where it ran.
set -eu

# The trace goes to the terminal (fd 3), never into the recorded files.
exec 3>&2
ct() { echo "+ cyclictest $*" >&3; cyclictest "$@"; }

# Histograms: -h (per thread), -H (an extra all-threads column), --histfile,
# and a 5 us histogram that overflows.
ct -m -p80 -t2 -i1000 -l2000 -h 400 -q > hist-h400.txt 2>&1
ct -m -p80 -t2 -i1000 -l2000 -H 400 -q > histofall-H400.txt 2>&1
ct -m -p80 -t2 -i1000 -l2000 -h 400 -q --histfile=histfile-h400.txt > histfile-h400.stdout.txt 2>&1
ct -m -p80 -t2 -i1000 -l2000 -h 5 -q > hist-h5-overflows.txt 2>&1
ct -m -p80 -t2 -a 1 -i500 -l4000 -h 100 -q > hist-affinity-a1.txt 2>&1

# JSON: with a histogram (stdout holds the same run's text histogram),
# without one (stdout holds the same run's -q summary), in nanoseconds (-N),
# and an endless run stopped by SIGINT.
ct -m -p80 -t2 -i1000 -l2000 -h 400 -q --json=json-h400.json > json-h400.stdout.txt 2>&1
ct -m -p80 -t2 -i1000 -l1000 -q --json=json-nohist.json > json-nohist.stdout.txt 2>&1
# (the text histogram of 200000 one-ns rows goes to /dev/null)
ct -m -p80 -t1 -a1 -i500 -l2000 -N -h 200000 -q --histfile=/dev/null --json=json-nsecs.json > json-nsecs.stdout.txt 2>&1
timeout -s INT 2 cyclictest -m -p80 -t2 -i1000 -q --json=json-sigint.json > json-sigint.stdout.txt 2>&1 || true

# Verbose logs: two threads (each at its own interval), pinned to CPU 1, with
# a histogram as well, and one thread as in the Loongson report (-t1 -v).
ct -m -p80 -t2 -i1000 -l2000 -v > verbose-t2.txt 2>&1
ct -m -p80 -t2 -a 1 -i1000 -l1000 -v > verbose-affinity-a1.txt 2>&1
ct -m -p80 -t2 -i1000 -l1000 -h 200 -v > verbose-with-hist.txt 2>&1
ct -p80 -t1 -i1000 -l5000 -v > verbose-t1-loongson-style.txt 2>&1

# Summaries: -q (one line per thread at the end) and the live screen.
ct -m -p80 -t2 -i1000 -l2000 -q > quiet-t2.txt 2>&1
ct -m -p80 -t2 -i1000 -l1000 > live-t2.txt 2>&1
