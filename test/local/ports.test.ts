/** Port settings of the local runtime: a taken port the user set is one line naming the setting; a taken default of a helper gives way to a free port. */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOn, PortInUse, portFromEnv, PortSettingError } from '../../lib/local/ports.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

let holder: Server;
let taken: number;

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
const portOf = (server: Server) => (server.address() as AddressInfo).port;

beforeAll(async () => {
  holder = await listen(0);
  taken = portOf(holder);
});
afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

describe('portFromEnv', () => {
  it('takes the setting as given, never to be replaced, else the default, replaceable when asked', () => {
    expect(portFromEnv('PORT', 3000, true, { PORT: '4000' })).toEqual({ port: 4000, setting: 'PORT', orFree: false });
    expect(portFromEnv('GIT_PORT', 3001, true, {})).toEqual({ port: 3001, setting: 'GIT_PORT', orFree: true });
    expect(portFromEnv('PORT', 3000, false, { PORT: '' })).toEqual({ port: 3000, setting: 'PORT', orFree: false });
  });

  it.each(['http', '-1', '65536', '80.5'])('refuses %s, naming the setting', (value) => {
    expect(() => portFromEnv('DYNAMODB_PORT', 8000, true, { DYNAMODB_PORT: value })).toThrow(PortSettingError);
    expect(() => portFromEnv('DYNAMODB_PORT', 8000, true, { DYNAMODB_PORT: value })).toThrow(/DYNAMODB_PORT must be a port number/);
  });
});

describe('listenOn', () => {
  it('names the setting when a port that may not be replaced is taken', async () => {
    const error = await listenOn({ port: taken, setting: 'PORT', orFree: false }, listen).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PortInUse);
    expect((error as Error).message).toBe(`port ${taken} is in use: stop what holds it, or set PORT to another port (e.g. PORT=${taken + 10} npm start)`);
  });

  it('listens on a free port instead when the taken one may be replaced', async () => {
    const server = await listenOn({ port: taken, setting: 'GIT_PORT', orFree: true }, listen);
    expect(portOf(server)).not.toBe(taken);
    server.close();
  });

  it('passes other failures through', async () => {
    await expect(listenOn({ port: taken, setting: 'PORT', orFree: true }, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});

it('npm start with a taken PORT says so in one line and exits 1, without a stack trace', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'lib/local/main.ts'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, PORT: String(taken), DYNAMODB_PORT: '0', GIT_PORT: '0', POWERTOOLS_LOG_LEVEL: 'SILENT' },
  });
  expect(run.status).toBe(1);
  expect(run.stderr.trim().split('\n')).toEqual([
    `rules: port ${taken} is in use: stop what holds it, or set PORT to another port (e.g. PORT=${taken + 10} npm start)`,
  ]);
}, 60_000);
