/** The generated module's path, relative to the project root. */
export const SEARCH_KERNEL_MODULE: string;
/** What the generated module records: the kernel source's hash with the compiler's version and flags. */
export function searchKernelStamp(root: string): string;
/** Compiles the kernel into SEARCH_KERNEL_MODULE unless it already carries the current stamp. */
export function buildSearchKernel(root: string): Promise<void>;
