/**
 * Sign in as a person, at the issuer the service names (GET
 * /dev/v1/sign-in), into a workspace: the page goes to the issuer's sign-in
 * and comes back with a code, which the token worker trades for the
 * person's tokens (../people/). Or sign in with a Service-API-Key. Either is
 * checked with the call any caller may make, whatever its role (GET
 * /dev/v1/me), whose answer the console keeps: what the person or key may
 * do, and where it starts (the workspace's default branch). A key is kept
 * for this tab's session only. A local runtime's start banner links here
 * with a one-time code instead of the key, which the page exchanges once and
 * removes from the address bar.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, type Api } from '../api.ts';
import type { Caller } from '../permissions.ts';
import { saveSession, type Session } from '../session.ts';
import { Failure } from '../ui/failure.tsx';
import { finishSignIn, isSignInReturn, startSignIn } from '../people/token-client.ts';
import { configureTokens, type SignInSettings } from '../people/sign-in-settings.ts';

interface Props {
  api: Api;
  code: string | undefined;
  reason: string | undefined;
  /** Who people sign in with; null when the service signs in no people (keys only); undefined while it is read. */
  people: SignInSettings | null | undefined;
  onSignedIn(session: Session, caller: Caller): void;
}

/** The workspace a person last signed in to in this browser: not a secret, so kept across sessions to spare typing it. */
const lastWorkspaceKey = 'rules-console.last-workspace';

/** A caller's first branch: the workspace's default, or for one limited to branches, the first it may use. */
const startingBranch = (caller: Caller) => {
  const { defaultBranch } = caller.workspace;
  return !caller.branches || caller.branches.includes(defaultBranch) ? defaultBranch : caller.branches[0]!;
};

/**
 * The local runtime's sign-in link: a one-time code for the demo key
 * (lib/local/console-host.ts); deployed, this path does not exist. A refusal
 * is shown as the server answered it (its status and code); only a request
 * that got no answer says so.
 */
async function redeem(code: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch('session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
  } catch (cause) {
    throw new ApiFailure(
      0,
      'network_error',
      `The sign-in link could not be checked (${cause instanceof Error ? cause.message : String(cause)}): sign in with the API key.`,
      {},
    );
  }
  const body = (await response.json().catch(() => ({}))) as { apiKey?: string; code?: string; message?: string };
  if (response.ok && body.apiKey) return body.apiKey;
  throw new ApiFailure(
    response.status,
    body.code ?? 'sign_in_link_refused',
    body.message ?? 'This sign-in link has been used or has expired: sign in with the API key.',
    {},
  );
}

export function SignIn({ api, code, reason, people, onSignedIn }: Props) {
  const [apiKey, setApiKey] = useState('');
  const [workspace, setWorkspace] = useState(() => localStorage.getItem(lastWorkspaceKey) ?? '');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const signIn = async (key: string) => {
    setBusy(true);
    setError(undefined);
    try {
      const caller = await api.data(api.client.GET('/dev/v1/me', { headers: { 'Service-API-Key': key } }));
      onSignedIn({ apiKey: key, branch: startingBranch(caller) }, caller);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  /** Off to the issuer's sign-in page; the page comes back to the effect below. */
  const signInAsPerson = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await configureTokens(people!);
      localStorage.setItem(lastWorkspaceKey, workspace.trim());
      location.assign(await startSignIn(workspace.trim()));
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  useEffect(() => {
    if (!code) return;
    history.replaceState(null, '', '#/sign-in');
    redeem(code).then(signIn, setError);
  }, [code]);

  // Back from the issuer: the worker trades the code, then the person is asked what they may do in the workspace they named.
  useEffect(() => {
    if (!people || !isSignInReturn()) return;
    setBusy(true);
    (async () => {
      await configureTokens(people);
      const { person, workspace: signedInTo } = await finishSignIn();
      const session = { person: { workspace: signedInTo, name: person.name ?? person.email ?? person.subject }, branch: '' };
      saveSession(session);
      try {
        const caller = await api.data(api.client.GET('/dev/v1/me'));
        onSignedIn({ ...session, branch: startingBranch(caller) }, caller);
      } catch (failure) {
        saveSession(undefined);
        throw failure;
      }
    })().catch((failure: unknown) => {
      setError(failure);
      setBusy(false);
    });
  }, [people]);

  return (
    <main class="sign-in" id="main">
      <h1>Rules console</h1>
      {people && (
        <form
          aria-label="Sign in with your company account"
          onSubmit={(event) => {
            event.preventDefault();
            void signInAsPerson();
          }}
        >
          <label for="workspace">Workspace</label>
          <input id="workspace" autoComplete="organization" required value={workspace} onInput={(e) => setWorkspace(e.currentTarget.value)} />
          <p class="hint">You sign in at your company's sign-in page; what you may do here comes from your groups there.</p>
          <button type="submit" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in with your company account'}
          </button>
        </form>
      )}
      {people && <h2 class="or">Or, with an API key</h2>}
      <form
        aria-label="Sign in with an API key"
        onSubmit={(event) => {
          event.preventDefault();
          void signIn(apiKey.trim());
        }}
      >
        <label for="api-key">Service API key</label>
        <input id="api-key" type="password" autoComplete="off" required value={apiKey} onInput={(e) => setApiKey(e.currentTarget.value)} />
        <p class="hint">Kept in this tab only, until you sign out or close it. Every call the console makes is an API call with this key.</p>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : people ? 'Sign in with the key' : 'Sign in'}
        </button>
      </form>
      {reason && !error && <p role="status">You were signed out: {reason}</p>}
      <Failure error={error} title="Could not sign in" />
    </main>
  );
}
