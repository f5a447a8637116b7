/**
 * Serves the console at /console/ beside the local API, with the headers the
 * CloudFront distribution sends, and signs a browser in to the demo workspace
 * by a one-time code: the start banner prints a link holding a code, never the
 * key, and the page trades the code for the key once (POST /console/session),
 * which answers a refusal with a code and message as the API does.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildConsole, type ConsoleFile } from '../console/build.ts';
import { consolePath, consoleSecurityHeadersFor } from '../console/headers.ts';

export interface ConsoleHost {
  /** Answers a request under /console, or returns false when the path is not the console's. */
  handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean>;
  /** A link that signs one browser in with the key, once, within 15 minutes. */
  signInLink(baseUrl: string): string;
}

const codeLifetimeMs = 15 * 60_000;
const maxSessionBodyBytes = 1024;

/** The console is built on its first request (about 0.2 s), so a runtime that never serves it, as in most tests, never builds it. */
export function createConsoleHost(options: {
  apiKey: string;
  /** The origins of the issuer people sign in with, which the page's policy lets it reach: known once the local OpenID provider listens. */
  signInOrigins?: () => readonly string[];
}): ConsoleHost {
  const securityHeaders = () => consoleSecurityHeadersFor(options.signInOrigins?.() ?? []);
  let built: Promise<Map<string, ConsoleFile>> | undefined;
  const codes = new Map<string, number>();

  const send = (response: ServerResponse, status: number, headers: Record<string, string>, body: Buffer | string) => {
    response.writeHead(status, { ...securityHeaders(), ...headers, 'content-length': Buffer.byteLength(body) });
    response.end(body);
  };
  const sendJson = (response: ServerResponse, status: number, body: unknown) =>
    send(response, status, { 'content-type': 'application/json', 'cache-control': 'no-store' }, JSON.stringify(body));
  const sendFile = (response: ServerResponse, file: ConsoleFile, head: boolean) => {
    response.writeHead(200, { ...securityHeaders(), 'content-type': file.contentType, 'content-length': file.body.length, 'cache-control': 'no-cache' });
    response.end(head ? undefined : file.body);
  };

  async function redeem(request: IncomingMessage, response: ServerResponse) {
    let body = '';
    for await (const chunk of request as AsyncIterable<Buffer>) {
      body += chunk.toString('utf8');
      if (body.length > maxSessionBodyBytes) return sendJson(response, 413, { code: 'request_too_large', message: 'The sign-in request is too large.' });
    }
    let code: unknown;
    try {
      code = (JSON.parse(body) as { code?: unknown }).code;
    } catch {
      return sendJson(response, 400, { code: 'invalid_request', message: 'The sign-in request is not JSON.' });
    }
    const expires = typeof code === 'string' ? codes.get(code) : undefined;
    if (typeof code === 'string') codes.delete(code);
    if (!expires || expires < Date.now())
      return sendJson(response, 403, {
        code: 'sign_in_link_used',
        message: 'This sign-in link has been used or has expired: sign in with the API key the start banner shows.',
      });
    sendJson(response, 200, { apiKey: options.apiKey });
  }

  return {
    async handle(request, response, url) {
      if (url.pathname === '/console') {
        send(response, 301, { location: consolePath }, '');
        return true;
      }
      if (!url.pathname.startsWith(consolePath)) return false;
      const name = url.pathname.slice(consolePath.length) || 'index.html';
      const method = request.method ?? 'GET';
      if (name === 'session') {
        if (method !== 'POST') send(response, 405, { allow: 'POST' }, '');
        else await redeem(request, response);
        return true;
      }
      built ??= buildConsole();
      const file = (await built).get(name);
      if (!file) send(response, 404, { 'content-type': 'text/plain; charset=utf-8' }, 'Not found');
      else if (method !== 'GET' && method !== 'HEAD') send(response, 405, { allow: 'GET, HEAD' }, '');
      else sendFile(response, file, method === 'HEAD');
      return true;
    },
    signInLink(baseUrl) {
      const code = randomBytes(18).toString('base64url');
      codes.set(code, Date.now() + codeLifetimeMs);
      return `${baseUrl}${consolePath}#/sign-in/${code}`;
    },
  };
}
