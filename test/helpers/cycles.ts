// Cycles in a directed graph, for the tests that forbid them (module imports, template resources).

/** Each cycle reachable from `starts`, as `a -> b -> a`; `next` names a node's successors. */
export function cycles(starts: Iterable<string>, next: (node: string) => Iterable<string>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, trail: string[]): void => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      found.push([...trail.slice(trail.indexOf(node)), node].join(' -> '));
      return;
    }
    state.set(node, 'open');
    for (const successor of next(node)) visit(successor, [...trail, node]);
    state.set(node, 'done');
  };
  for (const node of starts) visit(node, []);
  return found;
}
