/* Entry points of the agent's subcommands. Each gets argv with argv[0] set
 * to its own name ("cpu", "vdso", ...) and returns an exit code (pk_cli.h).
 * A command parses its options with pk_options.h, reports errors with
 * pk_fail, and writes --json through pk_json ending in pk_json_end_command;
 * native/tools/portkit-target.c lists the commands. */
#ifndef PK_COMMANDS_H
#define PK_COMMANDS_H

int pk_cmd_cpu(int argc, char **argv);
int pk_cmd_vdso(int argc, char **argv);
int pk_cmd_crc32c(int argc, char **argv);
int pk_cmd_rt(int argc, char **argv);
int pk_cmd_load(int argc, char **argv);
int pk_cmd_kconfig(int argc, char **argv);

#endif
