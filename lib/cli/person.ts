/**
 * The CLI as a person: `rules sign-in` (./sign-in.ts) keeps a session
 * (./session.ts), and `rules whoami` and `rules call` call the API with the
 * person's ID token, refreshing it with the refresh token when it is about to
 * expire or the API answers 401 token_expired (once a call); `rules sign-out`
 * revokes the refresh token at the issuer and deletes the session. Tokens go
 * to the API and the issuer only: nothing here prints them.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseJson } from '../decimal/json.ts';
import { deleteSession, readSession, sessionFile, writeSession, type PersonSession } from './session.ts';
import { checkedUrl, refresh, requestTimeoutMs, revoke, signIn, type SignInConfig, type Tokens } from './sign-in.ts';
import { openBrowser } from './browser.ts';

export const personCommands = ['sign-in', 'whoami', 'call', 'sign-out'] as const;

export const personUsage = `  sign-in --api URL --workspace WORKSPACE [--login-hint USERNAME]
                                                  signs you in with your company's identity: opens the issuer's page
                                                  in your browser ($BROWSER, else xdg-open or open; the address is
                                                  printed too) and waits for it to come back to 127.0.0.1; keeps the
                                                  session in $RULES_SESSION_FILE or ~/.config/rules/session.json
  whoami                                          who the API says you are, and your roles in the workspace
  call METHOD PATH [--body JSON|@FILE] [--branch BRANCH]
                                                  calls the API as you (PATH as /dev/v1/rule) and prints its answer;
                                                  exits 1 when it is not a 2xx
  sign-out                                        revokes your refresh token at the issuer and forgets the session`;

/** An answer of the API that is not a 2xx: `rules call` prints its body, then exits 1. */
export class CallRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    const envelope = tryEnvelope(body);
    super(`the API answered ${status}${envelope?.code ? ` ${envelope.code}: ${envelope.message}` : ''}`);
  }
}

function tryEnvelope(body: string): { code?: string; message?: string; data?: unknown } | undefined {
  try {
    return parseJson(body) as { code?: string; message?: string };
  } catch {
    return undefined;
  }
}

export interface PersonIo {
  env: NodeJS.ProcessEnv;
  /** Where progress and notes go (standard error): the answer alone goes to standard output. */
  say: (line: string) => void;
  /** The folder relative paths (`--body @file`) start from. */
  from: string;
  /** How long sign-in waits for the browser: 5 minutes. */
  signInTimeoutMs?: number;
  /** Opens the sign-in page: the browser of ./browser.ts. */
  open?: (url: string) => void;
}

export interface PersonOptions {
  api?: string;
  workspace?: string;
  'login-hint'?: string;
  body?: string;
  branch?: string;
}

export const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Runs a person's command; returns what it prints on standard output. */
export async function runPersonCommand(
  command: (typeof personCommands)[number],
  args: string[],
  options: PersonOptions,
  io: PersonIo,
  usage: (problem: string) => Error,
): Promise<string> {
  const file = sessionFile(io.env);
  switch (command) {
    case 'sign-in': {
      if (!options.api || !options.workspace) throw usage('sign-in needs --api URL and --workspace WORKSPACE');
      const session = await signInPerson(options.api, options.workspace, options['login-hint'], io);
      await writeSession(file, session);
      return `Signed in; session kept in ${file} (readable by you only)\n${whoLine(await signedInAs(file))}`;
    }
    case 'whoami':
      return whoLine(await me(file));
    case 'call': {
      const [method = '', path = ''] = args;
      if (!(methods as readonly string[]).includes(method.toUpperCase()) || !path.startsWith('/'))
        throw usage(`call needs METHOD (${methods.join(', ')}) and a PATH starting with /`);
      const body = options.body?.startsWith('@') ? await readFile(resolve(io.from, options.body.slice(1)), 'utf8') : options.body;
      const answer = await callAsPerson(file, { method: method.toUpperCase(), path, body, branch: options.branch });
      if (answer.status < 200 || answer.status > 299) throw new CallRefused(answer.status, answer.body);
      return answer.body;
    }
    case 'sign-out':
      return signOut(file);
  }
}

/** Reads who people sign in with from the API, then signs the person in. */
async function signInPerson(api: string, workspace: string, loginHint: string | undefined, io: PersonIo): Promise<PersonSession> {
  const base = checkedUrl(api, '--api').href.replace(/\/+$/, '');
  const response = await fetch(`${base}/dev/v1/sign-in`, { signal: AbortSignal.timeout(requestTimeoutMs) });
  const envelope = tryEnvelope(await response.text());
  if (!response.ok || !envelope) throw new Error(`${base}/dev/v1/sign-in answered ${response.status}: is ${api} the API's URL?`);
  const config = envelope.data as SignInConfig | null;
  if (!config) throw new Error(`the API at ${api} names no issuer: people do not sign in there (use an API key)`);
  const tokens = await signIn({
    config,
    loginHint,
    say: io.say,
    open: io.open ?? ((url) => openBrowser(url, io.env, io.say)),
    timeoutMs: io.signInTimeoutMs ?? 5 * 60_000,
  });
  return { api: base, workspace, issuer: config.issuer, clientId: config.clientId, ...tokenFields(tokens) };
}

const tokenFields = (tokens: Tokens) => ({
  idToken: tokens.idToken,
  ...(tokens.refreshToken && { refreshToken: tokens.refreshToken }),
  issuedAt: new Date(tokens.claims.iat * 1000).toISOString(),
  expiresAt: new Date(tokens.claims.exp * 1000).toISOString(),
});

/**
 * Whether to refresh before a call: once the ID token is in the last tenth of
 * its life, or its last 10 s, whichever is shorter, so that a call does not
 * arrive with a token that expired on its way (the API allows no leeway).
 */
export function refreshDue(session: PersonSession, now = Date.now()): boolean {
  const [issued, expires] = [Date.parse(session.issuedAt), Date.parse(session.expiresAt)];
  return now >= expires - Math.min(10_000, (expires - issued) / 10);
}

/** New tokens for the session, kept in its file; the issuer's refusal said as what to do. */
async function refreshSession(file: string, session: PersonSession): Promise<PersonSession> {
  if (!session.refreshToken) throw new Error('your ID token has expired and the issuer gave no refresh token: sign in again with rules sign-in');
  let tokens: Tokens;
  try {
    tokens = await refresh(session.issuer, session.clientId, session.refreshToken);
  } catch (error) {
    const reason = (error as { error?: string }).error ?? (error as Error).message;
    throw new Error(`your session has ended (the issuer refused to refresh it: ${reason}): sign in again with rules sign-in`);
  }
  // The issuer may rotate the refresh token: keep the new one, or the one we had.
  const refreshed = { ...session, ...tokenFields(tokens), refreshToken: tokens.refreshToken ?? session.refreshToken };
  await writeSession(file, refreshed);
  return refreshed;
}

interface Request {
  method: string;
  path: string;
  body?: string;
  branch?: string;
}

/** Calls the API as the session's person; refreshes at most once. */
export async function callAsPerson(file: string, request: Request): Promise<{ status: number; body: string }> {
  let session = await readSession(file);
  let refreshed = false;
  if (refreshDue(session)) {
    session = await refreshSession(file, session);
    refreshed = true;
  }
  let answer = await send(session, request);
  if (answer.status === 401 && !refreshed && tryEnvelope(answer.body)?.code === 'token_expired') {
    session = await refreshSession(file, session);
    answer = await send(session, request);
  }
  return answer;
}

async function send(session: PersonSession, request: Request) {
  const response = await fetch(`${session.api}${request.path}`, {
    method: request.method,
    headers: {
      authorization: `Bearer ${session.idToken}`,
      'service-workspace': session.workspace,
      ...(request.branch && { 'service-branch': request.branch }),
      ...(request.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(request.body !== undefined && { body: request.body }),
    signal: AbortSignal.timeout(requestTimeoutMs),
  }).catch((error: Error) => {
    throw new Error(`nothing answered at ${session.api} (${(error.cause as Error | undefined)?.message ?? error.message})`);
  });
  return { status: response.status, body: await response.text() };
}

interface Me {
  owner: string;
  role: string;
  workspace: { id: string };
  person?: { issuer: string; subject: string; email: string };
  grants?: { role: string; branches: string[] | null }[];
}

/** Who the new session is, as the API sees it: a refusal there says the sign-in worked, but the workspace gives no role. */
async function signedInAs(file: string): Promise<Me> {
  try {
    return await me(file);
  } catch (error) {
    if (!(error instanceof CallRefused)) throw error;
    throw new Error(`signed in (the session is in ${file}), but ${error.message}`);
  }
}

/** GET /dev/v1/me as the person. */
async function me(file: string): Promise<Me> {
  const answer = await callAsPerson(file, { method: 'GET', path: '/dev/v1/me' });
  if (answer.status !== 200) throw new CallRefused(answer.status, answer.body);
  return (tryEnvelope(answer.body)?.data ?? {}) as Me;
}

const whoLine = ({ owner, person, workspace, grants = [] }: Me) =>
  [
    `${owner}${person ? `, as ${person.issuer} says (subject ${person.subject})` : ''}`,
    `in workspace ${workspace.id}: ${grants.map((g) => `${g.role} on ${g.branches ? `branches ${g.branches.join(', ')}` : 'every branch'}`).join('; ') || 'no role'}`,
  ].join('\n');

/** Revokes the refresh token where the issuer can, then forgets the session; a failed revocation keeps it, to try again. */
async function signOut(file: string): Promise<string> {
  let session: PersonSession;
  try {
    session = await readSession(file);
  } catch {
    await deleteSession(file);
    return `Not signed in (no session in ${file})`;
  }
  let revoked = false;
  if (session.refreshToken) {
    try {
      revoked = await revoke(session.issuer, session.clientId, session.refreshToken);
    } catch (error) {
      throw new Error(
        `could not revoke the refresh token at ${session.issuer} (${(error as Error).message}); the session is kept: sign out again, or delete ${file}`,
      );
    }
  }
  await deleteSession(file);
  const token = !session.refreshToken
    ? 'there was no refresh token'
    : revoked
      ? 'the refresh token is revoked at the issuer'
      : 'the issuer revokes no tokens (it has no revocation endpoint): the refresh token lasts until it expires';
  return `Signed out: ${token}, and the session in ${file} is deleted`;
}
