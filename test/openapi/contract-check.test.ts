/**
 * The check every integration test's answers go through (test/helpers/api.ts):
 * an answer the contract does not describe fails the request, naming why.
 * A stand-in server gives the answers, as the real one never should.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from '../helpers/api.ts';

const envelope = (code: string, data: unknown, message = code ? 'It failed.' : '') => ({
  code,
  data,
  message,
  pageNo: 0,
  pageSize: 0,
  totalCount: 0,
  totalPages: 0,
});

/** What the stand-in answers, by path: status, content type, body. */
const answers: Record<string, [number, string, unknown]> = {
  '/dev/v1/credentials/cred_1': [404, 'application/json', envelope('credential_not_found', {})],
  '/dev/v1/credentials/cred_2': [418, 'application/json', envelope('teapot', {})],
  '/dev/v1/credentials/cred_3': [404, 'application/json', envelope('entity_not_found', {})],
  '/dev/v1/credentials/cred_4': [404, 'text/plain', envelope('credential_not_found', {})],
  '/dev/v1/credentials/cred_5': [200, 'application/json', envelope('', { id: 'cred_5' })],
  '/dev/v1/credentials/cred_6': [401, 'application/json', envelope('service_api_key_empty', {})],
  '/nowhere': [404, 'application/json', envelope('route_not_found', {})],
  '/elsewhere': [404, 'application/json', envelope('entity_not_found', {})],
};

let server: Server;
let call: Api;
beforeAll(async () => {
  server = createServer((request, response) => {
    const [status, contentType, body] = answers[new URL(request.url!, 'http://x').pathname]!;
    response.writeHead(status, { 'content-type': contentType }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  call = api({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: 'k' });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the contract check of test/helpers/api.ts', () => {
  it('lets a documented answer through', async () => {
    expect((await call('/dev/v1/credentials/cred_1')).status).toBe(404);
    expect((await call('/nowhere')).body.code).toBe('route_not_found');
  });

  it.each([
    ['an undocumented status', '/dev/v1/credentials/cred_2', /status 418 is not documented for getCredential/],
    ["a code the operation's status does not list", '/dev/v1/credentials/cred_3', /404 schema of getCredential: .*allowed values/],
    ['another content type', '/dev/v1/credentials/cred_4', /content type text\/plain is not documented for 404 of getCredential/],
    ['a body unlike the schema', '/dev/v1/credentials/cred_5', /200 schema of getCredential: body\/data must have required property 'name'/],
    ['data that should be null', '/dev/v1/credentials/cred_6', /401 schema of getCredential: body\/data must be null/],
    ['an unknown path answered unlike the gateway', '/elsewhere', /404 schema of the gateway/],
  ])('fails the request on %s', async (_, path, why) => {
    await expect(call(path)).rejects.toThrow(why);
  });
});
