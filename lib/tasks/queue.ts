/**
 * Where tasks wait for the worker: SQS, also in the local runtime (through its
 * SQS endpoint). Each message's group is its workspace, which makes the
 * standard queue a fair queue: a workspace with a backlog, or whose tasks
 * hold the workers long, is served after the quiet ones.
 */
import { ChangeMessageVisibilityCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';

export interface TaskMessage {
  taskId: string;
  /** The message group: the tenant the fair queue balances. */
  workspaceId: string;
  /** For a task split into shards (`Task.shards`), each a message: which one this is. Absent on a task's first message. */
  shard?: number;
}

export interface TaskQueue {
  send(message: TaskMessage): Promise<void>;
  /** Keeps a received message hidden for `seconds` more: how a retry backs off. */
  delay(receiptHandle: string, seconds: number): Promise<void>;
}

let fromEnv: TaskQueue | undefined;

/** TASK_QUEUE_URL names the queue; SQS_ENDPOINT points the client at the local runtime's SQS. */
export function queueFromEnv(env: NodeJS.ProcessEnv = process.env): TaskQueue {
  if (!fromEnv) {
    const queueUrl = env.TASK_QUEUE_URL;
    if (!queueUrl) throw new Error('TASK_QUEUE_URL is not set');
    const client = new SQSClient(
      env.SQS_ENDPOINT
        ? { endpoint: env.SQS_ENDPOINT, region: env.AWS_REGION ?? 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {},
    );
    fromEnv = {
      send: async (message) =>
        void (await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message), MessageGroupId: message.workspaceId }))),
      delay: async (receiptHandle, seconds) =>
        void (await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: seconds }))),
    };
  }
  return fromEnv;
}
