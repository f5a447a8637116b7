/**
 * Where the stack's alarms go: one SNS topic that every alarm of the stack
 * notifies on ALARM and on the way back to OK, with an e-mail subscription
 * when the deployer names an address (`npx cdk deploy -c alarmEmail=ops@example.com`).
 *
 * The topic is encrypted with a key of its own: CloudWatch alarms cannot
 * publish to a topic encrypted with the AWS-managed aws/sns key, whose policy
 * cannot be changed to let them, so this key's policy lets CloudWatch use it,
 * and the topic's policy lets CloudWatch publish, both for this account's
 * alarms only.
 */
import { ArnFormat, AspectPriority, Aspects, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AlarmBase } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct, type IConstruct } from 'constructs';

/** The CDK context value holding the address that alarm notifications are e-mailed to. */
export const alarmEmailContextKey = 'alarmEmail';

/** The `alarmEmail` context value: absent or empty means no subscription; anything else must look like an address. */
export function alarmEmailOf(scope: IConstruct): string | undefined {
  const value: unknown = scope.node.tryGetContext(alarmEmailContextKey);
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)) {
    throw new Error(`Context value ${alarmEmailContextKey} must be an e-mail address, got ${JSON.stringify(value)}`);
  }
  return value;
}

export interface AlarmNotificationsProps {
  /** Subscribes this address to the topic (AWS e-mails it a confirmation link first). */
  readonly email?: string;
}

export class AlarmNotifications extends Construct {
  readonly topic: Topic;
  readonly key: Key;

  constructor(scope: Construct, id: string, props: AlarmNotificationsProps = {}) {
    super(scope, id);
    const stack = Stack.of(this);

    this.key = new Key(this, 'Key', {
      description: 'Encrypts the alarm notification topic',
      enableKeyRotation: true,
      // It protects only messages in flight: nothing is left to open once the stack is gone.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.topic = new Topic(this, 'Topic', {
      displayName: 'Rules service alarms',
      masterKey: this.key,
      enforceSSL: true,
    });

    const cloudWatch = new ServicePrincipal('cloudwatch.amazonaws.com');
    // Only on behalf of this account's alarms, so that no one else's alarm can publish here or use the key.
    const fromOwnAlarms = {
      StringEquals: { 'aws:SourceAccount': stack.account },
      ArnLike: { 'aws:SourceArn': stack.formatArn({ service: 'cloudwatch', resource: 'alarm', resourceName: '*', arnFormat: ArnFormat.COLON_RESOURCE_NAME }) },
    };
    this.key.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowCloudWatchAlarmsToPublish',
        principals: [cloudWatch],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: fromOwnAlarms,
      }),
    );
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowCloudWatchAlarmsToPublish',
        principals: [cloudWatch],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: fromOwnAlarms,
      }),
    );

    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
  }

  /**
   * Makes every alarm under `scope` notify the topic when it goes into ALARM
   * and when it returns to OK, alarms added after this call included: an
   * aspect adds the actions just before synthesis.
   */
  notifyEveryAlarmOf(scope: IConstruct): void {
    const action = new SnsAction(this.topic);
    Aspects.of(scope).add(
      {
        visit: (node) => {
          if (!(node instanceof AlarmBase)) return;
          node.addAlarmAction(action);
          node.addOkAction(action);
        },
      },
      { priority: AspectPriority.MUTATING },
    );
  }
}
