// The SudokuService construct in a stack of one's own: props optional and checked as the context is,
// and two services in one stack, or in two stacks of one account, asking for no name twice.
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { beforeAll, describe, expect, it } from 'vitest';
import { largeFileStateMachineName } from '../../infra/constructs/large-file.js';
import { defaults, readSettings } from '../../infra/settings.js';
import { SudokuService, type SudokuServiceProps } from '../../infra/sudoku-service.js';
import { deployedIdentity, fakeBundle } from './helpers.js';

const bundleDir = fakeBundle();

/** The message `new SudokuService(...)` throws with `props`, or undefined. */
function propsError(props: SudokuServiceProps): string | undefined {
  try {
    new SudokuService(new Stack(new App(), 'Props'), 'Service', { bundleDir, ...props });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The message readSettings throws for `context`, or undefined. */
function contextError(context: Record<string, unknown>): string | undefined {
  try {
    readSettings(new App({ context }).node);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The name the template gives a service's large-file state machine. */
const largeFileName = (service: SudokuService): string | undefined =>
  (service.largeFileStateMachine.node.defaultChild as sfn.CfnStateMachine).stateMachineName;

describe('SudokuService props', () => {
  it('are optional: without any, the settings are the defaults the stack deploys', () => {
    const service = new SudokuService(new Stack(new App(), 'Bare'), 'Service');
    expect(service.settings).toEqual(defaults);
  });

  it.each<[string, SudokuServiceProps]>([
    ['a number out of range', { apiMemoryMb: 64 }],
    ['a timeout past API Gateway', { apiTimeoutSeconds: 30 }],
    ['an unknown route for uploads', { s3Events: 'kinesis' as 'sqs' }],
    ['a retention CloudWatch does not offer', { logRetentionDays: 10 }],
    ['an origin with a path', { corsOrigins: ['https://app.example.com/path'] }],
    ['a batch past 256 KiB', { batchItemsPerInvocation: 100_000 }],
    ['a throttle the pool cannot hold', { apiReservedConcurrency: 50, apiRateLimit: 500 }],
    ['a files demand past its pool', { filesReservedConcurrency: 20, largeFileMaxConcurrency: 30 }],
  ])('refuse %s with the message the context gets', (_what, props) => {
    const message = propsError(props);
    expect(message).toBeDefined();
    expect(message).toBe(contextError(props as Record<string, unknown>));
  });

  it('refuse a prop that is no setting, naming it (JavaScript callers have no compiler to catch a misspelling)', () => {
    expect(propsError({ apiMemoryMB: 3538 } as SudokuServiceProps)).toMatch(
      /^SudokuService has no prop "apiMemoryMB": its props are apiMemoryMb, /,
    );
  });

  it('take the settings as given, the derived ones derived from them', () => {
    const service = new SudokuService(new Stack(new App(), 'Given'), 'Service', {
      bundleDir,
      apiReservedConcurrency: 200,
      s3Events: 'sqs',
    });
    expect(service.settings).toEqual(
      readSettings(new App({ context: { apiReservedConcurrency: 200, s3Events: 'sqs' } }).node),
    );
  });
});

describe('two services in one stack, and a third in another stack', () => {
  let first: Template;
  let second: Template;
  let services: Record<string, SudokuService>;
  beforeAll(() => {
    const app = new App();
    const shared = new Stack(app, 'Shared');
    const other = new Stack(app, 'Other');
    services = {
      a: new SudokuService(shared, 'A', { bundleDir }),
      b: new SudokuService(shared, 'B', { bundleDir, retainBucket: false }),
      c: new SudokuService(other, 'A', { bundleDir }),
    };
    first = Template.fromStack(shared);
    second = Template.fromStack(other);
  });

  it('give no two resources the same name (names CloudFormation generates are its own, never the same)', () => {
    const named = [first, second].flatMap((t) =>
      Object.values(deployedIdentity(t).resources)
        .filter((r) => r.name !== undefined)
        .map((r) => `${r.type} ${JSON.stringify(r.name)}`),
    );
    expect(named.length).toBeGreaterThanOrEqual(3 * 4);
    expect(named.filter((name, i) => named.indexOf(name) !== i)).toEqual([]);
  });

  it("name each large-file state machine after its stack and its path, and tell each files function its own machine's ARN", () => {
    const names = Object.values(services).map(largeFileName);
    expect(names).toEqual([
      expect.stringMatching(/^Shared-A-[0-9a-f]{8}-large-file$/),
      expect.stringMatching(/^Shared-B-[0-9a-f]{8}-large-file$/),
      expect.stringMatching(/^Other-A-[0-9a-f]{8}-large-file$/),
    ]);
    for (const service of Object.values(services)) {
      const fn = service.filesFunction.node.defaultChild as lambda.CfnFunction;
      const env = JSON.stringify(Stack.of(service).resolve(fn.environment));
      expect(env).toContain(`:stateMachine:${largeFileName(service)}"`);
    }
  });

  it("count each service's own puzzles: its functions' metrics and its dashboard carry a service name of its own", () => {
    const serviceNames = Object.values(services).map((service) => {
      const names = [service.apiFunction, service.filesFunction].map(
        (fn) =>
          (
            Stack.of(fn).resolve((fn.node.defaultChild as lambda.CfnFunction).environment) as {
              variables: Record<string, string>;
            }
          ).variables.POWERTOOLS_SERVICE_NAME,
      );
      expect(names[0]).toBe(names[1]);
      const body = JSON.stringify(
        Stack.of(service).resolve((service.dashboard.node.defaultChild as cloudwatch.CfnDashboard).dashboardBody),
      );
      expect(body).toContain(`\\"service\\",\\"${names[0]}\\"`);
      return names[0];
    });
    expect(new Set(serviceNames).size).toBe(3);
  });

  it("share the stack's one deploy-time notifications handler, and give it one log group", () => {
    expect(Object.keys(first.findResources('Custom::S3BucketNotifications'))).toHaveLength(2);
    const handlers = Object.keys(first.findResources('AWS::Lambda::Function')).filter((id) =>
      id.startsWith('BucketNotificationsHandler'),
    );
    expect(handlers).toHaveLength(1);
    expect(
      Object.keys(first.findResources('AWS::Logs::LogGroup')).filter((id) => id.startsWith('NotificationsHandlerLogs')),
    ).toHaveLength(1);
  });

  it("keep a stack's Default service's names those of the stack alone (as the Sudoku stack deploys them)", () => {
    const stack = new Stack(new App(), 'Sudoku');
    const service = new SudokuService(stack, 'Default', { bundleDir });
    expect(largeFileName(service)).toBe(largeFileStateMachineName('Sudoku'));
    expect(largeFileName(service)).toBe('Sudoku-large-file');
  });
});
