// The CDK app (`cdk.json` runs it with tsx): one stack, settings from context, and the cdk-nag
// AwsSolutions checks on every synth, so an unexplained finding fails `npx cdk synth`.
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { SudokuStack } from './sudoku-stack.js';

const app = new App();
new SudokuStack(app, 'Sudoku', {
  description: 'Sudoku solving service: HTTP API, S3 uploads and a scheduled batch, one Lambda function',
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
app.synth();
