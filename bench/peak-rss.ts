/**
 * A process's own peak memory, for the child processes the bench measures. Not
 * `process.resourceUsage().maxRSS` alone: on Linux a child created by fork then exec inherits its
 * parent's high-water mark (exec folds the forked copy's RSS into the process's maxrss), so every
 * child of the bench reported the bench's own RSS, 459 MB in a full run, whatever it used itself
 * (2026-12-05: a child using 42 MB, spawned by a parent of 445 MB, reported 404 MB). VmHWM in
 * /proc/self/status is the high-water mark since exec, every thread included; where there is no
 * /proc, maxRSS is the best there is.
 */
export function peakRssKb(): number {
  try {
    const { readFileSync } = process.getBuiltinModule('node:fs');
    const kb = /^VmHWM:\s*(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (kb) return Number(kb[1]);
  } catch {
    // no /proc: below
  }
  return process.resourceUsage().maxRSS;
}

/** The function's source, for the children that are `node -e` scripts: put it in, call `peakRssKb()`. */
export const PEAK_RSS_SOURCE = `const peakRssKb = ${peakRssKb.toString()};`;
