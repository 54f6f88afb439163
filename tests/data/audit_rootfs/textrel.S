/* An absolute address kept in .text: the loader must patch the code page
   (R_AARCH64_ABS64 in .text, so the linker sets DT_TEXTREL). */
	.text
	.globl	planted_address
	.type	planted_address, %function
planted_address:
	ldr	x0, 1f
	ret
1:	.quad	planted_data

	.data
	.globl	planted_data
planted_data:
	.quad	0

	.section .note.GNU-stack,"",%progbits
