/**
 * The CDK app: `npx cdk synth` runs this (see cdk.json). The stack is
 * environment-agnostic, so synthesis needs no AWS credentials; the account and
 * region come from the CLI profile at deploy time.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { RulesServiceStack, stackId } from './stack.ts';

const app = new App();
new RulesServiceStack(app, stackId);
// cdk-nag runs as a policy validation plugin: any finding, warning or error,
// stops synthesis. Accepted findings are acknowledged, with their reason, beside the resource.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
app.synth();
