// The CDK feature flags the service is built and tested under: cdk.json's, the one place they are
// written. The SudokuService sets them on its own node, where CDK looks for a flag first when a
// resource below it asks, so an app of one's own, whatever flags it sets (or none: an App made
// without cdk.json has CDK's oldest defaults), builds the same service the tests check. A bucket
// logging to another needs `serverAccessLogsUseBucketPolicy`, for one; a stack's singletons (the
// deploy-time handlers CDK adds once per stack) keep the app's own flags.
import cdkJson from '../cdk.json' with { type: 'json' };

export const FEATURE_FLAGS: Readonly<Record<string, unknown>> = Object.fromEntries(
  Object.entries(cdkJson.context).filter(([key]) => key.startsWith('@aws-cdk')),
);
