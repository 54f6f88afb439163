/* The modes of `portkit-target rt`, one file each; cmd_rt.c picks one. */
#ifndef RT_MODES_H
#define RT_MODES_H

/* Each gets argv[0] = its mode name ("rt" for measuring) and returns an
 * exit code (pk_cli.h). */
int pk_rt_measure(int argc, char **argv);
int pk_rt_sysinfo(int argc, char **argv);

#endif
