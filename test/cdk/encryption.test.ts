/**
 * Encryption at rest and in transit, over every resource of each kind that
 * keeps data or carries messages: the table (a KMS key, point-in-time
 * recovery), every queue and topic (encrypted, TLS only), every bucket should
 * one come (encrypted, TLS only, no public access), every key (rotating), and
 * the API (HTTPS only: the execute-api endpoint answers nothing else, a
 * custom domain would need TLS 1.2, an HTTP backend https). A kind the checks
 * do not know yet fails until it has its check. The probes show each check
 * fails on the resource it is for.
 */
import { Stack } from 'aws-cdk-lib';
import { AttributeType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import { RulesServiceStack, stackId } from '../../cdk/stack.ts';
import { encryptionProblems, fastApp, resourcesOf, synthesize, uncheckedStoreTypes } from './template-checks.ts';

const { resources } = synthesize();
const countOf = (type: string) => Object.values(resources).filter((r) => r.Type === type).length;

describe('encryption', () => {
  it('encrypts every store and queue at rest and takes requests over TLS only', () => {
    // What the checks went over: the table, the task queue and two dead-letter queues, the alarm topic, two keys, the console's bucket and its log bucket.
    expect(countOf('AWS::DynamoDB::Table')).toBe(1);
    expect(countOf('AWS::SQS::Queue')).toBe(3);
    expect(countOf('AWS::SNS::Topic')).toBe(1);
    expect(countOf('AWS::KMS::Key')).toBe(2);
    expect(countOf('AWS::S3::Bucket')).toBe(2);
    expect(encryptionProblems(resources)).toEqual([]);
  });

  it('has no kind of store the checks do not know', () => {
    expect(uncheckedStoreTypes(resources)).toEqual([]);
  });

  it('serves the API over a regional execute-api endpoint, HTTPS only, with Lambda and mock integrations only', () => {
    const [api] = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGateway::RestApi');
    expect(api!.Properties.EndpointConfiguration).toEqual({ Types: ['REGIONAL'] });
    const integrations = new Set(
      Object.values(resources)
        .filter((r) => r.Type === 'AWS::ApiGateway::Method')
        .map((r) => r.Properties.Integration.Type),
    );
    expect(integrations).toEqual(new Set(['AWS_PROXY', 'MOCK']));
  });
});

describe('the checks catch', () => {
  const problemsOf = (build: (probe: Stack) => void) => {
    const probe = new Stack(fastApp(), 'Probe');
    build(probe);
    return encryptionProblems(resourcesOf(probe));
  };

  it('a table with the default encryption, or without point-in-time recovery', () => {
    expect(problemsOf((probe) => new Table(probe, 'Bare', { partitionKey: { name: 'PK', type: AttributeType.STRING } }))).toEqual([
      expect.stringMatching(/Bare\w+ is not encrypted with a KMS key/),
      expect.stringMatching(/Bare\w+ has no point-in-time recovery/),
    ]);
    const good = (probe: Stack) =>
      new Table(probe, 'Good', {
        partitionKey: { name: 'PK', type: AttributeType.STRING },
        encryption: TableEncryption.AWS_MANAGED,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      });
    expect(problemsOf(good)).toEqual([]);
  });

  it('a queue without encryption, or over plain HTTP', () => {
    expect(problemsOf((probe) => new Queue(probe, 'Plain', { encryption: QueueEncryption.UNENCRYPTED }))).toEqual([
      expect.stringMatching(/Plain\w+ is not encrypted/),
      expect.stringMatching(/Plain\w+ takes requests over plain HTTP/),
    ]);
    expect(problemsOf((probe) => new Queue(probe, 'Good', { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true }))).toEqual([]);
  });

  it('a topic without a key, or over plain HTTP', () => {
    expect(problemsOf((probe) => new Topic(probe, 'Plain'))).toEqual([
      expect.stringMatching(/Plain\w+ is not encrypted/),
      expect.stringMatching(/Plain\w+ takes publishes over plain HTTP/),
    ]);
  });

  it('a bucket without encryption, public access blocked or TLS', () => {
    expect(problemsOf((probe) => new Bucket(probe, 'Bare', { blockPublicAccess: new BlockPublicAccess({ blockPublicPolicy: false }) }))).toEqual([
      expect.stringMatching(/Bare\w+ has no default encryption/),
      expect.stringMatching(/Bare\w+ does not block public access/),
      expect.stringMatching(/Bare\w+ takes requests over plain HTTP/),
    ]);
    const good = (probe: Stack) =>
      new Bucket(probe, 'Good', { encryption: BucketEncryption.S3_MANAGED, blockPublicAccess: BlockPublicAccess.BLOCK_ALL, enforceSSL: true });
    expect(problemsOf(good)).toEqual([]);
  });

  it('a queue added to the stack later, and a kind of store with no check', () => {
    const stack = new RulesServiceStack(fastApp(), stackId);
    new Queue(stack, 'Later', { encryption: QueueEncryption.UNENCRYPTED, enforceSSL: true });
    const later = resourcesOf(stack);
    expect(encryptionProblems(later)).toEqual([expect.stringMatching(/^AWS::SQS::Queue Later\w+ is not encrypted/)]);
    expect(uncheckedStoreTypes({ ...later, Stream: { Type: 'AWS::Kinesis::Stream', Properties: {} } })).toEqual(['AWS::Kinesis::Stream']);
  });
});
