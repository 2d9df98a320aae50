/** The cache folder of test/runtimes' lock file, installed when it is not there yet. */
export function runtimesDir (): string
/** A runtime's binary that runs here, or why there is none (naming the npm package). */
export function runtimeBinary (name: 'bun' | 'deno' | 'workerd'): { bin: string, version: string, dir: string } | { bin?: undefined, reason: string }
