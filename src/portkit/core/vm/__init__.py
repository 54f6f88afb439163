"""`--target vm:KERNEL`: a real kernel booted under qemu-system as the board
(docs/architecture.md, "Kernels in a VM"). debian fetches packages, kernel
finds and prepares the image, initramfs makes the VM's only filesystem,
machine says how qemu boots each architecture, console is the protocol the
host and the VM's init speak over the serial line, session runs one VM,
target is the Target every agent command uses."""
