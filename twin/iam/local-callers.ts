/**
 * Which synthesized principal each local access key stands for: the files function's role, the
 * API function's role, the batch run's and the large-file state machines' roles (found in the template by what they
 * are, not by name), and the admin.
 */
import type { Caller } from './decide.js';
import { LOCAL_ACCESS_KEYS, type LocalCaller } from './local-account.js';
import type { PolicyModel } from './policy-model.js';

/** The role of the function deployed for `purpose` (behind the HTTP API, or the bucket's notifications). */
function functionRole(model: PolicyModel, purpose: string): string {
  for (const fn of model.functions.values()) if (fn.purpose === purpose) return fn.role;
  throw new Error(`the template has no function wired as the ${purpose} function`);
}

/**
 * The state machine whose Distributed Map reads the bucket with `reader`: the batch run lists a
 * prefix (s3:listObjectsV2), the large-file machine reads a manifest of ranges (s3:getObject).
 */
function stateMachineReading(model: PolicyModel, reader: 'listObjectsV2' | 'getObject') {
  for (const [id, resource] of Object.entries(model.resolver.template.Resources)) {
    if (resource.Type !== 'AWS::StepFunctions::StateMachine') continue;
    const definition = String(model.resolver.resolve(resource.Properties?.DefinitionString ?? ''));
    if (definition.includes('"ItemReader"') && definition.includes(`:s3:${reader}`))
      return model.stateMachines.get(id)!;
  }
  throw new Error(`the template has no state machine whose Distributed Map reads with s3:${reader}`);
}

/** The large-file state machine's ARN, as the files function is told it. */
export function largeFileStateMachineArn(model: PolicyModel): string {
  return stateMachineReading(model, 'getObject').arn;
}

export function callerFor(model: PolicyModel, local: LocalCaller): Caller {
  switch (local) {
    case 'admin':
      return { admin: true };
    case 'files':
    case 'api':
      return { role: functionRole(model, local), session: `sudoku-${local}` };
    case 'run':
      return { role: stateMachineReading(model, 'listObjectsV2').role, session: 'sudoku-run' };
    case 'largeFile':
      return { role: stateMachineReading(model, 'getObject').role, session: 'sudoku-large-file' };
  }
}

/** Caller by access key, for every key the twin knows. */
export function callersByAccessKey(model: PolicyModel): Map<string, Caller> {
  return new Map(
    (Object.entries(LOCAL_ACCESS_KEYS) as [LocalCaller, string][]).map(([local, key]) => [
      key,
      callerFor(model, local),
    ]),
  );
}
