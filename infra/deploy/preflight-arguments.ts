// The deploy's `-c` settings, read as cdk reads them, so the preflight checks what cdk will deploy.

/** `-c key=value` / `--context key=value` arguments, as cdk takes them. */
export function contextArguments(argv: readonly string[]): Record<string, string> {
  const context: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value =
      arg === '-c' || arg === '--context' ? argv[++i] : arg.startsWith('--context=') ? arg.slice(10) : undefined;
    const at = value?.indexOf('=') ?? -1;
    if (value && at > 0) context[value.slice(0, at)] = value.slice(at + 1);
  }
  return context;
}
