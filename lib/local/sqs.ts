/**
 * SQS for the local runtime: an endpoint that speaks the SQS JSON protocol for
 * SendMessage and ChangeMessageVisibility, so the functions use the real SQS client, and a queue that hands
 * SQS-shaped batches to the worker with SQS's visibility timeout, redelivery
 * (ApproximateReceiveCount) and dead-letter behaviour after `maxReceiveCount`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

interface Message {
  messageId: string;
  body: string;
  receiveCount: number;
  sentAt: number;
}

export interface LocalQueueOptions {
  /** What the worker function is: called with each batch. */
  worker: (event: SQSEvent) => Promise<SQSBatchResponse | void>;
  visibilityTimeoutMs: number;
  maxReceiveCount: number;
  batchSize?: number;
}

export function createLocalQueue(options: LocalQueueOptions) {
  const ready: Message[] = [];
  const deadLetters: Message[] = [];
  let running: Promise<void> | undefined;
  const timers = new Set<NodeJS.Timeout>();
  /** Visibility set by ChangeMessageVisibility for a receipt, used instead of the queue's timeout. */
  const visibility = new Map<string, number>();
  const receiptOf = (message: Message) => `${message.messageId}:${message.receiveCount}`;

  const record = (message: Message): SQSRecord => ({
    messageId: message.messageId,
    receiptHandle: receiptOf(message),
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: String(message.sentAt),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: createHash('md5').update(message.body).digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:tasks',
    awsRegion: 'local',
  });

  /** A message the worker did not finish becomes visible again after the timeout, or goes to the dead letters. */
  const returnLater = (message: Message) => {
    if (message.receiveCount >= options.maxReceiveCount) {
      deadLetters.push(message);
      return;
    }
    const delayMs = visibility.get(receiptOf(message)) ?? options.visibilityTimeoutMs;
    visibility.delete(receiptOf(message));
    const timer = setTimeout(() => {
      timers.delete(timer);
      ready.push(message);
      deliver();
    }, delayMs);
    timers.add(timer);
  };

  const drain = async () => {
    while (ready.length > 0) {
      const batch = ready.splice(0, options.batchSize ?? 10);
      for (const message of batch) message.receiveCount++;
      let failed: Set<string>;
      try {
        const response = await options.worker({ Records: batch.map(record) });
        failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      } catch {
        failed = new Set(batch.map((m) => m.messageId));
      }
      for (const message of batch) if (failed.has(message.messageId)) returnLater(message);
    }
  };

  const deliver = () => {
    running ??= drain().finally(() => {
      running = undefined;
      if (ready.length > 0) deliver();
    });
  };

  return {
    send(body: string) {
      const message = { messageId: randomUUID(), body, receiveCount: 0, sentAt: Date.now() };
      ready.push(message);
      setImmediate(deliver);
      return message.messageId;
    },
    changeVisibility(receiptHandle: string, timeoutMs: number) {
      visibility.set(receiptHandle, timeoutMs);
    },
    deadLetters,
    /** Resolves once nothing is being delivered or waiting to be (tests). */
    async idle() {
      while (running || ready.length > 0 || timers.size > 0) await (running ?? new Promise((resolve) => setTimeout(resolve, 20)));
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

export type LocalQueue = ReturnType<typeof createLocalQueue>;

/** The SQS endpoint the functions' SQS client talks to; it understands SendMessage and ChangeMessageVisibility. */
export async function startLocalSqs(queue: LocalQueue, options: { port?: number } = {}) {
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const target = String(request.headers['x-amz-target'] ?? '');
    const reply = (status: number, body: object) => {
      response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
      response.end(JSON.stringify(body));
    };
    const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { MessageBody: string; ReceiptHandle: string; VisibilityTimeout: number };
    if (target === 'AmazonSQS.SendMessage') {
      const messageId = queue.send(input.MessageBody);
      return reply(200, { MessageId: messageId, MD5OfMessageBody: createHash('md5').update(input.MessageBody).digest('hex') });
    }
    if (target === 'AmazonSQS.ChangeMessageVisibility') {
      queue.changeVisibility(input.ReceiptHandle, input.VisibilityTimeout * 1000);
      return reply(200, {});
    }
    reply(400, { __type: 'com.amazonaws.sqs#UnsupportedOperation', message: `${target} is not supported locally` });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    queueUrl: `http://127.0.0.1:${port}/000000000000/tasks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
