/**
 * SQS for the local runtime: an endpoint that speaks the SQS JSON protocol for
 * SendMessage and ChangeMessageVisibility, so the functions use the real SQS
 * client, and a queue that hands SQS-shaped batches to the worker as the
 * deployed event source does: up to `maxConcurrency` batches at once, SQS's
 * visibility timeout, redelivery (ApproximateReceiveCount), dead letters after
 * `maxReceiveCount`, and a fair queue's order across message groups.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

interface Message {
  messageId: string;
  body: string;
  /** The tenant a fair queue balances; a message without one is a tenant of its own. */
  groupId: string;
  receiveCount: number;
  sentAt: number;
}

export interface LocalQueueOptions {
  /** What the worker function is: called with each batch. */
  worker: (event: SQSEvent) => Promise<SQSBatchResponse | void>;
  visibilityTimeoutMs: number;
  maxReceiveCount: number;
  batchSize: number;
  /** Batches with the worker at once (the event source's maximum concurrency). */
  maxConcurrency: number;
}

/** How far back a group's processing time counts towards its share (SQS looks at "recent" time). */
const processingWindowMs = 60_000;

export function createLocalQueue(options: LocalQueueOptions) {
  const ready: Message[] = [];
  const deadLetters: Message[] = [];
  const timers = new Set<NodeJS.Timeout>();
  /** Visibility set by ChangeMessageVisibility for a receipt, used instead of the queue's timeout. */
  const visibility = new Map<string, number>();
  const inFlight = new Map<string, number>();
  const processed: { groupId: string; endedAt: number; ms: number }[] = [];
  let running = 0;
  /** Once closed, runs under way finish, and nothing is delivered or returned for later again. */
  let closed = false;
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
      MessageGroupId: message.groupId,
    },
    messageAttributes: {},
    md5OfBody: createHash('md5').update(message.body).digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:tasks',
    awsRegion: 'local',
  });

  /** A message the worker did not finish becomes visible again after the timeout, or goes to the dead letters. */
  const returnLater = (message: Message) => {
    if (closed) return;
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

  /**
   * The fair queue's choice: the oldest message of the group with the fewest
   * messages in flight, then the least recent processing time, so that a
   * group whose messages are many, or slow, waits behind the quiet ones.
   */
  const takeNext = (): Message | undefined => {
    const since = Date.now() - processingWindowMs;
    while (processed.length > 0 && processed[0]!.endedAt < since) processed.shift();
    const recentMs = (groupId: string) => processed.reduce((sum, p) => (p.groupId === groupId ? sum + p.ms : sum), 0);
    let best: { index: number; load: [number, number] } | undefined;
    const seen = new Set<string>();
    ready.forEach((message, index) => {
      if (seen.has(message.groupId)) return;
      seen.add(message.groupId);
      const load: [number, number] = [inFlight.get(message.groupId) ?? 0, recentMs(message.groupId)];
      if (!best || load[0] < best.load[0] || (load[0] === best.load[0] && load[1] < best.load[1])) best = { index, load };
    });
    return best && ready.splice(best.index, 1)[0];
  };

  const hold = (groupId: string, change: 1 | -1) => {
    const count = (inFlight.get(groupId) ?? 0) + change;
    if (count > 0) inFlight.set(groupId, count);
    else inFlight.delete(groupId);
  };

  const run = async (batch: Message[]) => {
    const started = Date.now();
    let failed: Set<string>;
    try {
      const response = await options.worker({ Records: batch.map(record) });
      failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch {
      failed = new Set(batch.map((m) => m.messageId));
    }
    const ms = Date.now() - started;
    for (const message of batch) {
      hold(message.groupId, -1);
      processed.push({ groupId: message.groupId, endedAt: Date.now(), ms });
      if (failed.has(message.messageId)) returnLater(message);
    }
  };

  const deliver = () => {
    while (!closed && running < options.maxConcurrency && ready.length > 0) {
      const batch: Message[] = [];
      while (batch.length < options.batchSize) {
        const next = takeNext();
        if (!next) break;
        next.receiveCount++;
        hold(next.groupId, 1);
        batch.push(next);
      }
      running++;
      void run(batch).finally(() => {
        running--;
        deliver();
      });
    }
  };

  return {
    send(body: string, groupId?: string) {
      const messageId = randomUUID();
      ready.push({ messageId, body, groupId: groupId ?? messageId, receiveCount: 0, sentAt: Date.now() });
      setImmediate(deliver);
      return messageId;
    },
    changeVisibility(receiptHandle: string, timeoutMs: number) {
      visibility.set(receiptHandle, timeoutMs);
    },
    deadLetters,
    /** Resolves once nothing is being delivered or waiting to be (tests); once closed, once the runs under way have ended. */
    async idle() {
      while (running > 0 || (!closed && (ready.length > 0 || timers.size > 0))) await new Promise((resolve) => setTimeout(resolve, 20));
    },
    close() {
      closed = true;
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
    const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      MessageBody: string;
      MessageGroupId?: string;
      ReceiptHandle: string;
      VisibilityTimeout: number;
    };
    if (target === 'AmazonSQS.SendMessage') {
      const messageId = queue.send(input.MessageBody, input.MessageGroupId);
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
