/**
 * Real providers on loopback for the outbound client's tests, and a guard
 * that makes any connection to a non-loopback IP fail the test instead of
 * leaving the machine.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';

export interface SeenRequest {
  method: string;
  /** The request target exactly as it came on the request line. */
  target: string;
  /** Header names as sent, with their values, in order. */
  rawHeaders: string[];
  body: string;
}

export interface Provider {
  origin: string;
  port: number;
  requests: SeenRequest[];
  /** TCP connections accepted, whether or not a request followed. */
  connections: number;
  /** Raw header value by case-insensitive name, as the provider saw it on request i. */
  header(i: number, name: string): string | undefined;
  close(): Promise<void>;
}

type Handler = (request: http.IncomingMessage, response: http.ServerResponse, seen: SeenRequest) => void;

const answerOk: Handler = (_request, response) => response.end('ok');

async function listen(server: http.Server, host: string, handler: Handler, scheme: 'http' | 'https'): Promise<Provider> {
  const provider: Provider = {
    origin: '',
    port: 0,
    requests: [],
    connections: 0,
    header(i, name) {
      const raw = provider.requests[i]?.rawHeaders ?? [];
      for (let at = 0; at < raw.length; at += 2) if (raw[at]?.toLowerCase() === name.toLowerCase()) return raw[at + 1];
      return undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', () => provider.connections++);
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const seen: SeenRequest = {
        method: request.method ?? '',
        target: request.url ?? '',
        rawHeaders: request.rawHeaders,
        body: Buffer.concat(chunks).toString(),
      };
      provider.requests.push(seen);
      handler(request, response, seen);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  provider.port = (server.address() as net.AddressInfo).port;
  provider.origin = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${provider.port}`;
  return provider;
}

export function startProvider(handler: Handler = answerOk, host = '127.0.0.1'): Promise<Provider> {
  return listen(http.createServer(), host, handler, 'http');
}

/** An https provider with a self-signed certificate made now by the openssl CLI. */
export function startTlsProvider(handler: Handler = answerOk): Promise<Provider> {
  const dir = mkdtempSync(join(tmpdir(), 'outbound-tls-'));
  try {
    const made = spawnSync(
      '/usr/bin/openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
      { stdio: 'ignore' },
    );
    if (made.status !== 0) throw new Error(`openssl failed (${made.status ?? made.error?.message})`);
    const server = https.createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) });
    return listen(server, '127.0.0.1', handler, 'https');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A port on loopback that nothing listens on (just released by a server that had it). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether this machine can listen on ::1 (some containers have no IPv6 loopback). */
export async function hasIpv6Loopback(): Promise<boolean> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(0, '::1', () => server.close(() => resolve(true)));
  });
}

/**
 * Records every socket connect, and throws on one aimed at an IP literal
 * other than loopback, so a policy bug fails the test rather than reaching
 * 10.0.0.1 or the metadata service. Host names pass: they are resolved by
 * the client's guarded lookup (or a test's injected one).
 */
export function guardConnections(): { hosts: string[]; restore(): void } {
  const hosts: string[] = [];
  const original = net.Socket.prototype.connect;
  const spy = vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
    // net.createConnection passes its normalised [options, callback] array; tls.connect passes options.
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    const host = String((first as { host?: string } | undefined)?.host ?? 'localhost');
    hosts.push(host);
    if (net.isIP(host) && host !== '127.0.0.1' && host !== '::1') throw new Error(`test guard: connection to ${host} attempted`);
    return (original as (...a: unknown[]) => net.Socket).apply(this, args);
  });
  return { hosts, restore: () => spy.mockRestore() };
}
