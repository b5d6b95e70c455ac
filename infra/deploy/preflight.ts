// `npm run deploy` runs this before `cdk deploy`: with the deployer's credentials it reads the
// account's Lambda concurrency (GetAccountSettings) and what this stack reserves today, and stops
// with the settings that fit when the stack's reservations would not, before CloudFormation starts.
// Without credentials it says so and lets `cdk deploy` report that itself.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CloudFormationClient, DescribeStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import { GetAccountSettingsCommand, GetFunctionConcurrencyCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { App } from 'aws-cdk-lib';
import { root } from '../paths.js';
import { readSettings } from '../settings.js';
import { checkReservations, settingsCheck } from './concurrency-quota.js';
import { contextArguments } from './preflight-arguments.js';

const STACK = 'Sudoku';

async function reservedByThisStack(lambda: LambdaClient): Promise<number> {
  const cloudFormation = new CloudFormationClient({});
  try {
    const { StackResources = [] } = await cloudFormation.send(new DescribeStackResourcesCommand({ StackName: STACK }));
    let reserved = 0;
    for (const resource of StackResources) {
      if (resource.ResourceType !== 'AWS::Lambda::Function' || !resource.PhysicalResourceId) continue;
      const concurrency = await lambda.send(
        new GetFunctionConcurrencyCommand({ FunctionName: resource.PhysicalResourceId }),
      );
      reserved += concurrency.ReservedConcurrentExecutions ?? 0;
    }
    return reserved;
  } catch (error) {
    if ((error as { name?: string }).name === 'ValidationError') return 0; // no such stack yet
    throw error;
  } finally {
    cloudFormation.destroy();
  }
}

export async function main(argv: readonly string[]): Promise<number> {
  const cdkJson = JSON.parse(readFileSync(path.join(root, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  const context = { ...cdkJson.context, ...contextArguments(argv) };
  const settings = readSettings(new App({ context }).node);
  const lambda = new LambdaClient({});
  try {
    const { AccountLimit } = await lambda.send(new GetAccountSettingsCommand({}));
    const verdict = checkReservations(
      {
        concurrentExecutions: AccountLimit?.ConcurrentExecutions ?? 0,
        unreservedConcurrentExecutions: AccountLimit?.UnreservedConcurrentExecutions ?? 0,
        reservedByThisStack: await reservedByThisStack(lambda),
      },
      settings,
      settingsCheck(context),
    );
    if (!verdict.fits) {
      process.stderr.write(`npm run deploy: stopped before CloudFormation. ${verdict.message}\n`);
      return 1;
    }
    const shared =
      settings.apiReservedConcurrency === 0 || settings.filesReservedConcurrency === 0
        ? `, and its unreserved functions use up to ${settings.unreservedConcurrencyShare} of the account's unreserved pool`
        : '';
    process.stderr.write(
      `Lambda concurrency: ${verdict.available} reservable, the stack reserves ${settings.apiReservedConcurrency + settings.filesReservedConcurrency}${shared}: fits.\n`,
    );
    return 0;
  } catch (error) {
    const e = error as { name?: string; message?: string };
    process.stderr.write(
      `npm run deploy: could not read the account's Lambda concurrency (${e.name}: ${e.message}); not checked, cdk deploy goes on.\n`,
    );
    return 0;
  } finally {
    lambda.destroy();
  }
}

process.exitCode = await main(process.argv.slice(2));
