/* The modes of `portkit-target vdso`, one file each; cmd_vdso.c picks one. */
#ifndef PK_VDSO_MODES_H
#define PK_VDSO_MODES_H

/* Each gets argv[0] = its mode name (or "vdso" for the default list mode)
 * and returns an exit code (pk_cli.h). */
int pk_vdso_list(int argc, char **argv);
int pk_vdso_verify(int argc, char **argv);
int pk_vdso_bench(int argc, char **argv);

#endif
