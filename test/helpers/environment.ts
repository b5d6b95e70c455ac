/**
 * Remembers the environment variables `names` as they are now and returns what puts them back
 * (unset again where they were unset): a test that points the function at the twin through
 * process.env leaves the next file the environment it found.
 */
export function keepEnvironment(names: Iterable<string>): () => void {
  const saved = new Map([...names].map((name) => [name, process.env[name]] as const));
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
