// cdk-nag's AwsSolutions pack over the default stack: every finding is fixed or acknowledged with a reason.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Acknowledgement, acknowledgements, type Synthesized, synth, unacknowledgedFindings } from './helpers.js';

let synthesized: Synthesized;
beforeAll(() => {
  synthesized = synth();
});

describe('cdk-nag AwsSolutions', () => {
  it('reports no finding that is not acknowledged', () => {
    expect(unacknowledgedFindings(synthesized.app)).toEqual([]);
  });

  it('needs no acknowledgement for the runtime: Node.js 24 is the newest Lambda Node.js runtime CDK knows', () => {
    expect(acknowledgements(synthesized.app).filter((a) => a.id.startsWith('AwsSolutions-L1'))).toEqual([]);
  });

  it('acknowledges only deliberate choices, each with a reason of at least one sentence', () => {
    const acks: Acknowledgement[] = acknowledgements(synthesized.app);
    for (const ack of acks) expect(ack.reason.length, `${ack.id} at ${ack.path}`).toBeGreaterThanOrEqual(40);
    expect(acks.map((a) => a.id).sort()).toEqual(
      [
        'AwsSolutions-APIG4',
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        'AwsSolutions-IAM5[Resource::<StorageBucket5CB7C8EA.Arn>/batch/*]',
        'AwsSolutions-IAM5[Resource::<StorageBucket5CB7C8EA.Arn>/batch-reports/*]',
        'AwsSolutions-IAM5[Resource::<StorageBucket5CB7C8EA.Arn>/batch-solved/*]',
        'AwsSolutions-IAM5[Resource::<StorageBucket5CB7C8EA.Arn>/incoming/*]',
        'AwsSolutions-IAM5[Resource::<StorageBucket5CB7C8EA.Arn>/long-keys/*]',
        'AwsSolutions-IAM5[Resource::<StorageBucket5CB7C8EA.Arn>/reports/*]',
        'AwsSolutions-IAM5[Resource::<StorageBucket5CB7C8EA.Arn>/solved/*]',
        // staging/: the files function's work objects, and the large-file machine's manifest reader
        'AwsSolutions-IAM5[Resource::<StorageBucket5CB7C8EA.Arn>/staging/*]',
        'AwsSolutions-IAM5[Resource::<StorageBucket5CB7C8EA.Arn>/staging/*]',
        'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:Sudoku-large-file:file-*]',
        // X-Ray on the roles of the API function, the files function, the run, the starter and the
        // large-file machine (+ log delivery)
        'AwsSolutions-IAM5[Resource::*]',
        'AwsSolutions-IAM5[Resource::*]',
        'AwsSolutions-IAM5[Resource::*]',
        'AwsSolutions-IAM5[Resource::*]',
        'AwsSolutions-IAM5[Resource::*]',
        'AwsSolutions-IAM5[Resource::<StorageBucket5CB7C8EA.Arn>/run-reports/*]',
        ...(
          [
            ['BatchStateMachineA1FF2995', ['', '/BatchFiles', '/SweepIncoming']],
            ['LargeFileStateMachine3B22997C', ['', '/SolveRanges', '/RedoRanges']],
          ] as const
        ).flatMap(([machine, labels]) =>
          labels.map(
            (label) =>
              `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:{"Fn::Select":[6,{"Fn::Split":[":",{"Ref":"${machine}"}]}]}${label}:*]`,
          ),
        ),
        // errors only by default: the run, the starter, the large-file machine
        'AwsSolutions-SF1',
        'AwsSolutions-SF1',
        'AwsSolutions-SF1',
        'AwsSolutions-SNS2',
        'AwsSolutions-SQS3',
        'AwsSolutions-SQS3',
      ].sort(),
    );
  });
});
