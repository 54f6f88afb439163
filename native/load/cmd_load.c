/* `portkit-target load KIND [options]`: a bounded load the agent runs and
 * measures itself, so that a latency run "under load" (portkit-target rt,
 * cyclictest) records what the load really was. Picks the kind (one file
 * each, load_modes.h) and hands it to the harness (load_run.c). */
#include "load_modes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_sys.h"
#include "pk_cli.h"
#include "pk_commands.h"
#include "pk_modes.h"
#include "pk_options.h"

#define DEFAULT_DURATION_S 10.0
#define MAX_DURATION_S 86400.0
#define DEFAULT_GRACE_S 2.0
#define MAX_GRACE_S 60.0

static int run_kind(int argc, char **argv);
static int run_noop(int argc, char **argv);
static void usage(FILE *out);

/* The kinds are the command's modes; each entry's data is its kind. */
static const pk_mode kinds[] = {
    {"cpu", run_kind, "busy threads at a duty cycle (--duty), optionally pinned (--cpus)", &pk_load_kind_cpu, false},
    {"spawn", run_kind, "process start-up: fork + exec of /bin/true (or this agent), N at once", &pk_load_kind_spawn,
     false},
    {"io", run_kind, "tree walks (readdir + lstat, like find) and write + fsync in a private temporary directory",
     &pk_load_kind_io, false},
    {"net", run_kind, "UDP (or TCP) flood between thread pairs over 127.0.0.1, like ping -f without root",
     &pk_load_kind_net, false},
    {"mem", run_kind, "memory bandwidth: write, read and copy over buffers larger than the caches", &pk_load_kind_mem,
     false},
    {"msg", run_kind, "hackbench-like messages between sender and receiver threads (socketpairs or pipes)",
     &pk_load_kind_msg, false},
    {"cmd", run_kind, "any command (/bin/sh -c) in its own process group, stopped at the end", &pk_load_kind_cmd, false},
    /* What spawn --program self runs: no load, so not named in errors. */
    {"noop", run_noop, "exit at once (what spawn --program self runs)", NULL, true},
};

static const pk_modes load_modes = {
    .cmd = PK_LOAD_CMD,
    .noun = "kind",
    .modes = kinds,
    .count = PK_MODE_COUNT(kinds),
    .usage = usage,
};

static void usage(FILE *out)
{
    fputs("usage: portkit-target load KIND [options] [--duration S] [--json]\n"
          "\n"
          "Runs a load for --duration seconds (default 10) and reports what it achieved: its\n"
          "own CPU use (one CPU = 100), the system's busy share from /proc/stat and the kind's\n"
          "own figures. SIGINT, SIGTERM or SIGHUP end it early with the same report. It leaves\n"
          "nothing behind: its processes are ended and reaped, its files and sockets removed.\n"
          "\n"
          "kinds:\n",
          out);
    pk_modes_usage(out, &load_modes, 6);
    fputs("\n"
          "options:\n"
          "  --duration S      seconds to run (10, 0.5, 2m, 1h), up to 1d (default 10)\n"
          "  --json            machine-readable output (schema " PK_LOAD_SCHEMA ")\n"
          "  --workers N       cpu, spawn, mem: threads (default: one per CPU it may use);\n"
          "                    io: tree walkers (default 1 per CPU); net: sender/receiver pairs (default 1)\n"
          "  --duty PERCENT    cpu: busy share of every period, 1-100 (default 100)\n"
          "  --period MS       cpu: the period, 1-1000 ms (default 10)\n"
          "  --cpus LIST       cpu: worker i runs on the i-th CPU of LIST (0-1,3); default\n"
          "                    workers: one per CPU listed\n"
          "  --program P       spawn: true (/bin/true, the default) or self (this agent's\n"
          "                    `load noop`; not under qemu-user without binfmt_misc)\n"
          "  --path DIR        io: the tree to walk, one filesystem, readdir + lstat (default\n"
          "                    /usr, else /)\n"
          "  --dir DIR         io: where its temporary directory goes (default $TMPDIR or /tmp)\n"
          "  --size N          io: KiB written per fsync (default 64); net: bytes per datagram\n"
          "                    or send (default 64); mem: MiB per worker (default 64);\n"
          "                    msg: bytes per message (default 100)\n"
          "  --proto P         net: udp (default) or tcp, over 127.0.0.1 only\n"
          "  --groups N        msg: groups of senders and receivers (default 2)\n"
          "  --pairs N         msg: senders and receivers in each group (default 4)\n"
          "  --pipe            msg: pipes instead of socketpairs\n"
          "  --cmd 'COMMAND'   cmd: the load, run as /bin/sh -c COMMAND in a process group\n"
          "                    of its own; its output goes to stderr\n"
          "  --grace S         cmd: seconds from SIGTERM to SIGKILL at the end (default 2)\n"
          "  -h, --help        show this help\n"
          "\n"
          "exit codes: 0 ran (completed, or interrupted by a signal), 2 bad usage, 3 this machine\n"
          "cannot run it, or it failed on the way (the document then says \"error\")\n"
          "\n"
          "examples:\n"
          "  portkit-target load cpu --duty 80 --duration 60 --json\n"
          "  portkit-target load io --path / --dir /data --duration 30\n"
          "  portkit-target load cmd --cmd 'stress-ng --cpu 2' --duration 60\n",
          out);
}

/* ---- options --------------------------------------------------------------- */

static const struct {
    unsigned bit;
    const char *name;
} option_names[] = {
    {PK_LOAD_OPT_WORKERS, "--workers"}, {PK_LOAD_OPT_DUTY, "--duty"},     {PK_LOAD_OPT_PERIOD, "--period"},
    {PK_LOAD_OPT_CPUS, "--cpus"},       {PK_LOAD_OPT_PROGRAM, "--program"}, {PK_LOAD_OPT_PATH, "--path"},
    {PK_LOAD_OPT_DIR, "--dir"},         {PK_LOAD_OPT_SIZE, "--size"},     {PK_LOAD_OPT_PROTO, "--proto"},
    {PK_LOAD_OPT_GROUPS, "--groups"},   {PK_LOAD_OPT_PAIRS, "--pairs"},   {PK_LOAD_OPT_PIPE, "--pipe"},
    {PK_LOAD_OPT_CMD, "--cmd"},         {PK_LOAD_OPT_GRACE, "--grace"},
};

static int cpus_option(pk_load_options *opt, const char *value)
{
    int n = pk_cpulist_parse(value, opt->cpus);
    if (n <= 0)
        return pk_fail(PK_EXIT_USAGE, PK_LOAD_CMD, "--cpus '%s': expected CPU numbers and ranges such as 0-1,3", value);
    opt->cpu_count = (size_t)n;
    return PK_CONTINUE;
}

static int one_option(int c, pk_load_options *opt, char *value)
{
    switch (c) {
    case 'd': return pk_seconds_option(PK_LOAD_CMD, "--duration", value, false, MAX_DURATION_S, &opt->duration_s);
    case 'G':
        opt->given |= PK_LOAD_OPT_GRACE;
        return pk_seconds_option(PK_LOAD_CMD, "--grace", value, true, MAX_GRACE_S, &opt->grace_s);
    case 'j': opt->json = true; return PK_CONTINUE;
    case 'w':
        opt->given |= PK_LOAD_OPT_WORKERS;
        return pk_whole_number_option(PK_LOAD_CMD, "--workers", value, 1, 256, &opt->workers);
    case 'D':
        opt->given |= PK_LOAD_OPT_DUTY;
        return pk_whole_number_option(PK_LOAD_CMD, "--duty", value, 1, 100, &opt->duty_percent);
    case 'P':
        opt->given |= PK_LOAD_OPT_PERIOD;
        return pk_whole_number_option(PK_LOAD_CMD, "--period", value, 1, 1000, &opt->period_ms);
    case 'C': opt->given |= PK_LOAD_OPT_CPUS; return cpus_option(opt, value);
    case 'p': opt->given |= PK_LOAD_OPT_PROGRAM; opt->program = value; return PK_CONTINUE;
    case 'a': opt->given |= PK_LOAD_OPT_PATH; opt->path = value; return PK_CONTINUE;
    case 'r': opt->given |= PK_LOAD_OPT_DIR; opt->dir = value; return PK_CONTINUE;
    case 's':
        opt->given |= PK_LOAD_OPT_SIZE;
        return pk_whole_number_option(PK_LOAD_CMD, "--size", value, 1, 1 << 30, &opt->size);
    case 'o': opt->given |= PK_LOAD_OPT_PROTO; opt->proto = value; return PK_CONTINUE;
    case 'g':
        opt->given |= PK_LOAD_OPT_GROUPS;
        return pk_whole_number_option(PK_LOAD_CMD, "--groups", value, 1, 64, &opt->groups);
    case 'n':
        opt->given |= PK_LOAD_OPT_PAIRS;
        return pk_whole_number_option(PK_LOAD_CMD, "--pairs", value, 1, 64, &opt->pairs);
    case 'i': opt->given |= PK_LOAD_OPT_PIPE; opt->pipe = true; return PK_CONTINUE;
    case 'c': opt->given |= PK_LOAD_OPT_CMD; opt->cmd = value; return PK_CONTINUE;
    default: return PK_EXIT_USAGE; /* not reached: parse_options hands errors on */
    }
}

static int parse_options(int argc, char **argv, const pk_load_kind *kind, pk_load_options *opt)
{
    static const struct option longopts[] = {
        {"duration", required_argument, NULL, 'd'}, {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},          {"workers", required_argument, NULL, 'w'},
        {"duty", required_argument, NULL, 'D'},    {"period", required_argument, NULL, 'P'},
        {"cpus", required_argument, NULL, 'C'},    {"program", required_argument, NULL, 'p'},
        {"path", required_argument, NULL, 'a'},    {"dir", required_argument, NULL, 'r'},
        {"size", required_argument, NULL, 's'},    {"proto", required_argument, NULL, 'o'},
        {"groups", required_argument, NULL, 'g'},  {"pairs", required_argument, NULL, 'n'},
        {"pipe", no_argument, NULL, 'i'},          {"cmd", required_argument, NULL, 'c'},
        {"grace", required_argument, NULL, 'G'},   {NULL, 0, NULL, 0},
    };
    pk_options_start();
    int c, status = PK_CONTINUE;
    while (status == PK_CONTINUE && (c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            return PK_EXIT_OK;
        }
        if (c == '?' || c == ':')
            return pk_option_error(PK_LOAD_CMD, c, argv, longopts);
        status = one_option(c, opt, optarg);
    }
    if (status == PK_CONTINUE)
        status = pk_no_operands(PK_LOAD_CMD, argc, argv);
    for (size_t i = 0; status == PK_CONTINUE && i < sizeof option_names / sizeof option_names[0]; i++)
        if ((opt->given & option_names[i].bit) && !(kind->options & option_names[i].bit))
            status = pk_fail(PK_EXIT_USAGE, PK_LOAD_CMD, "%s is not an option of load %s (try --help)",
                             option_names[i].name, kind->name);
    return status;
}

/* `KIND [options]` (argv[0] the kind's name) into *opt, with the kind's
 * defaults filled in and its values checked. */
static int parse_kind(const pk_load_kind *kind, int argc, char **argv, pk_load_options *opt)
{
    *opt = (pk_load_options){.duration_s = DEFAULT_DURATION_S, .grace_s = DEFAULT_GRACE_S};
    int status = parse_options(argc, argv, kind, opt);
    return status == PK_CONTINUE ? kind->prepare(opt) : status;
}

int pk_load_parse(int argc, char **argv, const pk_load_kind **kind, pk_load_options *opt)
{
    *kind = NULL;
    *opt = (pk_load_options){.duration_s = DEFAULT_DURATION_S, .grace_s = DEFAULT_GRACE_S};
    const pk_mode *mode;
    int shift;
    int status = pk_modes_select(&load_modes, argc, argv, &mode, &shift);
    if (status != PK_CONTINUE)
        return status;
    if (!mode->data) /* noop */
        return mode->run(argc - shift, argv + shift) == PK_EXIT_OK ? PK_CONTINUE : PK_EXIT_USAGE;
    *kind = mode->data;
    return parse_kind(*kind, argc - shift, argv + shift, opt);
}

/* A kind's handler: argv[0] is its name, the table's entry its kind. */
static int run_kind(int argc, char **argv)
{
    const pk_load_kind *kind = pk_modes_find(&load_modes, argv[0])->data;
    pk_load_options opt;
    int status = parse_kind(kind, argc, argv, &opt);
    if (status != PK_CONTINUE)
        return status;
    return pk_load_run_kind(kind, &opt);
}

static int run_noop(int argc, char **argv)
{
    (void)argv;
    return argc == 1 ? PK_EXIT_OK : pk_fail(PK_EXIT_USAGE, PK_LOAD_CMD, "noop takes no options");
}

int pk_cmd_load(int argc, char **argv)
{
    return pk_modes_run(&load_modes, argc, argv);
}
