// The names the service gives its resources itself. Most resources are named by CloudFormation (the
// stack's name, the logical ID and a random suffix), which never clash; a few must be named in the
// template: the large-file state machine, whose ARN the files function is told without a Ref (see
// large-file.ts), and the state machines' log groups, which must sit under /aws/vendedlogs/. Those
// names start with the service's name prefix, so two services in one stack, or in two stacks of
// one account and region, never ask for the same name.
import { createHash } from 'node:crypto';
import { Stack, Token } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/** The id CDK leaves out of logical IDs and unique names (a stack's `Default` child is the stack's own). */
const HIDDEN_ID = 'Default';

/**
 * The stack's name, then the service construct's path inside its stack: readable ids and a hash of
 * the whole path (ids may hold characters names may not, and two paths may read alike once those
 * are dropped). Stack names are unique in an account and region, and paths unique in a stack, so
 * no two services share a prefix. A stack's `Default` child has no path of its own, as in its
 * logical IDs: its prefix is the stack's name alone, the names the stack had before the construct
 * existed, so an existing deployment keeps its state machine and log groups.
 */
export function serviceNamePrefix(service: IConstruct): string {
  const stack = Stack.of(service);
  if (Token.isUnresolved(stack.stackName))
    throw new Error('the Sudoku service needs a literal stack name (it names its large-file state machine after it)');
  const ids = service.node.scopes
    .slice(service.node.scopes.indexOf(stack) + 1)
    .map((scope) => scope.node.id)
    .filter((id) => id !== HIDDEN_ID);
  if (ids.length === 0) return stack.stackName;
  const readable = ids.map((id) => id.replace(/[^A-Za-z0-9]/g, '')).filter(Boolean);
  const hash = createHash('sha256').update(ids.join('/')).digest('hex').slice(0, 8);
  return [stack.stackName, ...readable, hash].join('-');
}
