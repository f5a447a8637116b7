/**
 * The page's side of the token worker (./token-worker.ts): one worker for
 * the page's life, asked by message. The page keeps, across the redirect to
 * the issuer and back, only what the sign-in's return needs (the PKCE
 * verifier, state and nonce, and the workspace asked for), in sessionStorage,
 * removed as soon as the code is traded.
 */
import type { PendingSignIn, ReceivedResponse, SignedInPerson, SignInAnswer, SignInConfig, SignInRequest } from './token-messages.ts';

type Question = SignInRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

let worker: Worker | undefined;
let next = 0;
const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

function ask<T>(question: Question): Promise<T> {
  if (!worker) {
    worker = new Worker('token-worker.js', { type: 'module', name: 'tokens' });
    worker.onmessage = ({ data }: MessageEvent<SignInAnswer>) => {
      const pending = waiting.get(data.id);
      waiting.delete(data.id);
      if (data.error !== undefined) pending?.reject(new Error(data.error));
      else pending?.resolve(data.result);
    };
  }
  const id = ++next;
  return new Promise<T>((resolve, reject) => {
    waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
    worker!.postMessage({ ...question, id });
  });
}

const pendingKey = 'rules-console.pending-sign-in';

/** Tells the worker who people sign in with; answers whether it holds a person's tokens (false after a reload). */
export const configure = (config: SignInConfig) => ask<{ signedIn: boolean }>({ type: 'configure', config });

/** Starts a sign-in for `workspace`: answers the issuer's URL to go to, having kept what the return needs. */
export async function startSignIn(workspace: string): Promise<string> {
  const { url, pending } = await ask<{ url: string; pending: PendingSignIn }>({ type: 'start' });
  sessionStorage.setItem(pendingKey, JSON.stringify({ pending, workspace }));
  return url;
}

/** Whether the page was loaded by the issuer's return (a code or an error in the query, with a sign-in started in this tab). */
export const isSignInReturn = () => sessionStorage.getItem(pendingKey) !== null && /[?&](code|error)=/.test(location.search);

/** Finishes the sign-in the issuer returned from: who signed in, and in which workspace. */
export async function finishSignIn(): Promise<{ person: SignedInPerson; workspace: string }> {
  const saved = JSON.parse(sessionStorage.getItem(pendingKey) ?? 'null') as { pending: PendingSignIn; workspace: string } | null;
  sessionStorage.removeItem(pendingKey);
  const callbackUrl = location.href;
  // The code leaves the address bar (and the history) before anything else runs.
  history.replaceState(null, '', `${location.pathname}#/`);
  if (!saved) throw new Error('this sign-in was not started in this tab: sign in again');
  const person = await ask<SignedInPerson>({ type: 'finish', callbackUrl, pending: saved.pending, workspace: saved.workspace });
  return { person, workspace: saved.workspace };
}

/** The API call `request`, made by the worker as the signed-in person. */
export async function callAsPerson(request: Request): Promise<Response> {
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
  const answer = await ask<ReceivedResponse>({
    type: 'call',
    request: { url: request.url, method: request.method, headers: [...request.headers], ...(body !== undefined && { body }) },
  });
  return new Response(answer.status === 204 || answer.status === 304 ? null : answer.body, {
    status: answer.status,
    statusText: answer.statusText,
    headers: answer.headers,
  });
}

/** Forgets the person's tokens (revoking the refresh token): answers the issuer's sign-out URL, if it has one. */
export const signOutPerson = (postSignOutUrl: string) => ask<{ url?: string }>({ type: 'signOut', postSignOutUrl });
