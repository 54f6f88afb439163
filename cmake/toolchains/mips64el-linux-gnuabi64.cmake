# Cross build of portkit-target for mips64el-linux-gnuabi64 (Debian's gcc-mips64el-linux-gnuabi64).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR mips64)
set(CMAKE_C_COMPILER mips64el-linux-gnuabi64-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/mips64el-linux-gnuabi64)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# ctest runs the cross-built tests under qemu-user.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-mips64el;-L;/usr/mips64el-linux-gnuabi64)
